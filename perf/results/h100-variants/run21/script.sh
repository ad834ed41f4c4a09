#!/usr/bin/env bash
# Session 2026-11-24b, call 2: global increments as red.global (no value back) in the team kernels.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R/rcm
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
cuobjdump -sass $B/umesh_main > $R/sass.txt 2>&1
awk '/Function :/{f=($3 ~ /Hierarchical/)?"hier":(($3 ~ /ForFunctor/)?"for":"other")} {for(i=1;i<=NF;i++) if($i ~ /^(REDG|RED|ATOMG|ATOM|ATOMS)\./){print f, $i; break}}' $R/sass.txt | sort | uniq -c > $R/atomics.txt
gzip $R/sass.txt
cat $R/atomics.txt
(cd $R/rcm && timeout 260 $B/umesh_main --size large --numbering natural --repeats 20 --csv results.csv \
  --kernel res_calc,face_flux --reorder rcm --executor atomic,hierarchical --staging reads,inc,all --combine atomics --writeback atomic \
  --blocks-per-team 1,2,4 --blocks 64,128,256 --layout soa) > $R/rcm.log 2>&1
echo "rcm rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "^[a-z_]+/natural +(atomic|hier)" $R/rcm.log | grep -v "block 0:" | sort -k1,1 -k6g | awk '{c[$1]++; if (c[$1]<=8) print}'
grep "copy bandwidth" $R/rcm.log
M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__d_atomic_input_cycles_active.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,lts__t_sectors_srcunit_tex_op_atom.sum,smsp__inst_executed_op_global_red.sum,smsp__inst_executed_op_global_atom.sum,gpu__time_duration.sum,dram__bytes_read.sum
prof() { local n=$1; shift
  ncu --kernel-name-base demangled -k regex:HierarchicalFunctor --launch-skip 2 --launch-count 1 --metrics $M \
    $B/umesh_main --size large --numbering natural --kernel res_calc --reorder rcm --layout soa --repeats 3 --warmup 1 --executor hierarchical "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep -E "^ +(lts|smsp|gpu|dram)__" $R/ncu-$n.txt; }
prof hier-reads-p2-256 --staging reads --blocks-per-team 2 --blocks 256
prof hier-inc-sa-ga-128 --staging inc --combine atomics --writeback atomic --blocks 128
cd $OUT && tar czf r.tgz r && rm -rf r
