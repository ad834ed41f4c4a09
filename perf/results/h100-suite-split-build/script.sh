#!/usr/bin/env bash
# Session 2026-11-26 (third): on the lent H100, in calls on one warm machine,
#   script.sh auto   exec::Auto beside every other row of the main job, compact-map rows
#                    included (issue 13; results in ../h100-auto-compact-maps/): round 1 tunes
#                    and writes the tuning file, with 10 alternating pairs of auto's pick and the
#                    fastest other row; round 2 reads the file. umesh_main built on the
#                    development machine and carried. Then the suite's build from the offline
#                    bundle (./setup.sh bundle .bundle, carried) starts with the call's time left.
#   script.sh suite  the build finished, then ctest over the whole suite, 16 slots (miniAero's
#                    multi-rank cases first: they are the longest)
#   script.sh full   on a fresh machine, after the apps' solver halves were split and the
#                    apps put first in the build: the whole build in one call
#   script.sh finish REGEX  the build finished without reconfiguring, then the tests REGEX
#                    names (those the suite call could not run) beside miniAero's multi-rank cases
#   script.sh last   umesh_miniaero's relink, its multi-rank cases beside test_hierarchical's build,
#                    then test_hierarchical
#   script.sh rest   the tests the previous call did not finish, compute-sanitizer on the
#                    split Auto suite's Cuda part, then planning 100M edges with RCM on the host's
#                    16 cores (issue 15) with the time left
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
deps="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64"
b() { echo "$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build 2>/dev/null | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"; }
build() { # $1: seconds at most
  timeout $1 ./setup.sh --bundle .bundle --backend cuda --jobs 16 build > $R/build.log 2>&1
  echo "build rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep -E "^\[[0-9]+/" $R/build.log | tail -2 | tee -a $R/summary.txt
}
case "$1" in
auto)
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  m=$PWD/.device/build/perf/umesh_main lib=$PWD/.device/libs
  export UMESH_TUNING_FILE=$R/tuning.txt
  common="--size large --numbering natural --reorder rcm --layout soa --repeats 20"
  (cd $R && LD_LIBRARY_PATH=$lib:/usr/local/cuda/lib64 timeout 260 $m $common \
     --executor atomic,scatterview,warp,hierarchical,auto --blocks 128,256 --warp-registers 0,64,40 \
     --warp-maps 32,16 --staging inc,all --hier-registers 0,48 --paired 10 --out round1) > $R/round1.log 2>&1
  echo "round1 rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  (cd $R && LD_LIBRARY_PATH=$lib:/usr/local/cuda/lib64 timeout 90 $m $common \
     --executor atomic,scatterview,auto --out round2) > $R/round2.log 2>&1
  echo "round2 rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -h "copy bandwidth" $R/round*.log >> $R/summary.txt
  grep -h -A12 "best per kernel" $R/round1.log >> $R/summary.txt
  grep -h "auto" $R/round2.log | grep -E "tuned in|tuning file|loaded" >> $R/summary.txt
  export LD_LIBRARY_PATH=$deps
  build $((585 - SECONDS)) ;;
suite)
  export LD_LIBRARY_PATH=$deps
  build 200
  (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((585 - SECONDS)) ctest -j 16 --timeout 560 \
     -R 'app[.]miniaero[.].*[.]np[23]$' --output-on-failure > $R/ctest-mpi.log 2>&1) &
  sleep 2
  (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((583 - SECONDS)) ctest -j 8 --timeout 500 \
     -E 'app[.]miniaero[.].*[.]np[23]$' --output-on-failure > $R/ctest.log 2>&1)
  echo "ctest (all but miniAero's multi-rank cases) rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  wait
  echo "ctest (miniAero's multi-rank cases) done ${SECONDS}s" | tee -a $R/summary.txt
  grep -hE "tests passed|tests failed|Failed|Not Run|Timeout|\*\*\*" $R/ctest*.log | tail -30 >> $R/summary.txt
  grep -hE "Test +#.*(Passed|Failed)" $R/ctest*.log | sed 's/^ *[0-9]*\/[0-9]* //' > $R/done.txt ;;
full)
  # a fresh machine: the whole build from the bundle in one call
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  export LD_LIBRARY_PATH=$deps
  build 575 ;;
