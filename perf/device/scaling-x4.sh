#!/usr/bin/env bash
# Issue 39 on the 4-GPU kind in one call, everything built there from the offline bundle (carry
# .bundle): umesh_miniaero (CUDA, Kokkos 3.4.01 patched, MPI and NCCL; atomic, SoA) and, on the
# CPUs meanwhile, the Kokkos 5.2.2 host build of the four programs the bad-input cases run
# (issue 43: those cases again, linked to Debian's 5.2.2 on glibc 2.39).
# Then miniAero Sod N^3 (default 256, 10 steps), each side in its fastest configuration measured:
# one GPU renumbered (--reorder rcm, the limiter over cells), two and four GPUs (one rank a GPU,
# NCCL, each rank building and renumbering its own block, the limiter over cells), each also
# with --timed-exchanges (each exchange fenced: packing, transfer, unpacking, the wait for the
# neighbours); NCCL's own transfer between two GPUs (perf/probes/nccl_sendrecv_probe.cpp); the
# copy bandwidth.
#   perf/device/scaling-x4.sh [N] [all|exchange]
# `exchange`: a short call (the session's last device minutes): only the four-GPU runs (fenced
# first), and of the Kokkos 5.2.2 programs only umesh_lulesh (atomic), for its out-of-memory case.
. perf/device/env.sh
n=${1:-256} mode=${2:-all}
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
{
  git log -1 --format='%H %s'
  git status --short
  nvidia-smi -L
  nvidia-smi topo -m
  nproc
  mpirun --version | head -1
} >"$R/env.txt" 2>&1
bundle=$PWD/.bundle
(UMESH_CMAKE_ARGS="-DUMESH_APP_EXECUTORS=Atomic -DUMESH_APP_LAYOUTS=SoA" timeout 420 ./setup.sh \
  --bundle "$bundle" --backend cuda --jobs 40 --targets umesh_miniaero build >"$R/build.log" 2>&1
  echo "rc=$?" >>"$R/build.log") &
cuda=$!
# The bundle's .debs are unpacked once (a stamp); the second build starts after that.
while ! ls "$HOME"/.cache/umesh/deps/.from-* >/dev/null 2>&1 && ((SECONDS < 60)); do sleep 1; done
k5_targets=umesh_main,umesh_plan,umesh_miniaero,umesh_lulesh k5_args=
[[ $mode == exchange ]] && k5_targets=umesh_lulesh k5_args="-DUMESH_APP_EXECUTORS=Atomic -DUMESH_APP_LAYOUTS=SoA"
(UMESH_CMAKE_ARGS="$k5_args" timeout 400 ./setup.sh --bundle "$bundle" --kokkos 5.2.2 --cxx-std 20 \
  --jobs 20 --targets $k5_targets build >"$R/k5-build.log" 2>&1
  echo "rc=$?" >>"$R/k5-build.log") &
k5=$!
wait $cuda
note "CUDA build: $(tail -1 "$R/build.log")"
wait $k5
note "Kokkos 5.2.2 build: $(tail -1 "$R/k5-build.log")"
k5dir=$(ls -d "$HOME"/.cache/umesh/build/umesh-*-kokkos5.2.2-debian | head -1)
rc=0
if [[ $mode == exchange ]]; then # the one case, as tests/bad_input/cases.txt has it
  (ulimit -v 307200 && exec "$k5dir/apps/lulesh/umesh_lulesh" -s 100 -i 1 -q) >"$R/k5-lulesh-oom.log" 2>&1 || rc=$?
  note "Kokkos 5.2.2 lulesh.out_of_memory rc=$rc (3 expected): $(tail -1 "$R/k5-lulesh-oom.log" | cut -c1-300)"
else
  (cd "$k5dir" && timeout 120 ctest -j 8 -R '^bad_input[.]umesh_(main|plan|miniaero|lulesh)$' \
    --output-on-failure) >"$R/k5-bad-input.log" 2>&1 || rc=$?
  note "bad-input cases, Kokkos 5.2.2 rc=$rc: $(grep -E 'tests passed|tests failed' "$R/k5-bad-input.log")"
fi
M=$(ls -d "$HOME"/.cache/umesh/build/umesh-*-cuda-cxx17 | head -1)/apps/miniaero/umesh_miniaero
[[ -x $M ]] || { note "no umesh_miniaero"; finish scaling-x4; exit 1; }
export OMP_NUM_THREADS=16 OMP_PROC_BIND=false NCCL_DEBUG=WARN
inp=$PWD/perf/miniaero/sod128_o2_visc.inp
steps=$((n == 128 ? 20 : 10))
common=(--input "$inp" --mesh "$n,$n,$n" --steps "$steps" --layout soa --reorder rcm --exec atomic)
run() { # run NAME RANKS ARGS...: one run, its log under $R (none past 450 s: the record first)
  local name=$1 ranks=$2 rc=0
  shift 2
  ((SECONDS < 450)) || { note "$name skipped: out of time"; return; }
  if ((ranks == 1)); then
    timeout 150 "$M" "$@" --kokkos-device-id=0 >"$R/$name.log" 2>&1 || rc=$?
  else
    timeout 150 mpirun -np "$ranks" --bind-to none "$M" "$@" --kokkos-num-devices="$ranks" \
      --transport nccl >"$R/$name.log" 2>&1 || rc=$?
  fi
  note "$name rc=$rc: $(grep -m1 'steps in' "$R/$name.log" || true)"
}
if [[ $mode == exchange ]]; then
  run r4-timed 4 "${common[@]}" --timed-exchanges
  ((SECONDS < 150)) && run r4 4 "${common[@]}"
  grep -H "steps in\|halo exchange\|per exchange" "$R"/r*.log >>"$R/summary.txt" || true
  finish scaling-x4-exchange
  exit 0
fi
run one 1 "${common[@]}"
run r4 4 "${common[@]}"
run r2 2 "${common[@]}"
run r4-timed 4 "${common[@]}" --timed-exchanges
run r2-timed 2 "${common[@]}" --timed-exchanges
grep -H "steps in\|mesh:\|halo exchange\|per exchange\|exchange:\|host memory\|limiter\|dealt" \
  "$R"/one.log "$R"/r*.log >>"$R/summary.txt" || true
rc=0
((SECONDS < 500)) && mpicxx -O2 -std=c++17 -DOMPI_SKIP_MPICXX -I/usr/local/cuda/include \
  perf/probes/nccl_sendrecv_probe.cpp -L/usr/local/cuda/lib64 -lnccl -lcudart \
  -o /tmp/nccl_probe >"$R/probe-build.log" 2>&1 &&
  timeout 90 mpirun -np 2 --bind-to none /tmp/nccl_probe 50 >"$R/probe.log" 2>&1 || rc=$?
note "NCCL probe rc=$rc"
cat "$R/probe.log" >>"$R/summary.txt" 2>/dev/null
rc=0
((SECONDS < 520)) && timeout 40 "$M" --input "$inp" --mesh 64,64,64 --exec atomic --layout soa --bench 1 \
  --kokkos-device-id=0 >"$R/bandwidth.log" 2>&1 || rc=$?
note "copy bandwidth rc=$rc: $(grep -m1 -i 'copy bandwidth' "$R/bandwidth.log" || true)"
finish scaling-x4
