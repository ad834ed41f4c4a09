#!/usr/bin/env bash
# Session 2026-11-26 (second): exec::WarpCombine's compact maps (16-bit offsets from a base per
# warp, `--warp-maps 16`, rows /m16), issue 11, on the lent H100. Binaries built on the
# development machine (CUDA, Kokkos 3.4.01 with our patch) and carried:
#   .device/base/umesh_main   the tree before compact maps (bf8b033's, whose warp code HEAD kept)
#   .device/build/perf/umesh_main, .device/build/tests/test_{warp,hierarchical}  this tree
#   script.sh ab   tests and sanitizers on the GPU, then res_calc base/new/base/new (SoA, RCM,
#                  atomic, ScatterView, warp under budgets 0 and 40, blocks 128 and 256), the
#                  other four kernels with and without compact maps, Nsight Compute of both
#   script.sh ab2  the same, and the other four kernels under the base binary too
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
B=$PWD/.device/build
new=$B/perf/umesh_main base=$PWD/.device/base/umesh_main
export LD_LIBRARY_PATH="$PWD/.device/libs:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi > $R/nvidia-smi.txt 2>&1
S=$R/summary.txt
M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
prof() { local n=$1 k=$2 m=$3; shift 3
  timeout 60 ncu --kernel-name-base demangled -k "regex:$k" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --metrics $M \
    $m --size large --numbering natural --repeats 3 --warmup 1 "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $S; }
run() { local n=$1 m=$2 t=$3; shift 3
  timeout $t $m --size large --numbering natural --repeats 20 --out $R/$n "$@" > $R/$n.log 2>&1
  echo "$n rc=$? ${SECONDS}s" | tee -a $S
  grep -E "^[a-z_]+/natural " $R/$n.log | sed "s/^/$n /" >> $S; }
case "$1" in
ab|ab2)
  export OMP_NUM_THREADS=4
  for t in test_warp test_hierarchical; do
    [[ -x $B/tests/$t ]] || continue # carried when built from this tree
    timeout 150 $B/tests/$t > $R/$t.log 2>&1; echo "$t rc=$? ${SECONDS}s" | tee -a $S; tail -3 $R/$t.log >> $S
  done
  for tool in memcheck racecheck; do
    timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 $B/tests/test_warp --gtest_filter='Warp/*.CompactMapsMatchSerial' > $R/san-$tool.log 2>&1
    echo "sanitizer $tool rc=$? ${SECONDS}s" | tee -a $S; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $R/san-$tool.log >> $S
  done
  rc="--kernel res_calc --reorder rcm --layout soa --executor atomic,scatterview,warp --blocks 128,256 --warp-registers 0,40"
  run rc-base1 $base 120 $rc
  run rc-new1 $new 120 $rc --warp-maps 32,16
  run rc-base2 $base 120 $rc
  run rc-new2 $new 120 $rc --warp-maps 32,16
  if [[ $1 == ab2 ]]; then # the plain path beside the base binary on every kernel
    run ff-base $base 150 --kernel face_flux --reorder none,rcm --layout soa --executor atomic,scatterview,warp --blocks 128 --warp-registers 0,64
    run others-base $base 200 --kernel getacc,integrate_stress,volna --reorder rcm --layout soa --executor atomic,scatterview,warp --blocks 128,256
  fi
  run ff $new 150 --kernel face_flux --reorder none,rcm --layout soa --executor atomic,scatterview,warp --blocks 128 --warp-registers 0,64 --warp-maps 32,16
  run others $new 200 --kernel getacc,integrate_stress,volna --reorder rcm --layout soa --executor atomic,scatterview,warp --blocks 128,256 --warp-maps 32,16
  grep -h "copy bandwidth" $R/*.log >> $S
  grep -h -A3 "best per kernel" $R/rc-*.log $R/ff*.log $R/others*.log >> $S
  w="--kernel res_calc --reorder rcm --layout soa --executor warp --blocks 256 --warp-registers 40"
  prof warp-r40-m32 WarpFunctor $new $w --warp-maps 32
  prof warp-r40-m16 WarpFunctor $new $w --warp-maps 16
  for f in $R/ncu-*.txt; do echo "== $(basename $f)"; grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Warp Cycles Per Issued" $f | sort -u; done > $R/digest.txt ;;
esac
echo "done ${SECONDS}s" | tee -a $S
(cd $OUT && tar czf r-$1.tgz r && rm -rf r)