finish)
  # $2: ctest regex of the tests the suite call did not pass (their programs were not built yet);
  # the build goes on without reconfiguring (./setup.sh would, and relink everything)
  export LD_LIBRARY_PATH=$deps
  # MPI=early: the multi-rank cases start before the build goes on (their program is built)
  mpi() { (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((588 - SECONDS)) ctest -j 16 --timeout 560 \
     -R 'app[.]miniaero[.].*[.]np[23]$' --output-on-failure > $R/ctest-mpi.log 2>&1) & }
  [ "${MPI:-}" = early ] && mpi
  timeout 300 cmake --build $(b) -j 16 > $R/build.log 2>&1
  echo "build rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep -E "^\[[0-9]+/" $R/build.log | tail -2 | tee -a $R/summary.txt
  [ "${MPI:-}" = early ] || mpi
  sleep 2
  (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((586 - SECONDS)) ctest -j 8 --timeout 500 \
     -R "$2" --output-on-failure > $R/ctest.log 2>&1)
  echo "ctest (the rest but miniAero's multi-rank cases) rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  wait
  echo "ctest (miniAero's multi-rank cases) done ${SECONDS}s" | tee -a $R/summary.txt
  grep -hE "tests passed|tests failed|Failed|Not Run|Timeout|\*\*\*" $R/ctest*.log | tail -30 >> $R/summary.txt
  grep -hE "Test +#.*(Passed|Failed)" $R/ctest*.log | sed 's/^ *[0-9]*\/[0-9]* //' > $R/done.txt ;;
last)
  # umesh_miniaero relinked first (each call's build relinks it), then its multi-rank cases
  # beside the rest of the build (test_hierarchical), then test_hierarchical
  export LD_LIBRARY_PATH=$deps
  timeout 120 cmake --build $(b) -j 16 --target umesh_miniaero > $R/build-miniaero.log 2>&1
  echo "build umesh_miniaero rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((585 - SECONDS)) ctest -j 16 --timeout 560 \
     -R 'app[.]miniaero[.].*[.]np[23]$' --output-on-failure > $R/ctest-mpi.log 2>&1) &
  timeout 420 cmake --build $(b) -j 16 --target test_hierarchical > $R/build.log 2>&1
  echo "build test_hierarchical rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((585 - SECONDS)) ctest --timeout 300 -R '^test_hierarchical$' --output-on-failure > $R/ctest.log 2>&1)
  echo "ctest test_hierarchical rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  wait
  echo "ctest (miniAero's multi-rank cases) done ${SECONDS}s" | tee -a $R/summary.txt
  grep -hE "tests passed|tests failed|Test +#" $R/ctest*.log >> $R/summary.txt ;;
rest)
  export LD_LIBRARY_PATH=$deps
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  # $2: ctest regex of the tests left
  if [ -n "${2:-}" ]; then
    build 120
    (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout 450 ctest -j 16 --timeout 440 -R "$2" --output-on-failure > $R/ctest-rest.log 2>&1)
    echo "ctest rest rc=$? ${SECONDS}s" | tee -a $R/summary.txt
    grep -hE "tests passed|tests failed|Test +#" $R/ctest-rest.log >> $R/summary.txt
  fi
  t=$(b)/tests/test_executors_auto
  for tool in memcheck racecheck; do
    timeout 60 compute-sanitizer --tool $tool $t --gtest_filter='AutoCuda*' > $R/san-$tool.log 2>&1
    echo "$tool rc=$? ${SECONDS}s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/san-$tool.log | tr '\n' ' ')" | tee -a $R/summary.txt
  done
  left=$((${LIMIT:-580} - SECONDS)) # LIMIT: the seconds the call has
  if [ $left -gt 150 ]; then
    nproc > $R/nproc.txt
    OMP_NUM_THREADS=16 OMP_PROC_BIND=spread /usr/bin/time -v timeout $left \
      $(b)/perf/umesh_plan --elements 100000000 --methods rcm --kernel res_calc --csv $R/planning.csv > $R/plan.log 2> $R/plan-time.txt
    echo "plan rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  fi ;;
esac
(cd $OUT && tar czf r-$1.tgz r && rm -rf r)
