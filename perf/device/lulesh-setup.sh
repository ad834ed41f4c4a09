#!/usr/bin/env bash
# Issue 39 on the one-GPU kind: LULESH -s 250 setup by phase, one process against one and two MPI
# ranks sharing the GPU through the host (NCCL needs a GPU a rank): the mesh, the partition (own
# slabs through the directory), device data and plans, per rank. Carry .bundle.
#   perf/device/lulesh-setup.sh
. perf/device/env.sh
{
  git log -1 --format='%H %s'
  nvidia-smi -L
  nproc
} >"$R/env.txt" 2>&1
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
UMESH_CMAKE_ARGS="-DUMESH_APP_EXECUTORS=Atomic -DUMESH_APP_LAYOUTS=SoA" timeout 250 ./setup.sh --bundle "$PWD/.bundle" --backend cuda --jobs 16 --targets umesh_lulesh build >"$R/build.log" 2>&1
note "build rc=$?"
b=$(ls -d "$HOME"/.cache/umesh/build/umesh-*-cuda-cxx17 | head -1)
L=$b/apps/lulesh/umesh_lulesh
export OMP_NUM_THREADS=16 OMP_PROC_BIND=false
timeout 60 "$L" -s 250 -i 20 --exec atomic --layout soa >"$R/one.log" 2>&1
note "one rc=$?"
export OMP_NUM_THREADS=8
for np in 1 2; do
  timeout 90 mpirun -np $np --bind-to none "$L" -s 250 -i 20 --exec atomic --layout soa --distributed --transport host >"$R/r$np-host.log" 2>&1
  note "r$np host rc=$?"
done
grep -H -E "mesh:|Setup|setup per rank|host memory|Elapsed" "$R"/*.log >>"$R/summary.txt"
finish lulesh-setup
