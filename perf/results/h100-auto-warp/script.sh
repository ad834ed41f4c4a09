#!/usr/bin/env bash
# Session 2026-11-26: exec::Auto on the H100 for the five kernels (issue 13), now that the warp
# executor and the register budgets (warp 0/64/40, hierarchical 0/48) are among its candidates.
# umesh_main built on the development machine (CUDA) and carried in .device/build.
#   round 1: atomic, ScatterView, warp (budgets 0, 64, 40; blocks 128, 256), the hierarchical
#            sweep (staging inc and all, budgets 0 and 48, blocks 128 and 256) and auto, which
#            tunes on its first call and writes the tuning file
#   round 2: atomic, ScatterView and auto, which reads its choice from the tuning file
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
m=$PWD/.device/build/perf/umesh_main
export LD_LIBRARY_PATH="$PWD/.device/libs:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi > $R/nvidia-smi.txt 2>&1
export UMESH_TUNING_FILE=$R/tuning.txt
common="--size large --numbering natural --reorder rcm --layout soa --repeats 20"
(cd $R && timeout 330 $m $common --executor atomic,scatterview,warp,hierarchical,auto --blocks 128,256 \
   --warp-registers 0,64,40 --staging inc,all --hier-registers 0,48 --out round1) > $R/round1.log 2>&1
echo "round1 rc=$? ${SECONDS}s" | tee -a $R/summary.txt
(cd $R && timeout 150 $m $common --executor atomic,scatterview,auto --out round2) > $R/round2.log 2>&1
echo "round2 rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -h "copy bandwidth" $R/round*.log >> $R/summary.txt
grep -h -A7 "best per kernel" $R/round1.log >> $R/summary.txt
grep -h "auto" $R/round1.log | grep -E "against the best|tuned in" >> $R/summary.txt
grep -h "auto" $R/round2.log | grep -E "tuned in|tuning file|loaded" >> $R/summary.txt
cat $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
