#!/usr/bin/env bash
# Issue 38 on one GPU: LULESH on umesh against LLNL's CUDA port in one call
# (perf/lulesh_port/run.sh), the previous commit's umesh_lulesh beside, then
# Nsight Compute of the loops that dominate a cycle at -s 150, umesh's and the
# port's.
#   perf/device/lulesh-port.sh [table|profile|both|check|all]   (default both; all: the three)
# Carry: .device/port (the port: git archive 2.0.2-dev cuda/src of LLNL/LULESH)
# and .device/lulesh (umesh_lulesh, this tree's CUDA build, and
# base/umesh_lulesh, the previous commit's) and .device/libs (METIS and Scotch as
# the programs were linked to them). Environment as run.sh's (SIZES,
# RUNS, TIMERS...), PROFILE_SIZE (default 150) and PROFILE_EXECS (default atomic).
set -euo pipefail
source perf/device/env.sh
mode=${1:-both}
case "$mode" in table | profile | both | check | all) ;;
*) echo "usage: $0 [table|profile|both|check|all]" >&2; exit 2 ;;
esac
port=.device/port/cuda/src
new=.device/lulesh/umesh_lulesh
base=.device/lulesh/base/umesh_lulesh
for f in "$port/lulesh.cu" "$new" "$base"; do
  [[ -e $f ]] || { echo "lulesh-port.sh: $f was not carried" >&2; exit 2; }
done
for b in "$new" "$base"; do
  if ldd "$b" | grep -q 'not found'; then
    ldd "$b" | grep 'not found' >&2
    echo "lulesh-port.sh: $b misses libraries (carry .device/libs: METIS, Scotch)" >&2
    exit 2
  fi
done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$R/gpu.txt"
{ git log -1 --format='%H %s'; git status --short; } >"$R/tree.txt"
note "start ($mode)"
if [[ $mode == table || $mode == both || $mode == all ]]; then
  BASELINE="$base" TIMERS="${TIMERS:-1}" PORT_BIN_OUT=/tmp/lulesh-port-bin \
    perf/lulesh_port/run.sh "$port" "$new" "$R/table" | tee "$R/table.txt"
  note "table done"
fi
if [[ $mode == profile || $mode == both || $mode == all ]]; then
  s=${PROFILE_SIZE:-150}
  # The port's kernels and umesh's loops that make up a cycle: every launch
  # of two cycles after the first few (umesh's kernel names hold the
  # functors' types: lulesh::VolumeForces...).
  # The port as the table built it (kept on the machine between calls), or
  # built here the same way.
  if [[ ! -x /tmp/lulesh-port-bin ]]; then
    SIZES=5 RUNS=atomic:soa PORT_BIN_OUT=/tmp/lulesh-port-bin perf/lulesh_port/run.sh "$port" \
      "$new" "$R/port-build" >/dev/null
  fi
  work=$(mktemp -d)
  sections="--section SpeedOfLight --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis"
  # The port's cycle kernels (not its setup's thrust fills): every one of
  # cycle 3 and 4.
  (cd "$work" && ncu $sections -k 'regex:^(Calc|Apply|Add)' --launch-skip 20 --launch-count 20 \
    /tmp/lulesh-port-bin -s "$s" -i 6) >"$R/ncu-port-s$s.txt" 2>&1 || true
  note "port profiled"
  for e in ${PROFILE_EXECS:-atomic}; do
    ncu $sections --kernel-name-base demangled -k 'regex:lulesh::|ViewFill|FillFunctor' --launch-skip 14 \
      --launch-count 14 "$new" -s "$s" -i 6 --exec "$e" --layout soa -q \
      >"$R/ncu-umesh-$e-s$s.txt" 2>&1 || true
    note "umesh $e profiled"
  done
fi
if [[ $mode == check || $mode == all ]]; then
  # LULESH's regression cases on the GPU (every executor built into the
  # carried program), and the device globals' and subsets' tests (Cuda
  # included) under compute-sanitizer.
  t=.device/lulesh/test_device_global
  [[ -x $t ]] || { echo "lulesh-port.sh check: $t was not carried" >&2; exit 2; }
  for c in "5 72 7.85366510214584468e+03" "10 231 2.72053116847034689e+04" \
    "30 932 2.02507478507199383e+05"; do
    read -r size cycles energy <<<"$c"
    "$new" -s "$size" -q --exec "${CHECK_EXECS:-atomic,auto}" --layout soa --expect-cycles "$cycles" \
      --expect-energy "$energy" >"$R/check-s$size.log" 2>&1 && note "lulesh -s $size passes" ||
      note "lulesh -s $size FAILS"
  done
  "$t" >"$R/test_device_global.log" 2>&1 && note "test_device_global passes" ||
    note "test_device_global FAILS"
  # The suites whose type parameter is Kokkos::Cuda (the names hold no type).
  f="$("$t" --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ {sub(/\.$/, "", $1); printf "%s.*:", $1}')"
  echo "$f" >"$R/cuda-filter.txt"
  compute-sanitizer --tool memcheck "$t" --gtest_filter="$f" >"$R/memcheck.log" 2>&1 &&
    note "memcheck: $(grep 'ERROR SUMMARY' "$R/memcheck.log")" || note "memcheck FAILS"
  compute-sanitizer --tool racecheck "$t" --gtest_filter="$f" >"$R/racecheck.log" 2>&1 &&
    note "racecheck: $(grep 'RACECHECK SUMMARY' "$R/racecheck.log" | sort | uniq -c | tr '\n' ' ')" ||
    note "racecheck FAILS"
fi
finish lulesh-port
