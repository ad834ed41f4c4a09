#!/usr/bin/env bash
# Issue 42's compile-time measure: the quickstart's six-argument loop
# (perf/compile_time/loop.cpp) compiled under each executor, one compile at
# a time, with the build folder's own compiler and flags (its host g++ -O3,
# or nvcc for its CUDA architecture in a CUDA build), ccache bypassed.
#   perf/compile_time/run.sh BUILD_DIR [REPEATS]     (a configured umesh build folder; default 1)
# Prints one line per executor, "auto: 5.9 s (1.9x atomic)" (the median of
# REPEATS compiles), and writes them to BUILD_DIR/compile_time.csv; the load
# average before and after (another compile on the machine slows every line).
# auto is exec::Auto with the backend's default candidates, autoall every
# executor a candidate (exec::AutoAll).
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 BUILD_DIR [REPEATS]" >&2; exit 2; }
build=$1 repeats=${2:-1}
[[ -f $build/build.ninja ]] || { echo "$0: '$build' is not a configured umesh build folder (no build.ninja)" >&2; exit 2; }
[[ $repeats =~ ^[1-9][0-9]*$ ]] || { echo "$0: REPEATS must be a positive integer, not '$repeats'" >&2; exit 2; }
# (CMake reruns first where the tree's CMake files changed since the folder was configured.)
ninja -C "$build" build.ninja >/dev/null || { echo "$0: re-configuring '$build' failed" >&2; exit 1; }
grep -q "compile_time_atomic" "$build/build.ninja" ||
  { echo "$0: '$build' has no compile_time_* targets (configure it with UMESH_ENABLE_PERF=ON at this commit)" >&2; exit 2; }
export CCACHE_DISABLE=1
echo "executor,seconds" >"$build/compile_time.csv"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
atomic=
for name in atomic warpcombine hierarchical auto autoall; do
  obj=perf/compile_time/CMakeFiles/compile_time_$name.dir/loop.cpp.o
  times=()
  for ((r = 0; r < repeats; ++r)); do
    rm -f "$build/$obj"
    start=$EPOCHREALTIME
    ninja -C "$build" -j 1 "$obj" >/dev/null || { echo "$0: compiling $obj failed" >&2; exit 1; }
    times+=("$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {print b - a}')")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
  [[ -n $atomic ]] || atomic=$median
  printf '%s: %.1f s (%.1fx atomic)\n' "$name" "$median" "$(awk -v a="$median" -v b="$atomic" 'BEGIN {print a / b}')"
  echo "$name,$median" >>"$build/compile_time.csv"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
