#!/usr/bin/env bash
# Issue 56 on one GPU: umesh::LoopGraph (recorded loop sequences as CUDA graphs), three calls on
# one warm machine (carry .bundle; `time` also .device/port, the port's cuda/src):
#   build  test_loop_graph, umesh_lulesh and umesh_miniaero there (CUDA, Kokkos 3.4.01 patched)
#   check  test_loop_graph (its Cuda suites: capture, replays, the recording errors) and under
#          compute-sanitizer memcheck; every one-process app.lulesh.* and app.miniaero.* case
#          (graphs are the default on CUDA) and the graph-off and same-results cases
#   time   LULESH from -s 5 to -s 150, microseconds per cycle with and without graphs beside
#          LLNL's port (CURVE=1 perf/lulesh_port/run.sh, RUNS default atomic:soa); miniAero's RK
#          stage at 64^3 and 128^3 with and without graphs (--bench 5)
. perf/device/env.sh
mode=${1:-}
cuda_build() { ls -d "$HOME"/.cache/umesh/build/umesh-*-cuda-cxx17 2>/dev/null | head -1; }
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
case "$mode" in
build)
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$R/gpu.txt"
  { git log -1 --format='%H %s'; git status --short; } >"$R/tree.txt"
  rc=0
  timeout 570 ./setup.sh --bundle "$PWD/.bundle" --backend cuda --jobs 16 \
    --targets test_loop_graph,umesh_lulesh,umesh_miniaero build >"$R/build.log" 2>&1 || rc=$?
  note "CUDA build rc=$rc"
  tail -5 "$R/build.log" >>"$R/summary.txt"
  finish loop-graph-build
  ;;
check)
  b=$(cuda_build)
  [[ -x $b/tests/test_loop_graph ]] || { echo "loop-graph.sh check: no CUDA build (run build first)" >&2; exit 2; }
  export OMP_NUM_THREADS=4 OMP_PROC_BIND=false
  rc=0
  timeout 120 "$b/tests/test_loop_graph" >"$R/test_loop_graph.log" 2>&1 || rc=$?
  note "test_loop_graph rc=$rc: $(grep -E '^\[  (PASSED|FAILED) ' "$R/test_loop_graph.log" | tr '\n' ' ')"
  f="$("$b/tests/test_loop_graph" --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ {sub(/\.$/, "", $1); printf "%s.*:", $1}')"
  rc=0
  timeout 200 compute-sanitizer --tool memcheck "$b/tests/test_loop_graph" --gtest_filter="$f" \
    >"$R/memcheck.log" 2>&1 || rc=$?
  note "memcheck rc=$rc: $(grep 'ERROR SUMMARY' "$R/memcheck.log")"
  rc=0
  (cd "$b" && timeout 240 ctest -j 3 -R '^app[.](miniaero|lulesh)[.]' -E '[.]np[0-9]|one_rank_fails|blocks_' \
    --output-on-failure) >"$R/ctest-apps.log" 2>&1 || rc=$?
  note "apps' cases on the GPU rc=$rc: $(grep -E 'tests passed|tests failed' "$R/ctest-apps.log")"
  finish loop-graph-check
  ;;
time)
  b=$(cuda_build)
  [[ -x $b/apps/lulesh/umesh_lulesh ]] || { echo "loop-graph.sh time: no CUDA build (run build first)" >&2; exit 2; }
  [[ -e .device/port/cuda/src/lulesh.cu ]] || { echo "loop-graph.sh time: .device/port was not carried" >&2; exit 2; }
  rc=0
  CURVE=1 RUNS="${RUNS:-atomic:soa}" timeout 400 perf/lulesh_port/run.sh .device/port/cuda/src \
    "$b/apps/lulesh/umesh_lulesh" "$R/curve" >"$R/curve.log" 2>&1 || rc=$?
  note "LULESH curve rc=$rc"
  cat "$R/curve/lulesh_port_curve.csv" >>"$R/summary.txt" 2>/dev/null || tail -5 "$R/curve.log" >>"$R/summary.txt"
  M=$b/apps/miniaero/umesh_miniaero
  for n in 64 128; do
    for g in off on; do
      rc=0
      timeout 60 $M --input perf/miniaero/sod128_o2_visc.inp --mesh $n,$n,$n --exec atomic,auto \
        --layout soa --reorder rcm --bench 5 --graph $g --csv "$R/stage-$n-graph-$g.csv" \
        >"$R/stage-$n-graph-$g.log" 2>&1 || rc=$?
      note "miniAero $n^3 --graph $g rc=$rc"
      grep -H "copy bandwidth\|stage" "$R/stage-$n-graph-$g.log" >>"$R/summary.txt" || true
    done
  done
  finish loop-graph-time
  ;;
*)
  echo "usage: $0 build|check|time" >&2
  exit 2
  ;;
esac
