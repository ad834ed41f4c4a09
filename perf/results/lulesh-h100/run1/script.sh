#!/usr/bin/env bash
# Session 2026-11-24e, call 1: umesh_lulesh (CUDA) on the H100: LULESH's checks under every executor
# (-s 10 with serial, -s 30 all others and auto), -s 150 grind times/FOM, fenced per-loop medians
# with the copy bandwidth, compute-sanitizer memcheck and racecheck.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
L=.device/bin/umesh_lulesh
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
timeout 60 $L -s 10 --exec serial --layout aos,soa --expect-cycles 231 --expect-energy 2.72053116847034689e+04 > $R/s10_serial.log 2>&1
echo "s10 serial rc=$? ${SECONDS}s $(tail -1 $R/s10_serial.log)" | tee -a $R/summary.txt
timeout 150 $L -s 30 --exec all --layout aos,soa --expect-cycles 932 --expect-energy 2.02507478507199383e+05 > $R/s30_all.log 2>&1
echo "s30 all rc=$? ${SECONDS}s $(tail -1 $R/s30_all.log)" | tee -a $R/summary.txt
timeout 60 $L -s 30 --exec auto --layout soa --expect-cycles 932 --expect-energy 2.02507478507199383e+05 > $R/s30_auto.log 2>&1
echo "s30 auto rc=$? ${SECONDS}s $(tail -1 $R/s30_auto.log)" | tee -a $R/summary.txt
timeout 200 $L -s 150 --exec gather,atomic,scatterview,colour,hierarchical --layout soa,aos --csv $R/s150.csv > $R/s150.log 2>&1
echo "s150 rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "==|Iteration|Origin|Grind|FOM|Elapsed" $R/s150.log >> $R/summary.txt
timeout 120 $L -s 150 -i 200 --exec gather,atomic,scatterview,hierarchical --layout soa,aos --timers --csv $R/s150_timers.csv > $R/s150_timers.log 2>&1
echo "s150 timers rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "==|median|bandwidth" $R/s150_timers.log >> $R/summary.txt
timeout 60 compute-sanitizer --tool memcheck --print-limit 20 $L -s 6 --exec atomic,gather,colour,scatterview,hierarchical --layout aos,soa --block 64 --expect-cycles 102 > $R/memcheck.log 2>&1
echo "memcheck rc=$? ${SECONDS}s $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1)" | tee -a $R/summary.txt
timeout 90 compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 20 $L -s 6 -i 20 --exec hierarchical --layout soa --block 64 > $R/racecheck.log 2>&1
echo "racecheck rc=$? ${SECONDS}s $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck.log | tail -1)" | tee -a $R/summary.txt
