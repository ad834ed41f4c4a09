#!/usr/bin/env bash
# Session 2026-11-24c, call 4: Combine::gather in kernels of its own (slot program reverted): tests, sanitizers, five kernels beside atomics and ScatterView.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R/rcm
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 $B/test_hierarchical > $R/test_hierarchical.log 2>&1
echo "test_hierarchical rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep -E "PASSED|FAILED" $R/test_hierarchical.log | head -5; grep -A3 Failure $R/test_hierarchical.log | head -20
timeout 150 compute-sanitizer --tool memcheck $B/test_hierarchical --gtest_filter='*SeveralBlocksPerTeam*:*AtomicCombineAndWriteback*' > $R/memcheck.log 2>&1
echo "memcheck rc=$? ${SECONDS}s" | tee -a $R/summary.txt; tail -2 $R/memcheck.log
timeout 200 compute-sanitizer --tool racecheck $B/test_hierarchical --gtest_filter='Hierarchical/[01].SeveralBlocksPerTeam*:Hierarchical/[01].MinMax*' > $R/racecheck.log 2>&1
echo "racecheck rc=$? ${SECONDS}s" | tee -a $R/summary.txt; tail -2 $R/racecheck.log
(cd $R/rcm && timeout 250 $B/umesh_main --size large --numbering natural --repeats 20 --csv results.csv \
  --kernel res_calc,face_flux,getacc,integrate_stress,volna --reorder rcm --executor atomic,scatterview,hierarchical --staging reads,all,inc --combine atomics,gather --writeback atomic \
  --blocks-per-team 1,2,4 --blocks 64,128 --layout soa) > $R/rcm.log 2>&1
echo "rcm rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "^[a-z_]+/natural +(atomic|scatterview|hier)" $R/rcm.log | grep -v "block 0:" | awk '{v=$2; g=v; gsub(/\/p[0-9]/,"",g); key=$1" "g; if (!(key in best) || $6<best[key]) {best[key]=$6; row[key]=$0}} END {for (k in row) print row[k]}' | sort -k1,1 -k6g | cut -c1-100
grep "copy bandwidth" $R/rcm.log
cd $OUT && tar czf r.tgz r && rm -rf r
#!/usr/bin/env bash
# Session 2026-11-24c, call 5: racecheck on the pipelined and min/max tests (gather kernels among them).
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
SECONDS=0
timeout 400 compute-sanitizer --tool racecheck $B/test_hierarchical --gtest_filter='*SeveralBlocksPerTeam*:*MinMax*' > $R/racecheck.log 2>&1
echo "racecheck rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep -E "PASSED|FAILED" $R/racecheck.log; tail -2 $R/racecheck.log
cd $OUT && tar czf r.tgz r && rm -rf r
