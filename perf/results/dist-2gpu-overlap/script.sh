#!/usr/bin/env bash
# Issue 15: res_calc on one and two GPUs with the halo exchange overlapped with the loop
# (umesh_dist_res_calc --overlap off,on; dist/overlap.hpp) and sent GPU to GPU through NCCL
# (--transport host,nccl; dist/nccl.hpp) against the plain host-staged loop, in the same
# processes. For the lent 2-GPU kind (nvidia-h100-x2, or the H200 pair it may move to). The
# binaries are built on the development machine (./setup.sh --targets
# umesh_dist_res_calc,test_distributed_overlap cuda-check) and carried in .device/bin, METIS and
# Scotch beside them in .device/libs; the device's OpenMPI runs them, and its system-wide NCCL
# (2.28) serves libnccl.so.2 (218 MB here, too large to carry; env.txt records which one). One GPU per rank
# (--kokkos-num-devices=2); every run prints each rank's device and copy bandwidth. Results go
# straight to $OUT, so a call cut short keeps what finished.
#   script.sh check   call 1: the tests and the check on two GPUs, then 50.4M edges
#   script.sh large   call 2: 100M edges
set -u
export LD_LIBRARY_PATH=$PWD/.device/libs:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=8 OMP_PROC_BIND=false
export OMPI_MCA_btl_vader_single_copy_mechanism=none NCCL_DEBUG=WARN
B=.device/bin/umesh_dist_res_calc
S=$OUT/summary.txt
SECONDS=0
{ nvidia-smi -L; nvidia-smi topo -m; mpirun --version | head -1; ldconfig -p | grep -i nccl; ldd $B | grep -i nccl; } > $OUT/env.txt 2>&1
run() { # name np timeout args...
  local name=$1 np=$2 t=$3; shift 3
  timeout $t mpirun -np $np --bind-to none $B --kokkos-num-devices=2 --csv /tmp/$name.csv "$@" > $OUT/$name.log 2>&1
  echo "$name rc=$? ${SECONDS}s" >> $S
  grep -E 'rank [0-9]+:|ranks' $OUT/$name.log >> $S
  [[ -s $OUT/results.csv ]] || head -1 /tmp/$name.csv > $OUT/results.csv 2>/dev/null
  tail -n +2 /tmp/$name.csv >> $OUT/results.csv 2>/dev/null
}
case "${1:-check}" in
check) # call 1: correctness on two GPUs, then 50.4M edges
  # The overlapped loops against the serial reference on two GPUs, through the host and through
  # NCCL: the test program (every executor and layout) and res_calc's check.
  timeout 120 mpirun -np 2 --bind-to none .device/bin/test_distributed_overlap --kokkos-num-devices=2 > $OUT/test_np2.log 2>&1
  echo "test_distributed_overlap np2 rc=$? ${SECONDS}s" >> $S
  run check_np2 2 90 --nx 2400 --ny 1200 --steps 20 --overlap off,on --transport host,nccl
  # 50.4M edges: one GPU (plain), then two (host and NCCL, plain and overlapped, same processes).
  run e50M_np1 1 60 --nx 7000 --ny 3600 --steps 30 --no-check
  run e50M_np2 2 240 --nx 7000 --ny 3600 --steps 30 --no-check --overlap off,on --transport host,nccl ;;
large) # call 2 (same warm machine): 100M edges, atomics
  run e100M_np1 1 80 --nx 10000 --ny 5000 --steps 30 --no-check --exec atomic
  run e100M_np2 2 200 --nx 10000 --ny 5000 --steps 30 --no-check --exec atomic --overlap off,on --transport host,nccl ;;
esac
