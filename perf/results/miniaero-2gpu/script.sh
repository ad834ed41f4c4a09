#!/usr/bin/env bash
# Issue 15 on the lent 2-GPU kind, in one call. Two programs built on the development machine
# (CUDA, Kokkos 3.4.01 patched, NCCL; tree in .device/bin2/tree.txt) and carried in .device/bin2,
# METIS and Scotch in .device/libs, both folders in one archive (.device/bin2.tar.xz: the carry
# limit is 64 MiB); the device's OpenMPI and NCCL:
#   1. res_calc's gap to 2x (../h200-x2-suite/why/: each of two ranks 1.5332 ms per step where
#      one GPU ran the same-size mesh in 1.3021 ms): half of the 50.4M-edge mesh on GPU 0 alone;
#      two independent half-mesh processes at once, one per GPU (what the GPUs and the host do to
#      each other, with no MPI between them); then the whole mesh on both GPUs, NCCL and host
#      exchange, with --breakdown (each rank's res_calc with and without its exchanges, fenced
#      apart). Both GPUs' clocks, power and throttle reasons sampled every 250 ms throughout.
#   2. miniAero, Sod 256^3 (16.8M cells), second order, viscous, atomic, SoA, 10 steps: one
#      process on one GPU, then two ranks, one per GPU, exchange through NCCL; the app's
#      whole-run time (setup apart).
set -u
export LD_LIBRARY_PATH=$PWD/.device/libs:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMP_NUM_THREADS=8 OMP_PROC_BIND=false NCCL_DEBUG=WARN
R=$OUT/r; mkdir -p $R
SECONDS=0
note() { echo "$* ${SECONDS}s" | tee -a $R/summary.txt; }
[ -x .device/bin2/umesh_miniaero ] || tar xJf .device/bin2.tar.xz -C .device
note "unpacked"
D=$PWD/.device/bin2/umesh_dist_res_calc
M=$PWD/.device/bin2/umesh_miniaero
{ nvidia-smi -L; nvidia-smi topo -m; mpirun --version | head -1; ldd $D $M | grep "not found"; } > $R/env.txt 2>&1
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 250 > $R/clocks.csv 2>&1 &
clocks=$!
half="--nx 7000 --ny 1800 --steps 30 --no-check --exec atomic"
timeout 60 mpirun -np 1 --bind-to none $D --kokkos-device-id=0 $half > $R/half-gpu0.log 2>&1
note "half mesh on GPU 0 alone rc=$?"
pids=""
for g in 0 1; do
  timeout 60 mpirun -np 1 --bind-to none $D --kokkos-device-id=$g $half > $R/half-both-gpu$g.log 2>&1 &
  pids="$pids $!"
done
wait $pids
note "half mesh on both GPUs at once, two processes"
timeout 120 mpirun -np 2 --bind-to none $D --kokkos-num-devices=2 --nx 7000 --ny 3600 --steps 30 --no-check \
  --exec atomic --transport nccl,host --breakdown > $R/whole-np2.log 2>&1
note "whole mesh on two GPUs rc=$?"
timeout 40 mpirun -np 2 --bind-to none $D --kokkos-num-devices=2 --nx 2400 --ny 1200 --steps 3 \
  --exec atomic,hierarchical --transport nccl > $R/check-np2.log 2>&1
note "check on two GPUs rc=$?"
grep -h "copy bandwidth\|step \|each rank\|fenced apart" $R/half-*.log $R/whole-np2.log $R/check-np2.log >> $R/summary.txt
common="--input $PWD/perf/miniaero/sod128_o2_visc.inp --mesh 256,256,256 --steps 10 --exec atomic --layout soa"
OMP_NUM_THREADS=16 timeout 150 $M $common --kokkos-device-id=0 > $R/mini-one.log 2>&1
note "miniAero one GPU rc=$?"
left=$((${LIMIT:-500} - SECONDS))
timeout $left mpirun -np 2 --bind-to none $M $common --kokkos-num-devices=2 --transport nccl > $R/mini-np2-nccl.log 2>&1
note "miniAero two GPUs, NCCL rc=$?"
grep -h "steps in\|distributed over" $R/mini-*.log >> $R/summary.txt
kill $clocks
(cd $OUT && tar czf r.tgz r && rm -rf r)
