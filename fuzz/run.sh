#!/usr/bin/env bash
# Fuzzes umesh's file readers with libFuzzer under AddressSanitizer and
# UndefinedBehaviorSanitizer: the Gmsh reader (and the sides derived from
# what it accepts), the plan-file payload reader, the tuning-file reader,
# miniAero's input reader, the Exodus II and CGNS readers on whole files
# (through their libraries, which are not instrumented) and the checks of
# what those files hold (mesh_assembly, fed decoded blocks and sets). Each target runs SECONDS (default 60) from its
# seeds (the repository's own test files, fuzz/seeds/) and, where there is
# one, its dictionary (fuzz/TARGET.dict); inputs it generates
# stay in a temporary folder. A crash, a sanitizer report, a leak or an
# exception other than umesh::Error fails the run and prints the input.
#
#   fuzz/run.sh [SECONDS] [TARGET...]     targets: gmsh plan_file tuning_file miniaero_input
#                                         mesh_assembly exodus cgns (default: all)
#
# The targets run side by side, as many at a time as there are cores
# (UMESH_FUZZ_JOBS to say otherwise), each on one thread for SECONDS.
# Needs clang++ with libFuzzer (Debian: apt-get install clang); exodus and
# cgns need their libraries (libexodusii-dev, libcgns-dev) and are left out,
# saying so, where those are not installed.
set -euo pipefail
cd "$(dirname "$0")/.."
src="$PWD"
seconds="${1:-60}"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz/run.sh: SECONDS must be a positive integer, not '$seconds'" >&2; exit 2; }
shift $(($# > 0 ? 1 : 0))
targets=("$@")
# exodus and cgns fuzz the readers end to end through their libraries. On
# forged files those libraries fail within seconds in their own code (HDF5
# 1.10.8 frees what it never allocated in H5G__dense_iterate; NetCDF 4.9.0
# allocates 1.3 GB for a name length its classic header claims, in
# new_NC_string; CGNS 3.4's ADF code asserts): umesh reads such files in a
# child process first (include/umesh/detail/isolated_read.hpp), so that the
# failure is an error naming the file, which is what is fuzzed here. Where
# their libraries are not installed they are left out, saying so.
[[ ${#targets[@]} -gt 0 ]] || targets=(gmsh plan_file tuning_file miniaero_input mesh_assembly exodus cgns)
cxx="${CLANGXX:-$(command -v clang++ || true)}"
[[ -n "$cxx" ]] || { echo "fuzz/run.sh: clang++ not found (Debian: apt-get install clang)" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/umesh-fuzz.XXXX")"
trap 'rm -rf "$work"' EXIT
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
       -I"$src/include")
# One target: built, then fuzzed for $seconds; its report goes to
# $work/$t.out, its status is its exit status.
fuzz_one() {
  local t="$1" sources seeds d target_source=""
  case "$t" in
    gmsh) sources=(src/gmsh_reader.cpp src/gmsh_checks.cpp src/connectivity.cpp)
          seeds=(tests/data/gmsh fuzz/seeds/gmsh) ;;
    plan_file) sources=(src/plan_file.cpp src/mesh_generators.cpp src/output_file.cpp)
               seeds=(fuzz/seeds/plan_file) ;;
    tuning_file) sources=(src/tuning_file.cpp src/output_file.cpp); seeds=(fuzz/seeds/tuning_file) ;;
    miniaero_input) sources=(apps/miniaero/problem.cpp -I"$src/apps") # as the apps' targets
                    seeds=(tests/data/miniaero/3D_Sod_Serial perf/miniaero fuzz/seeds/miniaero_input) ;;
    mesh_assembly) sources=(src/mesh_assembly.cpp src/mesh_sides.cpp src/gmsh_checks.cpp
                            src/gmsh_reader.cpp src/connectivity.cpp)
                   seeds=(fuzz/seeds/mesh_assembly) ;;
    exodus | cgns) sources=("${mesh_file_sources[@]}" -DUMESH_FUZZ_SUFFIX="\".$([[ $t == exodus ]] && echo exo || echo cgns)\""
                            "${mesh_file_libs[@]}")
                   seeds=("$work/seeds-$t")
                   target_source=mesh_file ;;
  esac
  echo "== $t: building"
  "$cxx" "${flags[@]}" "fuzz/${target_source:-$t}.cpp" "${sources[@]}" -o "$work/$t" 2>"$work/$t.build.log" ||
    { cat "$work/$t.build.log"; echo "fuzz/run.sh: $t does not build"; return 2; }
  mkdir -p "$work/corpus-$t"
  for d in "${seeds[@]}"; do
    find "$d" -maxdepth 1 -type f \( -name '*.msh' -o -name '*.inp' -o -name '*.seed' \
                                     -o -name '*.exo' -o -name '*.cgns' \) \
      -exec cp {} "$work/corpus-$t/" \;
  done
  # A dictionary of the format's words and edge values, where there is one.
  local dict=()
  [[ -f "fuzz/$t.dict" ]] && dict=(-dict="$src/fuzz/$t.dict")
  # The Exodus II and CGNS libraries leak what they allocated when a call
  # fails (not umesh's memory: its readers hold theirs in owning objects).
  local leaks=()
  [[ $t == exodus || $t == cgns ]] && leaks=(-detect_leaks=0)
  echo "== $t: $seconds s from $(ls "$work/corpus-$t" | wc -l) seeds${dict:+, fuzz/$t.dict}"
  # Each target in a folder of its own: crash files of targets fuzzed at the
  # same time must not mix.
  mkdir -p "$work/run-$t"
  if ! (cd "$work/run-$t" && "../$t" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
          "${dict[@]}" "${leaks[@]}" -print_final_stats=1 "../corpus-$t" >"../$t.log" 2>&1); then
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
    gmsh | plan_file | tuning_file | miniaero_input | mesh_assembly | exodus | cgns) ;;
    *) echo "fuzz/run.sh: unknown target '$t'" >&2; exit 2 ;;
  esac
