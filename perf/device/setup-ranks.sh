#!/usr/bin/env bash
# Issue 39 on the one-GPU kind (16 cores): setup time and peak host memory per rank at 1, 2 and
# 4 MPI ranks sharing the GPU, halos through the host, OMP_NUM_THREADS=16/ranks, each rank
# building only its own part: LULESH -s S (default 250, a few cycles; its setup by phase, wall
# and CPU) and miniAero's Sod N^3 (default 256) set up only (--steps 0, as
# perf/miniaero/setup_memory.sh). Per rank, from GNU time (else Python's getrusage): wall, CPU
# and peak resident memory (VmHWM) of the whole process; summary.csv takes the largest over the
# ranks and its ratio to one rank's (the goal: at most 0.35x the time, 0.4x the memory at 4).
# THREADS=N: N host threads per rank at every rank count (default 16/ranks); RUN_TIMEOUT: seconds
# a run may take (default 100); RUN_UNTIL: no run starts after this many seconds (default 420);
# APPS (default "lulesh miniaero"), RANKS (default "1 2 4") and REPEATS (default 1: runs of each,
# named APP-rNP, then APP-rNP-2, ...); BASE=1: also the tree in
# .device/base.tar.gz (a `git archive --prefix=base/`), built the same way, its runs named
# base-APP-rNP and made alternately with this tree's, for a same-call comparison; LULESH_ARGS:
# more options for LULESH's runs (e.g. "--partition ptscotch").
# Carry .bundle (the apps are built here, atomic SoA).
#   perf/device/setup-ranks.sh [S] [N]
. perf/device/env.sh
s=${1:-250} n=${2:-256}
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
{
  git log -1 --format='%H %s'
  git status --short
  nvidia-smi -L
  nproc
  mpirun --version | head -1
} >"$R/env.txt" 2>&1
apps=${APPS:-lulesh miniaero} ranks=${RANKS:-1 2 4} repeats=${REPEATS:-1}
trees=("")
if [[ -n ${BASE:-} ]]; then
  rm -rf /tmp/base && tar xzf .device/base.tar.gz -C /tmp
  trees+=(base-)
fi
targets=$(printf 'umesh_%s,' $apps)
# build TREE_DIR LOG: the apps (atomic, SoA); prints the build folder
build() {
  local rc=0
  UMESH_CMAKE_ARGS="-DUMESH_APP_EXECUTORS=Atomic -DUMESH_APP_LAYOUTS=SoA" timeout 300 "$1/setup.sh" \
    --bundle "$PWD/.bundle" --backend cuda --jobs 16 --targets "${targets%,}" build >"$2" 2>&1 || rc=$?
  note "CUDA build of $1 rc=$rc" >&2
  grep -o '/root/.cache/umesh/build/umesh-[0-9]*-cuda-cxx17' "$2" | head -1
}
b=$(build "$PWD" "$R/build.log")
bb=
[[ -z ${BASE:-} ]] || bb=$(build /tmp/base "$R/build-base.log")
for app in $apps; do
  for d in "$b" ${bb:+"$bb"}; do
    [[ -x $d/apps/$app/umesh_$app ]] || { tail -30 "$R"/build*.log >>"$R/summary.txt"; finish setup-ranks; exit 1; }
  done
done
program() { # program TREE APP: tree "" (this one) or "base-"
  if [[ -n $1 ]]; then echo "$bb/apps/$2/umesh_$2"; else echo "$b/apps/$2/umesh_$2"; fi
}
# Per rank "wall cpu rss_kib" into $0.time.<rank> (its argument 0), GNU time or Python.
if [[ -x /usr/bin/time ]]; then
  timer='/usr/bin/time -f "%e %U %S %M" -o "$0.time.$OMPI_COMM_WORLD_RANK" "$@"'
else
  timer='python3 -c "import resource, subprocess, sys, time
