#!/usr/bin/env bash
# Session 2026-11-26 (fourth): the whole suite on the lent H100 at one tree, built from the
# offline bundle (./setup.sh bundle .bundle, carried) on a fresh machine, in calls on that
# machine while it stays warm:
#   script.sh build  umesh_miniaero first (./setup.sh --targets), then miniAero's multi-rank
#                    cases (np2, np3: the longest tests, several ranks sharing one GPU) beside the
#                    rest of the build (cmake --build: no reconfigure, so nothing relinks under
#                    the running cases)
#   script.sh suite  cmake --build (nothing left to do, checked), then every other test, 8 at a
#                    time; then compute-sanitizer memcheck and racecheck on the Cuda instances of
#                    the hierarchical and Auto tests with the time left
# On a second fresh machine (the first went back after 30 minutes held, before all was built):
#   script.sh rest-build  ./setup.sh --targets for the programs not yet built or tested (the
#                    four test programs, umesh_miniaero), then those four tests
#   script.sh rest-run REGEX  why ninja would relink (ninja -d explain -n: every call after the
#                    first relinked every program), then cmake --build for the same targets and
#                    the tests REGEX names, 16 slots, nothing compiling beside them
#   script.sh small  miniAero's FlatPlate (1024 cells) per loop and per step on the GPU, 1 and 2
#                    ranks: what makes the small regression cases slow there
#   script.sh relink  after CMAKE_LINK_DEPENDS_USE_LINKER OFF, on a fresh machine: a second and
#                    third build of two programs, which should have nothing to do
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export LD_LIBRARY_PATH="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64"
b() { echo "$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build 2>/dev/null | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"; }
note() { echo "$* ${SECONDS}s" | tee -a $R/summary.txt; }
targets=test_hierarchical,test_auto,test_warp,test_distributed,umesh_miniaero
mpi='app[.]miniaero[.].*[.]np[23]$'
case "$1" in
build)
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  git log -1 --format=%H > $R/tree.txt 2>/dev/null; git status --short >> $R/tree.txt 2>/dev/null
  timeout 420 ./setup.sh --bundle .bundle --backend cuda --jobs 16 --targets umesh_miniaero build > $R/build-miniaero.log 2>&1
  note "build umesh_miniaero rc=$?"
  (cd $(b) && OMP_NUM_THREADS=1 timeout $((590 - SECONDS)) ctest -j 16 --timeout 580 \
     -R "$mpi" --output-on-failure > $R/ctest-mpi.log 2>&1; echo "mpi ctest rc=$? ${SECONDS}s" >> $R/summary.txt) &
  timeout $((585 - SECONDS)) cmake --build $(b) -j 14 > $R/build.log 2>&1
  note "build rest rc=$?"; grep -E "^\[[0-9]+/" $R/build.log | tail -1 >> $R/summary.txt
  wait
  note "multi-rank cases done" ;;
suite)
  timeout 60 cmake --build $(b) -j 16 > $R/build.log 2>&1
  note "build rc=$?"; tail -2 $R/build.log >> $R/summary.txt
  (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((${LIMIT:-520} - SECONDS)) ctest -j 8 --timeout 500 \
     -E "$mpi" --output-on-failure > $R/ctest.log 2>&1)
  note "ctest rc=$?"
  # compute-sanitizer on the Cuda suites (typed suites whose TypeParam names Cuda), 60 s each
  for t in test_hierarchical test_warp test_executors_auto; do
    p=$(b)/tests/$t
    f="$($p --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ {sub(/\.$/, "", $1); printf "%s.*:", $1}')"
    for tool in memcheck racecheck; do
      left=$((585 - SECONDS)); [ $left -lt 20 ] && break
      timeout $((left < 60 ? left : 60)) compute-sanitizer --tool $tool $p --gtest_filter="$f" > $R/san-$t-$tool.log 2>&1
      note "$t $tool rc=$? $(grep -cE '^\[       OK' $R/san-$t-$tool.log) tests ok; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|FAILED' $R/san-$t-$tool.log | sort | uniq -c | tr '\n' ' ')"
    done
  done ;;
