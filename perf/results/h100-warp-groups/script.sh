#!/usr/bin/env bash
# Session 2026-11-26: elements grouped for warps (ReorderOptions::warp_groups, `--reorder
# <method>+warps`), issue 11, on the lent H100. umesh_main built on the development machine
# (CUDA, Kokkos 3.4.01 with our patch) and carried in .device/build.
#   script.sh time  res_calc at 2400 x 1200 (SoA; rcm, gps, none+warps, rcm+warps, gps+warps;
#                   atomic, ScatterView, warp under budgets 0 and 40, blocks 128 and 256), the
#                   face flux at 128^3 (none, rcm, none+warps, rcm+warps; atomic, ScatterView,
#                   warp under budgets 0 and 64, block 128), res_calc again (a second sample),
#                   then Nsight Compute of the warp and atomic kernels under rcm and none+warps
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
B=$PWD/.device/build
m=$B/perf/umesh_main
export LD_LIBRARY_PATH="$PWD/.device/libs:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi > $R/nvidia-smi.txt 2>&1
M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
prof() { local n=$1 k=$2; shift 2
  timeout 60 ncu --kernel-name-base demangled -k "regex:$k" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --metrics $M \
    $m --size large --numbering natural --repeats 3 --warmup 1 "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt; }
case "$1" in
time)
  rc() { timeout 200 $m --size large --kernel res_calc --numbering natural --reorder rcm,gps,none+warps,rcm+warps,gps+warps \
    --layout soa --executor atomic,scatterview,warp --blocks 128,256 --warp-registers 0,40 --repeats 20 --out $R/$1 > $R/$1.log 2>&1
    echo "$1 rc=$? ${SECONDS}s" | tee -a $R/summary.txt; }
  rc res_calc
  timeout 200 $m --size large --kernel face_flux --numbering natural --reorder none,rcm,none+warps,rcm+warps \
    --layout soa --executor atomic,scatterview,warp --blocks 128 --warp-registers 0,64 --repeats 20 --out $R/face_flux > $R/face_flux.log 2>&1
  echo "face_flux rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  rc res_calc2
  grep -h "copy bandwidth" $R/*.log >> $R/summary.txt
  grep -h -A3 "best per kernel" $R/*.log >> $R/summary.txt
  prof warp-r40-rcm-256 WarpFunctor --kernel res_calc --reorder rcm --layout soa --executor warp --blocks 256 --warp-registers 40
  prof warp-r40-nonewarps-256 WarpFunctor --kernel res_calc --reorder none+warps --layout soa --executor warp --blocks 256 --warp-registers 40
  prof atomic-rcm 'ForFunctor.*ResCalc' --kernel res_calc --reorder rcm --layout soa --executor atomic
  prof atomic-nonewarps 'ForFunctor.*ResCalc' --kernel res_calc --reorder none+warps --layout soa --executor atomic
  for f in $R/ncu-*.txt; do echo "== $(basename $f)"; grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Warp Cycles Per Issued" $f | sort -u; done > $R/digest.txt ;;
bpt)
  # Experiment binary: UMESH_X_WARP_BPT=n makes each warp-executor team run n consecutive blocks,
  # one after another, so that the points consecutive blocks share are read again by the same SM.
  for n in 1 2 4 8 16 32; do
    UMESH_X_WARP_BPT=$n timeout 100 $m --size large --kernel res_calc --numbering natural --reorder rcm --layout soa \
      --executor atomic,warp --blocks 128,256 --warp-registers 0,40 --repeats 20 --out $R/bpt$n > $R/bpt$n.log 2>&1
    echo "bpt $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt
    grep -E "^res_calc" $R/bpt$n.log | sed "s/^/bpt$n /" >> $R/summary.txt
  done
  grep -h "copy bandwidth" $R/bpt*.log >> $R/summary.txt
  for n in 1 8; do
    export UMESH_X_WARP_BPT=$n; prof warp-r40-rcm-256-bpt$n WarpFunctor --kernel res_calc --reorder rcm --layout soa --executor warp --blocks 256 --warp-registers 40; unset UMESH_X_WARP_BPT
  done
  for f in $R/ncu-*.txt; do echo "== $(basename $f)"; grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Warp Cycles Per Issued" $f | sort -u; done > $R/digest.txt ;;
t)
  # Experiment binary: UMESH_X_WARP_T=1 makes the warp executor's leaders leave their sums in the
  # warp's scratch; the warp then issues the global atomics together, consecutive lanes on
  # consecutive addresses (component by component in SoA, point by point in AoS).
  for v in 0 1 0b 1b; do
    UMESH_X_WARP_T=${v%b} timeout 100 $m --size large --kernel res_calc --numbering natural --reorder rcm --layout all \
      --executor atomic,warp --blocks 128,256 --warp-registers 0,40 --repeats 20 --out $R/t$v > $R/t$v.log 2>&1
    echo "t $v rc=$? ${SECONDS}s" | tee -a $R/summary.txt
    grep -E "^res_calc" $R/t$v.log | sed "s/^/t$v /" >> $R/summary.txt
  done
  for v in 0 1; do
    UMESH_X_WARP_T=$v timeout 100 $m --size large --kernel face_flux --numbering natural --reorder none,rcm --layout all \
      --executor atomic,warp --blocks 128 --warp-registers 0,64 --repeats 20 --out $R/ff$v > $R/ff$v.log 2>&1
    echo "ff $v rc=$? ${SECONDS}s" | tee -a $R/summary.txt
    grep -E "^face_flux" $R/ff$v.log | sed "s/^/ff$v /" >> $R/summary.txt
  done
  grep -h "copy bandwidth" $R/t*.log $R/ff*.log >> $R/summary.txt
  for v in 0 1; do
    export UMESH_X_WARP_T=$v
    prof warp-r40-rcm-256-soa-t$v WarpFunctor --kernel res_calc --reorder rcm --layout soa --executor warp --blocks 256 --warp-registers 40
    prof warp-r40-rcm-256-aos-t$v WarpFunctor --kernel res_calc --reorder rcm --executor warp --blocks 256 --warp-registers 40 --layout aos
    unset UMESH_X_WARP_T
  done
  for f in $R/ncu-*.txt; do echo "== $(basename $f)"; grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Warp Cycles Per Issued" $f | sort -u; done > $R/digest.txt ;;
esac
echo "done ${SECONDS}s" | tee -a $R/summary.txt
(cd $OUT && tar czf r-$1.tgz r && rm -rf r)
