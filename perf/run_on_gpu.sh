#!/usr/bin/env bash
# One device session: build umesh against the CUDA Kokkos from the offline
# bundle, run the test suite on the GPU, the sanitizers on the hierarchical
# executor, and the main job past the L2 cache. Logs go to $OUT.
#   perf/run_on_gpu.sh BUNDLE [test|check|main|miniaero|miniaero-profile|profile|all] [args...]
set -uo pipefail
cd "$(dirname "$0")/.."
BUNDLE="${1:?usage: perf/run_on_gpu.sh BUNDLE [test|check|main|all] [args]}"
STEP="${2:-all}"
shift 2 || shift $#
OUT="${OUT:-$PWD/gpu-out}"
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
# The bundle's libscotch.so finds libscotcherr.so only through this path.
export LD_LIBRARY_PATH="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
JOBS="$(nproc)"
build() { ls -d "$HOME"/.cache/umesh/build/umesh-*-cuda-cxx17 2>/dev/null | head -1; }

if [[ "$STEP" == test || "$STEP" == all ]]; then
  nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
  SECONDS=0
  ./setup.sh --bundle "$BUNDLE" --backend cuda --jobs "$JOBS" test 2>&1 | tee "$OUT/test.log" | tail -40
  echo "build + tests: ${SECONDS}s" | tee -a "$OUT/test.log"
fi

if [[ "$STEP" == main || "$STEP" == all ]]; then
  b="$(build)"
  (cd "$OUT" && "$b/perf/umesh_main" --full --size large --csv results.csv "$@") >"$OUT/main.log" 2>&1
  echo "main job: exit $?"; grep -E "^device|wrote|configurations|VALIDATION" "$OUT/main.log"
fi

if [[ "$STEP" == check || "$STEP" == all ]]; then
  b="$(build)"
  # Small meshes, every staging mode, and every reordering (blocks given by a
  # renumbering run without the element indirection); the Cuda
  # configurations only. Both tools must report zero errors.
  cuda_suites() { "$1" --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ {sub(/\.$/, "", $1); printf "%s.*:", $1}'; }
  hier="$(cuda_suites "$b/tests/test_hierarchical")"
  execs="$("$b/tests/test_executors" --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ && /Hierarchical/ {sub(/\.$/, "", $1); printf "%s.*Reordering*:", $1}')"
  for tool in memcheck racecheck; do
    compute-sanitizer --tool "$tool" --print-limit 20 "$b/tests/test_hierarchical" \
      --gtest_filter="$hier" >"$OUT/sanitizer-$tool.log" 2>&1
    echo "compute-sanitizer --tool $tool test_hierarchical [$hier]: exit $?; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Hazard' "$OUT/sanitizer-$tool.log" | tail -2 | tr '\n' ' ')"
    compute-sanitizer --tool "$tool" --print-limit 20 "$b/tests/test_executors" \
      --gtest_filter="$execs" >"$OUT/sanitizer-executors-$tool.log" 2>&1
    echo "compute-sanitizer --tool $tool test_executors [$execs]: exit $?; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Hazard' "$OUT/sanitizer-executors-$tool.log" | tail -2 | tr '\n' ' ')"
  done | tee "$OUT/sanitizers.txt"
fi

if [[ "$STEP" == miniaero || "$STEP" == all ]]; then
  # Args: CFG[:EXECS[:REORDERS]] ... over perf/miniaero/sod128_CFG.inp; by
  # default every variant on second order viscous, and the references,
  # atomic, gather and hierarchical on the other three configurations.
  # Environment: MINIAERO_BLOCK, MINIAERO_STAGING, MINIAERO_TIMEOUT (s per
  # configuration), MINIAERO_TAG (suffix of the CSV and log names),
  # MINIAERO_ARGS (more app options, e.g. "--stencil cells").
  b="$(build)"
  m="$b/apps/miniaero/umesh_miniaero"
  root="$PWD"
  mkdir -p "$OUT/miniaero" /tmp/miniaero-plans
  specs=("$@")
  ((${#specs[@]})) || specs=(o2_visc:all:none,rcm,gps,builtin
    o2_inv:miniaero-atomic,miniaero-cellflux,atomic,gather,hierarchical:none,rcm
    o1_inv:miniaero-atomic,miniaero-cellflux,atomic,gather,hierarchical:none,rcm
    o1_visc:miniaero-atomic,miniaero-cellflux,atomic,gather,hierarchical:none,rcm)
  for spec in "${specs[@]}"; do
    IFS=: read -r cfg execs reorders <<<"$spec"
    (cd "$OUT/miniaero" && timeout "${MINIAERO_TIMEOUT:-500}" "$m" \
      --input "$root/perf/miniaero/sod128_$cfg.inp" --exec "${execs:-all}" --layout aos,soa \
      --reorder "${reorders:-none}" --block "${MINIAERO_BLOCK:-128}" \
      --staging "${MINIAERO_STAGING:-all}" --bench 5 ${MINIAERO_ARGS:-} \
      --plan-dir /tmp/miniaero-plans --csv "bench_${cfg}${MINIAERO_TAG:-}.csv") \
      >"$OUT/miniaero/bench_${cfg}${MINIAERO_TAG:-}.log" 2>&1
    echo "miniaero bench $spec: exit $?"
  done
fi

if [[ "$STEP" == miniaero-profile ]]; then
  b="$(build)"
  # Nsight Compute on miniAero's face flux (128^3 Sod, second order, viscous,
  # RCM order): umesh's atomic kernel (SoA) and the first hierarchical block-
  # colour launches (AoS, block 128) with staging all and none.
  m="$b/apps/miniaero/umesh_miniaero"
  prof() {
    local tag="$1" count="$2"; shift 2
    timeout 200 ncu --kernel-name-base demangled -k 'regex:miniaero::FaceFlux<' -c "$count" \
      --section SpeedOfLight --section Occupancy --section LaunchStats \
      --section MemoryWorkloadAnalysis --section WarpStateStats \
      "$m" --input perf/miniaero/sod128_o2_visc.inp --steps 1 --reorder rcm --block 128 "$@" \
      >"$OUT/ncu-miniaero-$tag.txt" 2>&1
    echo "ncu $tag: exit $?, $(grep -c 'Section: GPU Speed Of Light' "$OUT/ncu-miniaero-$tag.txt") kernels"
  }
  prof atomic-soa 1 --exec atomic --layout soa
  prof hierarchical-aos-all 3 --exec hierarchical --layout aos --staging all
  prof hierarchical-aos-none 3 --exec hierarchical --layout aos --staging none
fi

if [[ "$STEP" == profile || "$STEP" == all ]]; then
  b="$(build)"
  # Nsight Compute on res_calc (natural numbering, AoS): the atomic kernel and
  # the hierarchical block-colour launches with full and no staging.
  timeout 300 ncu --kernel-name-base demangled -k 'regex:HierarchicalFunctor|ForFunctor' -c 27 \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
    "$b/perf/umesh_main" --full --size large --kernel res_calc --numbering natural \
    --executor atomic,hierarchical --blocks 128 --staging all,none --layout aos \
    --repeats 1 --warmup 1 --csv /tmp/ncu_main.csv >"$OUT/ncu.txt" 2>&1
  echo "ncu: exit $?, $(grep -c 'Section: GPU Speed Of Light' "$OUT/ncu.txt") kernels profiled"
fi
