#!/usr/bin/env bash
# Side by side with the locality paper's own library (github bgd54/cuda_fot,
# branch `merging`): builds its res_calc from a checkout (never copied into
# umesh), runs it on the main job's res_calc mesh, then umesh's main job on
# the same mesh, and prints one table of both.
#
#   perf/cuda_fot/run.sh CUDA_FOT_DIR UMESH_BUILD [OUT]
#
# CUDA_FOT_DIR  a checkout of cuda_fot (the fetch tool gives a git folder:
#               `git --git-dir=... archive merging | tar -x -C DIR`)
# UMESH_BUILD   a CUDA build of umesh with perf/umesh_main and
#               perf/umesh_export_cuda_fot (./setup.sh --backend cuda
#               --targets umesh_main,umesh_export_cuda_fot build)
# OUT           logs and CSVs (default: ./cuda_fot-out)
#
# Environment: NX, NY (mesh, default 2400 x 1200 quads), BLOCKS (block sizes,
# default 448, the paper's), ITERATIONS (cuda_fot's iterations per case, default
# 100), ARCH (default sm_90), DEPS (prefix holding METIS and Scotch headers and
# libraries; default: the offline bundle's, unpacked by setup.sh), LAYOUTS
# ("aos soa" by default; one of them makes the copy's driver skip the other's
# cases, so that one layout fits a device call), UMESH (1 by default; 0 skips
# umesh's run after each block size, for calls that time umesh apart).
#
# Time: cuda_fot plans on one host thread, per block size and layout: three
# hierarchical colourings (about 12 s each at 2400 x 1200), GPS (5 s) and a
# METIS partition (79 s), each ordering twice (its global-colouring case
# repeats the reordering). On the H100 machine that is over 4 minutes per
# block size and layout; one block size does not fit a 10-minute device call
# with umesh's run after it.
#
# cuda_fot predates CUDA 13, which dropped cudaDeviceProp::computeMode and
# ::clockRate (used only by its device-selection helpers) and sm_60; its
# sources also relied on <numeric>, <cstdint>, <algorithm> and <limits>
# arriving through other headers (g++ 13's do not bring them). The build here
# works on a copy: the two fields are replaced by constants, those headers
# are pre-included, and it compiles for ARCH with C++17.
set -euo pipefail

die() { printf 'cuda_fot/run.sh: %s\n' "$*" >&2; exit 1; }
[[ $# -ge 2 ]] || die "usage: perf/cuda_fot/run.sh CUDA_FOT_DIR UMESH_BUILD [OUT]"
src="$(cd "$1" 2>/dev/null && pwd)" || die "no cuda_fot checkout at '$1'"
build="$(cd "$2" 2>/dev/null && pwd)" || die "no umesh build at '$2'"
out="${3:-$PWD/cuda_fot-out}"
mkdir -p "$out" || die "cannot create '$out'"
out="$(cd "$out" && pwd)"
[[ -f "$src/res_calc.cu" && -f "$src/Makefile" && -f "$src/helper_cuda.h" ]] ||
  die "'$src' is not a cuda_fot checkout (no res_calc.cu, Makefile or helper_cuda.h)"
for p in perf/umesh_main perf/umesh_export_cuda_fot; do
  [[ -x "$build/$p" ]] || die "'$build' has no $p: build it with --targets umesh_main,umesh_export_cuda_fot"
done
export PATH="$PATH:/usr/local/cuda/bin"
command -v nvcc >/dev/null || die "nvcc not found (PATH, /usr/local/cuda/bin)"
NX="${NX:-2400}" NY="${NY:-1200}" BLOCKS="${BLOCKS:-448}"
ITERATIONS="${ITERATIONS:-100}" ARCH="${ARCH:-sm_90}" LAYOUTS="${LAYOUTS:-aos soa}" UMESH="${UMESH:-1}"
case "$LAYOUTS" in "aos soa" | aos | soa) ;; *) die "LAYOUTS='$LAYOUTS': give 'aos soa', aos or soa" ;; esac
[[ "$UMESH" == 0 || "$UMESH" == 1 ]] || die "UMESH='$UMESH': give 0 or 1"
DEPS="${DEPS:-$HOME/.cache/umesh/deps/usr}"
[[ -f "$DEPS/include/metis.h" && -f "$DEPS/include/scotch/scotch.h" ]] ||
  die "METIS or Scotch headers not under DEPS=$DEPS (run ./setup.sh --bundle DIR once, or set DEPS)"
libdir="$DEPS/lib/x86_64-linux-gnu"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

work="$(mktemp -d "${TMPDIR:-/tmp}/cuda_fot.XXXX")"
trap 'rm -rf "$work"' EXIT
echo "== building cuda_fot's res_calc ($ARCH) in $work"
cp -r "$src" "$work/src"
sed -i 's/deviceProp\.computeMode/cudaComputeModeDefault/g; s/deviceProp\.clockRate/1/g' \
  "$work/src/helper_cuda.h"
# One layout: its driver's call for the other is made dead code.
skip=""
[[ "$LAYOUTS" == aos ]] && skip=true
[[ "$LAYOUTS" == soa ]] && skip=false
if [[ -n "$skip" ]]; then
  sed -i "s/^  measurement<$skip>(input_dir/  if (false) measurement<$skip>(input_dir/" "$work/src/res_calc.cu"
  grep -q "if (false) measurement<$skip>" "$work/src/res_calc.cu" ||
    die "cannot leave out a layout: res_calc.cu's driver is not the one this script knows"
