#!/usr/bin/env bash
# Side by side with libCEED (github CEED/libCEED) on CEED's bake-off
# problems BP1 and BP3: builds libCEED from a checkout (never copied into
# umesh; built in a copy under OUT) with its CUDA backends, builds our own
# driver against its public C API (perf/peers/libceed_bp_driver.c), writes
# the meshes with umesh_bp_bench --export (the same elements, numbering,
# geometry and input vector for both), runs the driver on each under
# RESOURCE (/gpu/cuda/gen by default), then umesh_bp_bench on the same sizes
# and orders in the same call, and prints one table of both in GDoF/s.
#
#   perf/peers/libceed_bp.sh LIBCEED_DIR UMESH_BUILD [OUT]
#
# LIBCEED_DIR  a checkout of libCEED (the fetch tool gives a git folder:
#              `git --git-dir=... archive HEAD | tar -x -C DIR`)
# UMESH_BUILD  a build of umesh with perf/umesh_bp_bench (./setup.sh --backend
#              cuda --targets umesh_bp_bench build)
# OUT          logs, CSVs, meshes and the libCEED build (default: ./libceed-bp-out);
#              a libCEED already built there is reused
#
# Environment: DOFS (nodes per mesh, comma-separated, default 1000000), ORDERS
# (default 1,2,3,4), BPS (default 1,3), REPEATS (timed applications, default
# 20), RESOURCE (default /gpu/cuda/gen), CUDA_DIR (default /usr/local/cuda;
# empty builds libCEED's CPU backends only: then set RESOURCE=/cpu/self),
# JOBS (make's, default the cores), UMESH (1 by default; 0 skips umesh's run),
# BP_ARGS (more umesh_bp_bench options for both its runs, e.g.
# "--no-shuffle"; options that change the mesh must be the same in both).
set -euo pipefail

die() { printf 'libceed_bp.sh: %s\n' "$*" >&2; exit 2; }
[[ $# -ge 2 ]] || die "usage: perf/peers/libceed_bp.sh LIBCEED_DIR UMESH_BUILD [OUT]"
src="$(cd "$1" 2>/dev/null && pwd)" || die "no libCEED checkout at '$1'"
build="$(cd "$2" 2>/dev/null && pwd)" || die "no umesh build at '$2'"
out="${3:-$PWD/libceed-bp-out}"
mkdir -p "$out" || die "cannot create '$out'"
out="$(cd "$out" && pwd)"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ -f "$src/include/ceed.h" && -f "$src/Makefile" && -d "$src/gallery" ]] ||
  die "'$src' is not a libCEED checkout (no include/ceed.h, Makefile or gallery/)"
bench="$build/perf/umesh_bp_bench"
[[ -x "$bench" ]] || die "'$build' has no perf/umesh_bp_bench: build it with --targets umesh_bp_bench"
DOFS="${DOFS:-1000000}" ORDERS="${ORDERS:-1,2,3,4}" BPS="${BPS:-1,3}" REPEATS="${REPEATS:-20}"
RESOURCE="${RESOURCE:-/gpu/cuda/gen}" CUDA_DIR="${CUDA_DIR-/usr/local/cuda}"
JOBS="${JOBS:-$(nproc)}" UMESH="${UMESH:-1}" BP_ARGS="${BP_ARGS:-}"
[[ "$UMESH" == 0 || "$UMESH" == 1 ]] || die "UMESH='$UMESH': give 0 or 1"
[[ "$REPEATS" =~ ^[1-9][0-9]*$ ]] || die "REPEATS='$REPEATS': give a positive integer"
if [[ -n "$CUDA_DIR" ]]; then
  [[ -x "$CUDA_DIR/bin/nvcc" ]] || die "no nvcc under CUDA_DIR=$CUDA_DIR (empty CUDA_DIR: CPU only)"
fi

