#!/usr/bin/env bash
# Issue 42 on the one-GPU kind (16 cores): a cold CUDA build of umesh_main, umesh_miniaero and
# umesh_lulesh from the offline bundle (carry .bundle), Kokkos included, on a bare machine, timed
# as a whole and split into the Kokkos build and umesh's; the 15 longest compile steps
# (.ninja_log, kept whole as ninja_log.txt with the CPU seconds of all steps). Every executor
# and layout (setup.sh's defaults).
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
  awk 'NR > 1 { s += ($2 - $1) / 1000 } END { printf "%.0f s of compile and link steps in all\n", s }' "$log" >>"$R/summary.txt"
  awk 'NR > 1 { printf "%8.1f s  %s\n", ($2 - $1) / 1000, $4 }' "$log" | sort -rn | head -15 >>"$R/summary.txt"
done
[[ -f $b/.ninja_log ]] && cp "$b/.ninja_log" "$R/ninja_log.txt"
grep -E "UMESH_APP_(INSTANCES|EXECUTORS|LAYOUTS)" "$b/CMakeCache.txt" >>"$R/summary.txt" 2>/dev/null
ls -la "$b/perf/umesh_main" "$b/apps/miniaero/umesh_miniaero" "$b/apps/lulesh/umesh_lulesh" >>"$R/summary.txt" 2>&1
# The programs it built, on the GPU (after the timing): LULESH -s 10 and miniAero's Sod case
# against their references under every executor and layout.
if ((rc == 0)); then
  # (libscotch.so needs libscotcherr.so, found only through the loader's path)
  export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
  timeout 120 "$b/apps/lulesh/umesh_lulesh" -s 10 --exec all --layout aos,soa --block 64 \
    --expect-cycles 231 --expect-energy 2.72053116847034689e+04 >"$R/lulesh-s10.log" 2>&1
  note "lulesh -s 10 rc=$? $(grep 'runs pass the checks' "$R/lulesh-s10.log")"
  d=tests/data/miniaero/3D_Sod_Serial
  timeout 120 "$b/apps/miniaero/umesh_miniaero" --input $d/miniaero.inp --exec all --layout aos,soa \
    --block 64 --compare $d/reference.txt >"$R/miniaero-sod.log" 2>&1
  note "miniaero sod rc=$? $(grep 'runs match the reference' "$R/miniaero-sod.log")"
  # The main job's every hierarchical variant (exec::HierarchicalAll) validated on the GPU,
  # then (CHECK_TESTS=1, after the timing) the hierarchical tests built and run there.
  timeout 120 "$b/perf/umesh_main" --size tiny --kernel res_calc,face_flux --layout aos,soa \
    --executor atomic,hierarchical,auto --repeats 2 --out "$R/main-tiny" >"$R/main-tiny.log" 2>&1
  note "main tiny rc=$? $(grep -c '^ *hier-' "$R/main-tiny.log") hier rows; $(grep -o 'every executor validated' "$R/main-tiny.log" | head -1)"
  if [[ ${CHECK_TESTS:-0} == 1 ]]; then
    timeout 300 cmake --build "$b" -j "$jobs" --target test_hierarchical >"$R/test-build.log" 2>&1
    note "test_hierarchical build rc=$?"
    timeout 200 "$b/tests/test_hierarchical" --gtest_brief=1 >"$R/test_hierarchical.log" 2>&1
    note "test_hierarchical rc=$? $(tail -3 "$R/test_hierarchical.log" | tr '\n' ' ')"
  fi
fi
finish cold-build
