#!/usr/bin/env bash
# Issues 38 and 39 on one GPU: miniAero Sod 128^3 (perf/miniaero/sod128_o2_visc.inp, 20 steps,
# atomic, SoA) in one process renumbered (--reorder rcm), and through the distributed path on one
# rank in creation order and renumbered (each rank's local order); then the RK stage's benchmark
# (--bench) under atomic and auto, renumbered, beside miniAero's own atomics.
#   perf/device/miniaero-order.sh [one|two|stage]   (default one)
# stage (one GPU): only the RK stage's benchmark at 128^3, renumbered, atomic and auto beside
# miniAero's own atomics, with the limiter's min/max through faces and through the cell stencil
# (--stencil cells), and the copy bandwidth (the benchmark prints it).
# two (the 2-GPU kind): Sod 128^3 (20 steps) and 256^3 (10 steps), renumbered (--reorder rcm), on
# one GPU and on two (one rank each, NCCL), in one call.
# Carry .device/miniaero (umesh_miniaero built with MPI: UMESH_APP_EXECUTORS="Atomic;Auto",
# UMESH_APP_LAYOUTS=SoA is enough) and .device/libs.
set -euo pipefail
source perf/device/env.sh
mode=${1:-one}
case "$mode" in one | two | stage) ;; *) echo "usage: $0 [one|two|stage]" >&2; exit 2 ;; esac
M=.device/miniaero/umesh_miniaero
[[ -x $M ]] || { echo "miniaero-order.sh: $M was not carried" >&2; exit 2; }
if ldd "$M" | grep -q 'not found'; then
  ldd "$M" | grep 'not found' >&2
  echo "miniaero-order.sh: $M misses libraries (carry .device/libs)" >&2
  exit 2
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$R/gpu.txt"
{ git log -1 --format='%H %s'; git status --short; } >"$R/tree.txt"
export OMP_NUM_THREADS=16 OMP_PROC_BIND=false
inp=perf/miniaero/sod128_o2_visc.inp
if [[ $mode == two ]]; then
  nvidia-smi -L >>"$R/gpu.txt"
  for n in 128 256; do
    steps=$((n == 128 ? 20 : 10))
    common="--input $inp --mesh $n,$n,$n --steps $steps --exec atomic --layout soa --reorder rcm"
    rc=0
    timeout 200 $M $common --kokkos-device-id=0 >"$R/one$n.log" 2>&1 || rc=$?
    note "$n^3 one GPU rc=$rc"
    rc=0
    timeout 200 mpirun -np 2 --bind-to none $M $common --kokkos-num-devices=2 --transport nccl \
      >"$R/two$n.log" 2>&1 || rc=$?
    note "$n^3 two GPUs rc=$rc"
  done
  grep -H "steps in\|mesh:\|halo exchange [0-9]" "$R"/one*.log "$R"/two*.log >>"$R/summary.txt" || true
  # The copy bandwidth in the same call (the benchmark prints it).
  rc=0
  timeout 60 $M --input $inp --mesh 64,64,64 --exec atomic --layout soa --bench 1 >"$R/bandwidth.log" 2>&1 || rc=$?
  note "copy bandwidth rc=$rc: $(grep -m1 -i 'copy bandwidth' "$R/bandwidth.log" || true)"
  finish miniaero-order-two
  exit 0
fi
if [[ $mode == stage ]]; then
  for stencil in faces cells; do
    rc=0
    $M --input $inp --mesh 128,128,128 --exec atomic,auto,miniaero-atomic --layout soa --reorder rcm \
      --stencil $stencil --bench 5 --csv "$R/bench-$stencil.csv" >"$R/bench-$stencil.log" 2>&1 || rc=$?
    note "bench, stencil $stencil rc=$rc"
    grep -H "copy bandwidth\|stage" "$R/bench-$stencil.log" >>"$R/summary.txt" || true
  done
  finish miniaero-stage
  exit 0
fi
common="--input $inp --mesh 128,128,128 --steps 20 --exec atomic --layout soa"
rc=0
$M $common --reorder rcm >"$R/one-rcm.log" 2>&1 || rc=$?
note "one process, rcm rc=$rc"
for order in none rcm; do
  rc=0
  mpirun -np 1 --bind-to none $M $common --distributed --reorder $order >"$R/dist1-$order.log" 2>&1 ||
    rc=$?
  note "distributed, one rank, $order rc=$rc"
done
grep -H "steps in\|mesh:\|halo exchange [0-9]" "$R"/one-rcm.log "$R"/dist1-*.log >>"$R/summary.txt" || true
rc=0
$M --input $inp --mesh 128,128,128 --exec atomic,auto,miniaero-atomic --layout soa --reorder rcm \
  --bench 5 --csv "$R/bench.csv" >"$R/bench.log" 2>&1 || rc=$?
note "bench rc=$rc"
finish miniaero-order