# 1. libCEED, built in a copy (the checkout stays as fetched).
ceed="$out/libceed-src"
if [[ ! -f "$ceed/lib/libceed.so" ]]; then
  rm -rf "$ceed"
  cp -a "$src" "$ceed"
  echo "== building libCEED (CUDA_DIR=${CUDA_DIR:-none}, $JOBS jobs): $out/libceed-build.log"
  start=$SECONDS
  make -C "$ceed" -j"$JOBS" lib ${CUDA_DIR:+CUDA_DIR="$CUDA_DIR"} >"$out/libceed-build.log" 2>&1 ||
    { tail -30 "$out/libceed-build.log"; die "libCEED's build failed (log above)"; }
  echo "   built in $((SECONDS - start)) s"
fi
git -C "$src" log -1 --format='   libCEED %h %cs %s' 2>/dev/null || echo "   libCEED (not a git work tree: version unknown)"

# 2. Our driver against its public API.
cuda_flags=()
if [[ -n "$CUDA_DIR" ]]; then
  # shellcheck disable=SC2054 # -Wl,-rpath,DIR is one argument
  cuda_flags=(-DBP_DRIVER_CUDA -I"$CUDA_DIR/include" -L"$CUDA_DIR/lib64" -Wl,-rpath,"$CUDA_DIR/lib64" -lcudart)
fi
cc -O2 -std=c11 -Wall -I"$ceed/include" "$here/libceed_bp_driver.c" -o "$out/libceed_bp_driver" \
  -L"$ceed/lib" -Wl,-rpath,"$ceed/lib" -lceed "${cuda_flags[@]}" -lm ||
  die "the driver did not compile against '$ceed'"

# 3. The meshes, inputs and umesh's results.
rm -rf "$out/meshes"
# shellcheck disable=SC2086 # BP_ARGS is a list of options
"$bench" --export "$out/meshes" --export-only --dofs "$DOFS" --orders "$ORDERS" --bps "$BPS" \
  $BP_ARGS | tee "$out/export.log"

# 4. libCEED on each.
csv="$out/libceed_bp.csv"
echo "peer,resource,bp,p,q,dofs,elements,ms,gdofs_per_s,max_rel_err,status" >"$csv"
status=0
for mesh in "$out"/meshes/bp_p*.bin; do
  "$out/libceed_bp_driver" "$RESOURCE" "$mesh" "$REPEATS" | tee -a "$csv" || status=1
done

# 5. umesh on the same sizes and orders, in the same call.
if [[ "$UMESH" == 1 ]]; then
  # shellcheck disable=SC2086
  "$bench" --dofs "$DOFS" --orders "$ORDERS" --bps "$BPS" --csv "$out/umesh_bp.csv" $BP_ARGS \
    >"$out/umesh_bp.log" 2>&1 || status=1
  grep -E "copy bandwidth|best rows|^  bp|validated|failed" "$out/umesh_bp.log" || true
fi

# 6. One table: the best of each (problem, order, size).
tables=("$csv")
[[ "$UMESH" == 1 && -f "$out/umesh_bp.csv" ]] && tables+=("$out/umesh_bp.csv")
echo
echo "== GDoF/s (nodes x applications / s): libCEED $RESOURCE, umesh's best team form, its tuned"
echo "   (exec::ElementAuto) and one-thread-per-element rows"
printf "%-20s %10s %10s %10s %10s %10s  %s\n" "problem order nodes" libCEED umesh auto thread \
  umesh/ceed "umesh's best"
awk -F, '
  FNR == 1 { next }
  FILENAME ~ /libceed_bp.csv$/ && $11 == "ok" { k = $3 " p" $4 " " $6; ceed[k] = $9; keys[k] = 1 }
  FILENAME ~ /umesh_bp.csv$/ && $16 == "ok" {
    k = $1 " p" $2 " " $4; keys[k] = 1
    if ($6 == "team" && $12 + 0 > team[k] + 0) { team[k] = $12; how[k] = $7 " " $9 "x" $10 }
    if ($6 == "thread" && $12 + 0 > thread[k] + 0) thread[k] = $12
    if ($6 == "auto") tuned[k] = $12
  }
  END {
    for (k in keys)
      printf "%-20s %10.4g %10.4g %10.4g %10.4g %10.2f  %s\n", k, ceed[k], team[k], tuned[k],
             thread[k], (ceed[k] > 0 ? team[k] / ceed[k] : 0), how[k]
  }' "${tables[@]}" | sort
exit "$status"
