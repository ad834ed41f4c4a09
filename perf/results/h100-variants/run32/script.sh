#!/usr/bin/env bash
# Session 2026-11-24d, call 1: teams smaller than blocks (exec::Hierarchical::team_size): tests, then a sweep of block size x team size x blocks per team on four kernels.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv > $R/gpu.txt 2>&1
timeout 200 $B/test_hierarchical > $R/test_hierarchical.log 2>&1
echo "test_hierarchical rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep -E "PASSED|FAILED" $R/test_hierarchical.log | head -8
common="--size large --numbering natural --repeats 20 --reorder rcm --layout soa --writeback atomic --executor atomic,hierarchical --staging reads,inc,all --combine atomics,gather --blocks-per-team 1,2,4 --blocks 64,128,256,512 --team-sizes 0,32,64,128"
(cd $R && timeout 270 $B/umesh_main $common --kernel res_calc,face_flux --csv resultsA.csv) > $R/runA.log 2>&1
echo "A rc=$? ${SECONDS}s" | tee -a $R/summary.txt
(cd $R && timeout 270 $B/umesh_main $common --kernel getacc,integrate_stress --csv resultsB.csv) > $R/runB.log 2>&1
echo "B rc=$? ${SECONDS}s" | tee -a $R/summary.txt
for f in $R/resultsA.csv $R/resultsB.csv; do
  for k in res_calc face_flux getacc integrate_stress; do
    grep "^$k/" $f | sort -t, -k6g | head -6 | cut -d, -f1,2,5,6,8
  done
done
grep -h "copy bandwidth" $R/run*.log
cd $OUT && tar czf r.tgz r && rm -rf r
