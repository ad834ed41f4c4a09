#!/usr/bin/env bash
# Side by side with LLNL's CUDA port of LULESH 2.0 (github LLNL/LULESH, branch
# 2.0.2-dev, cuda/src): builds the port from a checkout (never copied into
# umesh), runs it and umesh_lulesh on the same problem sizes in one go, and
# prints one table of both (cycles, origin energy, time, microseconds per
# cycle, FOM, speed against the port).
#
#   perf/lulesh_port/run.sh PORT_DIR UMESH_LULESH [OUT]
#
# PORT_DIR      the port's cuda/src folder, or a checkout holding it (the fetch
#               tool gives a git folder: `git --git-dir=... archive 2.0.2-dev
#               cuda/src | tar -x -C DIR`)
# UMESH_LULESH  umesh_lulesh built for CUDA (./setup.sh --backend cuda
#               --targets umesh_lulesh build)
# OUT           logs, lulesh_port.csv and lulesh_port.md (default ./lulesh_port-out)
#
# Environment: SIZES (default "30 60 120 150"); RUNS, umesh's runs as
# exec:layout pairs (default "atomic:soa warp:soa auto:soa"); GRAPHS, umesh's
# --graph values, each run once under each (default: one run, umesh's own
# default, no --graph given); CURVE=1, the small-to-large curve: SIZES
# "5 10 15 20 30 45 60 90 120 150" and GRAPHS "on off" unless given, and the
# table also as lulesh_port_curve.csv (size, program, exec, layout, graph,
# microseconds per cycle, port's over this); BASELINE, another
# umesh_lulesh run beside (e.g. the previous commit's) with BASELINE_RUNS
# (default "atomic:soa"); TIMERS (1: each umesh run again with --timers, for
# its per-loop medians, launches and host synchronisations per cycle; default
# 0); ARCH (default sm_90); PORT_BIN_OUT, a path to keep the built port at.
#
# The port builds with nvcc as it is but for one fix: the double overload of
# shfl_xor in sm_utils.inl calls __shfl_xor_sync without its mask (it
# compiles, and shuffles wrongly); the copy here passes 0xffffffff. The port
# takes LULESH's region defaults (-r 11 -b 1 -c 1), as umesh_lulesh does; its
# regions come from its own random numbers, umesh_lulesh's from its own seed
# (the regions weigh the EOS work, never the results).
#
# Times: the port prints its elapsed time to 0.01 s; its grind time (8
# digits) times cycles times elements gives the time used here. umesh's come
# from its --csv. Both exclude setup and include every cycle; microseconds per
# cycle are that time over the cycles.
set -euo pipefail

