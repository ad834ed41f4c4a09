#!/usr/bin/env bash
# Issue 39 on the one-GPU kind (16 cores): setup time and peak host memory per rank at 1, 2 and
# 4 MPI ranks sharing the GPU, halos through the host, OMP_NUM_THREADS=16/ranks, each rank
# building only its own part: LULESH -s S (default 250, a few cycles; its setup by phase, wall
# and CPU) and miniAero's Sod N^3 (default 256) set up only (--steps 0, as
# perf/miniaero/setup_memory.sh). Per rank, from GNU time (else Python's getrusage): wall, CPU
# and peak resident memory (VmHWM) of the whole process; summary.csv takes the largest over the
# ranks and its ratio to one rank's (the goal: at most 0.35x the time, 0.4x the memory at 4).
# THREADS=N: N host threads per rank at every rank count (default 16/ranks); RUN_TIMEOUT: seconds
# a run may take (default 100).
# Carry .bundle (umesh_lulesh and umesh_miniaero are built here, atomic SoA).
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
rc=0
UMESH_CMAKE_ARGS="-DUMESH_APP_EXECUTORS=Atomic -DUMESH_APP_LAYOUTS=SoA" timeout 300 ./setup.sh \
  --bundle "$PWD/.bundle" --backend cuda --jobs 16 --targets umesh_lulesh,umesh_miniaero build \
  >"$R/build.log" 2>&1 || rc=$?
note "CUDA build rc=$rc"
b=$(ls -d "$HOME"/.cache/umesh/build/umesh-*-cuda-cxx17 | head -1)
L=$b/apps/lulesh/umesh_lulesh M=$b/apps/miniaero/umesh_miniaero
[[ -x $L && -x $M ]] || { tail -30 "$R/build.log" >>"$R/summary.txt"; finish setup-ranks; exit 1; }
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
# run NAME RANKS PROGRAM ARGS...: one rank per process, the GPU shared, none past 420 s
run() {
  local name=$1 ranks=$2 rc=0
  shift 2
  ((SECONDS < 420)) || { note "$name skipped: out of time"; return; }
  rm -f "$R/$name".time.*
  OMP_NUM_THREADS=$(threads "$ranks") timeout "${RUN_TIMEOUT:-100}" mpirun -np "$ranks" --oversubscribe --bind-to none \
    -x OMP_NUM_THREADS -x OMP_PROC_BIND -x OMP_WAIT_POLICY -x LD_LIBRARY_PATH \
    bash -c "$timer" "$R/$name" "$@" >"$R/$name.log" 2>&1 || rc=$?
  note "$name rc=$rc"
}
for np in 1 2 4; do
  run lulesh-r$np $np "$L" -s "$s" -i 5 --exec atomic --layout soa --distributed --transport host
done
inp=$PWD/perf/miniaero/sod128_o2_visc.inp
for np in 1 2 4; do
  run miniaero-r$np $np "$M" --input "$inp" --mesh "$n,$n,$n" --steps 0 --exec atomic \
    --layout soa --distributed --partition blocks --transport host
done
# The largest wall, CPU (user + system) and memory over a run's ranks, and ratios to one rank.
worst() {
  cat "$R/$1".time.* 2>/dev/null | awk '{w = $1 > w ? $1 : w; c = $2 + $3 > c ? $2 + $3 : c
    m = $4 > m ? $4 : m} END {if (NR) printf "%.2f %.2f %.0f\n", w, c, m / 1024}'
}
{
  echo "run,ranks,omp_threads,wall_s,cpu_s,peak_mib,wall_ratio,cpu_ratio,memory_ratio"
  for app in lulesh miniaero; do
    read -r w1 c1 m1 < <(worst $app-r1) || continue
    for np in 1 2 4; do
      read -r w c m < <(worst $app-r$np) || continue
      awk -v a="$app,$np,$(threads $np),$w,$c,$m" -v w="$w" -v c="$c" -v m="$m" -v w1="$w1" \
        -v c1="$c1" -v m1="$m1" 'BEGIN {printf "%s,%.2f,%.2f,%.2f\n", a, w / w1, c / c1, m / m1}'
    done
  done
} >"$R/summary.csv"
{
  echo "== whole processes, largest over the ranks (GNU time or getrusage; ratios to one rank)"
  tr , '\t' <"$R/summary.csv"
  echo "== the apps' own lines"
  grep -H -E "mesh:|setup per rank|setup CPU per rank|host memory|Setup \(|steps in|setup [0-9]" \
    "$R"/*.log
} >>"$R/summary.txt"
finish setup-ranks
