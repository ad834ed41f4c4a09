#!/usr/bin/env bash
# One call: NCCL on the legacy default stream against a stream of its own (probe), miniAero's
# exchange with NCCL on its own stream against the loops' stream (128^3, timed), and Sod 256^3
# on one GPU against two with NCCL on its own stream.
set -u
export PATH=$PATH:/usr/local/cuda/bin LD_LIBRARY_PATH=$PWD/.device/libs:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMP_NUM_THREADS=16 OMP_PROC_BIND=false NCCL_DEBUG=WARN
S=$OUT/summary.txt
SECONDS=0
M=$PWD/.device/miniaero/umesh_miniaero
inp=$PWD/perf/miniaero/sod128_o2_visc.inp
{ nvidia-smi -L; git log -1 --format=%H; } >>$S
mpicxx -O2 -std=c++17 -DOMPI_SKIP_MPICXX -I/usr/local/cuda/include perf/probes/nccl_sendrecv_probe.cpp \
  -L/usr/local/cuda/lib64 -lnccl -lcudart -o /tmp/probe >$OUT/probe.log 2>&1
for mode in own legacy; do
  timeout 40 mpirun -np 2 --bind-to none /tmp/probe 20 $([ $mode = legacy ] && echo legacy) >>$OUT/probe.log 2>&1
  echo "probe $mode rc=$? ${SECONDS}s" >>$S
done
two="mpirun -np 2 --bind-to none"
c128="--input $inp --mesh 128,128,128 --steps 20 --layout soa --reorder rcm --exec atomic --kokkos-num-devices=2 --transport nccl --timed-exchanges"
timeout 60 $two $M $c128 >$OUT/r2t128-own.log 2>&1; echo "128 own rc=$? ${SECONDS}s" >>$S
timeout 60 $two -x UMESH_NCCL_ON_LOOP_STREAM=1 $M $c128 >$OUT/r2t128-loop.log 2>&1; echo "128 loop rc=$? ${SECONDS}s" >>$S
c256="--input $inp --mesh 256,256,256 --steps 10 --layout soa --reorder rcm --exec atomic"
timeout 100 $M $c256 --kokkos-device-id=0 >$OUT/one256.log 2>&1; echo "256 one rc=$? ${SECONDS}s" >>$S
timeout 100 $two $M $c256 --kokkos-num-devices=2 --transport nccl >$OUT/r2-256-own.log 2>&1; echo "256 two own rc=$? ${SECONDS}s" >>$S
grep -h "steps in\|halo exchange [0-9]\|per exchange\|mesh:" $OUT/*.log >>$S