die() { printf 'lulesh_port/run.sh: %s\n' "$*" >&2; exit 1; }
[[ $# -ge 2 ]] || die "usage: perf/lulesh_port/run.sh PORT_DIR UMESH_LULESH [OUT]"
src="$(cd "$1" 2>/dev/null && pwd)" || die "no port checkout at '$1'"
[[ -f "$src/lulesh.cu" ]] || src="$src/cuda/src"
[[ -f "$src/lulesh.cu" && -f "$src/sm_utils.inl" && -f "$src/allocator.cu" ]] ||
  die "'$1' holds no LULESH CUDA port (no lulesh.cu, sm_utils.inl, allocator.cu there or in cuda/src)"
umesh="$(cd "$(dirname "$2")" 2>/dev/null && pwd)/$(basename "$2")"
[[ -x "$umesh" ]] || die "no umesh_lulesh program at '$2'"
baseline="${BASELINE:-}"
if [[ -n "$baseline" ]]; then
  baseline="$(cd "$(dirname "$baseline")" 2>/dev/null && pwd)/$(basename "$baseline")"
  [[ -x "$baseline" ]] || die "BASELINE='${BASELINE}' is no program"
fi
out="${3:-$PWD/lulesh_port-out}"
mkdir -p "$out" || die "cannot create '$out'"
out="$(cd "$out" && pwd)"
CURVE="${CURVE:-0}"
[[ "$CURVE" == 0 || "$CURVE" == 1 ]] || die "CURVE='$CURVE': give 0 or 1"
if [[ $CURVE == 1 ]]; then
  SIZES="${SIZES:-5 10 15 20 30 45 60 90 120 150}" GRAPHS="${GRAPHS:-on off}"
fi
SIZES="${SIZES:-30 60 120 150}" RUNS="${RUNS:-atomic:soa warp:soa auto:soa}" GRAPHS="${GRAPHS:-}"
BASELINE_RUNS="${BASELINE_RUNS:-atomic:soa}" TIMERS="${TIMERS:-0}" ARCH="${ARCH:-sm_90}"
for s in $SIZES; do [[ $s =~ ^[1-9][0-9]*$ ]] || die "SIZES: '$s' is not a positive whole number"; done
for r in $RUNS $BASELINE_RUNS; do
  [[ $r =~ ^[a-z]+:(aos|soa)$ ]] || die "RUNS: '$r' is not exec:layout (e.g. atomic:soa)"
done
[[ "$TIMERS" == 0 || "$TIMERS" == 1 ]] || die "TIMERS='$TIMERS': give 0 or 1"
for g in $GRAPHS; do [[ $g == on || $g == off ]] || die "GRAPHS: '$g' is not on or off"; done
export PATH="$PATH:/usr/local/cuda/bin"
command -v nvcc >/dev/null || die "nvcc not found (PATH, /usr/local/cuda/bin)"

work="$(mktemp -d "${TMPDIR:-/tmp}/lulesh_port.XXXX")"
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/src"
sed -i 's/__shfl_xor_sync( *__double2\(hi\|lo\)int(r)/__shfl_xor_sync(0xffffffff, __double2\1int(r)/' \
  "$work/src/sm_utils.inl"
[[ $(grep -c '__shfl_xor_sync(0xffffffff, __double2' "$work/src/sm_utils.inl") == 2 ]] ||
  die "sm_utils.inl is not the one this script fixes (the double shfl_xor's two calls)"
echo "== building the port ($ARCH)"
(cd "$work/src" && nvcc -O3 -DNDEBUG -arch="$ARCH" -I. allocator.cu lulesh.cu lulesh-comms.cu \
  lulesh-comms-gpu.cu -o lulesh) >"$out/port-build.log" 2>&1 ||
  { tail -20 "$out/port-build.log" >&2; die "the port did not build (log: $out/port-build.log)"; }
# The built port, for callers that run it again (PORT_BIN_OUT: where to copy it).
[[ -z "${PORT_BIN_OUT:-}" ]] || cp "$work/src/lulesh" "$PORT_BIN_OUT"

csv="$out/lulesh_port.csv"
echo "size,program,exec,layout,graph,cycles,origin_energy,elapsed_s,us_per_cycle,fom_zps,port_time_over_this" >"$csv.part"
# field NAME LOG: the number after "NAME =" in a LULESH report.
field() { sed -n "s/^ *$1 *= *\([-+0-9.eE]*\).*/\1/p" "$2" | head -1; }
for s in $SIZES; do
  log="$out/port-s$s.log"
  echo "== port -s $s"
  (cd "$work/src" && ./lulesh -s "$s") >"$log" 2>&1 || die "the port failed at -s $s (log: $log)"
  cycles=$(field "Iteration count" "$log")
  energy=$(field "Final Origin Energy" "$log")
  grind=$(field "Grind time (us\/z\/c)" "$log")
  [[ -n $cycles && -n $energy && -n $grind ]] || die "no report in $log"
  port_s=$(awk -v g="$grind" -v c="$cycles" -v s="$s" 'BEGIN { printf "%.6f", g * c * s * s * s / 1e6 }')
  port_fom=$(field "FOM" "$log")
  port_us=$(awk -v t="$port_s" -v c="$cycles" 'BEGIN { printf "%.3f", t / c * 1e6 }')
  echo "$s,port,cuda,soa,-,$cycles,$energy,$port_s,$port_us,$port_fom,1" >>"$csv.part"
  for prog in umesh baseline; do
    # The baseline (an older program may not know --graph) runs its default.
    graphs="${GRAPHS:-default}"
    [[ $prog == umesh ]] && { bin="$umesh"; runs="$RUNS"; } ||
      { bin="$baseline"; runs="$BASELINE_RUNS"; graphs=default; }
    [[ -n "$bin" ]] || continue
    for r in $runs; do
      for g in $graphs; do
        e=${r%%:*} l=${r##*:}
        graph_args=() tag="$prog-$e-$l-s$s"
        [[ $g == default ]] || { graph_args=(--graph "$g"); tag="$tag-graph-$g"; }
        echo "== $prog -s $s --exec $e --layout $l ${graph_args[*]}"
        "$bin" -s "$s" --exec "$e" --layout "$l" ${graph_args[@]+"${graph_args[@]}"} \
          --csv "$out/$tag.csv" >"$out/$tag.log" 2>&1 ||
          die "$prog failed at -s $s --exec $e --layout $l ${graph_args[*]} (log: $out/$tag.log)"
        # Fields by the header's names (the CSV's columns may grow; an older
        # program's has no graph column).
        read -r c el fom en gr < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i }
          NR == 2 { print $col["cycles"], $col["elapsed_s"], $col["fom_zps"], $col["origin_energy"],
                    ("graph" in col ? $col["graph"] : "-") }' "$out/$tag.csv")
        [[ -n ${gr:-} ]] || die "no cycles, elapsed_s, fom_zps, origin_energy in $out/$tag.csv"
        ratio=$(awk -v p="$port_s" -v u="$el" 'BEGIN { printf "%.3f", (u > 0 ? p / u : 0) }')
        us=$(awk -v t="$el" -v c="$c" 'BEGIN { printf "%.3f", (c > 0 ? t / c * 1e6 : 0) }')
        echo "$s,$prog,$e,$l,$gr,$c,$en,$el,$us,$fom,$ratio" >>"$csv.part"
        if [[ $TIMERS == 1 && $g == "${graphs%% *}" ]]; then # (--timers: loops one by one)
          "$bin" -s "$s" --exec "$e" --layout "$l" -q --timers >"$out/$tag-timers.log" 2>&1 ||
            die "$prog --timers failed at -s $s (log: $out/$tag-timers.log)"
        fi
      done
    done
  done
done
mv "$csv.part" "$csv"
if [[ $CURVE == 1 ]]; then
  # The curve: microseconds per cycle against the size, a row per program,
  # executor, layout and graph.
  awk -F, 'BEGIN { OFS = "," }
    NR == 1 { print "size,program,exec,layout,graph,us_per_cycle,port_time_over_this"; next }
    { print $1, $2, $3, $4, $5, $9, $11 }' "$csv" >"$out/lulesh_port_curve.csv"
fi

{
  echo "| -s | program | exec | layout | graph | cycles | origin energy | time (s) | us/cycle | FOM (z/s) | port time / this |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  tail -n +2 "$csv" | while IFS=, read -r s p e l g c en el us fom ratio; do
    printf '| %s | %s | %s | %s | %s | %s | %.6e | %.4f | %.1f | %.4g | %s |\n' "$s" "$p" "$e" "$l" "$g" "$c" "$en" "$el" "$us" "$fom" "$ratio"
  done
} >"$out/lulesh_port.md"
cat "$out/lulesh_port.md"
[[ $CURVE == 1 ]] && csv="$csv, $out/lulesh_port_curve.csv"
echo "wrote $csv and $out/lulesh_port.md"