t = time.time(); c = subprocess.call(sys.argv[2:]); w = time.time() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], \"w\").write(\"%.2f %.2f %.2f %d\n\" % (w, r.ru_utime, r.ru_stime, r.ru_maxrss))
sys.exit(c)" "$0.time.$OMPI_COMM_WORLD_RANK" "$@"'
fi
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
# Host threads per rank: 16/ranks (the machine shared out), or THREADS for every rank count (the
# same cores per rank, as on a machine with a host's share per GPU).
threads() { echo "${THREADS:-$((16 / $1))}"; }
# run NAME RANKS PROGRAM ARGS...: one rank per process, the GPU shared, none past RUN_UNTIL s (420)
run() {
  local name=$1 ranks=$2 rc=0
  shift 2
  ((SECONDS < ${RUN_UNTIL:-420})) || { note "$name skipped: out of time"; return; }
  rm -f "$R/$name".time.*
  OMP_NUM_THREADS=$(threads "$ranks") timeout "${RUN_TIMEOUT:-100}" mpirun -np "$ranks" --oversubscribe --bind-to none \
    -x OMP_NUM_THREADS -x OMP_PROC_BIND -x OMP_WAIT_POLICY -x LD_LIBRARY_PATH \
    bash -c "$timer" "$R/$name" "$@" >"$R/$name.log" 2>&1 || rc=$?
  note "$name rc=$rc"
}
inp=$PWD/perf/miniaero/sod128_o2_visc.inp
for app in $apps; do
  for ((i = 1; i <= repeats; ++i)); do
    for np in $ranks; do
      for t in "${trees[@]}"; do
        name=$t$app-r$np
        ((i == 1)) || name=$name-$i
        if [[ $app == lulesh ]]; then
          run "$name" "$np" "$(program "$t" lulesh)" -s "$s" -i 5 --exec atomic --layout soa \
            --distributed --transport host ${LULESH_ARGS:-}
        else
          run "$name" "$np" "$(program "$t" miniaero)" --input "$inp" --mesh "$n,$n,$n" --steps 0 \
            --exec atomic --layout soa --distributed --partition blocks --transport host
        fi
      done
    done
  done
done
# The largest wall, CPU (user + system) and memory over a run's ranks, and ratios to one rank.
worst() {
  cat "$R/$1".time.* 2>/dev/null | awk '{w = $1 > w ? $1 : w; c = $2 + $3 > c ? $2 + $3 : c
    m = $4 > m ? $4 : m} END {if (NR) printf "%.2f %.2f %.0f\n", w, c, m / 1024}'
}
{
  echo "run,ranks,omp_threads,wall_s,cpu_s,peak_mib,wall_ratio,cpu_ratio,memory_ratio"
  for t in "${trees[@]}"; do
    for app in $apps; do
      for ((i = 1; i <= repeats; ++i)); do
        sfx=
        ((i == 1)) || sfx=-$i
        read -r w1 c1 m1 < <(worst $t$app-r1$sfx) || continue
        for np in $ranks; do
          read -r w c m < <(worst $t$app-r$np$sfx) || continue
          awk -v a="$t$app$sfx,$np,$(threads $np),$w,$c,$m" -v w="$w" -v c="$c" -v m="$m" \
            -v w1="$w1" -v c1="$c1" -v m1="$m1" \
            'BEGIN {printf "%s,%.2f,%.2f,%.2f\n", a, w / w1, c / c1, m / m1}'
        done
      done
    done
  done
} >"$R/summary.csv"
{
  echo "== whole processes, largest over the ranks (GNU time or getrusage; ratios to one rank)"
  tr , '\t' <"$R/summary.csv"
  echo "== the apps' own lines"
  grep -H -E "mesh:|setup per rank|setup CPU per rank|partition steps|host memory|Setup \(|steps in|setup [0-9]" \
    "$R"/*.log
} >>"$R/summary.txt"
finish setup-ranks
