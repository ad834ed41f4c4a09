#!/usr/bin/env bash
# Issue 15, strong scaling of res_calc from one to two GPUs (umesh_dist_res_calc, umesh::dist):
# the lent 2-GPU H100 machine (nvidia-h100-x2). The binary was built on the development machine
# (nvcc 13.0, Kokkos 3.4.01 + our patch, Debian's OpenMPI 4.1.4) and carried in .device/bin,
# METIS and Scotch beside it in .device/libs; the device's own OpenMPI runs it. One GPU per rank
# (--kokkos-num-devices=2: Kokkos deals devices by OpenMPI's local rank); each run prints every
# rank's device and copy bandwidth. Results go straight to $OUT, so a call cut short keeps
# what finished.
#   script.sh scaling   call 1: the check on two GPUs, then 50.4M edges (atomic, hierarchical)
#                       and 100M edges (atomic) on one GPU and on two
#   script.sh large     call 2 (same warm machine): 196M edges (atomic) on one GPU and on two
set -u
export LD_LIBRARY_PATH=$PWD/.device/libs:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=8 OMP_PROC_BIND=false
export OMPI_MCA_btl_vader_single_copy_mechanism=none
B=.device/bin/umesh_dist_res_calc
S=$OUT/summary.txt
SECONDS=0
{ nvidia-smi -L; nvidia-smi topo -m; mpirun --version | head -1; } > $OUT/env.txt 2>&1
run() { # name np timeout args...
  local name=$1 np=$2 t=$3; shift 3
  timeout $t mpirun -np $np --bind-to none $B --kokkos-num-devices=2 --csv /tmp/$name.csv "$@" > $OUT/$name.log 2>&1
  echo "$name rc=$? ${SECONDS}s" >> $S
  grep -E 'rank [0-9]+:|ranks:' $OUT/$name.log >> $S
  [[ -s $OUT/results.csv ]] || head -1 /tmp/$name.csv > $OUT/results.csv 2>/dev/null
  tail -n +2 /tmp/$name.csv >> $OUT/results.csv 2>/dev/null
}
case "${1:-scaling}" in
scaling)
  # Correctness on two GPUs: each executor's first res_calc against the serial loop on the whole mesh.
  run check_np2 2 40 --nx 2400 --ny 1200 --steps 20
  # 50.4M edges: one GPU, then two (same binary, same options).
  run e50M_np1 1 60 --nx 7000 --ny 3600 --steps 30 --no-check
  run e50M_np2 2 60 --nx 7000 --ny 3600 --steps 30 --no-check
  # 100M edges, atomics only.
  run e100M_np1 1 80 --nx 10000 --ny 5000 --steps 30 --no-check --exec atomic
  run e100M_np2 2 80 --nx 10000 --ny 5000 --steps 30 --no-check --exec atomic ;;
large)
  run e200M_np1 1 75 --nx 14000 --ny 7000 --steps 30 --no-check --exec atomic
  run e200M_np2 2 75 --nx 14000 --ny 7000 --steps 30 --no-check --exec atomic ;;
esac
