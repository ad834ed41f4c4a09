#!/usr/bin/env bash
# Issue 39 on the lent 4-GPU kind (nvidia-h100-x4), in one call: miniAero Sod strong scaling from
# one GPU to two and four, each side renumbered (--reorder rcm), and where a distributed step's
# time goes.
#   perf/device/miniaero-scaling.sh [scale|profile|all] [N] [EXEC]   (default all 256 atomic)
# scale: Sod N^3 (10 steps; 20 at 128^3) on one GPU under atomic and auto (auto tuned by a one-step
#   run first; the one-GPU baseline is the faster of the two, from this call), then on 2 and 4 GPUs (one rank per GPU, NCCL) under
#   EXEC, each without and with --timed-exchanges (each exchange fenced: its time counts the
#   GPU's packing, transfers and unpacking); NCCL's own transfer between two GPUs (4 KiB to
#   64 MiB, perf/probes/nccl_sendrecv_probe.cpp); the copy bandwidth in the same call.
# profile: Nsight Systems (where installed) over 3 steps of Sod 128^3 on two GPUs: the GPU's
#   kernel and NCCL trace and the CUDA API summary, as CSV, so an exchange's parts can be read.
# Carry .device/miniaero (umesh_miniaero built with MPI and NCCL; MINIAERO=PATH names another) and
# .device/libs.
set -euo pipefail
source perf/device/env.sh
mode=${1:-all} n=${2:-256} exec=${3:-atomic}
case "$mode" in scale | profile | all) ;; *) echo "usage: $0 [scale|profile|all] [N] [EXEC]" >&2; exit 2 ;; esac
M=${MINIAERO:-$PWD/.device/miniaero/umesh_miniaero}
[[ -x $M ]] || { echo "miniaero-scaling.sh: $M was not carried" >&2; exit 2; }
{
  git log -1 --format='%H %s'
  git status --short
  nvidia-smi -L
  nvidia-smi topo -m
  mpirun --version | head -1
  command -v nsys || echo "no nsys"
} >"$R/env.txt" 2>&1 || true
# Host threads per rank (mesh generation uses them).
export OMP_NUM_THREADS=16 OMP_PROC_BIND=false NCCL_DEBUG=WARN
inp=$PWD/perf/miniaero/sod128_o2_visc.inp
gpus=$(nvidia-smi -L | wc -l)
run() { # run NAME RANKS ARGS...: one run, its log under $R
  local name=$1 ranks=$2 rc=0
  shift 2
  if ((ranks == 1)); then
    timeout 300 $M "$@" --kokkos-device-id=0 >"$R/$name.log" 2>&1 || rc=$?
  else
    timeout 300 mpirun -np "$ranks" --bind-to none $M "$@" --kokkos-num-devices="$ranks" \
      --transport nccl >"$R/$name.log" 2>&1 || rc=$?
  fi
  note "$name rc=$rc: $(grep -m1 'steps in' "$R/$name.log" || true)"
}
if [[ $mode != profile ]]; then
  steps=$((n == 128 ? 20 : 10))
  common=(--input "$inp" --mesh "$n,$n,$n" --layout soa --reorder rcm)
  # auto tunes each loop on its first call: a one-step run tunes and keeps its choices in a
  # tuning file, and the timed run starts from them (the renumbering is saved and reused too).
  run one-atomic 1 "${common[@]}" --steps "$steps" --exec atomic --plan-dir "$R/plans"
  run one-auto-tune 1 "${common[@]}" --steps 1 --exec auto --plan-dir "$R/plans" --tuning-file "$R/tuning"
  run one-auto 1 "${common[@]}" --steps "$steps" --exec auto --plan-dir "$R/plans" --tuning-file "$R/tuning"
  for ranks in 2 4; do
    ((ranks <= gpus)) || continue
    run "r$ranks" "$ranks" "${common[@]}" --steps "$steps" --exec "$exec"
    NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P,SHM,NET run "r$ranks-timed" "$ranks" "${common[@]}" \
      --steps "$steps" --exec "$exec" --timed-exchanges
    # Which transport NCCL took between the GPUs (P2P over NVLink, SHM or NET).
    grep -oE "via [A-Za-z/]+" "$R/r$ranks-timed.log" | sort | uniq -c >>"$R/summary.txt" || true
    grep -v "NCCL INFO" "$R/r$ranks-timed.log" >"$R/r$ranks-timed.txt" && mv "$R/r$ranks-timed.txt" "$R/r$ranks-timed.log"
  done
  grep -H "steps in\|mesh:\|halo exchange [0-9]\|per exchange\|setup" "$R"/one-*.log "$R"/r*.log >>"$R/summary.txt" || true
  # NCCL's own transfer between two of the GPUs, 4 KiB to 64 MiB, for the per-exchange cost
  # above (perf/probes/nccl_sendrecv_probe.cpp, built here).
  rc=0
  mpicxx -O2 -std=c++17 -DOMPI_SKIP_MPICXX -I/usr/local/cuda/include \
    perf/probes/nccl_sendrecv_probe.cpp -L/usr/local/cuda/lib64 -lnccl -lcudart \
    -o "$R/nccl_probe" >"$R/probe-build.log" 2>&1 &&
    timeout 120 mpirun -np 2 --bind-to none "$R/nccl_probe" 50 >"$R/probe.log" 2>&1 || rc=$?
  note "NCCL probe rc=$rc"
  rm -f "$R/nccl_probe"
  cat "$R/probe.log" >>"$R/summary.txt" || true
  rc=0
  timeout 60 $M --input "$inp" --mesh 64,64,64 --exec atomic --layout soa --bench 1 \
    --kokkos-device-id=0 >"$R/bandwidth.log" 2>&1 || rc=$?
  note "copy bandwidth rc=$rc: $(grep -m1 -i 'copy bandwidth' "$R/bandwidth.log" || true)"
fi
if [[ $mode != scale ]] && command -v nsys >/dev/null; then
  rc=0
  timeout 300 mpirun -np 2 --bind-to none bash -c "nsys profile -t cuda,nvtx -o $R/prof\$OMPI_COMM_WORLD_RANK \
    --force-overwrite true $M --input $inp --mesh 128,128,128 --steps 3 --layout soa --reorder rcm \
    --exec $exec --kokkos-num-devices=2 --transport nccl" >"$R/prof.log" 2>&1 || rc=$?
  note "profile rc=$rc"
  for r in 0 1; do
    [[ -f $R/prof$r.nsys-rep ]] || continue
    nsys stats -q --report cuda_gpu_kern_sum,cuda_api_sum --format csv -o "$R/stats$r" "$R/prof$r.nsys-rep" \
      >/dev/null 2>&1 || true
    nsys stats -q --report cuda_gpu_trace --format csv -o "$R/trace$r" "$R/prof$r.nsys-rep" >/dev/null 2>&1 || true
    gzip -f "$R"/trace$r*.csv 2>/dev/null || true
    rm -f "$R/prof$r.nsys-rep" "$R/prof$r.sqlite"
  done
fi
finish "miniaero-scaling-$mode"
