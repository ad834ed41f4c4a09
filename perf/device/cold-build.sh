#!/usr/bin/env bash
# Issue 42 on the one-GPU kind (16 cores): a cold CUDA build of umesh_main, umesh_miniaero and
# umesh_lulesh from the offline bundle (carry .bundle), Kokkos included, on a bare machine, timed
# as a whole and split into the Kokkos build and umesh's; the 15 longest compile steps
# (.ninja_log). Every executor and layout (setup.sh's defaults).
#   perf/device/cold-build.sh [JOBS]
. perf/device/env.sh
jobs=${1:-16}
{
  git log -1 --format='%H %s'
  nproc
  lscpu | grep -E 'Model name|^CPU\(s\)'
  nvidia-smi -L
  cmake --version | head -1
  nvcc --version | tail -2
} >"$R/env.txt" 2>&1
[[ -z $(ls -d "$HOME"/.cache/umesh/build/umesh-*-cuda-cxx17 2>/dev/null) ]] || note "not cold: a build folder exists"
rc=0
start=$SECONDS
timeout 580 ./setup.sh --bundle "$PWD/.bundle" --backend cuda --jobs "$jobs" \
  --targets umesh_main,umesh_miniaero,umesh_lulesh build >"$R/build.log" 2>&1 || rc=$?
note "cold build rc=$rc: $((SECONDS - start)) s with $jobs jobs"
grep -n -E "building umesh|configuring umesh|Kokkos" "$R/build.log" | head -8 >>"$R/summary.txt"
b=$(ls -d "$HOME"/.cache/umesh/build/umesh-*-cuda-cxx17 2>/dev/null | head -1)
k=$(ls -d "$HOME"/.cache/umesh/build/kokkos-*-cuda-cxx17 2>/dev/null | head -1)
for log in "$k/.ninja_log" "$b/.ninja_log"; do
  [[ -f $log ]] || continue
  # start and end milliseconds of each step: the span is that build's wall time
  awk -v name="$log" 'NR > 1 { if (min == "" || $1 < min) min = $1; if ($2 > max) max = $2 }
    END { printf "%s: %.1f s from first step to last\n", name, (max - min) / 1000 }' "$log" >>"$R/summary.txt"
  awk 'NR > 1 { printf "%8.1f s  %s\n", ($2 - $1) / 1000, $4 }' "$log" | sort -rn | head -15 >>"$R/summary.txt"
done
ls -la "$b/perf/umesh_main" "$b/apps/miniaero/umesh_miniaero" "$b/apps/lulesh/umesh_lulesh" >>"$R/summary.txt" 2>&1
finish cold-build
