#!/usr/bin/env bash
# Issue 15: SoA components 128-byte aligned (Dat::rows(), include/umesh/dat.hpp) against the
# unpadded dats, res_calc on one and two GPUs, in one call on the lent 2-GPU kind. Two builds of
# umesh_dist_res_calc made on the development machine (CUDA, NCCL) and carried in one archive
# (.device/bin3.tar.xz): bin2/ (922d107: one row per point) and bin3/ (the padded dats; tree in
# bin3/tree.txt); METIS and Scotch in libs/. One GPU per rank, the device's OpenMPI and NCCL.
set -u
export LD_LIBRARY_PATH=$PWD/.device/libs:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMP_NUM_THREADS=8 OMP_PROC_BIND=false NCCL_DEBUG=WARN
R=$OUT/r; mkdir -p $R
SECONDS=0
note() { echo "$* ${SECONDS}s" | tee -a $R/summary.txt; }
tar xJf .device/bin3.tar.xz -C .device
{ nvidia-smi -L; nvidia-smi topo -m; } > $R/env.txt 2>&1
run() { # name binary-folder np args...
  local name=$1 bin=$2 np=$3; shift 3
  timeout 60 mpirun -np $np --bind-to none .device/$bin/umesh_dist_res_calc "$@" > $R/$name.log 2>&1
  note "$name rc=$?"
}
# Correctness of the padded build on two GPUs: each executor against the serial loop.
run check-np2 bin3 2 --kokkos-num-devices=2 --nx 2400 --ny 1200 --steps 3 --exec atomic,hierarchical --transport nccl,host
for b in bin2 bin3; do
  # 50.4M edges: the whole mesh on one GPU, then on two (one rank each) with --breakdown
  run whole-np1-$b $b 1 --kokkos-device-id=0 --nx 7000 --ny 3600 --steps 30 --no-check --exec atomic
  run whole-np2-$b $b 2 --kokkos-num-devices=2 --nx 7000 --ny 3600 --steps 30 --no-check --exec atomic \
    --transport nccl --breakdown
  # one GPU, a mesh whose cell count is no multiple of 16 (7001 x 1799 = 12,594,799 cells)
  run odd-np1-$b $b 1 --kokkos-device-id=0 --nx 7001 --ny 1799 --steps 30 --no-check --exec atomic --breakdown
done
grep -h "copy bandwidth\|step \|each rank\|fenced apart\|DIFFERS\|matches" $R/*.log >> $R/summary.txt
(cd $OUT && tar czf r.tgz r && rm -rf r)
