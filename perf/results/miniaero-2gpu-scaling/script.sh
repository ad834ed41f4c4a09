#!/usr/bin/env bash
# Issue 15, item 5, on the lent 2-GPU kind in one call: miniAero's strong scaling from one GPU to
# two at 128^3 and 256^3, with the communication share, and res_calc at 50.4M edges beside it.
# Two programs built on the development machine (CUDA, Kokkos 3.4.01 patched, NCCL; tree in
# .device/bin4/tree.txt) and carried with METIS and Scotch in one archive (.device/bin4.tar.xz:
# the carry limit is 64 MiB); the device's OpenMPI and NCCL.
#   miniAero, Sod (perf/miniaero/sod128_o2_visc.inp: second order, viscous), atomic, SoA:
#     128^3, 20 steps: one GPU; two GPUs through NCCL; the same with --timed-exchanges (each
#     exchange fenced, so its time counts the GPU's packing, transfers and unpacking); two GPUs
#     through the host, timed the same way.
#     256^3, 10 steps: one GPU; two GPUs through NCCL; the same with --timed-exchanges.
#   res_calc, 7000 x 3600 (50.4M edges), atomic, SoA, 30 steps: one GPU, then two GPUs through
#     NCCL with --breakdown; each run prints its GPU's copy bandwidth.
# Both GPUs' clocks are sampled every 250 ms throughout.
. perf/device/env.sh
export OMP_NUM_THREADS=8 OMP_PROC_BIND=false NCCL_DEBUG=WARN
[ -x .device/bin4/umesh_miniaero ] || tar xJf .device/bin4.tar.xz -C .device
note "unpacked"
D=$PWD/.device/bin4/umesh_dist_res_calc
M=$PWD/.device/bin4/umesh_miniaero
{ cat .device/bin4/tree.txt; nvidia-smi -L; nvidia-smi topo -m; mpirun --version | head -1; ldd $D $M | grep "not found"; } > $R/env.txt 2>&1
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 250 > $R/clocks.csv 2>&1 &
clocks=$!
two="mpirun -np 2 --bind-to none"
inp=$PWD/perf/miniaero/sod128_o2_visc.inp
for n in 128 256; do
  steps=$((n == 128 ? 20 : 10))
  common="--input $inp --mesh $n,$n,$n --steps $steps --exec atomic --layout soa"
  OMP_NUM_THREADS=16 timeout 150 $M $common --kokkos-device-id=0 > $R/mini$n-one.log 2>&1
  note "miniAero $n^3 one GPU rc=$?"
  timeout 150 $two $M $common --kokkos-num-devices=2 --transport nccl > $R/mini$n-nccl.log 2>&1
  note "miniAero $n^3 two GPUs, NCCL rc=$?"
  timeout 150 $two $M $common --kokkos-num-devices=2 --transport nccl --timed-exchanges > $R/mini$n-nccl-timed.log 2>&1
  note "miniAero $n^3 two GPUs, NCCL, timed exchanges rc=$?"
  if [ $n = 128 ]; then
    timeout 150 $two $M $common --kokkos-num-devices=2 --transport host --timed-exchanges > $R/mini$n-host-timed.log 2>&1
    note "miniAero $n^3 two GPUs, host exchange, timed exchanges rc=$?"
  fi
  grep -H "steps in\|halo exchange [0-9]\|mesh:" $R/mini$n-*.log >> $R/summary.txt
done
timeout 60 mpirun -np 1 --bind-to none $D --kokkos-device-id=0 --nx 7000 --ny 3600 --steps 30 --no-check --exec atomic > $R/res-one.log 2>&1
note "res_calc one GPU rc=$?"
timeout 90 $two $D --kokkos-num-devices=2 --nx 7000 --ny 3600 --steps 30 --no-check --exec atomic \
  --transport nccl --breakdown > $R/res-nccl.log 2>&1
note "res_calc two GPUs rc=$?"
grep -H "copy bandwidth\|step \|each rank\|fenced apart" $R/res-*.log >> $R/summary.txt
kill $clocks
gzip $R/clocks.csv
finish r
