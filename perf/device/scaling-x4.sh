#!/usr/bin/env bash
# Issue 39 on the 4-GPU kind in one call, everything built there from the offline bundle (carry
# .bundle): umesh_miniaero and umesh_lulesh (CUDA, Kokkos 3.4.01 patched, MPI and NCCL; atomic,
# SoA), then, each side in its fastest configuration measured:
# - miniAero Sod N^3 (default 256, 10 steps), strong scaling: one GPU renumbered (--reorder rcm,
#   the limiter over cells), four and two GPUs (one rank a GPU, NCCL, each rank building and
#   renumbering its own block, the limiter over cells), four also with --timed-exchanges (each
#   exchange fenced: packing, transfer, unpacking, the wait for the neighbours);
# - miniAero weak scaling: four GPUs on four times the cells (2N x 2N x N, N^3 a GPU);
# - LULESH -s S (default 250, 200 cycles): one GPU (atomic SoA, its fastest measured) against
#   four (slabs of its element order, NCCL), four also fenced;
# - NCCL's own transfer between two GPUs (perf/probes/nccl_sendrecv_probe.cpp); the copy
#   bandwidth.
#   perf/device/scaling-x4.sh [N] [S] [full|focus|short|partitioners|lulesh]
# GPUS=2 (the two-GPU kind) runs on two GPUs where the text says four (no weak scaling).
# focus: the exchange and LULESH only (miniAero at four GPUs, fenced and not, against one; LULESH
# -s S and -s S+50 on one and four GPUs, and each loop's fenced time at -s S); short: focus
# without -s S+50 and the loop timings (a call's last device minutes); partitioners: short, then
# test_distributed_overlap at 2 and 4 ranks (through NCCL too) and PT-Scotch's and METIS's parts
# beside slabs and blocks (LULESH -s 150, miniAero 128^3); lulesh: LULESH's three runs alone.
# With --timed-exchanges the apps also time NCCL alone moving the same bytes between the same
# ranks (umesh::dist::nccl_transfer_seconds), the exchange's baseline, in the same run.
. perf/device/env.sh
n=${1:-256} s=${2:-250} mode=${3:-full} g=${GPUS:-4}
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
{
  git log -1 --format='%H %s'
  git status --short
  nvidia-smi -L
  nvidia-smi topo -m
  nproc
  mpirun --version | head -1
} >"$R/env.txt" 2>&1
rc=0
targets=umesh_miniaero,umesh_lulesh
[[ $mode == partitioners ]] && targets+=,test_distributed_overlap
UMESH_CMAKE_ARGS="-DUMESH_APP_EXECUTORS=Atomic -DUMESH_APP_LAYOUTS=SoA" timeout 300 ./setup.sh \
  --bundle "$PWD/.bundle" --backend cuda --jobs 64 --targets "$targets" build \
  >"$R/build.log" 2>&1 || rc=$?
note "CUDA build rc=$rc"
b=$(ls -d "$HOME"/.cache/umesh/build/umesh-*-cuda-cxx17 | head -1)
M=$b/apps/miniaero/umesh_miniaero L=$b/apps/lulesh/umesh_lulesh
[[ -x $M && -x $L ]] || { tail -30 "$R/build.log" >>"$R/summary.txt"; finish scaling-x4; exit 1; }
export OMP_NUM_THREADS=16 OMP_PROC_BIND=false NCCL_DEBUG=WARN
inp=$PWD/perf/miniaero/sod128_o2_visc.inp
steps=$((n == 128 ? 20 : 10))
common=(--input "$inp" --mesh "$n,$n,$n" --steps "$steps" --layout soa --reorder rcm --exec atomic)
run() { # run NAME RANKS PROGRAM ARGS...: one run, its log under $R (none past 530 s)
  local name=$1 ranks=$2 prog=$3 rc=0
  shift 3
  ((SECONDS < 530)) || { note "$name skipped: out of time"; return; }
  if ((ranks == 1)); then
    timeout 120 "$prog" "$@" --kokkos-device-id=0 >"$R/$name.log" 2>&1 || rc=$?
  else
    timeout 120 mpirun -np "$ranks" --bind-to none "$prog" "$@" --kokkos-num-devices="$ranks" \
      --transport nccl >"$R/$name.log" 2>&1 || rc=$?
  fi
  note "$name rc=$rc: $(grep -m1 -E 'steps in|Elapsed time' "$R/$name.log" || true)"
}
if [[ $mode != lulesh ]]; then
  run r$g-timed $g "$M" "${common[@]}" --timed-exchanges
  run one 1 "$M" "${common[@]}"
  run r$g $g "$M" "${common[@]}"
