#!/usr/bin/env bash
# Issue 11: the one-block hierarchical kernel with its staged increments preloaded (the buffer
# starts at the dat's values, so the write-back only stores) and each thread's map entries and
# block facts asked for before the staging barrier (prefetch), A/B on one binary through two
# experiment switches of the measured tree (UMESH_X_NO_PRELOAD, UMESH_X_NO_PREFETCH; removed
# before the commit), then cuda_fot in the same session. On the lent H100, .bundle and
# .device/cuda_fot carried:
#   script.sh ab     umesh_main from the offline bundle, the A/B (res_calc 2400 x 1200, GPS, RCM
#                    and built-in blocks of 256), then test_hierarchical built in what is left
#   script.sh ab2    each change alone, twice, one archive back
#   script.sh final  the committed form: umesh's rows with preload on and off, then cuda_fot
#   script.sh check  test_hierarchical, compute-sanitizer memcheck and racecheck on it, then
#                    cuda_fot's res_calc (AoS, block 448) through perf/cuda_fot/run.sh
set -u
export PATH=$PATH:/usr/local/cuda/bin
export LD_LIBRARY_PATH="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64"
b() { echo "$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build 2>/dev/null | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"; }
R=$OUT/r; mkdir -p $R
SECONDS=0
note() { echo "$* ${SECONDS}s" | tee -a $R/summary.txt; }
case "$1" in
ab)
  nvidia-smi > $R/nvidia-smi.txt 2>&1; git log -1 --format=%H > $R/commit.txt; git diff --stat >> $R/commit.txt
  timeout 330 ./setup.sh --bundle .bundle --backend cuda --targets umesh_main,umesh_export_cuda_fot build > $R/build.log 2>&1
  note "build rc=$?"
  m=$(b)/perf/umesh_main
  hier="--size large --kernel res_calc --numbering natural --layout all --staging all,inc --combine colours \
    --writeback coloured --hier-registers 0,48 --repeats 20"
  for v in base both prefetch preload base2 both2; do
    case $v in base*) env="UMESH_X_NO_PRELOAD=1 UMESH_X_NO_PREFETCH=1" ;; prefetch) env="UMESH_X_NO_PRELOAD=1" ;;
      preload) env="UMESH_X_NO_PREFETCH=1" ;; *) env="" ;; esac
    (cd $R && timeout 60 env $env $m $hier --reorder gps,rcm --executor atomic,hierarchical --blocks 192,256 \
      --out $v > $v.log 2>&1)
    note "$v gps,rcm rc=$?"
    (cd $R && timeout 40 env $env $m $hier --reorder builtin --reorder-block 256 --executor hierarchical \
      --blocks 256 --out $v-builtin > $v-builtin.log 2>&1)
    note "$v builtin rc=$?"
    [ $SECONDS -gt 450 ] && break
  done
  grep -h "copy bandwidth" $R/*.log >> $R/summary.txt
  # Rows only (results.csv) in a form that comes back: one file per run.
  for f in $R/*/results.csv; do cp $f $R/$(basename $(dirname $f)).csv; done
  rm -rf $R/*/
  timeout $((580 - SECONDS)) ./setup.sh --bundle .bundle --backend cuda --targets test_hierarchical build > $R/build-test.log 2>&1
  note "build test_hierarchical rc=$?" ;;
ab2)
  # Each change alone (the first call's single runs did not come back: a call returns at most
  # eight files, so this one returns one archive): base, prefetch, preload, both, twice.
  timeout 330 ./setup.sh --bundle .bundle --backend cuda --targets umesh_main build > $R/build.log 2>&1
  note "build rc=$?"
  m=$(b)/perf/umesh_main
  hier="--size large --kernel res_calc --numbering natural --layout all --staging all,inc --combine colours \
    --writeback coloured --hier-registers 0,48 --repeats 20 --executor hierarchical"
  for v in base prefetch preload both base2 prefetch2 preload2 both2; do
    case $v in base*) env="UMESH_X_NO_PRELOAD=1 UMESH_X_NO_PREFETCH=1" ;; prefetch*) env="UMESH_X_NO_PRELOAD=1" ;;
      preload*) env="UMESH_X_NO_PREFETCH=1" ;; *) env="" ;; esac
    (cd $R && timeout 40 env $env $m $hier --reorder gps --blocks 192,256 --out $v > $v.log 2>&1)
    (cd $R && timeout 30 env $env $m $hier --reorder builtin --reorder-block 256 --blocks 256 \
      --out $v-builtin > $v-builtin.log 2>&1)
    note "$v rc=$?"
    [ $SECONDS -gt 520 ] && break
  done
  for f in $R/*/results.csv; do cp $f $R/$(basename $(dirname $f)).csv; done
  rm -rf $R/*/; (cd $OUT && tar czf ab2.tgz r && rm -rf r) ;;
final)
  # The committed form (preload an option, on by default under staging 'all'; prefetch always):
  # umesh's rows, preload on and off (/np), then cuda_fot in the same call; one archive back.
  git log -1 --format=%H > $R/commit.txt; git status --short >> $R/commit.txt
  timeout 300 ./setup.sh --bundle .bundle --backend cuda --targets umesh_main,umesh_export_cuda_fot build > $R/build.log 2>&1
  note "build rc=$?"
  m=$(b)/perf/umesh_main
  hier="--size large --kernel res_calc --numbering natural --layout all --staging all,inc --combine colours \
    --writeback coloured --hier-registers 0,48 --hier-preload 1,0 --repeats 20"
  (cd $R && timeout 60 $m $hier --reorder gps,rcm --executor atomic,warp,hierarchical --warp-registers 40 \
    --warp-maps 16 --blocks 192,256 --out final > final.log 2>&1)
  note "umesh gps,rcm rc=$?"
  (cd $R && timeout 40 $m $hier --reorder builtin --reorder-block 256 --executor hierarchical --blocks 256 \
    --out final-builtin > final-builtin.log 2>&1)
  note "umesh builtin rc=$?"
  for f in $R/*/results.csv; do cp $f $R/$(basename $(dirname $f)).csv; done; rm -rf $R/final $R/final-builtin
  LAYOUTS=aos UMESH=0 timeout $((585 - SECONDS)) perf/cuda_fot/run.sh .device/cuda_fot $(b) $R/cuda_fot > $R/fot.log 2>&1
  note "cuda_fot rc=$?"; tail -8 $R/fot.log >> $R/summary.txt
  (cd $OUT && tar czf final.tgz r && rm -rf r) ;;
