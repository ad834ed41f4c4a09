#!/usr/bin/env bash
# Issue 15: miniAero strong scaling from one GPU to two (Sod 256^3, second order, viscous: the
# issue's large case), halo exchange through the host and GPU to GPU through NCCL
# (--transport host,nccl). For the lent 2-GPU kind, in two calls on one warm machine:
#   script.sh build  umesh_miniaero from the offline bundle (./setup.sh bundle .bundle, carried),
#                    CUDA, with the device's NCCL when CMake finds it (the configure log says)
#   script.sh gpus   (issue 15's res_calc gap) each GPU's clocks and res_calc on half the 50.4M
#                    mesh on GPU 0 and on GPU 1 alone, then the whole mesh on both with
#                    umesh_dist_res_calc --breakdown (each rank's loop with and without its
#                    exchanges, fenced apart), host and NCCL
#   script.sh run    one GPU (one process, then one rank through the distributed path), two GPUs
#                    through the host and through NCCL; atomic, SoA, 10 steps each; whole-run wall
#                    time as the app prints it (setup apart), and the copy bandwidth of each GPU
set -u
export PATH=$PATH:/usr/local/cuda/bin
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none NCCL_DEBUG=WARN
export LD_LIBRARY_PATH="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64"
R=$OUT/r; mkdir -p $R
SECONDS=0
b() { echo "$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build 2>/dev/null | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"; }
note() { echo "$* ${SECONDS}s" | tee -a $R/summary.txt; }
case "${1:-run}" in
build)
  { nvidia-smi -L; nvidia-smi topo -m; ldconfig -p | grep -i nccl; } > $R/env.txt 2>&1
  timeout 560 ./setup.sh --bundle .bundle --backend cuda --jobs 32 --targets umesh_miniaero,umesh_dist_res_calc build > $R/build.log 2>&1
  note "build rc=$?"; grep -E "NCCL|MPI" $R/build.log >> $R/summary.txt ;;
gpus)
  D=$(b)/perf/umesh_dist_res_calc
  export OMP_NUM_THREADS=8 OMP_PROC_BIND=false
  nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > $R/clocks-before.txt 2>&1
  for g in 0 1; do
    timeout 60 mpirun -np 1 --bind-to none $D --kokkos-device-id=$g --nx 7000 --ny 1800 --steps 30 \
      --no-check --exec atomic --breakdown > $R/half-gpu$g.log 2>&1
    note "half mesh on GPU $g rc=$?"; grep -E "rank 0:|ranks" $R/half-gpu$g.log >> $R/summary.txt
  done
  timeout 150 mpirun -np 2 --bind-to none $D --kokkos-num-devices=2 --nx 7000 --ny 3600 --steps 30 \
    --no-check --exec atomic,hierarchical --transport host,nccl --breakdown > $R/whole-np2.log 2>&1
  note "whole mesh on two GPUs rc=$?"; grep -E "rank [01]:|ranks|fenced" $R/whole-np2.log >> $R/summary.txt
  nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > $R/clocks-after.txt 2>&1 ;;
run)
  M=$(b)/apps/miniaero/umesh_miniaero
  S=$PWD/tests/data/miniaero/3D_Sod_Serial/miniaero.inp
  # Copy bandwidth of both GPUs (the res_calc program prints each rank's), as the yardstick.
  timeout 60 mpirun -np 2 --bind-to none $(b)/perf/umesh_dist_res_calc --kokkos-num-devices=2 --nx 100 --ny 100 --steps 1 --no-check > $R/bandwidth.log 2>&1
  grep "copy bandwidth" $R/bandwidth.log >> $R/summary.txt
  common="--input $PWD/perf/miniaero/sod128_o2_visc.inp --mesh 256,256,256 --steps 10 --exec atomic --layout soa"
  timeout 150 $M $common > $R/local.log 2>&1; note "one process rc=$?"
  timeout 150 mpirun -np 1 --bind-to none $M $common --distributed > $R/np1.log 2>&1; note "np1 rc=$?"
  for t in host nccl; do
    timeout 120 mpirun -np 2 --bind-to none $M $common --kokkos-num-devices=2 --transport $t > $R/np2-$t.log 2>&1
    note "np2 $t rc=$?"
  done
  grep -h "steps in\|distributed over" $R/*.log >> $R/summary.txt ;;
esac
