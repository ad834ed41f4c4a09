#!/usr/bin/env bash
# Session 2026-11-25 (sixth), issue 11 and 15 on the lent H100 machine kind.
#   script.sh ab    one umesh_main (carried, .device/build): res_calc at 2400 x 1200 after GPS,
#                   hier-all / hier-inc with thread and block colours, with and without the
#                   per-element colour bytes (UMESH_X_NO_COLOUR_BYTES=1 turns them off in the
#                   experiment binary), both layouts, blocks 128-448, atomics beside; the warp
#                   executor's res_calc sweep with register budgets 0, 40, 32, 48; Nsight
#                   Compute on one colour launch of hier-all, AoS, GPS, block 128, each way
#   script.sh regs  the same with the plain team kernel under launch bounds of 40 and 48
#                   registers (UMESH_X_HIER_REGS, experiment binary), GPS, blocks 128 and 256;
#                   the warp sweep; Nsight Compute of hier-all at 40 and at no bound
#   script.sh regs2 caps 0, 48, 56 over blocks 128-384 after GPS; METIS and built-in blocks
#   script.sh test  test_hierarchical (CUDA) and compute-sanitizer memcheck / racecheck
#   script.sh final the committed tree's res_calc rows (GPS, built-in blocks; budgets 0, 48)
#                   and cuda_fot's AoS cases at block 448, in one call
#   script.sh blocks built-in blocks of 192, 320 and 384 (budgets 0, 48), then `plan`
#   script.sh ncu   Nsight Compute of hier-all on built-in blocks of 256, AoS, budgets 48 and 0
#   script.sh plan  umesh_plan (host build, carried) at 100M edges on the machine's 16 cores
#   script.sh fot   cuda_fot's res_calc (checkout carried in .device/cuda_fot, never
#                   committed), AoS, block 448, beside umesh's rows of `ab` run again
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
B=$PWD/.device/build
m=$B/perf/umesh_main
export LD_LIBRARY_PATH="$PWD/.device/libs:$PWD/.device/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi > $R/nvidia-smi-$1.txt 2>&1
hier="--nx 2400 --ny 1200 --kernel res_calc --numbering natural --reorder gps --staging all,inc --combine colours --writeback coloured --layout all --repeats 20"
case "$1" in
ab)
  for v in new base new2 base2; do
    env=""; [[ $v == base* ]] && env="UMESH_X_NO_COLOUR_BYTES=1"
    timeout 100 env $env $m $hier --executor atomic,hierarchical --blocks 128,256,448 --out $R/ab-$v > $R/ab-$v.log 2>&1
    echo "ab $v rc=$? ${SECONDS}s" | tee -a $R/summary-ab.txt
  done
  timeout 150 $m --size large --kernel res_calc --numbering natural --reorder rcm,gps --layout soa \
    --executor atomic,scatterview,warp --blocks 128,256,512 --warp-registers 0,40,32,48 --repeats 20 \
    --out $R/warp > $R/warp.log 2>&1
  echo "warp rc=$? ${SECONDS}s" | tee -a $R/summary-ab.txt
  grep -h "copy bandwidth" $R/ab-*.log $R/warp.log >> $R/summary-ab.txt
  grep -h -A3 "best per kernel" $R/warp.log >> $R/summary-ab.txt
  for v in new base; do
    env=""; [[ $v == base ]] && env="UMESH_X_NO_COLOUR_BYTES=1"
    timeout 60 env $env ncu --kernel-name-base demangled -k regex:HierarchicalFunctor --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
      $m --nx 2400 --ny 1200 --kernel res_calc --numbering natural --reorder gps --layout aos \
      --executor hierarchical --staging all --combine colours --writeback coloured --blocks 128 --repeats 3 --warmup 1 \
      > $R/ncu-hier-all-$v.txt 2>&1
    echo "ncu $v rc=$? ${SECONDS}s" | tee -a $R/summary-ab.txt
  done ;;
