#!/usr/bin/env bash
# Session 2026-11-24e, call 8 (after caching the exchange buffers; the 2-GPU machine was not lent): res_calc over MPI (umesh::dist) on
# the one H100: the check against the serial reference with 1 and 2 ranks sharing the GPU, and
# the 1-rank time per step at 50.4M edges (the baseline a 2-GPU run would be compared with).
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4 OMP_PROC_BIND=false
R=$OUT/r; mkdir -p $R
B=.device/bin/umesh_dist_res_calc
SECONDS=0
nvidia-smi -L > $R/gpus.txt 2>&1; mpirun --version > $R/mpi.txt 2>&1
for np in 1 2; do
  timeout 120 mpirun -np $np --oversubscribe --bind-to none $B --nx 2400 --ny 1200 --steps 20 --csv $R/check_np$np.csv > $R/check_np$np.log 2>&1
  echo "2400x1200 np$np rc=$? ${SECONDS}s $(grep -E 'ranks:' $R/check_np$np.log | tr '\n' ' ')" | tee -a $R/summary.txt
done
timeout 200 mpirun -np 1 --bind-to none $B --nx 7000 --ny 3600 --steps 30 --no-check --csv $R/run_7000x3600_np1.csv > $R/run_7000x3600_np1.log 2>&1
echo "7000x3600 np1 rc=$? ${SECONDS}s $(grep -E 'ranks:' $R/run_7000x3600_np1.log | tr '\n' ' ')" | tee -a $R/summary.txt
for np in 1 2 3; do
  timeout 120 mpirun -np $np --oversubscribe .device/bin/test_distributed_cuda > $R/test_np$np.log 2>&1
  echo "test_distributed np=$np rc=$? $(grep -E '\[  (PASSED|FAILED)  \]' $R/test_np$np.log | tr '\n' ' ')" | tee -a $R/summary.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r