done
# The Exodus II and CGNS readers: built with their libraries where those are
# installed (else left out, saying so); their seeds are the Gmsh seeds
# written in each format by fuzz/mesh_seeds.cpp.
has_header() { echo "#include <$1>" | "$cxx" -E -x c++ - >/dev/null 2>&1; }
mesh_file_sources=(src/mesh_file.cpp src/isolated_read.cpp src/exodus_mesh.cpp src/cgns_mesh.cpp src/cgns_writer.cpp
                   src/mesh_assembly.cpp src/mesh_sides.cpp src/gmsh_reader.cpp src/gmsh_checks.cpp)
mesh_file_libs=()
kept=()
for t in "${targets[@]}"; do
  case "$t" in
    exodus) if has_header exodusII.h; then mesh_file_libs+=(-DUMESH_HAS_EXODUS=1 -lexoIIv2c); kept+=("$t")
            else echo "== exodus: left out (no exodusII.h; Debian: apt-get install libexodusii-dev)"; fi ;;
    cgns) if has_header cgnslib.h; then mesh_file_libs+=(-DUMESH_HAS_CGNS=1 -lcgns); kept+=("$t")
          else echo "== cgns: left out (no cgnslib.h; Debian: apt-get install libcgns-dev)"; fi ;;
    *) kept+=("$t") ;;
  esac
done
targets=("${kept[@]}")
if [[ ${#mesh_file_libs[@]} -gt 0 ]]; then
  mkdir -p "$work/seeds-exodus" "$work/seeds-cgns" "$work/seeds-mesh"
  "$cxx" -std=c++17 -O1 -I"$src/include" fuzz/mesh_seeds.cpp "${mesh_file_sources[@]}" \
    "${mesh_file_libs[@]}" -o "$work/mesh_seeds" 2>"$work/mesh_seeds.build.log" ||
    { cat "$work/mesh_seeds.build.log"; echo "fuzz/run.sh: fuzz/mesh_seeds.cpp does not build"; exit 2; }
  "$work/mesh_seeds" "$work/seeds-mesh" tests/data/gmsh/*.msh fuzz/seeds/gmsh/*.msh 2>/dev/null || true
  cp "$work"/seeds-mesh/*.exo "$work/seeds-exodus/" 2>/dev/null || true
  cp "$work"/seeds-mesh/*.cgns "$work/seeds-cgns/" 2>/dev/null || true
fi
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
