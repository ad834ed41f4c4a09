#!/usr/bin/env bash
# Fuzzes umesh's file readers with libFuzzer under AddressSanitizer and
# UndefinedBehaviorSanitizer: the Gmsh reader (and the sides derived from
# what it accepts), the plan-file payload reader, the tuning-file reader and
# miniAero's input reader. Each target runs SECONDS (default 60) from its
# seeds (the repository's own test files, fuzz/seeds/) and, where there is
# one, its dictionary (fuzz/TARGET.dict); inputs it generates
# stay in a temporary folder. A crash, a sanitizer report, a leak or an
# exception other than umesh::Error fails the run and prints the input.
#
#   fuzz/run.sh [SECONDS] [TARGET...]     targets: gmsh plan_file tuning_file miniaero_input
#
# The targets run side by side, as many at a time as there are cores
# (UMESH_FUZZ_JOBS to say otherwise), each on one thread for SECONDS.
# Needs clang++ with libFuzzer (Debian: apt-get install clang).
set -euo pipefail
cd "$(dirname "$0")/.."
src="$PWD"
seconds="${1:-60}"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz/run.sh: SECONDS must be a positive integer, not '$seconds'" >&2; exit 2; }
shift $(($# > 0 ? 1 : 0))
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(gmsh plan_file tuning_file miniaero_input)
cxx="${CLANGXX:-$(command -v clang++ || true)}"
[[ -n "$cxx" ]] || { echo "fuzz/run.sh: clang++ not found (Debian: apt-get install clang)" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/umesh-fuzz.XXXX")"
trap 'rm -rf "$work"' EXIT
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
       -I"$src/include")
# One target: built, then fuzzed for $seconds; its report goes to
# $work/$t.out, its status is its exit status.
fuzz_one() {
  local t="$1" sources seeds d
  case "$t" in
    gmsh) sources=(src/gmsh_reader.cpp src/gmsh_checks.cpp src/connectivity.cpp)
          seeds=(tests/data/gmsh fuzz/seeds/gmsh) ;;
    plan_file) sources=(src/plan_file.cpp src/mesh_generators.cpp); seeds=(fuzz/seeds/plan_file) ;;
    tuning_file) sources=(src/tuning_file.cpp); seeds=(fuzz/seeds/tuning_file) ;;
    miniaero_input) sources=(apps/miniaero/problem.cpp)
                    seeds=(tests/data/miniaero/3D_Sod_Serial perf/miniaero fuzz/seeds/miniaero_input) ;;
  esac
  echo "== $t: building"
  "$cxx" "${flags[@]}" "fuzz/$t.cpp" "${sources[@]}" -o "$work/$t" 2>"$work/$t.build.log" ||
    { cat "$work/$t.build.log"; echo "fuzz/run.sh: $t does not build"; return 2; }
  mkdir -p "$work/corpus-$t"
  for d in "${seeds[@]}"; do
    find "$d" -maxdepth 1 -type f \( -name '*.msh' -o -name '*.inp' -o -name '*.seed' \) \
      -exec cp {} "$work/corpus-$t/" \;
  done
  # A dictionary of the format's words and edge values, where there is one.
  local dict=()
  [[ -f "fuzz/$t.dict" ]] && dict=(-dict="$src/fuzz/$t.dict")
  echo "== $t: $seconds s from $(ls "$work/corpus-$t" | wc -l) seeds${dict:+, fuzz/$t.dict}"
  # Each target in a folder of its own: crash files of targets fuzzed at the
  # same time must not mix.
  mkdir -p "$work/run-$t"
  if ! (cd "$work/run-$t" && "../$t" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
          "${dict[@]}" -print_final_stats=1 "../corpus-$t" >"../$t.log" 2>&1); then
    tail -40 "$work/$t.log"
    local crash
    for crash in "$work/run-$t"/crash-* "$work/run-$t"/leak-* "$work/run-$t"/timeout-* \
                 "$work/run-$t"/oom-*; do
      [[ -f "$crash" ]] || continue
      echo "fuzz/run.sh: $t found $(basename "$crash"); its input (base64):"
      base64 "$crash"
    done
    return 1
  fi
  grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units)" "$work/$t.log" | tail -2
}
for t in "${targets[@]}"; do
  case "$t" in
    gmsh | plan_file | tuning_file | miniaero_input) ;;
    *) echo "fuzz/run.sh: unknown target '$t'" >&2; exit 2 ;;
  esac
done
# The targets run side by side, one per core (each fuzzes on one thread for
# its $seconds, as alone): on 2 cores the four take half the time. Reports
# are printed in the targets' order once each is done.
jobs_max="${UMESH_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
[[ "$jobs_max" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz/run.sh: UMESH_FUZZ_JOBS must be a positive integer, not '$jobs_max'" >&2; exit 2; }
declare -A pid_of
for t in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= jobs_max)); do wait -n || true; done
  fuzz_one "$t" >"$work/$t.out" 2>&1 &
  pid_of[$t]=$!
done
status=0
for t in "${targets[@]}"; do
  rc=0
  wait "${pid_of[$t]}" || rc=$?
  if [[ $rc -eq 0 ]]; then
    cat "$work/$t.out"
  else
    cat "$work/$t.out" >&2
    ((rc == 2)) && exit 2 # a target that does not build
    status=1
  fi
done
[[ $status -eq 0 ]] && echo "fuzz/run.sh: no findings in ${targets[*]}"
exit $status
