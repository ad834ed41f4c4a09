#!/usr/bin/env bash
# Issue 54: the whole CUDA test suite on the lent GPU in one call, built there from the offline
# bundle (carry .bundle): ./setup.sh --bundle .bundle --backend cuda build (Kokkos, the
# dependencies and every target), then ctest over every test. Run it at the head of every
# submission that touches code; its count goes in the closing note.
#   perf/device/cuda-suite.sh            (the device tool: command "perf/device/cuda-suite.sh",
#                                         carry [".bundle"], on the one-GPU kind)
# Writes to $OUT:
#   count.txt   one line: "CUDA suite at <commit>: P of T passed (failed: ...) on <GPU>; ..."
#   ctest.log   ctest's whole listing, with the output of every failed test
#   build.log   the build's last 200 lines (the whole of it when the build failed)
#   build-errors.log  where targets failed to compile (the rest was built and ran)
#   nvidia-smi.txt
# Environment: BUNDLE (default .bundle), JOBS (build jobs, default nproc), CTEST_JOBS (default
# 8; each test holds PROCESSORS as CMake sets them), BUDGET (seconds for the whole call,
# default 590: the build takes what it needs, the tests the rest), CTEST_ARGS (more ctest
# arguments, e.g. "-R bad_input" to run a part), KOKKOS_PREBUILT (a Kokkos CUDA install made
# elsewhere with its prefix in .prefix, e.g. .device/kokkos-cuda carried: used where that prefix
# lies under $HOME here), TARGETS (build only these CMake targets, comma-separated, with
# CTEST_ARGS choosing their tests: a part of the suite when the device time left cannot hold it
# all; count.txt then says "part"), BUILD_LIMIT (seconds the build may take, default
# BUDGET - 60; a build cut short runs the tests it has). When a cold build leaves too little time
# for the tests, count.txt says so: call it again on the warm machine, whose build is then up to
# date.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUT="${OUT:-$PWD/gpu-out}"
mkdir -p "$OUT"
BUNDLE="${BUNDLE:-.bundle}"
JOBS="${JOBS:-$(nproc)}"
CTEST_JOBS="${CTEST_JOBS:-8}"
BUDGET="${BUDGET:-590}"
export PATH="$PATH:/usr/local/cuda/bin"
# The bundle's libscotch.so finds libscotcherr.so only through this path; OpenMPI refuses root
# without the two ALLOW variables, and its single-copy shared memory needs ptrace rights the
# device's containers lack.
export LD_LIBRARY_PATH="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
[ -n "$(git status --porcelain 2>/dev/null)" ] && commit="$commit+changes"
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
part="${TARGETS:+part (${CTEST_ARGS:-all tests}) }"
count() { echo "CUDA suite ${part}at $commit: $* on ${gpu:-no GPU found}" | tee "$OUT/count.txt"; }
if [ ! -d "$BUNDLE" ]; then
  count "not run: no offline bundle at '$BUNDLE' (carry .bundle, or set BUNDLE)"
  exit 2
fi

SECONDS=0
# A Kokkos built elsewhere for this GPU (KOKKOS_PREBUILT, carried; its install prefix in
# .prefix): used where this machine's path to it is the one it was installed at, since its
# CMake files name that path. It saves the Kokkos build's share of the call.
if [[ -n "${KOKKOS_PREBUILT:-}" && -f "$KOKKOS_PREBUILT/.prefix" ]]; then
  prefix="$(cat "$KOKKOS_PREBUILT/.prefix")"
  if [[ "$prefix" == "$HOME"/* ]] && mkdir -p "$(dirname "$prefix")" &&
    { [[ -d "$prefix" ]] || cp -a "$KOKKOS_PREBUILT" "$prefix"; }; then
    export Kokkos_ROOT="$prefix"
  fi
fi
build_limit="${BUILD_LIMIT:-$((BUDGET - 60))}"
# shellcheck disable=SC2086 # TARGETS: one comma-separated word
timeout "$build_limit" ./setup.sh --bundle "$BUNDLE" --backend cuda --jobs "$JOBS" \
  ${TARGETS:+--targets $TARGETS} build >"$OUT/build.full.log" 2>&1
rc=$?
build_s=$SECONDS
# shellcheck disable=SC2012 # the newest CUDA build folder; their names are ours
B="$(ls -td "$HOME"/.cache/umesh/build/umesh-*-cuda-cxx17 2>/dev/null | head -1)"
broken=""
if [ $rc -ne 0 ]; then
  # One target that does not compile fails its tests alone: the rest is built (ninja -k 0) and
  # the suite runs, its count naming what did not build; a build cut short by BUILD_LIMIT runs
  # the tests it has (the others count as not run).
  if [ -n "$B" ] && [ -f "$B/build.ninja" ] && [ $((build_limit - SECONDS)) -gt 10 ]; then
    # shellcheck disable=SC2086 # the targets as words
    timeout $((build_limit - SECONDS)) cmake --build "$B" -j "$JOBS" \
      ${TARGETS:+--target ${TARGETS//,/ }} -- -k 0 >>"$OUT/build.full.log" 2>&1
    rc=$?
  fi
  broken="$(grep -oE '^FAILED: [^ ]+' "$OUT/build.full.log" | sed 's/^FAILED: //' | sort -u |
    tr '\n' ' ' | sed 's/ $//')"
  [ $rc -eq 124 ] && broken="${broken:+$broken; }the build cut short after $build_limit s"
  if [ -z "$broken" ] || [ -z "$B" ] || [ ! -f "$B/build.ninja" ]; then
    mv "$OUT/build.full.log" "$OUT/build.log"
    count "not run: the build failed (exit $rc after ${build_s} s; build.log)"
    exit 1
  fi
  grep -B2 -A20 -E '^FAILED: ' "$OUT/build.full.log" | head -400 >"$OUT/build-errors.log"
  build_s=$SECONDS
fi
tail -200 "$OUT/build.full.log" >"$OUT/build.log"
rm -f "$OUT/build.full.log"
left=$((BUDGET - SECONDS - 10))
if [ -z "$B" ] || [ $left -lt 30 ]; then
  count "not run: ${B:+only $left s left after the build (${build_s} s)}${B:-no CUDA build folder}"
  exit 1
fi
# shellcheck disable=SC2086 # CTEST_ARGS: words for ctest
(cd "$B" && timeout "$left" ctest -j "$CTEST_JOBS" --timeout "$left" --output-on-failure \
  ${CTEST_ARGS:-}) >"$OUT/ctest.log" 2>&1
rc=$?
tests_s=$((SECONDS - build_s))
total="$(grep -oE 'tests failed out of [0-9]+' "$OUT/ctest.log" | grep -oE '[0-9]+$' | tail -1)"
failed="$(grep -oE '[0-9]+ tests failed out of' "$OUT/ctest.log" | grep -oE '^[0-9]+' | tail -1)"
names="$(sed -n '/The following tests FAILED:/,$p' "$OUT/ctest.log" | grep -oE ' - [^ ]+' |
  sed 's/^ - //' | tr '\n' ' ' | sed 's/ $//')"
if [ -z "$total" ]; then
  count "ctest did not finish (exit $rc after ${tests_s} s, timeout $left s; build ${build_s} s; ctest.log)"
  exit 1
fi
count "$((total - failed)) of $total passed${names:+ (failed: $names)}${broken:+; did not build: $broken (build-errors.log)}; build ${build_s} s, tests ${tests_s} s"
[ "$failed" = 0 ] && [ -z "$broken" ]
