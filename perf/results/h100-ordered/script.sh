#!/usr/bin/env bash
# Session 2026-11-25 (fifth): Writeback::ordered (one launch, blocks in colour order waiting
# on flags) beside the colour launches and the paper's library, res_calc at 2400 x 1200
# quads; the warp executor's res_calc sweep; the whole suite on the H100.
#   script.sh build  the whole suite from the offline bundle (./setup.sh --backend cuda build)
#   script.sh test   ctest over the whole suite; compute-sanitizer memcheck and racecheck on
#                    test_hierarchical's ordered tests (Cuda)
#   script.sh cuda   umesh's GPS rows (device-built umesh_main) and cuda_fot's AoS cases
#   script.sh cmp    three carried umesh_main binaries in one session (see there) and the warp
#                    executor's res_calc sweep
#   script.sh perf   (written, not run: the device time went to the calls above) umesh_main (carried, built on the development machine: .device/build):
#                    res_calc hier-all / hier-inc, coloured and ordered, GPS, RCM, METIS and
#                    built-in renumberings, blocks 128-448, both layouts; the warp executor's
#                    res_calc sweep (SoA; none, RCM, GPS; blocks 64-512; budgets 0, 64, 40);
#                    then cuda_fot's AoS cases at its block 448 (perf/cuda_fot/run.sh,
#                    checkout carried in .device/cuda_fot, never committed)
# Each call is one device command; `build` leaves the build folder on the warm machine for `test`.
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
b="$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build 2>/dev/null | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"
export LD_LIBRARY_PATH="$PWD/.device/libs:$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$PWD/.device/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi > $R/nvidia-smi-$1.txt 2>&1
case "$1" in
build)
  timeout ${2:-575} ./setup.sh --bundle .bundle --backend cuda --jobs 16 build > $R/build.log 2>&1
  echo "build rc=$? ${SECONDS}s" | tee $R/summary-build.txt; tail -3 $R/build.log | tee -a $R/summary-build.txt ;;
test)
  (cd $b && timeout ${2:-420} ctest -j8 --timeout 300 > $R/ctest.log 2>&1)
  echo "ctest rc=$? ${SECONDS}s" | tee -a $R/summary-test.txt; grep -E "tests passed|tests failed|Failed|Not Run|\*\*\*|Total Test" $R/ctest.log | tail -15 >> $R/summary-test.txt
  of="$($b/tests/test_hierarchical --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ && /Ordered/ {sub(/\.$/, "", $1); printf "%s.*:", $1}')"
  for tool in memcheck racecheck; do
    timeout 90 compute-sanitizer --tool $tool $b/tests/test_hierarchical --gtest_filter="$of" > $R/san-ordered-$tool.log 2>&1
    echo "$tool test_hierarchical [$of] rc=$? ${SECONDS}s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-ordered-$tool.log)" | tee -a $R/summary-test.txt
  done ;;
cuda)
  # umesh's GPS rows and cuda_fot's AoS cases in one call
  B=${UMESH_BUILD:-$PWD/.device/build}
  timeout 150 $B/perf/umesh_main --nx 2400 --ny 1200 --kernel res_calc --numbering natural --executor atomic,scatterview,hierarchical \
    --staging all,inc --combine colours --writeback coloured,ordered --layout all --repeats 20 --reorder gps --blocks 128,256,448 \
    --out $R/hier-gps > $R/hier-gps.log 2>&1
  echo "hier gps rc=$? ${SECONDS}s" | tee -a $R/summary-cuda.txt
  grep -h "copy bandwidth" $R/hier-gps.log | head -1 >> $R/summary-cuda.txt
  LAYOUTS=aos UMESH=0 BLOCKS=448 ITERATIONS=20 DEPS=$PWD/.device/deps/usr timeout 330 \
    perf/cuda_fot/run.sh .device/cuda_fot $B $R/cuda_fot-aos > $R/cuda_fot-aos.log 2>&1
  echo "cuda_fot aos rc=$? ${SECONDS}s" | tee -a $R/summary-cuda.txt
  tail -8 $R/cuda_fot-aos.log >> $R/summary-cuda.txt ;;
gputest)
  # The committed tree (the ordered patch removed): the test programs that run on the GPU,
  # built from the offline bundle, then ctest on them; test_executors_auto built on the
  # development machine and carried (.device/tests), its nvcc compile being too long here.
  t=test_executors,test_hierarchical,test_warp,test_auto,test_segmented,test_distributed,test_errors
  timeout ${2:-480} ./setup.sh --bundle .bundle --backend cuda --jobs 16 --targets $t build > $R/build.log 2>&1
  echo "build rc=$? ${SECONDS}s" | tee -a $R/summary-gputest.txt; tail -2 $R/build.log >> $R/summary-gputest.txt
  (cd $b && timeout 150 ctest -j4 --timeout 140 -R '^test_(executors|hierarchical|warp|auto|segmented|distributed|errors)' -E '^test_executors_auto$' \
    > $R/ctest.log 2>&1)
  echo "ctest rc=$? ${SECONDS}s" | tee -a $R/summary-gputest.txt
  grep -E "Test +#|tests passed|tests failed" $R/ctest.log >> $R/summary-gputest.txt
  if [[ -x .device/tests/test_executors_auto ]]; then
    timeout 120 .device/tests/test_executors_auto > $R/test_executors_auto.log 2>&1
    echo "test_executors_auto (carried) rc=$? ${SECONDS}s $(grep -E 'PASSED|FAILED' $R/test_executors_auto.log | head -3 | tr '\n' ' ')" | tee -a $R/summary-gputest.txt
  fi ;;
