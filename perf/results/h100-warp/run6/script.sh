#!/usr/bin/env bash
# Session 2026-11-25 (fourth): the warp executor's register budgets
# (exec::WarpCombine::max_registers) as committed, on the H100 machine:
#   script.sh build  the whole suite from the offline bundle (./setup.sh --backend cuda build)
#   script.sh perf   the main job's five kernels (SoA, natural numbering and RCM; atomic,
#                    ScatterView, warp under budgets 0, 64, 40), Nsight Compute of the best
#                    warp rows and their atomic references, miniAero's 128^3 Sod benchmark
#                    (atomic, ScatterView, warp) with Nsight Compute of its warp face flux
#   script.sh test   ctest over the whole suite; compute-sanitizer memcheck and racecheck on
#                    test_warp's Cuda tests and test_executors' warp Cuda configurations
# Each call is one device command; the build folder stays on the warm machine between them.
# What ran: `build` (stopped by its 580 s at step 150 of 154: build/), then `build; perf` (the
# build's second 580 s compiled test_executors_scratch.cpp and linked test_executors, leaving
# perf no time: build/second/), then `perf` (everything in this folder but build/ and tests/).
# The machine's 30-minute hold then had about a minute left: instead of `test`, these ran by hand
# (tests/), with LD_LIBRARY_PATH set as above and b the build folder:
#   $b/tests/test_warp
#   compute-sanitizer --tool memcheck|racecheck $b/tests/test_warp --gtest_filter='Warp/4.*:Warp/5.*'
#   $b/tests/test_executors --gtest_filter='Warp/Executors/4.*:Warp/Executors/5.*'  (the Cuda ones)
#   compute-sanitizer --tool memcheck|racecheck $b/tests/test_executors --gtest_filter=(the same)
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
b="$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build 2>/dev/null | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"
export LD_LIBRARY_PATH="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
case "$1" in
build)
  timeout 580 ./setup.sh --bundle .bundle --backend cuda --jobs 16 build > $R/build.log 2>&1
  echo "build rc=$? ${SECONDS}s" | tee $R/summary.txt; tail -3 $R/build.log | tee -a $R/summary.txt ;;
perf)
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  m=$b/perf/umesh_main
  timeout 240 $m --size large --kernel res_calc,face_flux,getacc,integrate_stress,volna --numbering natural \
    --reorder none,rcm --layout soa --executor atomic,scatterview,warp --blocks 128,256 --warp-registers 0,64,40 \
    --repeats 20 --out $R/main > $R/main.log 2>&1
  echo "main rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "copy bandwidth" $R/main.log | head -1 >> $R/summary.txt
  grep -A6 "best per kernel" $R/main.log >> $R/summary.txt
  M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
  prof() { local n=$1 k=$2; shift 2
    timeout 60 ncu --kernel-name-base demangled -k "regex:$k" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --metrics $M \
      "$@" > $R/ncu-$n.txt 2>&1
    echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt; }
  mm() { echo $m --size large --numbering natural --layout soa --repeats 3 --warmup 1 "$@"; }
  prof face_flux-atomic-none 'ForFunctor.*FaceFlux' $(mm --kernel face_flux --executor atomic --reorder none)
  prof face_flux-warp-r64-none-128 WarpFunctor $(mm --kernel face_flux --executor warp --warp-registers 64 --blocks 128 --reorder none)
  prof res_calc-atomic-rcm 'ForFunctor.*ResCalc' $(mm --kernel res_calc --executor atomic --reorder rcm)
  prof res_calc-warp-r40-rcm-128 WarpFunctor $(mm --kernel res_calc --executor warp --warp-registers 40 --blocks 128 --reorder rcm)
  ma=$b/apps/miniaero/umesh_miniaero
  inp=$PWD/perf/miniaero/sod128_o2_visc.inp
  (cd $R && timeout 200 $ma --input $inp --exec atomic,scatterview,warp --layout soa --reorder rcm --warp-block 128 \
     --bench 5 --csv miniaero_bench.csv > miniaero.log 2>&1)
  echo "miniaero rc=$? ${SECONDS}s" | tee -a $R/summary.txt; tail -30 $R/miniaero.log >> $R/summary.txt
  (cd $R && prof miniaero-face-flux-atomic 'ForFunctor<umesh::detail::LoopBody<miniaero::FaceFlux' $ma --input $inp --exec atomic --layout soa --reorder rcm --bench 1 --csv ncu-atomic.csv)
  (cd $R && prof miniaero-face-flux-warp 'WarpFunctor<umesh::detail::LoopBody<miniaero::FaceFlux' $ma --input $inp --exec warp --layout soa --reorder rcm --warp-block 128 --bench 1 --csv ncu-warp.csv)
  for f in $R/ncu-*.txt; do echo "== $(basename $f)"; grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Theoretical Occupancy|Warp Cycles Per Issued" $f | sort -u; done > $R/digest.txt
  cat $R/digest.txt >> $R/summary.txt ;;
test)
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  (cd $b && timeout 400 ctest -j8 --timeout 300 > $R/ctest.log 2>&1)
  echo "ctest rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep -E "tests passed|tests failed|Failed|Not Run|\*\*\*" $R/ctest.log | tail -15 >> $R/summary.txt
  wf="$($b/tests/test_executors --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ && /WarpCombine/ {sub(/\.$/, "", $1); printf "%s.*:", $1}')"
  for tool in memcheck racecheck; do
    timeout 60 compute-sanitizer --tool $tool $b/tests/test_warp --gtest_filter='Warp/4.*:Warp/5.*' > $R/san-warp-$tool.log 2>&1
    echo "$tool test_warp rc=$? ${SECONDS}s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-warp-$tool.log)" | tee -a $R/summary.txt
    timeout 80 compute-sanitizer --tool $tool $b/tests/test_executors --gtest_filter="$wf" > $R/san-exec-$tool.log 2>&1
    echo "$tool test_executors [$wf] rc=$? ${SECONDS}s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-exec-$tool.log)" | tee -a $R/summary.txt
    grep -c "WarpFunctor" $R/san-warp-$tool.log $R/san-exec-$tool.log >> $R/summary.txt
  done ;;
esac
cd $OUT && tar czf r.tgz r && rm -rf r
