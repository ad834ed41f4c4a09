#!/usr/bin/env bash
# Session 2026-11-27: the whole suite on the lent H100 at the tree with prefetch and preload
# (issue 11), built from the offline bundle (./setup.sh bundle .bundle, carried) on a fresh
# machine, in calls chained on that machine while it stays warm:
#   script.sh build   the whole build (./setup.sh --backend cuda build), cut at the call's end
#   script.sh suite   the build continued (cmake --build: no reconfigure, nothing relinks), then
#                     every test but miniAero's multi-rank cases, 8 at a time
#   script.sh mpi [REGEX]  Nsight Compute of hier-all (res_calc 2400 x 1200 after GPS, SoA, 256,
#                     /r48, preload on and off) and compute-sanitizer on test_hierarchical's Cuda
#                     suites first (the GPU to themselves), then miniAero's multi-rank cases
#                     (np2, np3: several ranks share the one GPU) and the tests REGEX names
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export LD_LIBRARY_PATH="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64"
b() { echo "$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build 2>/dev/null | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"; }
note() { echo "$* ${SECONDS}s" | tee -a $R/summary.txt; }
mpi='app[.]miniaero[.].*[.]np[23]$'
case "$1" in
build)
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  git log -1 --format=%H > $R/tree.txt 2>/dev/null; git status --short >> $R/tree.txt 2>/dev/null
  timeout 580 ./setup.sh --bundle .bundle --backend cuda --jobs 16 build > $R/build.log 2>&1
  note "build rc=$?"; grep -E "^\[[0-9]+/" $R/build.log | tail -1 >> $R/summary.txt ;;
suite)
  timeout ${BUILD_S:-240} cmake --build $(b) -j 16 > $R/build.log 2>&1
  note "build rc=$?"; grep -E "^\[[0-9]+/" $R/build.log | tail -1 >> $R/summary.txt
  (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((585 - SECONDS)) ctest -j 8 --timeout 500 \
     -E "$mpi" --output-on-failure > $R/ctest.log 2>&1)
  note "ctest rc=$?" ;;
mpi)
  m=$(b)/perf/umesh_main
  M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
  for p in 1 0; do
    (cd $R && timeout 70 ncu --kernel-name-base demangled -k regex:HierarchicalFunctor --launch-skip 3 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
      --metrics $M $m --size large --kernel res_calc --numbering natural --reorder gps --layout soa --executor hierarchical \
      --blocks 256 --staging all --combine colours --writeback coloured --hier-registers 48 --hier-preload $p --repeats 3 \
      --out ncu-p$p > ncu-p$p.txt 2>&1)
    note "ncu preload $p rc=$?"; rm -rf $R/ncu-p$p
  done
  t=$(b)/tests/test_hierarchical
  f="$($t --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ {sub(/\.$/, "", $1); printf "%s.*:", $1}')"
  for tool in memcheck racecheck; do
    timeout 75 compute-sanitizer --tool $tool $t --gtest_filter="$f" > $R/san-$tool.log 2>&1
    note "test_hierarchical $tool rc=$? $(grep -cE '^\[       OK' $R/san-$tool.log) tests ok; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|FAILED' $R/san-$tool.log | sort | uniq -c | tr '\n' ' ')"
  done
  grep -E "Preload" $R/san-memcheck.log | head -20 >> $R/summary.txt
  (cd $(b) && OMP_NUM_THREADS=1 timeout $((590 - SECONDS)) ctest -j 16 --timeout 580 \
     -R "$mpi${2:+|$2}" --output-on-failure > $R/ctest-mpi.log 2>&1)
  note "ctest rc=$?" ;;
esac
grep -hE "tests passed|tests failed|\*\*\*|Not Run" $R/ctest*.log >> $R/summary.txt 2>/dev/null
grep -hE "Test +#.*(Passed|Failed)" $R/ctest*.log 2>/dev/null | sed 's/^ *[0-9]*\/[0-9]* //' > $R/done.txt
(cd $OUT && tar czf r-$1.tgz r && rm -rf r)
