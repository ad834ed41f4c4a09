#!/usr/bin/env bash
# Session 2026-11-24b, call 6: the five kernels with every reference and the pipelined variants in one
# run; miniAero's face flux under the new variants.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R/kernels $R/miniaero
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0; ROOT=$PWD
nvidia-smi > $R/smi.txt 2>&1
(cd $R/kernels && timeout 330 $B/umesh_main --size large --numbering natural --repeats 20 --csv results.csv \
  --kernel res_calc,face_flux,getacc,integrate_stress,volna --reorder rcm --executor atomic,scatterview,hierarchical \
  --staging reads,inc,all --combine atomics --writeback atomic --blocks-per-team 1,2,4 --blocks 64,128,256 --layout soa) > $R/kernels.log 2>&1
echo "kernels rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "^[a-z_]+/natural +(atomic|scatterview|hier)" $R/kernels.log | grep -v "block 0:" | sort -k1,1 -k6g | awk '{c[$1]++; if (c[$1]<=4) print}'
grep -A8 "^best per kernel" $R/kernels.log; grep "copy bandwidth" $R/kernels.log
if [ -x $B/umesh_miniaero ]; then
  mkdir -p /tmp/plans
  ma() { local tag=$1; shift
    (cd $R/miniaero && timeout 170 $B/umesh_miniaero --input $ROOT/perf/miniaero/sod128_o2_visc.inp --layout soa --reorder rcm \
      --bench 5 --plan-dir /tmp/plans --csv bench_o2_visc_$tag.csv "$@") > $R/miniaero/bench_o2_visc_$tag.log 2>&1
    echo "miniaero $tag rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep -iE "face.?flux|^ *(atomic|hier)" $R/miniaero/bench_o2_visc_$tag.log | head -12; }
  ma atomic_reads_p4 --exec atomic,scatterview,hierarchical --block 128 --staging reads --blocks-per-team 4
  ma inc_sa_ga_p2 --exec hierarchical --block 64 --staging inc --combine atomics --writeback atomic --blocks-per-team 2
fi
cd $OUT && tar czf r.tgz r && rm -rf r
