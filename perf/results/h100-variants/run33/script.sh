#!/usr/bin/env bash
# Session 2026-11-24d, call 2: a staging warp for the pipelined team kernels (exec::Hierarchical::staging_warp): tests, sweep with and without, instruction counts.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
timeout 200 $B/test_hierarchical > $R/test_hierarchical.log 2>&1
echo "test_hierarchical rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep -E "PASSED|FAILED" $R/test_hierarchical.log | head -8
common="--size large --numbering natural --repeats 20 --reorder rcm --layout soa --writeback atomic --executor atomic,hierarchical --staging reads,inc,all --combine atomics,gather --blocks-per-team 2,4 --blocks 64,128,256 --staging-warp 0,1"
(cd $R && timeout 250 $B/umesh_main $common --kernel res_calc,face_flux,getacc,integrate_stress --csv results.csv) > $R/run.log 2>&1
echo "sweep rc=$? ${SECONDS}s" | tee -a $R/summary.txt
for k in res_calc face_flux getacc integrate_stress; do
  grep "^$k/" $R/results.csv | sort -t, -k6g | head -5 | cut -d, -f1,2,5,6,8
done
grep -h "copy bandwidth" $R/run*.log
M=smsp__inst_executed.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
prof() { local n=$1; shift
  timeout 60 ncu --kernel-name-base demangled -k "regex:HierarchicalFunctor" --launch-skip 2 --launch-count 1 --section LaunchStats --section Occupancy --metrics $M \
    $B/umesh_main --size large --numbering natural --reorder rcm --layout soa --repeats 3 --warmup 1 --executor hierarchical --writeback atomic "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "^ +(lts|smsp|sm)__|Duration|Registers Per|Achieved Occupancy|Block Size" $R/ncu-$n.txt | sort -u; }
for w in 0 1; do
  prof ff-all-sg-p4-128-w$w --kernel face_flux --staging all --combine gather --blocks-per-team 4 --blocks 128 --staging-warp $w
  prof rc-all-sg-p4-128-w$w --kernel res_calc --staging all --combine gather --blocks-per-team 4 --blocks 128 --staging-warp $w
done
cd $OUT && tar czf r.tgz r && rm -rf r
