#!/usr/bin/env bash
# Session 2026-11-24e, call 6: umesh::dist's test (CUDA build: device-packed halos staged through
# the host) on the H100 with 1, 2 and 3 MPI ranks sharing the GPU.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
R=$OUT/r; mkdir -p $R
SECONDS=0
which mpirun > $R/mpi.txt 2>&1; mpirun --version >> $R/mpi.txt 2>&1
ldd .device/bin/test_distributed_cuda | grep -i mpi >> $R/mpi.txt
for np in 1 2 3; do
  timeout 120 mpirun -np $np --oversubscribe .device/bin/test_distributed_cuda > $R/np$np.log 2>&1
  echo "np=$np rc=$? ${SECONDS}s $(grep -E '\[  (PASSED|FAILED)  \]' $R/np$np.log | tr '\n' ' ')" | tee -a $R/summary.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r
