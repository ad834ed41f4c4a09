#!/usr/bin/env bash
# Session 2026-11-24b, call 4: pipelined pre-aggregation over three slots, a barrier before each write-back: tests, sanitizers, timings.
# atomic write-back, several blocks per team over four slots): tests, sanitizers, timings.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R/rcm
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
timeout 150 $B/test_hierarchical > $R/test_hierarchical.log 2>&1; echo "test_hierarchical rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED)' $R/test_hierarchical.log | tr '\n' ' ')" | tee -a $R/summary.txt
grep -E "^\[  FAILED" $R/test_hierarchical.log | head
(cd $R/rcm && timeout 280 $B/umesh_main --size large --numbering natural --repeats 20 --csv results.csv \
  --kernel res_calc,face_flux --reorder rcm --executor atomic,hierarchical --staging reads,inc,all --combine atomics --writeback atomic \
  --blocks-per-team 1,2,4,8 --blocks 64,128,256 --layout soa) > $R/rcm.log 2>&1
echo "rcm rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "^[a-z_]+/natural +(atomic|hier)" $R/rcm.log | grep -v "block 0:" | sort -k1,1 -k6g | awk '{c[$1]++; if (c[$1]<=10) print}'
grep "copy bandwidth" $R/rcm.log
F='--gtest_filter=*/2.SeveralBlocksPerTeam*:*/3.SeveralBlocksPerTeam*'
grep -E "^\[ RUN" $R/test_hierarchical.log | grep SeveralBlocks | head -8 > $R/which.txt
timeout 150 compute-sanitizer --tool memcheck $B/test_hierarchical "--gtest_filter=*SeveralBlocksPerTeam*" > $R/san-memcheck.log 2>&1; echo "memcheck rc=$? ${SECONDS}s $(grep -E 'ERROR SUMMARY' $R/san-memcheck.log)" | tee -a $R/summary.txt
timeout 200 compute-sanitizer --tool racecheck $B/test_hierarchical "--gtest_filter=*SeveralBlocksPerTeam*" > $R/san-racecheck.log 2>&1; echo "racecheck rc=$? ${SECONDS}s $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/san-racecheck.log)" | tee -a $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