regs)
  # The same binary with UMESH_X_HIER_REGS: the plain team kernel under launch bounds that cap it
  # at 40 or 48 registers (experiment); colour bytes on throughout.
  for v in r0 r40 r48 r0b r40b r48b; do
    r=${v#r}; r=${r%b}
    timeout 100 env UMESH_X_HIER_REGS=$r $m $hier --executor atomic,hierarchical --blocks 128,256 --out $R/regs-$v > $R/regs-$v.log 2>&1
    echo "regs $v rc=$? ${SECONDS}s" | tee -a $R/summary-regs.txt
  done
  timeout 150 $m --size large --kernel res_calc --numbering natural --reorder rcm,gps --layout soa \
    --executor atomic,scatterview,warp --blocks 128,256,512 --warp-registers 0,40,32,48 --repeats 20 \
    --out $R/warp > $R/warp.log 2>&1
  echo "warp rc=$? ${SECONDS}s" | tee -a $R/summary-regs.txt
  grep -h "copy bandwidth" $R/regs-*.log $R/warp.log >> $R/summary-regs.txt
  grep -h -A3 "best per kernel" $R/warp.log >> $R/summary-regs.txt
  for r in 40 0; do
    timeout 60 env UMESH_X_HIER_REGS=$r ncu --kernel-name-base demangled -k regex:HierarchicalFunctor --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
      $m --nx 2400 --ny 1200 --kernel res_calc --numbering natural --reorder gps --layout aos \
      --executor hierarchical --staging all --combine colours --writeback coloured --blocks 128 --repeats 3 --warmup 1 \
      > $R/ncu-hier-all-r$r.txt 2>&1
    echo "ncu r$r rc=$? ${SECONDS}s" | tee -a $R/summary-regs.txt
  done ;;
regs2)
  # Register caps 0, 48, 56 as launch bounds valid for any block up to 384-640 threads, GPS,
  # blocks 192-384; then METIS and built-in blocks (elements renumbered into blocks, threads in
  # colour order) at blocks 128 and 256.
  for r in 0 48 56; do
    timeout 100 env UMESH_X_HIER_REGS=$r $m $hier --executor atomic,hierarchical --blocks 128,192,256,320,384 --out $R/regs2-gps-r$r > $R/regs2-gps-r$r.log 2>&1
    echo "regs2 gps r$r rc=$? ${SECONDS}s" | tee -a $R/summary-regs2.txt
  done
  for r in 0 48; do
    for rb in 128 256; do
      timeout 100 env UMESH_X_HIER_REGS=$r $m ${hier/--reorder gps/--reorder metis,builtin --reorder-block $rb} --executor hierarchical --blocks $rb \
        --out $R/regs2-mb$rb-r$r > $R/regs2-mb$rb-r$r.log 2>&1
      echo "regs2 metis,builtin $rb r$r rc=$? ${SECONDS}s" | tee -a $R/summary-regs2.txt
    done
  done
  grep -h "copy bandwidth" $R/regs2-*.log | sort | uniq -c >> $R/summary-regs2.txt ;;
test)
  # test_hierarchical (carried, CUDA build of the committed tree), then compute-sanitizer on the
  # kernels this change touches: colour bytes (the Cuda MatchesSerial tests run contiguous
  # blocks, which are element ranges) and the register budget.
  t=$B/tests/test_hierarchical
  timeout 240 $t > $R/test_hierarchical.log 2>&1
  echo "test_hierarchical rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED)' $R/test_hierarchical.log | tr '\n' ' ')" | tee -a $R/summary-test.txt
  f="$($t --gtest_list_tests | awk '/^[A-Za-z]/ && /Cuda/ {sub(/\.$/, "", $1); printf "%s.RegisterBudgetMatchesSerial:%s.MatchesSerialForEveryStagingBlockSizeAndArity:", $1, $1}')"
  for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool $tool $t --gtest_filter="$f" > $R/san-$tool.log 2>&1
    echo "$tool rc=$? ${SECONDS}s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/san-$tool.log | tr '\n' ' ')" | tee -a $R/summary-test.txt
  done ;;
