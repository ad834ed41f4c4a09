#!/usr/bin/env bash
# Device script for the warp-combine probe: build, time, Nsight Compute.
set -uo pipefail
cd "$(dirname "$0")"
OUT="${OUT:-/tmp/probe-out}"; mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
nvcc -O3 -arch=sm_90 -Xptxas -v -o /tmp/probe warp_combine_probe.cu > "$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
/tmp/probe "$@" 2>&1 | tee "$OUT/probe.log"
M=gpu__time_duration.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
timeout 200 ncu --metrics $M -k regex:'atomic_kernel|warp_kernel' --launch-skip 0 /tmp/probe "$@" 1 > "$OUT/ncu.txt" 2>&1
grep -E "atomic_kernel|warp_kernel|gpu__time|fabric|op_read|op_red|dram__bytes|inst_executed|warps_active|registers" "$OUT/ncu.txt" | sed 's/  */ /g' > "$OUT/ncu-short.txt"
cat "$OUT/ncu-short.txt"
