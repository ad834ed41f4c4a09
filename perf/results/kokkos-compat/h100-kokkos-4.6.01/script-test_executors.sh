#!/usr/bin/env bash
# Session 2026-11-24d, call 7: test_executors built with nvcc on the development machine against Kokkos 4.6.01 (+ cmake/bootstrap/kokkos-4.6.01-cuda13.patch), run on the H100.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
R=$OUT/r; mkdir -p $R
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
OMP_NUM_THREADS=8 timeout 400 .device/bin/test_executors_k46 > $R/test_executors.log 2>&1
echo "test_executors rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED)  \]' $R/test_executors.log | tr '\n' ' ' | cut -c1-400)" | tee -a $R/summary.txt
nvidia-smi --query-gpu=name --format=csv,noheader >> $R/summary.txt
