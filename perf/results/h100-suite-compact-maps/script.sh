#!/usr/bin/env bash
# Session 2026-11-26 (second): the whole suite on the lent H100 after compact maps (issue 11's
# "the whole suite passes on the H100"), built there from the offline bundle (./setup.sh bundle
# .bundle, carried), in three calls on one warm machine:
#   script.sh build  ./setup.sh --bundle .bundle --backend cuda build, up to 585 s
#   script.sh test   ctest over the suite but miniAero's multi-rank cases (8 at a time, 2 OpenMP
#                    threads each), then compute-sanitizer memcheck and racecheck on test_warp's
#                    compact-map test on Cuda
#   script.sh mpi    miniAero's multi-rank cases (2 and 3 ranks, every rank on the one GPU),
#                    FlatPlate first, then the others until the machine's hold ran out
#   script.sh rest   on a fresh machine: the targets the tests left build only
#                    (test_executors_auto, umesh_miniaero), test_executors_auto, then the
#                    multi-rank cases the hold cut off; Nsight Compute of res_calc's best row
#                    (warp/m16, block 256) with a carried umesh_main
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
export LD_LIBRARY_PATH="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
b() { echo "$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build 2>/dev/null | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"; }
multi='app[.]miniaero[.].*[.]np[23]$'
case "$1" in
build)
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  git log -1 --format='%H %s' > $R/commit.txt 2>/dev/null
  timeout 585 ./setup.sh --bundle .bundle --backend cuda --jobs 16 build > $R/build.log 2>&1
  echo "build rc=$? ${SECONDS}s" | tee $R/summary.txt; tail -3 $R/build.log | tee -a $R/summary.txt ;;
test)
  timeout 120 ./setup.sh --bundle .bundle --backend cuda --jobs 16 build > $R/build2.log 2>&1
  echo "build (finish) rc=$? ${SECONDS}s" | tee $R/summary.txt; tail -2 $R/build2.log | tee -a $R/summary.txt
  (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((540 - SECONDS)) ctest -j 8 --timeout 400 -E "$multi" --output-on-failure > $R/ctest.log 2>&1)
  echo "ctest rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "tests passed|tests failed|Failed|Not Run|Timeout|\*\*\*" $R/ctest.log | tail -30 >> $R/summary.txt
  t=$(b)/tests/test_warp
  for tool in memcheck racecheck; do
    timeout 30 compute-sanitizer --tool $tool $t --gtest_filter='Warp/*.CompactMapsMatchSerial' > $R/san-$tool.log 2>&1
    echo "$tool rc=$? ${SECONDS}s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/san-$tool.log | tr '\n' ' ')" | tee -a $R/summary.txt
    grep "Race reported" $R/san-$tool.log | grep -c -v SequentialFunctor | sed 's/^/hazards outside the serial executor: /' | tee -a $R/summary.txt
  done ;;
mpi)
  (cd $(b) && OMP_NUM_THREADS=1 OMP_PROC_BIND=false timeout 400 ctest -j 2 --timeout 395 -R 'app[.]miniaero[.]FlatPlate.*[.]np[23]$' --output-on-failure > $R/ctest-flatplate.log 2>&1)
  echo "ctest flatplate rc=$? ${SECONDS}s" | tee $R/summary.txt
  grep -E "tests passed|tests failed|Test +#" $R/ctest-flatplate.log >> $R/summary.txt
  (cd $(b) && OMP_NUM_THREADS=1 OMP_PROC_BIND=false timeout $((560 - SECONDS)) ctest -j 4 --timeout 400 -R "$multi" -E FlatPlate --output-on-failure > $R/ctest-multi.log 2>&1)
  echo "ctest other multi-rank rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "tests passed|tests failed|Test +#" $R/ctest-multi.log >> $R/summary.txt ;;
rest)
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
  for m in 32 16; do
    LD_LIBRARY_PATH=$PWD/.device/libs:$LD_LIBRARY_PATH timeout 60 ncu --kernel-name-base demangled -k "regex:WarpFunctor" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --metrics $M \
      .device/build/perf/umesh_main --size large --numbering natural --repeats 3 --warmup 1 --kernel res_calc --reorder rcm --layout soa --executor warp --blocks 256 --warp-registers 0 --warp-maps $m > $R/ncu-warp-m$m.txt 2>&1
    echo "ncu warp m$m rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  done
  for f in $R/ncu-*.txt; do echo "== $(basename $f)"; grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Warp Cycles Per Issued" $f | sort -u; done > $R/digest.txt
  timeout 330 ./setup.sh --bundle .bundle --backend cuda --jobs 16 --targets test_executors_auto,umesh_miniaero build > $R/build.log 2>&1
  echo "build rc=$? ${SECONDS}s" | tee -a $R/summary.txt; tail -2 $R/build.log | tee -a $R/summary.txt
  (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((570 - SECONDS)) ctest -j 6 --timeout 500 -R 'test_executors_auto|app[.]miniaero[.](Ramp_Serial[.]np[23]|3D_Sod_Serial[.]np3)$' --output-on-failure > $R/ctest-rest.log 2>&1)
  echo "ctest rest rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "tests passed|tests failed|Test +#" $R/ctest-rest.log >> $R/summary.txt ;;
esac
(cd $OUT && tar czf r-$1.tgz r && rm -rf r)
