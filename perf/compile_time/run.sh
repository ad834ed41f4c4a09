#!/usr/bin/env bash
# Issue 42's compile-time measure: the quickstart's six-argument loop
# (perf/compile_time/loop.cpp) compiled under each executor, one compile at
# a time, with the build folder's own compiler and flags (its host g++ -O3,
# or nvcc for its CUDA architecture in a CUDA build), ccache bypassed.
#   perf/compile_time/run.sh BUILD_DIR [REPEATS]     (a configured umesh build folder; default 1)
# Prints one line per executor, "auto: 4.1 s (1.9x atomic), CPU 3.9 s (1.9x)"
# (medians of REPEATS compiles: wall seconds, and CPU seconds, which another
# job on the machine disturbs less), and writes them to
# BUILD_DIR/compile_time.csv; the load average before and after.
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
echo "executor,seconds,cpu_seconds" >"$build/compile_time.csv"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
atomic=
for name in atomic warpcombine hierarchical hierarchicalall auto autoall; do
  obj=perf/compile_time/CMakeFiles/compile_time_$name.dir/loop.cpp.o
  walls=() cpus=()
  for ((r = 0; r < repeats; ++r)); do
    rm -f "$build/$obj"
    # Wall seconds, and the CPU seconds of ninja and the compiler it waited for.
    t=$( { /usr/bin/time -f '%e %U %S' ninja -C "$build" -j 1 "$obj" >/dev/null; } 2>&1 | tail -1) ||
      { echo "$0: compiling $obj failed" >&2; exit 1; }
    read -r wall user sys <<<"$t"
    walls+=("$wall")
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')")
  done
  wall=$(printf '%s\n' "${walls[@]}" | median)
  cpu=$(printf '%s\n' "${cpus[@]}" | median)
  [[ -n $atomic ]] || atomic=$wall atomic_cpu=$cpu
  printf '%s: %.1f s (%.1fx atomic), CPU %.1f s (%.1fx)\n' "$name" "$wall" \
    "$(awk -v a="$wall" -v b="$atomic" 'BEGIN {print a / b}')" "$cpu" \
    "$(awk -v a="$cpu" -v b="$atomic_cpu" 'BEGIN {print a / b}')"
  echo "$name,$wall,$cpu" >>"$build/compile_time.csv"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
