#!/usr/bin/env bash
# Session 2026-11-25, call 6: links prefetched into L1 when the kernel is called (prefetch.global.L1) and loaded after it, instead of loaded before it (run 3).
# The new binary (umesh_main) and run 3's (umesh_main_run3) in one session: five kernels, SoA,
# natural numbering and RCM, atomic, ScatterView and warp; Nsight Compute of the new warp and
# atomic kernels (res_calc, face_flux; SoA, RCM, block 128); test_warp on the GPU.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
SECONDS=0
nvidia-smi > $R/nvidia-smi.txt 2>&1
timeout 120 $B/test_warp > $R/test_warp.log 2>&1
echo "test_warp rc=$? ${SECONDS}s" | tee -a $R/summary.txt; tail -1 $R/test_warp.log >> $R/summary.txt
for bin in umesh_main umesh_main_run3; do
  timeout 200 $B/$bin --size large --kernel res_calc,face_flux,getacc,integrate_stress,volna --numbering natural --reorder none,rcm \
    --layout soa --executor atomic,scatterview,warp --blocks 128,256 --repeats 20 --out $R/$bin > $R/$bin.log 2>&1
  echo "$bin rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "copy bandwidth" $R/$bin.log | head -1 >> $R/summary.txt
  grep -A6 "best per kernel" $R/$bin.log >> $R/summary.txt
done
M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
prof() { local n=$1 k=$2; shift 2
  timeout 90 ncu --kernel-name-base demangled -k "regex:$k" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --metrics $M \
    $B/umesh_main --size large --numbering natural --reorder rcm --layout soa --repeats 3 --warmup 1 "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt; }
prof res_calc-atomic 'ForFunctor.*ResCalc' --kernel res_calc --executor atomic
prof res_calc-warp-128 WarpFunctor --kernel res_calc --executor warp --blocks 128
prof face_flux-atomic 'ForFunctor.*FaceFlux' --kernel face_flux --executor atomic
prof face_flux-warp-128 WarpFunctor --kernel face_flux --executor warp --blocks 128
for f in $R/ncu-*.txt; do echo "== $(basename $f)"; grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Theoretical Occupancy|Warp Cycles Per Issued" $f | sort -u; done > $R/digest.txt
cat $R/digest.txt >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
