#!/usr/bin/env bash
# Issue 15: the halo exchange packing into and unpacking from pinned host buffers (no staging
# copies) against the host-staged exchange, res_calc strong scaling on the lent 2-GPU H100
# machine. Two umesh_dist_res_calc binaries built on the development machine and carried:
# .device/bin (5d270e2's tree, the exchange before this change) and .device/bin-new (the tree
# of the commit that adds this folder); METIS and Scotch in .device/libs. As in
# ../dist-2gpu-h100/script.sh: one GPU per rank, the device's OpenMPI, results straight to $OUT.
set -u
export LD_LIBRARY_PATH=$PWD/.device/libs:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=8 OMP_PROC_BIND=false
export OMPI_MCA_btl_vader_single_copy_mechanism=none
S=$OUT/summary.txt
SECONDS=0
{ nvidia-smi -L; nvidia-smi topo -m; mpirun --version | head -1; } > $OUT/env.txt 2>&1
run() { # binary-folder name np timeout args...
  local B=.device/$1/umesh_dist_res_calc name=$2 np=$3 t=$4; shift 4
  timeout $t mpirun -np $np --bind-to none $B --kokkos-num-devices=2 --csv /tmp/$name.csv "$@" > $OUT/$name.log 2>&1
  echo "$name rc=$? ${SECONDS}s" >> $S
  grep -E 'rank [0-9]+:|ranks:' $OUT/$name.log >> $S
  [[ -s $OUT/results.csv ]] || { echo -n "binary,"; head -1 /tmp/$name.csv; } > $OUT/results.csv 2>/dev/null
  tail -n +2 /tmp/$name.csv | sed "s/^/$1,/" >> $OUT/results.csv 2>/dev/null
}
# Correctness of the new exchange on two GPUs: each executor against the serial loop.
run bin-new check_np2 2 40 --nx 2400 --ny 1200 --steps 20
for bin in bin bin-new; do
  run $bin e50M_np1_$bin 1 60 --nx 7000 --ny 3600 --steps 30 --no-check --exec atomic
  run $bin e50M_np2_$bin 2 60 --nx 7000 --ny 3600 --steps 30 --no-check --exec atomic
done
for bin in bin bin-new; do
  run $bin e100M_np2_$bin 2 80 --nx 10000 --ny 5000 --steps 30 --no-check --exec atomic
done
run bin-new e100M_np1_bin-new 1 80 --nx 10000 --ny 5000 --steps 30 --no-check --exec atomic