rest-build)
  nvidia-smi > $R/nvidia-smi.txt 2>&1
  git log -1 --format=%H > $R/tree.txt 2>/dev/null; git status --short >> $R/tree.txt 2>/dev/null
  timeout 560 ./setup.sh --bundle .bundle --backend cuda --jobs 16 --targets $targets build > $R/build.log 2>&1
  note "build rc=$?"; grep -E "^\[[0-9]+/" $R/build.log | tail -1 >> $R/summary.txt
  (cd $(b) && OMP_NUM_THREADS=2 OMP_PROC_BIND=false timeout $((588 - SECONDS)) ctest -j 8 --timeout 500 \
     -R '^test_(hierarchical|auto|warp|distributed[.]np[123])$' --output-on-failure > $R/ctest.log 2>&1)
  note "ctest rc=$?" ;;
rest-run)
  (cmake --build $(b) -- -d explain -n > $R/explain.txt 2>&1; ls -la --time-style=full-iso $HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu | head -30 > $R/deps-times.txt; date >> $R/deps-times.txt)
  timeout 120 cmake --build $(b) -j 16 --target ${targets//,/ } > $R/build.log 2>&1
  note "build rc=$?"; grep -E "^\[[0-9]+/" $R/build.log | tail -1 >> $R/summary.txt
  (cd $(b) && OMP_NUM_THREADS=1 timeout $((590 - SECONDS)) ctest -j 16 --timeout 580 -R "$2" --output-on-failure > $R/ctest-$3.log 2>&1)
  note "ctest rc=$?" ;;
relink)
  # the fix (CMAKE_LINK_DEPENDS_USE_LINKER OFF) on a fresh machine: build a small program twice
  # and ask ninja what it would do a third time
  timeout 400 ./setup.sh --bundle .bundle --backend cuda --jobs 16 --targets test_colouring,umesh_quickstart build > $R/build.log 2>&1
  note "build rc=$?"
  timeout 100 cmake --build $(b) --target test_colouring umesh_quickstart > $R/build2.log 2>&1
  note "second build rc=$? $(grep -cE '^\[[0-9]+/' $R/build2.log) steps"
  cmake --build $(b) --target test_colouring umesh_quickstart -- -d explain -n > $R/explain.txt 2>&1
  note "third (dry) $(grep -c 'is dirty' $R/explain.txt) dirty: $(tail -1 $R/explain.txt)" ;;
small)
  # why miniAero's small regression meshes run so slowly on the GPU: per-loop medians
  # (--bench), steps per second on 1 and 2 ranks, and an Nsight Systems API summary if present
  timeout 420 ./setup.sh --bundle .bundle --backend cuda --jobs 16 --targets umesh_miniaero build > $R/build.log 2>&1
  note "build rc=$?"
  m="$(b)/apps/miniaero/umesh_miniaero --input tests/data/miniaero/FlatPlate_Serial/miniaero.inp"
  for e in atomic hierarchical; do
    timeout 40 $m --exec $e --layout soa --bench 20 --csv $R/bench-$e.csv > $R/bench-$e.log 2>&1; note "bench $e rc=$?"
    timeout 40 $m --exec $e --layout soa --steps 100 > $R/steps-$e.log 2>&1; note "steps $e rc=$? $(grep steps $R/steps-$e.log | tail -1)"
    timeout 40 $m --exec $e --layout soa --steps 100 --distributed > $R/steps-dist-$e.log 2>&1; note "np1 $e rc=$? $(grep steps $R/steps-dist-$e.log | tail -1)"
    timeout 60 mpirun -np 2 --oversubscribe $m --exec $e --layout soa --steps 100 > $R/steps-np2-$e.log 2>&1; note "np2 $e rc=$? $(grep steps $R/steps-np2-$e.log | tail -1)"
  done
  if command -v nsys > /dev/null; then
    timeout 90 nsys profile -o $R/fp --stats=true $m --exec hierarchical --layout soa --steps 20 --distributed > $R/nsys.txt 2>&1
    note "nsys rc=$?"; rm -f $R/fp.nsys-rep $R/fp.sqlite
  else note "no nsys"; fi ;;
esac
grep -hE "tests passed|tests failed|\*\*\*|Not Run" $R/ctest*.log >> $R/summary.txt 2>/dev/null
grep -hE "Test +#.*(Passed|Failed)" $R/ctest*.log 2>/dev/null | sed 's/^ *[0-9]*\/[0-9]* //' > $R/done.txt
(cd $OUT && tar czf r-$1${3:-}.tgz r && rm -rf r)
