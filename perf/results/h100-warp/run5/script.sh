#!/usr/bin/env bash
# Session 2026-11-25 (fourth), call 1: register budgets for the warp kernels and warp-sized
# built-in blocks as the face and edge numbering.
# Binaries built on the development machine from 4b9ba70's tree plus the launch-bounds switch
# (UMESH_EXPERIMENT_WARP_BOUNDS, compile definition): umesh_main (none), umesh_main_b64
# (LaunchBounds<1024,1>: at most 64 registers), umesh_main_b42 (LaunchBounds<256,6>: at most
# 40). Five kernels, SoA, natural numbering, RCM and the built-in partitioner's blocks of 32;
# atomic, ScatterView and warp; Nsight Compute of the candidates.
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
nvidia-smi > $R/nvidia-smi.txt 2>&1
export LD_LIBRARY_PATH=$PWD/.device/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
B=$PWD/.device/bin
for bin in umesh_main umesh_main_b64 umesh_main_b42; do  # registers and spills of the warp kernels
  cuobjdump --dump-resource-usage $B/$bin 2>&1 | grep -A1 WarpFunctor | grep -oE "REG:[0-9]+ STACK:[0-9]+ SHARED:[0-9]+ LOCAL:[0-9]+" | sort | uniq -c > $R/resources-$bin.txt
done
for bin in umesh_main umesh_main_b64 umesh_main_b42; do
  blocks=128,256
  timeout 150 $B/$bin --size large --kernel res_calc,face_flux,getacc,integrate_stress,volna --numbering natural \
    --reorder none,rcm,builtin --reorder-block 32 --layout soa --executor atomic,scatterview,warp --blocks $blocks \
    --repeats 20 --out $R/$bin > $R/$bin.log 2>&1
  echo "$bin rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "copy bandwidth" $R/$bin.log | head -1 >> $R/summary.txt
  grep -A6 "best per kernel" $R/$bin.log >> $R/summary.txt
done
M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
prof() { local n=$1 bin=$2 k=$3; shift 3
  timeout 60 ncu --kernel-name-base demangled -k "regex:$k" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --metrics $M \
    $B/$bin --size large --numbering natural --layout soa --repeats 3 --warmup 1 "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt; }
prof face_flux-atomic-builtin32 umesh_main 'ForFunctor.*FaceFlux' --kernel face_flux --executor atomic --reorder builtin --reorder-block 32
prof face_flux-warp-builtin32 umesh_main WarpFunctor --kernel face_flux --executor warp --blocks 128 --reorder builtin --reorder-block 32
prof face_flux-warp-b64-builtin32 umesh_main_b64 WarpFunctor --kernel face_flux --executor warp --blocks 128 --reorder builtin --reorder-block 32
prof res_calc-warp-builtin32 umesh_main WarpFunctor --kernel res_calc --executor warp --blocks 128 --reorder builtin --reorder-block 32
prof res_calc-warp-b42-builtin32 umesh_main_b42 WarpFunctor --kernel res_calc --executor warp --blocks 128 --reorder builtin --reorder-block 32
for f in $R/ncu-*.txt; do echo "== $(basename $f)"; grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Theoretical Occupancy|Warp Cycles Per Issued" $f | sort -u; done > $R/digest.txt
cd $OUT && tar czf r.tgz r && rm -rf r
