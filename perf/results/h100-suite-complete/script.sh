#!/usr/bin/env bash
# Issue 11: the whole suite on the lent H100 from a CUDA build made on the development machine
# (nvcc 13.0, Kokkos 3.4.01 with our patch, HOPPER90, MPI, NCCL; ./setup.sh --backend cuda build
# in the same checkout path, so the build tree's absolute paths hold on the device). The build
# tree's programs and ctest files travel as .device/suite*.tar.xz (the carry limit is 64 MiB a
# call), METIS and Scotch in .device/libs; the device's OpenMPI, NCCL and CUDA 13 libraries.
# Tools the ctest files name by their development-machine path (cmake, python3, mpiexec) are
# linked to the device's own where that path is missing (tools.txt says which).
# Modes, one per call, chained on one machine while it stays warm:
#   unpack      unpack every .device/suite*.tar.xz present (perf/device/pack-build.sh makes
#               them; one call per part when the parts do not fit one carry: the machine keeps
#               what earlier calls unpacked while it stays warm)
#   suite       every test but miniAero's multi-rank cases, 8 at a time
#   mpi [RE]    the tests RE names (default: miniAero's six multi-rank cases, whose ranks share
#               the one GPU: 30-560 s each before 102d013 halved their runs), 16 at a time
#   race FILTER compute-sanitizer racecheck on the test_hierarchical tests FILTER names (a
#               gtest filter), for what check's 90 s did not reach
#   check       compute-sanitizer memcheck and racecheck on test_hierarchical's and
#               test_executors' Cuda suites (90 s each at most), then Nsight Compute of hier-all
#               (res_calc 2400 x 1200 after GPS, SoA, 256, /r48, preload on and off)
# BUDGET (seconds, default 590) is what suite, mpi and race may take: less when modes are chained
# in one call (e.g. BUDGET=400 for suite, then BUDGET=150 for race).
. perf/device/env.sh
B=$HOME/.cache/umesh/build/umesh-2674982963-cuda-cxx17
mpi='app[.]miniaero[.].*[.]np[23]$'
budget=${BUDGET:-590}
[[ $budget =~ ^[0-9]+$ ]] && ((budget >= 30 && budget <= 590)) || { echo "BUDGET must be 30-590 seconds, not '$budget'" >&2; exit 2; }
tools() { # the development machine's paths of the tools ctest runs
  for t in /usr/bin/cmake /root/.pyenv/shims/python3 /usr/bin/python3 /usr/bin/mpiexec; do
    if [ -x $t ]; then echo "$t present" >> $R/tools.txt; continue; fi
    mkdir -p $(dirname $t)
    ln -s "$(command -v $(basename $t))" $t && echo "$t -> $(readlink $t)" >> $R/tools.txt
  done
  /usr/bin/python3 -c "import matplotlib" >> $R/tools.txt 2>&1 && echo "matplotlib present" >> $R/tools.txt
}
case "$1" in
unpack)
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  git log -1 --format=%H > $R/tree.txt 2>/dev/null; git status --short >> $R/tree.txt 2>/dev/null
  for a in .device/suite*.tar.xz; do tar xJf $a -C / && note "unpacked $a"; done
  cat $B/tree.txt >> $R/tree.txt 2>/dev/null
  tools
  ldd $B/tests/test_executors $B/perf/umesh_main | grep "not found" >> $R/summary.txt
  note "unpack done" ;;
suite)
  (cd $B && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((budget - 5 - SECONDS)) ctest -j 8 --timeout 500 \
     -E "$mpi" --output-on-failure > $R/ctest.log 2>&1)
  note "ctest rc=$?" ;;
mpi)
  (cd $B && OMP_NUM_THREADS=1 timeout $((budget - SECONDS)) ctest -j 16 --timeout $((budget - 10)) \
     -R "${2:-$mpi}" --output-on-failure > $R/ctest-mpi.log 2>&1)
  note "ctest rc=$?" ;;
race)
  [ -n "${2:-}" ] || { echo "race needs a gtest filter (e.g. 'HierarchicalChecks/4.*')" >&2; exit 2; }
  timeout $((budget - 10 - SECONDS)) compute-sanitizer --tool racecheck $B/tests/test_hierarchical \
    --gtest_filter="$2" > $R/san-race.log 2>&1
  note "racecheck rc=$? $(grep -cE '^\[       OK' $R/san-race.log) tests ok; $(grep -E 'RACECHECK SUMMARY|FAILED' $R/san-race.log | sort | uniq -c | tr '\n' ' ')" ;;
check)
  for t in test_hierarchical test_executors; do
    f="$($B/tests/$t --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ {sub(/\.$/, "", $1); printf "%s.*:", $1}')"
    for tool in memcheck racecheck; do
      timeout 90 compute-sanitizer --tool $tool $B/tests/$t --gtest_filter="$f" > $R/san-$t-$tool.log 2>&1
      note "$t $tool rc=$? $(grep -cE '^\[       OK' $R/san-$t-$tool.log) tests ok; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|FAILED' $R/san-$t-$tool.log | sort | uniq -c | tr '\n' ' ')"
    done
  done
  m=$B/perf/umesh_main
  M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
  for p in 1 0; do
    (cd $R && timeout 70 ncu --kernel-name-base demangled -k regex:HierarchicalFunctor --launch-skip 3 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
      --metrics $M $m --size large --kernel res_calc --numbering natural --reorder gps --layout soa --executor hierarchical \
      --blocks 256 --staging all --combine colours --writeback coloured --hier-registers 48 --hier-preload $p --repeats 3 \
      --out ncu-p$p > ncu-p$p.txt 2>&1)
    note "ncu preload $p rc=$?"; rm -rf $R/ncu-p$p
  done ;;
*)
  echo "usage: $0 unpack|suite|mpi [RE]|check|race FILTER" >&2; exit 2 ;;
esac
grep -hE "tests passed|tests failed|\*\*\*|Not Run" $R/ctest*.log >> $R/summary.txt 2>/dev/null
grep -hE "Test +#.*(Passed|Failed)" $R/ctest*.log 2>/dev/null | sed 's/^ *[0-9]*\/[0-9]* //' > $R/done.txt
finish r-$1
