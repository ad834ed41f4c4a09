#!/usr/bin/env bash
# Issue 39's setup and host memory per rank, on the host: miniAero Sod N^3
# set up (no time step) on one rank and on RANKS ranks, each rank building
# only its own block (--partition blocks, the default) and, for comparison,
# every rank building the whole mesh (--partition metis). Per rank: wall
# seconds, CPU seconds and peak resident memory (GNU time: Debian package
# 'time'), the largest over the ranks; the ratios to one rank's.
#   perf/miniaero/setup_memory.sh UMESH_MINIAERO OUT_DIR [N] [RANKS]   (default 96 4)
# One host thread per rank (OMP_NUM_THREADS=1), so that one rank's run and a
# rank of the others do the same work per thread; ranks beyond the host's
# cores share them, which stretches wall time but not CPU time or memory.
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 UMESH_MINIAERO OUT_DIR [N] [RANKS]" >&2; exit 2; }
exe=$1 out=$2 n=${3:-96} ranks=${4:-4}
[[ -x $exe ]] || { echo "$0: '$exe' is not an executable umesh_miniaero" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "$0: needs GNU time (apt-get install time)" >&2; exit 2; }
[[ $n =~ ^[1-9][0-9]*$ && $ranks =~ ^[2-9]$|^[1-9][0-9]+$ ]] ||
  { echo "$0: N must be a positive integer and RANKS at least 2" >&2; exit 2; }
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# run NAME NP PARTITION: per rank "wall cpu rss_kib" under $out/NAME.time.<rank>
run() {
  local name=$1 np=$2 partition=$3
  rm -f "$out/$name".time.*
  mpiexec -np "$np" --oversubscribe bash -c \
    '/usr/bin/time -f "%e %U %S %M" -o "$0.time.$OMPI_COMM_WORLD_RANK" "$@"' "$out/$name" \
    "$exe" --input "$here/sod128_o2_visc.inp" --mesh "$n,$n,$n" --steps 0 --exec atomic \
    --layout soa --distributed --partition "$partition" >"$out/$name.log" 2>&1 ||
    { tail -5 "$out/$name.log" >&2; echo "$0: run $name failed (log: $out/$name.log)" >&2; exit 1; }
}
# The largest wall, CPU (user + system) and memory over a run's ranks.
worst() {
  cat "$out/$1".time.* | awk '{w = $1 > w ? $1 : w; c = $2 + $3 > c ? $2 + $3 : c;
    m = $4 > m ? $4 : m} END {printf "%.2f %.2f %.0f\n", w, c, m / 1024}'
}
echo "== Sod ${n}^3, no time step: one rank, then $ranks ranks (blocks, then metis)"
run one 1 blocks
run blocks "$ranks" blocks
run metis "$ranks" metis
read -r w1 c1 m1 < <(worst one)
{
  echo "run,ranks,partition,wall_s,cpu_s,peak_mib,wall_ratio,cpu_ratio,memory_ratio"
  for r in "one 1 blocks" "blocks $ranks blocks" "metis $ranks metis"; do
    read -r name np partition <<<"$r"
    read -r w c m < <(worst "$name")
    awk -v a="$name,$np,$partition,$w,$c,$m" -v w="$w" -v c="$c" -v m="$m" -v w1="$w1" \
      -v c1="$c1" -v m1="$m1" 'BEGIN {printf "%s,%.2f,%.2f,%.2f\n", a, w / w1, c / c1, m / m1}'
  done
} >"$out/setup_memory.csv"
column -s, -t "$out/setup_memory.csv"
echo "per rank: the largest over the ranks; ratios to one rank's. Logs and GNU time's records: $out"