cmp)
  # Three umesh_main binaries carried from the development machine, one after another on one
  # GPU: base (14189ef's tree, .device/base), v1 (ordered with fence.sc, the tree the suite was
  # built from), v2 (ordered with acquire/release flags: .device/v2). Then v2's warp sweep.
  common="--nx 2400 --ny 1200 --kernel res_calc --numbering natural --staging all,inc --combine colours --layout all --repeats 20 --reorder gps --blocks 128,256"
  for v in base v1 v2; do
    m=$PWD/.device/$v/umesh_main
    wb=coloured,ordered; [[ $v == base ]] && wb=coloured
    timeout 100 $m $common --executor atomic,scatterview,hierarchical --writeback $wb --out $R/cmp-$v > $R/cmp-$v.log 2>&1
    echo "cmp $v rc=$? ${SECONDS}s" | tee -a $R/summary-cmp.txt
  done
  timeout 150 $PWD/.device/v2/umesh_main --size large --kernel res_calc --numbering natural --reorder none,rcm,gps --layout soa \
    --executor atomic,scatterview,warp --blocks 64,128,256,512 --warp-registers 0,64,40 --repeats 20 \
    --out $R/warp > $R/warp.log 2>&1
  echo "warp rc=$? ${SECONDS}s" | tee -a $R/summary-cmp.txt
  grep -h "copy bandwidth" $R/cmp-*.log $R/warp.log >> $R/summary-cmp.txt
  grep -h -A3 "best per kernel" $R/warp.log >> $R/summary-cmp.txt
  # Nsight Compute: where an ordered block's time goes (stall reasons), v1 and v2, and the
  # coloured kernel (one of its colour launches) for comparison.
  for v in v1 v2; do
    for wb in ordered coloured; do
      [[ $v == v1 && $wb == coloured ]] && continue
      timeout 60 ncu --kernel-name-base demangled -k regex:HierarchicalFunctor --launch-skip 2 --launch-count 1 \
        --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
        $PWD/.device/$v/umesh_main --nx 2400 --ny 1200 --kernel res_calc --numbering natural --reorder gps --layout soa \
        --executor hierarchical --staging inc --combine colours --writeback $wb --blocks 128 --repeats 3 --warmup 1 \
        > $R/ncu-$v-$wb.txt 2>&1
      echo "ncu $v $wb rc=$? ${SECONDS}s" | tee -a $R/summary-cmp.txt
    done
  done ;;
perf)
  B=${UMESH_BUILD:-$PWD/.device/build}
  m=$B/perf/umesh_main
  common="--nx 2400 --ny 1200 --kernel res_calc --numbering natural --executor atomic,scatterview,hierarchical --staging all,inc --combine colours --writeback coloured,ordered --layout all --repeats 20"
  timeout 150 $m $common --reorder gps,rcm --blocks 128,256,448 --out $R/hier-gps-rcm > $R/hier-gps-rcm.log 2>&1
  echo "hier gps,rcm rc=$? ${SECONDS}s" | tee -a $R/summary-perf.txt
  for rb in 128 256; do
    timeout 100 $m $common --reorder metis,builtin --reorder-block $rb --blocks $rb --out $R/hier-metis-builtin-$rb > $R/hier-metis-builtin-$rb.log 2>&1
    echo "hier metis,builtin $rb rc=$? ${SECONDS}s" | tee -a $R/summary-perf.txt
  done
  timeout 100 $m --size large --kernel res_calc --numbering natural --reorder none,rcm,gps --layout soa \
    --executor atomic,scatterview,warp --blocks 64,128,256,512 --warp-registers 0,64,40 --repeats 20 \
    --out $R/warp > $R/warp.log 2>&1
  echo "warp rc=$? ${SECONDS}s" | tee -a $R/summary-perf.txt
  grep -h "copy bandwidth" $R/*.log | head -5 >> $R/summary-perf.txt
  grep -h -A3 "best per kernel" $R/warp.log >> $R/summary-perf.txt
  LAYOUTS=aos UMESH=0 BLOCKS=448 ITERATIONS=20 DEPS=$PWD/.device/deps/usr timeout 330 \
    perf/cuda_fot/run.sh .device/cuda_fot $B $R/cuda_fot-aos > $R/cuda_fot-aos.log 2>&1
  echo "cuda_fot aos rc=$? ${SECONDS}s" | tee -a $R/summary-perf.txt
  tail -8 $R/cuda_fot-aos.log >> $R/summary-perf.txt ;;
esac
cd $OUT && tar czf r-$1.tgz r && rm -rf r
