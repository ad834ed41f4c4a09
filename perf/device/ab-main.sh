#!/usr/bin/env bash
# Issue 42's "no kernel slower" on the one-GPU kind, two trees in one call (carry .bundle and
# .device/base.tar.gz, a `git archive --prefix=base/` of the other commit): umesh_main built from
# each (CUDA, 16 jobs), then the main job's res_calc and face flux at --size large (past the L2),
# both layouts, rcm, atomic, warp, hierarchical and segmented rows, the two
# binaries alternating, twice each. compare.csv: every row's median time in each tree and their
# ratio (new / base), the best row per kernel, layout and ordering; copy bandwidth in the logs.
#   perf/device/ab-main.sh [REPEATS]
. perf/device/env.sh
repeats=${1:-20}
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
tar xzf .device/base.tar.gz -C /tmp
{
  git log -1 --format='%H %s'
  git status --short | head -20
  nvidia-smi -L
} >"$R/env.txt" 2>&1
build() { # build TREE NAME
  timeout 280 "$1/setup.sh" --bundle "$PWD/.bundle" --backend cuda --jobs 16 --targets umesh_main \
    build >"$R/build-$2.log" 2>&1
  note "build $2 rc=$?"
}
build "$PWD" new
build /tmp/base base
for tree in new base; do
  b=$(grep -o '/root/.cache/umesh/build/umesh-[0-9]*-cuda-cxx17' "$R/build-$tree.log" | head -1)
  declare "P_$tree=$b/perf/umesh_main"
done
for round in 1 2; do
  for tree in new base; do
    p=P_$tree
    ((SECONDS < 540)) || break 2
    timeout 120 "${!p}" --size large --kernel res_calc,face_flux --layout all --reorder rcm \
      --executor atomic,warp,hierarchical,segmented --repeats "$repeats" \
      --out "$R/$tree-$round" >"$R/main-$tree-$round.log" 2>&1
    note "main $tree $round rc=$?"
  done
done
python3 - "$R" >"$R/compare.csv" <<'PY'
import csv, glob, statistics, sys
r = sys.argv[1]
rows = {}
for tree in ("new", "base"):
    for f in glob.glob(f"{r}/{tree}-*/results.csv"):
        for row in csv.DictReader(open(f)):
            key = (row["kernel"], row["executor"], row["layout"], row["reorder"], row["block_size"])
            try:
                rows.setdefault(key, {}).setdefault(tree, []).append(float(row["time_ms"]))
            except ValueError:
                pass
print("kernel,executor,layout,reorder,block_size,new_ms,base_ms,new_over_base")
for key in sorted(rows):
    t = rows[key]
    if "new" in t and "base" in t:
        n, b = statistics.median(t["new"]), statistics.median(t["base"])
        print(",".join(key) + f",{n:.4f},{b:.4f},{n / b:.3f}")
PY
note "compared $(($(wc -l <"$R/compare.csv") - 1)) rows; new/base median $(awk -F, 'NR>1{print $8}' "$R/compare.csv" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')"
finish ab-main
