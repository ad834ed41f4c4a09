#!/usr/bin/env bash
# Session 2026-11-24f, call 4: exec::Segmented three forms in one session: FP64 scratch CAS loops
# (umesh_main_cas), per-point entries with integer shared atomics (umesh_main_mb), and the same
# with an early-exit segment search and no memory clobber on the atomic (umesh_main); then Nsight
# Compute of the three on res_calc and of the newest on face_flux (SoA, rcm, b128).
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
SECONDS=0
nvidia-smi > $R/nvidia-smi.txt 2>&1
for bin in umesh_main umesh_main_mb umesh_main_cas; do
  timeout 100 $B/$bin --size large --kernel res_calc,face_flux,getacc,integrate_stress,volna --numbering natural --reorder rcm --layout soa \
    --executor atomic,scatterview,segmented --blocks 64,128,256 --repeats 20 --out $R/$bin > $R/$bin.log 2>&1
  echo "$bin rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "^[a-z_]+/natural +(atomic|scatterview|segmented)" $R/$bin.log >> $R/summary.txt
done
M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
prof() { local n=$1 bin=$2 k=$3; shift 3
  timeout 90 ncu --kernel-name-base demangled -k "regex:$k" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats --metrics $M \
    $B/$bin --size large --numbering natural --reorder rcm --layout soa --repeats 3 --warmup 1 "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt; }
prof res_calc-seg-128 umesh_main SegmentedFunctor --kernel res_calc --executor segmented --blocks 128
prof res_calc-segmb-128 umesh_main_mb SegmentedFunctor --kernel res_calc --executor segmented --blocks 128
prof face_flux-seg-128 umesh_main SegmentedFunctor --kernel face_flux --executor segmented --blocks 128
for f in $R/ncu-*.txt; do echo "== $(basename $f)"; grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Theoretical Occupancy|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Issue Slots Busy|No Eligible" $f | sort -u; done > $R/digest.txt
cd $OUT && tar czf r.tgz r && rm -rf r