final)
  # The committed tree: umesh's res_calc rows (GPS and built-in blocks, blocks 128 and 256,
  # register budgets 0 and 48) then cuda_fot's AoS cases at its block 448, one call.
  timeout 60 $m $hier --executor atomic,scatterview,hierarchical --blocks 128,256 --hier-registers 0,48 --out $R/final-gps > $R/final-gps.log 2>&1
  echo "umesh gps rc=$? ${SECONDS}s" | tee -a $R/summary-final.txt
  for rb in 128 256; do
    timeout 80 $m ${hier/--reorder gps/--reorder builtin --reorder-block $rb} --executor hierarchical --blocks $rb --hier-registers 0,48 \
      --out $R/final-builtin$rb > $R/final-builtin$rb.log 2>&1
    echo "umesh builtin $rb rc=$? ${SECONDS}s" | tee -a $R/summary-final.txt
  done
  grep -h "copy bandwidth" $R/final-*.log >> $R/summary-final.txt
  LAYOUTS=aos UMESH=0 BLOCKS=448 ITERATIONS=20 DEPS=$PWD/.device/deps/usr timeout 380 \
    perf/cuda_fot/run.sh .device/cuda_fot $B $R/cuda_fot-aos > $R/cuda_fot-aos.log 2>&1
  echo "cuda_fot aos rc=$? ${SECONDS}s" | tee -a $R/summary-final.txt
  tail -12 $R/cuda_fot-aos.log >> $R/summary-final.txt ;;
blocks)
  # Built-in blocks of other sizes, budgets 0 and 48 (then `plan` in the same call).
  for rb in 192 320 384; do
    timeout 60 $m ${hier/--reorder gps/--reorder builtin --reorder-block $rb} --executor hierarchical --blocks $rb --hier-registers 0,48 \
      --out $R/blocks-builtin$rb > $R/blocks-builtin$rb.log 2>&1
    echo "umesh builtin $rb rc=$? ${SECONDS}s" | tee -a $R/summary-blocks.txt
  done
  grep -h "copy bandwidth" $R/blocks-*.log >> $R/summary-blocks.txt ;&
ncu)
  # Nsight Compute of one colour launch of the best hier-all configuration (built-in blocks of
  # 256, AoS) with register budget 48 and with none.
  for r in 48 0; do
    timeout 120 ncu --kernel-name-base demangled -k regex:HierarchicalFunctor --launch-skip 3 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
      $m --nx 2400 --ny 1200 --kernel res_calc --numbering natural --reorder builtin --reorder-block 256 --layout aos \
      --executor hierarchical --staging all --combine colours --writeback coloured --blocks 256 --hier-registers $r --repeats 3 --warmup 1 \
      > $R/ncu-hier-all-builtin256-r$r.txt 2>&1
    echo "ncu r$r rc=$? ${SECONDS}s" | tee -a $R/summary-ncu.txt
  done ;;
plan)
  nproc > $R/nproc.txt
  (ompi_info --parsable --all 2>&1 | grep -i -E "cuda|ucx" | head -20) > $R/ompi-cuda.txt
  export OMP_PROC_BIND=spread OMP_NUM_THREADS=16
  /usr/bin/time -v timeout 420 $B/perf/umesh_plan --elements 100000000 --methods none,rcm --kernel res_calc --csv $R/planning.csv \
    > $R/plan.log 2>&1
  echo "plan rc=$? ${SECONDS}s" | tee -a $R/summary-plan.txt
  grep -E "s$|total|plan|Maximum resident|Elapsed|Percent" $R/plan.log | tail -40 >> $R/summary-plan.txt ;;
fot)
  timeout 100 $m $hier --executor atomic,hierarchical --blocks 128,256,448 --out $R/fot-umesh > $R/fot-umesh.log 2>&1
  echo "umesh rc=$? ${SECONDS}s" | tee -a $R/summary-fot.txt
  LAYOUTS=aos UMESH=0 BLOCKS=448 ITERATIONS=20 DEPS=$PWD/.device/deps/usr timeout 400 \
    perf/cuda_fot/run.sh .device/cuda_fot $B $R/cuda_fot-aos > $R/cuda_fot-aos.log 2>&1
  echo "cuda_fot aos rc=$? ${SECONDS}s" | tee -a $R/summary-fot.txt
  tail -12 $R/cuda_fot-aos.log >> $R/summary-fot.txt ;;
esac
cd $OUT && tar czf r-$1.tgz r && rm -rf r
