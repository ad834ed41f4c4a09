#!/usr/bin/env bash
# Two trees side by side on the 4-GPU kind (carry .bundle and .device/base.tar.gz, a `git archive
# --prefix=base/` of the other commit): umesh_miniaero and umesh_lulesh built from each (CUDA,
# MPI, NCCL; atomic, SoA), then miniAero Sod N^3 (default 256, 10 steps, rcm, each rank its own
# block) and LULESH -s S (default 250, 200 cycles, slabs) on four GPUs through NCCL, untimed,
# the two builds alternating, twice each: whether the steps' time moved between the trees.
#   perf/device/ab-dist.sh [N] [S]
. perf/device/env.sh
n=${1:-256} s=${2:-250}
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
tar xzf .device/base.tar.gz -C /tmp
{
  git log -1 --format='%H %s'
  git status --short | head -20
  nvidia-smi -L
} >"$R/env.txt" 2>&1
build() { # build TREE NAME
  UMESH_CMAKE_ARGS="-DUMESH_APP_EXECUTORS=Atomic -DUMESH_APP_LAYOUTS=SoA" timeout 300 "$1/setup.sh" \
    --bundle "$PWD/.bundle" --backend cuda --jobs 32 --targets umesh_miniaero,umesh_lulesh build \
    >"$R/build-$2.log" 2>&1
  note "build $2 rc=$?"
}
# Kokkos first (both trees share it), then the two trees at once.
build "$PWD" new
build /tmp/base base
for tree in new base; do
  b=$(grep -o '/root/.cache/umesh/build/umesh-[0-9]*-cuda-cxx17' "$R/build-$tree.log" | head -1)
  declare "M_$tree=$b/apps/miniaero/umesh_miniaero" "L_$tree=$b/apps/lulesh/umesh_lulesh"
done
export OMP_NUM_THREADS=16 OMP_PROC_BIND=false NCCL_DEBUG=WARN
inp=$PWD/perf/miniaero/sod128_o2_visc.inp
for round in 1 2; do
  for tree in new base; do
    m=M_$tree l=L_$tree
    ((SECONDS < 540)) || break 2
    timeout 90 mpirun -np 4 --bind-to none "${!m}" --input "$inp" --mesh "$n,$n,$n" --steps 10 \
      --layout soa --reorder rcm --exec atomic --kokkos-num-devices=4 --transport nccl \
      >"$R/miniaero-$tree-$round.log" 2>&1
    note "miniaero $tree $round: $(grep -m1 'steps in' "$R/miniaero-$tree-$round.log") $(grep -m1 'halo exchange [0-9]' "$R/miniaero-$tree-$round.log")"
    timeout 60 mpirun -np 4 --bind-to none "${!l}" -s "$s" -i 200 --exec atomic --layout soa \
      --partition slabs --kokkos-num-devices=4 --transport nccl >"$R/lulesh-$tree-$round.log" 2>&1
    note "lulesh $tree $round: $(grep -m1 'Elapsed' "$R/lulesh-$tree-$round.log") $(grep -m1 'halo exchange [0-9]' "$R/lulesh-$tree-$round.log")"
  done
done
finish ab-dist
