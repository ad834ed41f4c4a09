#!/usr/bin/env bash
# Session 2026-11-26: the whole suite on the lent H100 (issue 11's "the whole suite passes on the
# H100"), built there from the offline bundle (./setup.sh bundle .bundle, carried).
#   script.sh build  ./setup.sh --bundle .bundle --backend cuda build, up to 590 s
#   script.sh test   the same build again (finishes what `build` left, on the warm machine), then
#                    ctest over the whole suite (8 at a time, 2 OpenMP threads each), then
#                    compute-sanitizer memcheck and racecheck on test_hierarchical's new Cuda
#                    test (more than 256 thread colours per block)
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
b="$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build 2>/dev/null | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"
export LD_LIBRARY_PATH="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
case "$1" in
build)
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  timeout 585 ./setup.sh --bundle .bundle --backend cuda --jobs 16 build > $R/build.log 2>&1
  echo "build rc=$? ${SECONDS}s" | tee $R/summary.txt; tail -3 $R/build.log | tee -a $R/summary.txt ;;
test)
  timeout 240 ./setup.sh --bundle .bundle --backend cuda --jobs 16 build > $R/build2.log 2>&1
  echo "build (finish) rc=$? ${SECONDS}s" | tee $R/summary.txt; tail -2 $R/build2.log | tee -a $R/summary.txt
  b="$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"
  (cd $b && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((560 - SECONDS - 60)) ctest -j 8 --timeout 300 --output-on-failure > $R/ctest.log 2>&1)
  echo "ctest rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "tests passed|tests failed|Failed|Not Run|Timeout|\*\*\*" $R/ctest.log | tail -30 >> $R/summary.txt
  t=$b/tests/test_hierarchical
  f="$($t --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ {sub(/\.$/, "", $1); printf "%s.ManyThreadColoursMatchSerial:", $1}')"
  for tool in memcheck racecheck; do
    timeout 25 compute-sanitizer --tool $tool $t --gtest_filter="$f" > $R/san-$tool.log 2>&1
    echo "$tool rc=$? ${SECONDS}s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/san-$tool.log | tr '\n' ' ')" | tee -a $R/summary.txt
  done ;;
esac
(cd $OUT && tar czf r-$1.tgz r && rm -rf r)
