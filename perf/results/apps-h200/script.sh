#!/usr/bin/env bash
# The apps' regression cases and miniAero's RK stage on one GPU (issue 38), and the host suite
# linked to Debian's Kokkos 5.2.2 (issue 43), all built on the device from the offline bundle
# (carry .bundle). Calls on one warm machine, each within a call's 600 s:
#   build  umesh_miniaero, umesh_lulesh and their test programs (CUDA, Kokkos 3.4.01 patched)
#   run    every app.miniaero.* and app.lulesh.* case of one process on the GPU (every executor
#          and layout the cases name), the RK stage at 128^3 (--bench 5: atomic and auto beside
#          miniAero's own atomics, --stencil faces and cells, the copy bandwidth in the same run),
#          compute-sanitizer memcheck and racecheck on miniAero's cell loops (Ramp, --stencil
#          cells) and face loops; meanwhile the Kokkos 5.2.2 host build runs in the background
#   k5     waits for that build, then runs the whole host suite linked to Kokkos 5.2.2 (ctest)
. perf/device/env.sh
mode=${1:-}
cuda_build() { ls -d "$HOME"/.cache/umesh/build/umesh-*-cuda-cxx17 2>/dev/null | head -1; }
k5_log=/tmp/k5-build.log
# libscotch.so needs libscotcherr.so, found only through the loader's path.
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
case "$mode" in
build)
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$R/gpu.txt"
  { git log -1 --format='%H %s'; git status --short; } >"$R/tree.txt"
  rc=0
  timeout 570 ./setup.sh --bundle "$PWD/.bundle" --backend cuda --jobs 16 \
    --targets umesh_miniaero,umesh_lulesh,test_miniaero,test_lulesh build >"$R/build.log" 2>&1 || rc=$?
  note "CUDA build rc=$rc"
  tail -5 "$R/build.log" >>"$R/summary.txt"
  finish apps-gpu-build
  ;;
run)
  b=$(cuda_build)
  [[ -x $b/apps/miniaero/umesh_miniaero ]] || { echo "apps-gpu.sh run: no CUDA build (run build first, on this warm machine)" >&2; exit 2; }
  # The Kokkos 5.2.2 host build, in a session of its own so that it outlives this call.
  setsid nice -n 10 ./setup.sh --bundle "$PWD/.bundle" --kokkos 5.2.2 --cxx-std 20 --jobs 12 build \
    >$k5_log 2>&1 </dev/null &
  export OMP_NUM_THREADS=4 OMP_PROC_BIND=false
  rc=0
  (cd "$b" && timeout 330 ctest -j 3 -R '^app[.](miniaero|lulesh)[.]' -E '[.]np[0-9]|one_rank_fails|blocks_' \
    --output-on-failure) >"$R/ctest-apps.log" 2>&1 || rc=$?
  note "apps' cases on the GPU rc=$rc: $(grep -E 'tests passed|tests failed' "$R/ctest-apps.log")"
  M=$b/apps/miniaero/umesh_miniaero
  inp=perf/miniaero/sod128_o2_visc.inp
  for stencil in cells faces; do
    rc=0
    timeout 90 $M --input $inp --mesh 128,128,128 --exec atomic,auto,miniaero-atomic --layout soa \
      --reorder rcm --stencil $stencil --bench 5 --csv "$R/bench-$stencil.csv" >"$R/bench-$stencil.log" 2>&1 || rc=$?
    note "bench, stencil $stencil rc=$rc"
    grep -H "copy bandwidth\|stage" "$R/bench-$stencil.log" >>"$R/summary.txt" || true
  done
  ramp=tests/data/miniaero/Ramp_Serial/miniaero.inp
  for tool in memcheck racecheck; do
    for stencil in cells faces; do
      rc=0
      timeout 60 compute-sanitizer --tool $tool $M --input $ramp --steps 2 --exec atomic,hierarchical \
        --layout soa --block 64 --stencil $stencil >"$R/$tool-$stencil.log" 2>&1 || rc=$?
      note "$tool, stencil $stencil rc=$rc: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/$tool-$stencil.log" | sort | uniq -c | tr '\n' ' ')"
    done
  done
  finish apps-gpu-run
  ;;
k5)
  while pgrep -f 'setup.sh --bundle.*--kokkos 5.2.2' >/dev/null && ((SECONDS < 400)); do sleep 5; done
  cp $k5_log "$R/k5-build.log" 2>/dev/null
  note "Kokkos 5.2.2 build: $(tail -1 $k5_log 2>/dev/null)"
  rc=0
  timeout $((590 - SECONDS)) ./setup.sh --bundle "$PWD/.bundle" --kokkos 5.2.2 --cxx-std 20 --jobs 16 test \
    >"$R/k5-test.log" 2>&1 || rc=$?
  note "host suite, Kokkos 5.2.2 rc=$rc: $(grep -E 'tests passed|tests failed' "$R/k5-test.log")"
  grep -m3 -E "Kokkos.*5[.]2|KOKKOS_VERSION" "$R/k5-test.log" >>"$R/summary.txt" || true
  finish apps-gpu-k5
  ;;
*)
  echo "usage: $0 build|run|k5" >&2
  exit 2
  ;;
esac