check)
  timeout 200 ./setup.sh --bundle .bundle --backend cuda --targets test_hierarchical build > $R/build-test.log 2>&1
  note "build test_hierarchical rc=$?"
  t=$(b)/tests/test_hierarchical
  timeout 120 $t > $R/test_hierarchical.log 2>&1; note "test_hierarchical rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/test_hierarchical.log | tr '\n' ' ')"
  # The Cuda instances (gtest lists the space in the type's comment) of the tests over staging,
  # block size, arity, two maps on one dat (no preload) and atomic write-back (shared points).
  f="$($t --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ {sub(/\.$/, "", $1); for (n = split("MatchesSerialForEveryStagingBlockSizeAndArity OneDatIncrementedThroughTwoMapsMatchesSerial AtomicCombineAndWritebackMatchSerial", x, " "); n > 0; n--) printf "%s.%s:", $1, x[n]}')"
  for tool in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool $tool $t --gtest_filter="$f" > $R/san-$tool.log 2>&1
    note "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/san-$tool.log | tr '\n' ' ')"
  done
  LAYOUTS=aos UMESH=0 timeout $((590 - SECONDS)) perf/cuda_fot/run.sh .device/cuda_fot $(b) $R/cuda_fot > $R/fot.log 2>&1
  note "cuda_fot rc=$?"; tail -10 $R/fot.log >> $R/summary.txt ;;
esac
