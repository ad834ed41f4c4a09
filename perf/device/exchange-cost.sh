#!/usr/bin/env bash
# Issue 39 on the 2-GPU kind: what an exchange costs against NCCL alone moving the same bytes
# between the same ranks, for miniAero Sod N^3 (default 256, 10 steps, rcm, each rank its own
# block, the limiter over cells) and LULESH -s S (default 250, 200 cycles, slabs), two ranks, one
# GPU each, through NCCL (atomic, SoA). With --timed-exchanges the apps fence around each
# exchange, split it into packing, transfer and unpacking (CUDA events on the stream, after the
# device's lead) and time NCCL alone (umesh::dist::nccl_transfer_seconds) in the same run: the
# cost's multiple of it is the figure. Untimed runs give the steps' time.
# When .device/base.tar.gz is carried (`git archive --prefix=base/ BASE` of the commit to compare
# with, e.g. the one before the fused exchange), the base tree is built too and every run
# alternates the two builds, twice each.
#   perf/device/exchange-cost.sh [build|run|all] [N] [S]
# build: the programs (CUDA, MPI, NCCL; from the offline bundle: carry .bundle) of this tree and
# the base, kept on the warm machine for `run` (a cold machine builds Kokkos first, which took
# up to 500 s: call `build` again until both trees say rc=0; ninja resumes where it stopped);
# run: the runs (a later call on the same machine); all: both in one call (the runs past the
# call's time are skipped and said so).
. perf/device/env.sh
mode=${1:-all} n=${2:-256} s=${3:-250}
# GPUS=1: the two ranks share one GPU and exchange through the host (the one-GPU kind: the
# packing and unpacking kernels' device time, not NCCL's), and LULESH -s 10 on two ranks is
# checked against LULESH's energy first.
gpus=${GPUS:-2}
transport=$([[ $gpus == 1 ]] && echo host || echo nccl)
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
{
  git log -1 --format='%H %s'
  git status --short | head -20
  nvidia-smi -L
  nvidia-smi topo -m
  mpirun --version | head -1
} >"$R/env.txt" 2>&1
trees=(new)
if [[ -f .device/base.tar.gz ]]; then
  [[ -d /tmp/base ]] || tar xzf .device/base.tar.gz -C /tmp
  trees+=(base)
fi
root() { [[ $1 == new ]] && echo "$PWD" || echo /tmp/base; }
build() { # build TREE: only the two programs, atomic and SoA, in what is left of the call
  local rc=0 left=$((570 - SECONDS))
  ((left > 30)) || { note "build $1 skipped: out of time (call build again)"; return; }
  UMESH_CMAKE_ARGS="-DUMESH_APP_EXECUTORS=Atomic -DUMESH_APP_LAYOUTS=SoA" timeout "$left" \
    "$(root "$1")/setup.sh" --bundle "$PWD/.bundle" --backend cuda --jobs 32 \
    --targets umesh_miniaero,umesh_lulesh build >"$R/build-$1.log" 2>&1 || rc=$?
  note "build $1 rc=$rc"
}
if [[ $mode != run ]]; then
  for t in "${trees[@]}"; do build "$t"; done
fi
if [[ $mode == build ]]; then
  finish exchange-cost-build
  exit 0
fi
for t in "${trees[@]}"; do # setup.sh names the build folder by the checksum of the source path
  b=$HOME/.cache/umesh/build/umesh-$(printf '%s' "$(root "$t")" | cksum | cut -d' ' -f1)-cuda-cxx17
  declare "M_$t=$b/apps/miniaero/umesh_miniaero" "L_$t=$b/apps/lulesh/umesh_lulesh"
  m=M_$t l=L_$t
  [[ -x ${!m} && -x ${!l} ]] || { note "no programs for $t (build first)"; finish exchange-cost; exit 1; }
done
export OMP_NUM_THREADS=16 OMP_PROC_BIND=false NCCL_DEBUG=WARN
inp=$PWD/perf/miniaero/sod128_o2_visc.inp
mcommon=(--input "$inp" --mesh "$n,$n,$n" --steps 10 --layout soa --reorder rcm --exec atomic)
lcommon=(-s "$s" -i 200 --exec atomic --layout soa --partition slabs)
run() { # run NAME PROGRAM ARGS...: two ranks through NCCL, the log under $R
  local name=$1 prog=$2 rc=0
  shift 2
  ((SECONDS < 540)) || { note "$name skipped: out of time"; return; }
  timeout 100 mpirun -np 2 --bind-to none "$prog" "$@" --kokkos-num-devices=$gpus --transport $transport \
    >"$R/$name.log" 2>&1 || rc=$?
  note "$name rc=$rc: $(grep -m1 -E 'steps in|Elapsed time' "$R/$name.log" || true)"
  grep -h -A1 "per exchange:" "$R/$name.log" | sed "s/^/  $name /" >>"$R/summary.txt" || true
}
if [[ $gpus == 1 ]]; then
  for t in "${trees[@]}"; do
    l=L_$t
    timeout 60 mpirun -np 2 --bind-to none "${!l}" -s 10 --exec atomic --layout soa --distributed \
      --transport host --expect-cycles 231 --expect-energy 2.72053116847034689e+04 \
      >"$R/lulesh-s10-np2-$t.log" 2>&1
    note "lulesh -s 10 np2 $t rc=$? $(grep -m1 'runs pass the checks' "$R/lulesh-s10-np2-$t.log")"
  done
fi
for round in 1 2; do
  for t in "${trees[@]}"; do
    m=M_$t l=L_$t
    run "miniaero-$t-timed-$round" "${!m}" "${mcommon[@]}" --timed-exchanges
    run "lulesh-$t-timed-$round" "${!l}" "${lcommon[@]}" --timed-exchanges
  done
done
for t in "${trees[@]}"; do
  m=M_$t l=L_$t
  run "miniaero-$t" "${!m}" "${mcommon[@]}"
  run "lulesh-$t" "${!l}" "${lcommon[@]}"
done
grep -H "steps in\|halo exchange\|per exchange\|NCCL alone\|Elapsed\|per cycle" "$R"/*.log \
  >>"$R/summary.txt" 2>/dev/null || true
finish exchange-cost
