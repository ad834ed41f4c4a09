#!/usr/bin/env bash
# Session 2026-11-24e, call 10: test_distributed (CUDA build, with indirect min/max) on the H100,
# 1, 2 and 3 ranks sharing the GPU.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
R=$OUT/r; mkdir -p $R
for np in 1 2 3; do
  timeout 120 mpirun -np $np --oversubscribe .device/bin/test_distributed_cuda > $R/np$np.log 2>&1
  echo "np=$np rc=$? $(grep -aE '\[  (PASSED|FAILED)  \]' $R/np$np.log | tr '\n' ' ')" | tee -a $R/summary.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r