fi
[[ $mode == full && $g == 4 ]] && run r2 2 "$M" "${common[@]}"
lcommon=(-s "$s" -i 200 --exec atomic --layout soa)
run lulesh-one 1 "$L" "${lcommon[@]}"
run lulesh-r$g $g "$L" "${lcommon[@]}" --partition slabs
run lulesh-r$g-timed $g "$L" "${lcommon[@]}" --partition slabs --timed-exchanges
if [[ $mode == full ]]; then
  ((g == 4)) && run weak-r4 4 "$M" "${common[@]/$n,$n,$n/$((2 * n)),$((2 * n)),$n}"
elif [[ $mode == partitioners ]]; then
  T=$b/tests/test_distributed_overlap
  for np in 2 $g; do
    rc=0
    timeout 60 mpirun -np $np --bind-to none "$T" --kokkos-num-devices=$np >"$R/test-overlap-np$np.log" 2>&1 || rc=$?
    note "test_distributed_overlap np$np rc=$rc: $(grep -E -m1 'PASSED|FAILED' "$R/test-overlap-np$np.log" || true)"
  done
  for part in slabs metis ptscotch; do
    run lulesh-s150-r$g-$part $g "$L" -s 150 -i 100 --exec atomic --layout soa --partition $part
  done
  m128=(--input "$inp" --mesh 128,128,128 --steps 20 --layout soa --reorder rcm --exec atomic)
  for part in blocks metis ptscotch; do
    run miniaero128-r$g-$part $g "$M" "${m128[@]}" --partition $part
  done
elif [[ $mode == focus ]]; then
  s2=$((s + 50))
  run lulesh-one-s$s2 1 "$L" -s $s2 -i 200 --exec atomic --layout soa
  run lulesh-r$g-s$s2 $g "$L" -s $s2 -i 200 --exec atomic --layout soa --partition slabs
  run lulesh-one-timers 1 "$L" -s "$s" -i 100 --exec atomic --layout soa --timers
  run lulesh-r$g-timers $g "$L" -s "$s" -i 100 --exec atomic --layout soa --partition slabs --timers
fi
grep -H "steps in\|mesh:\|halo exchange\|per exchange\|NCCL alone\|exchange:\|edge cut\|cut\|host memory\|limiter\|dealt\|Elapsed\|Grind\|Setup\|MPI tasks\|median ms\|per cycle" \
  "$R"/*.log >>"$R/summary.txt" 2>/dev/null || true
rc=0
((SECONDS < 550)) && mpicxx -O2 -std=c++17 -DOMPI_SKIP_MPICXX -I/usr/local/cuda/include \
  perf/probes/nccl_sendrecv_probe.cpp -L/usr/local/cuda/lib64 -lnccl -lcudart \
  -o /tmp/nccl_probe >"$R/probe-build.log" 2>&1 &&
  timeout 30 mpirun -np 2 --bind-to none /tmp/nccl_probe 50 1133568 2359296 4718592 >"$R/probe.log" 2>&1 || rc=$?
note "NCCL probe rc=$rc"
cat "$R/probe.log" >>"$R/summary.txt" 2>/dev/null
rc=0
((SECONDS < 570)) && timeout 25 "$M" --input "$inp" --mesh 64,64,64 --exec atomic --layout soa --bench 1 \
  --kokkos-device-id=0 >"$R/bandwidth.log" 2>&1 || rc=$?
note "copy bandwidth rc=$rc: $(grep -m1 -i 'copy bandwidth' "$R/bandwidth.log" || true)"
finish scaling-x4
