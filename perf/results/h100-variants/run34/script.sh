#!/usr/bin/env bash
# Session 2026-11-24d, call 9: test_hierarchical of f423c81 (CUDA, Kokkos 3.4.01 + patch) on the H100, and compute-sanitizer memcheck and racecheck on the teams-smaller-than-blocks kernels.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
T=.device/bin/test_hierarchical
timeout 120 $T > $R/test_hierarchical.log 2>&1
echo "test_hierarchical rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED)  \]' $R/test_hierarchical.log | tr '\n' ' ')" | tee -a $R/summary.txt
F='--gtest_filter=Hierarchical/4.TeamsSmaller*:Hierarchical/5.TeamsSmaller*'
timeout 150 compute-sanitizer --tool memcheck --print-limit 20 $T "$F" > $R/memcheck.log 2>&1
echo "memcheck rc=$? ${SECONDS}s $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1)" | tee -a $R/summary.txt
timeout 200 compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 20 $T '--gtest_filter=Hierarchical/5.TeamsSmallerThanBlocksMatchSerial' > $R/racecheck.log 2>&1
echo "racecheck rc=$? ${SECONDS}s $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck.log | tail -1)" | tee -a $R/summary.txt
