#!/usr/bin/env bash
# The one device driver: steps named on the command line run in order on the lent GPU machine,
# in the repository root, each with a time limit, writing into $OUT (see env.sh); a step that
# fails is recorded and the next one runs. Carry .bundle for `build` and `suite`, .device/port for
# `lulesh-curve`.
#   perf/device/run.sh STEP[=ARG] ...
# Steps:
#   build=T1,T2,...   the CUDA build of those CMake targets from the bundle (Kokkos 3.4.01 patched)
#   gtest=PROGRAM     a test program of that build (tests/PROGRAM), its log and pass/fail line
#   memcheck=PROGRAM  compute-sanitizer memcheck on PROGRAM's Cuda suites
#   apps              the one-process app.lulesh.* and app.miniaero.* ctest cases of that build
#   lulesh-curve      LULESH -s 5..150 with and without graphs beside LLNL's port (CURVE=1
#                     perf/lulesh_port/run.sh; RUNS default atomic:soa)
#   miniaero-stage    miniAero's RK stage at 64^3 and 128^3 (atomic, auto) with and without graphs
#   element-bench=ARGS  umesh_element_bench with ARGS ('+' for spaces), CSV kept
#   suite             the whole CUDA test suite: ./setup.sh --backend cuda test (its count kept)
#   reproducible=main umesh_main --reproducible twice (auto's choices kept in a tuning file): the
#                     reproducible rows' bits of both runs diffed, each kernel's cost line kept
#   reproducible=apps LULESH (-s 30) and miniAero (Sod 64^3) under --reproducible twice each, auto
#                     with a tuning file: energies to 17 digits and results files compared
# Environment: JOBS (build jobs, default the cores), STEP_LIMIT (seconds a step may take, default
# 560).
. perf/device/env.sh
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4} OMP_PROC_BIND=false
jobs=${JOBS:-$(nproc)}
limit=${STEP_LIMIT:-560}
cuda_build() { ls -d "$HOME"/.cache/umesh/build/umesh-*-cuda-cxx17 2>/dev/null | head -1; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$R/gpu.txt" 2>&1
{ git log -1 --format='%H %s'; git status --short | head -50; } >"$R/tree.txt"
note "device: $(tail -1 "$R/gpu.txt")"

step_build() {
  timeout "$limit" ./setup.sh --bundle "$PWD/.bundle" --backend cuda --jobs "$jobs" \
    --targets "$1" build >"$R/build.log" 2>&1
  local rc=$?
  tail -3 "$R/build.log" >>"$R/summary.txt"
  grep -m5 -E 'error' "$R/build.log" >>"$R/summary.txt"
  return $rc
}
step_gtest() {
  local b; b=$(cuda_build)
  timeout "$limit" "$b/tests/$1" >"$R/$1.log" 2>&1
  local rc=$?
  grep -E '^\[  (PASSED|FAILED) |^\[  SKIPPED \] [0-9]' "$R/$1.log" >>"$R/summary.txt"
  grep -E '^\[  FAILED  \] [A-Z]' "$R/$1.log" | head -20 >>"$R/summary.txt"
  return $rc
}
step_memcheck() {
  local b f; b=$(cuda_build)
  f="$("$b/tests/$1" --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ {sub(/\.$/, "", $1); printf "%s.*:", $1}')"
  timeout "$limit" compute-sanitizer --tool memcheck --print-limit 20 "$b/tests/$1" \
    --gtest_filter="$f" >"$R/memcheck-$1.log" 2>&1
  local rc=$?
  grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED) ' "$R/memcheck-$1.log" >>"$R/summary.txt"
  return $rc
}
step_apps() {
  local b; b=$(cuda_build)
  (cd "$b" && timeout "$limit" ctest -j 3 -R '^app[.](miniaero|lulesh)[.]' \
    -E '[.]np[0-9]|one_rank_fails|blocks_' --output-on-failure) >"$R/ctest-apps.log" 2>&1
  local rc=$?
  grep -E 'tests passed|tests failed|\(Failed\)' "$R/ctest-apps.log" >>"$R/summary.txt"
  return $rc
}
step_lulesh_curve() {
  local b; b=$(cuda_build)
  CURVE=1 RUNS="${RUNS:-atomic:soa}" timeout "$limit" perf/lulesh_port/run.sh .device/port/cuda/src \
    "$b/apps/lulesh/umesh_lulesh" "$R/curve" >"$R/curve.log" 2>&1
  local rc=$?
  cat "$R/curve/lulesh_port_curve.csv" >>"$R/summary.txt" 2>/dev/null || tail -5 "$R/curve.log" >>"$R/summary.txt"
  return $rc
}
step_miniaero_stage() {
  local b m n g rc=0; b=$(cuda_build)
  m=$b/apps/miniaero/umesh_miniaero
  for n in 64 128; do
    for g in off on; do
      timeout 90 "$m" --input perf/miniaero/sod128_o2_visc.inp --mesh $n,$n,$n --exec atomic,auto \
        --layout soa --reorder rcm --bench 5 --graph $g --csv "$R/stage-$n-graph-$g.csv" \
        >"$R/stage-$n-graph-$g.log" 2>&1 || rc=$?
      grep -H "copy bandwidth\|RK stage\|stage " "$R/stage-$n-graph-$g.log" | head -8 >>"$R/summary.txt"
    done
  done
  return $rc
}
step_element_bench() {
  local b; b=$(cuda_build)
  local args=${1//+/ } tag=${1//[^a-z0-9]/_}
  # shellcheck disable=SC2086
  timeout "$limit" "$b/perf/umesh_element_bench" $args --csv "$R/element-$tag.csv" \
    >"$R/element-$tag.log" 2>&1
  local rc=$?
  tail -25 "$R/element-$tag.log" >>"$R/summary.txt"
  return $rc
}
step_suite() {
  timeout "$limit" ./setup.sh --bundle "$PWD/.bundle" --backend cuda --jobs "$jobs" test \
    >"$R/suite.log" 2>&1
  local rc=$?
  grep -E 'tests passed|tests failed|The following tests FAILED' -A40 "$R/suite.log" |
    grep -E 'tests passed|tests failed|^\s+[0-9]+ - ' >>"$R/summary.txt"
  return $rc
}
step_reproducible() {
  local b i rc=0 t=$((limit / 2)); b=$(cuda_build)
  if [[ $1 == main ]]; then
    # Every reproducible variant beside the fastest others (atomic, warp with compact maps).
    for i in 1 2; do
      UMESH_TUNING_FILE="$R/repro-main.tuning" timeout "$t" "$b/perf/umesh_main" --size large \
        --executor atomic,scatterview,gather,colour,hierarchical,segmented,warp,auto \
        --staging all,inc,none --combine colours,atomics,gather --writeback coloured,atomic \
        --warp-maps 32,16 --reorder rcm --layout soa,aos --repeats 10 --warmup 2 --reproducible \
        --out "$R/repro-main-$i" >"$R/repro-main-$i.log" 2>&1 || rc=$?
      grep '^bits ' "$R/repro-main-$i.log" >"$R/repro-bits-$i.txt"
    done
    grep -E '^[a-z_]+ .*ms|  reproducible:' "$R/repro-main-1.log" | grep -B1 '  reproducible:' \
      >>"$R/summary.txt"
  else
    for i in 1 2; do
      timeout "$t" "$b/apps/lulesh/umesh_lulesh" -s 30 --exec auto,gather,colour,hierarchical \
        --reproducible --tuning-file "$R/repro-lulesh.tuning" --csv "$R/repro-lulesh-$i.csv" \
        >"$R/repro-lulesh-$i.log" 2>&1 || rc=$?
      cut -d, -f1-4,8 "$R/repro-lulesh-$i.csv" >"$R/repro-bits-lulesh-$i.txt"
      timeout "$t" "$b/apps/miniaero/umesh_miniaero" --input perf/miniaero/sod128_o2_visc.inp \
        --mesh 64,64,64 --steps 20 --exec auto --reproducible \
        --tuning-file "$R/repro-miniaero.tuning" --results "$R/repro-miniaero-$i.txt" \
        >"$R/repro-miniaero-$i.log" 2>&1 || rc=$?
    done
    cmp "$R/repro-miniaero-1.txt" "$R/repro-miniaero-2.txt" >>"$R/summary.txt" 2>&1 &&
      note "miniAero: both runs' results identical" || rc=1
    cp "$R/repro-bits-lulesh-1.txt" "$R/repro-bits-1.txt"
    cp "$R/repro-bits-lulesh-2.txt" "$R/repro-bits-2.txt"
  fi
  if diff "$R/repro-bits-1.txt" "$R/repro-bits-2.txt" >>"$R/summary.txt" &&
    [[ -s $R/repro-bits-1.txt ]]; then
    note "reproducible=$1: $(wc -l <"$R/repro-bits-1.txt") lines, both runs identical"
  else
    note "reproducible=$1: the runs DIFFER (or printed nothing)"
    rc=1
  fi
  return $rc
}

for s in "$@"; do
  name=${s%%=*} arg=
  [[ $s == *=* ]] && arg=${s#*=}
  fn=step_${name//-/_}
  if ! declare -F "$fn" >/dev/null; then
    note "unknown step '$name'"
    continue
  fi
  "$fn" "$arg"
  note "step $s: rc=$?"
  cp "$R/summary.txt" "$OUT/summary.txt" # back even if a later step runs past the call's limit
done
finish run
