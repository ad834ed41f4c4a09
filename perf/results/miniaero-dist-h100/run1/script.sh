#!/usr/bin/env bash
# Session 2026-11-24f, call 9: miniAero over MPI ranks on the H100 (umesh_miniaero, CUDA build with
# umesh::dist): the regression cases at 1 (--distributed) and 2 ranks sharing the GPU against
# miniAero's references; Sod 128^3 (second order, viscous) 20 steps in one process, on one rank
# through the distributed path, and on 2 ranks sharing the GPU.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
R=$OUT/r; mkdir -p $R
M=$PWD/.device/bin/umesh_miniaero
D=$PWD/tests/data/miniaero
SECONDS=0
nvidia-smi > $R/nvidia-smi.txt 2>&1
for c in 3D_Sod_Serial Ramp_Serial FlatPlate_Serial; do
  for np in 1 2; do
    timeout 120 mpirun -np $np --oversubscribe $M --input $D/$c/miniaero.inp --distributed --exec atomic,hierarchical \
      --layout aos,soa --block 64 --compare $D/$c/reference.txt > $R/$c.np$np.log 2>&1
    echo "$c np$np rc=$? ${SECONDS}s $(grep 'runs match' $R/$c.np$np.log)" | tee -a $R/summary.txt
  done
done
S=$PWD/perf/miniaero/sod128_o2_visc.inp
timeout 150 $M --input $S --steps 20 --exec atomic,hierarchical --layout soa > $R/sod128.local.log 2>&1
echo "sod128 local rc=$? ${SECONDS}s" | tee -a $R/summary.txt
for np in 1 2; do
  timeout 150 mpirun -np $np --oversubscribe $M --input $S --steps 20 --distributed --exec atomic,hierarchical --layout soa > $R/sod128.np$np.log 2>&1
  echo "sod128 np$np rc=$? ${SECONDS}s" | tee -a $R/summary.txt
done
grep -h "steps in" $R/sod128.*.log >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
