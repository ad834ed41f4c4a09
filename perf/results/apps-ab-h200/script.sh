#!/usr/bin/env bash
# Issue 42's "miniAero and LULESH as before", two trees in one warm machine's calls (carry .bundle
# and .device/base.tar.gz, a `git archive --prefix=base/` of the other commit): umesh_miniaero and
# umesh_lulesh built from each (CUDA, 16 jobs, every executor and layout the tree builds), then run
# alternately, this tree first:
#   build  the other tree's apps, then this tree's (Kokkos built once, by the first)
#   run    miniAero's RK stage at 128^3 (rcm, SoA, --bench 5; --stencil faces and cells) and
#          LULESH -s 150 (300 cycles) and -s 30 (to the end: 932 cycles), each under atomic,
#          hierarchical, warp and auto (a tuning file per tree and size: round 1's auto tunes in
#          its first cycle, round 2's reads the choices); two rounds while time lasts. compare.csv: each loop's median
#          time (ms) or LULESH's grind time (us per element and cycle) per tree, and new / base.
#   perf/device/ab-apps.sh build|run
. perf/device/env.sh
mode=${1:-}
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
bin() { # bin TREE APP: the app built from TREE (new or base)
  local log=/tmp/ab-apps-build-$1.log
  local b
  b=$(grep -o '/root/.cache/umesh/build/umesh-[0-9]*-cuda-cxx17' "$log" 2>/dev/null | head -1)
  echo "$b/apps/$2/umesh_$2"
}
case "$mode" in
build)
  rm -rf /tmp/base && tar xzf .device/base.tar.gz -C /tmp
  {
    git log -1 --format='%H %s'
    git status --short | head -20
    nvidia-smi -L
  } >"$R/env.txt" 2>&1
  for tree in base new; do
    dir=$PWD
    [[ $tree == base ]] && dir=/tmp/base
    rc=0
    timeout $((570 - SECONDS)) "$dir/setup.sh" --bundle "$PWD/.bundle" --backend cuda --jobs 16 \
      --targets umesh_miniaero,umesh_lulesh build >/tmp/ab-apps-build-$tree.log 2>&1 || rc=$?
    cp /tmp/ab-apps-build-$tree.log "$R/build-$tree.log"
    note "build $tree rc=$rc"
  done
  finish ab-apps-build
  ;;
run)
  for tree in new base; do
    for app in miniaero lulesh; do
      [[ -x $(bin $tree $app) ]] || { echo "ab-apps.sh run: no $app of $tree (run build first, on this warm machine)" >&2; exit 2; }
    done
  done
  inp=perf/miniaero/sod128_o2_visc.inp
  for round in 1 2; do
    for tree in new base; do
      M=$(bin $tree miniaero) L=$(bin $tree lulesh)
      for stencil in cells faces; do
        ((SECONDS < 500)) || break 3
        rc=0
        timeout 100 "$M" --input $inp --mesh 128,128,128 --exec atomic,hierarchical,warp,auto \
          --layout soa --reorder rcm --stencil $stencil --bench 5 \
          --csv "$R/miniaero-$stencil-$tree-$round.csv" >"$R/miniaero-$stencil-$tree-$round.log" 2>&1 || rc=$?
        note "miniaero $stencil $tree $round rc=$rc"
      done
      for s in 150 30; do
        ((SECONDS < 520)) || break 3
        iters=()
        [[ $s == 150 ]] && iters=(-i 300)
        rc=0
        timeout 60 "$L" -s $s "${iters[@]}" --exec atomic,hierarchical,warp,auto --layout soa \
          --tuning-file /tmp/ab-apps-tuning-$tree-$s >"$R/lulesh-$s-$tree-$round.log" 2>&1 || rc=$?
        note "lulesh -s $s $tree $round rc=$rc"
      done
    done
  done
  python3 - "$R" >"$R/compare.csv" <<'PY'
import csv, glob, re, statistics, sys
r = sys.argv[1]
rows = {}  # (case, what) -> tree -> [ms]
def add(key, tree, v):
    rows.setdefault(key, {}).setdefault(tree, []).append(v)
for f in glob.glob(f"{r}/miniaero-*-*-*.csv"):
    stencil, tree = f.split("/")[-1].split("-")[1:3]
    for row in csv.DictReader(open(f)):
        for col in ("face_flux_ms", "stage_ms", "gradient_ms", "limiter_ms"):
            try:
                add((f"miniaero 128^3 {stencil}", f"{row['variant']} {col}"), tree, float(row[col]))
            except (KeyError, ValueError):
                pass
for f in glob.glob(f"{r}/lulesh-*-*-*.log"):
    s, tree = f.split("/")[-1].split("-")[1:3]
    execu = None
    for line in open(f, errors="replace"):
        m = re.match(r"== umesh executor (\w+)", line)
        if m:
            execu = m.group(1)
        # (the elapsed time prints two digits; the grind time eight)
        m = re.match(r"Grind time \(us/z/c\)\s*=\s*([0-9.eE+-]+)", line)
        if m and execu:
            add((f"lulesh -s {s}", f"{execu} grind_us"), tree, float(m.group(1)))
print("case,what,new,base,new_over_base,runs_new,runs_base")
for key in sorted(rows):
    t = rows[key]
    if "new" in t and "base" in t:
        n, b = statistics.median(t["new"]), statistics.median(t["base"])
        print(f"{key[0]},{key[1]},{n:.6g},{b:.6g},{n / b:.3f},{len(t['new'])},{len(t['base'])}")
PY
  grep -h "copy bandwidth" "$R"/miniaero-*.log | sort | uniq -c >>"$R/summary.txt"
  note "compared $(($(wc -l <"$R/compare.csv") - 1)) rows"
  finish ab-apps-run
  ;;
*)
  echo "usage: $0 build|run" >&2
  exit 2
  ;;
esac