fi
make -C "$work/src" res_calc CUDA_HOME=/usr/local/cuda VERBOSE=yes \
  NVCCFLAGS="-arch=$ARCH --use_fast_math -std=c++17 -include numeric -include cstdint -include algorithm -include limits -Xcompiler -fopenmp" \
  METIS_FLAGS="-I$DEPS/include -L$libdir -lmetis" \
  SCOTCH_FLAGS="-I$DEPS/include/scotch -L$libdir -lscotch -lscotcherr -lm" \
  >"$out/cuda_fot_build.log" 2>&1 || { tail -20 "$out/cuda_fot_build.log" >&2; die "cuda_fot build failed (log: $out/cuda_fot_build.log)"; }

echo "== exporting ${NX}x${NY} quads"
mkdir -p "$work/mesh"
"$build/perf/umesh_export_cuda_fot" --nx "$NX" --ny "$NY" --out "$work/mesh"
# The files are one mesh's: the manifest written last names its size and
# each file's bytes (an export killed between its renames leaves none).
read -r tool mx my <"$work/mesh/umesh_export" && [[ $tool == umesh_export_cuda_fot && $mx == "$NX" && $my == "$NY" ]] ||
  die "$work/mesh: no complete ${NX}x${NY} export (its manifest umesh_export is missing or names another mesh)"
while read -r name size; do
  [[ $(stat -c %s "$work/mesh/$name") == "$size" ]] || die "$work/mesh/$name: not the size its manifest says ($size bytes)"
done < <(tail -n +2 "$work/mesh/umesh_export")

echo "block,layout,ordering,algorithm,ms_per_iteration" >"$out/cuda_fot.csv"
failed="" # block sizes whose cuda_fot run exited with an error
for b in ${BLOCKS//,/ }; do
  echo "== cuda_fot res_calc, block $b, $ITERATIONS iterations (non-reordered, GPS, METIS; layouts: $LAYOUTS)"
  SECONDS=0
  # Cases that finished before a failure still count (its METIS case has
  # aborted in METIS's initial partitioning after the hierarchical ones).
  rc=0
  "$work/src/res_calc" "$work/mesh" "$ITERATIONS" "$b" >"$out/cuda_fot_block$b.log" 2>&1 || rc=$?
  # Its timer prints the total over all iterations after each loop's name.
  awk -v b="$b" -v it="$ITERATIONS" '
    /^AOS$/ {layout = "AoS"} /^SOA$/ {layout = "SoA"}
    /^Running non reordered/ {ord = "none"} /^Running GPS/ {ord = "gps"} /^Running partitioned/ {ord = "metis"}
    /^GPU HierarchicalColouring:/ {alg = "hierarchical"; next}
    /^loopGPUCellCentred:/ {alg = "colour"; next}
    /^ -/ {alg = ""}
    alg != "" && $1 == "time:" {printf "%s,%s,%s,%s,%.4f\n", b, layout, ord, alg, $2 / it; alg = ""}
  ' "$out/cuda_fot_block$b.log" >>"$out/cuda_fot.csv"
  echo "   cuda_fot took ${SECONDS} s"
  if [[ $rc != 0 ]]; then
    failed="$failed $b"
    echo "   cuda_fot's res_calc FAILED at block $b (exit $rc; the cases it finished are in the table; log: $out/cuda_fot_block$b.log)" >&2
  fi
  [[ "$UMESH" == 1 ]] || continue
  # cuda_fot's hierarchical res_calc stages the increments only (reads come
  # from global memory): umesh's hier-inc is the same algorithm.
  echo "== umesh res_calc, block $b (every variant; cuda_fot's algorithm is hier-inc)"
  (cd "$out" && "$build/perf/umesh_main" --full --nx "$NX" --ny "$NY" --kernel res_calc \
     --numbering natural --reorder gps,metis,builtin --reorder-block "$b" --blocks "$b" \
     --executor atomic,scatterview,hierarchical --layout all --repeats 20 \
     --csv "umesh_block$b.csv") >"$out/umesh_block$b.log" 2>&1 ||
    die "umesh_main failed at block $b (log: $out/umesh_block$b.log)"
done

rows=$(($(wc -l <"$out/cuda_fot.csv") - 1))
[[ $rows -gt 0 ]] || die "no timings parsed from cuda_fot's output (logs in $out)"
echo
echo "cuda_fot (ms per iteration; $out/cuda_fot.csv):"
column -s, -t <"$out/cuda_fot.csv" 2>/dev/null || cat "$out/cuda_fot.csv"
# A run that failed part-way makes the script fail, after its table.
finish() { [[ -z "$failed" ]] || die "cuda_fot's res_calc failed at block(s)$failed (see above)"; exit 0; }
[[ "$UMESH" == 1 ]] || finish
echo
echo "umesh, same mesh and block sizes (best per executor; $out/umesh_block*.csv):"
awk -F, 'FNR > 1 && $6 != "" {k = $2; if (!(k in best) || $6 < best[k]) {best[k] = $6; cfg[k] = $3 " " $4 " block " $5}}
  END {for (k in best) printf "%-16s %9.4f ms  %s\n", k, best[k], cfg[k]}' "$out"/umesh_block*.csv | sort -k2 -n
finish
