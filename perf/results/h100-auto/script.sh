#!/usr/bin/env bash
# Session 2026-11-24d, call 8: exec::Auto on the H100 for the five kernels (issue 13): round 1 tunes (tuning file written) beside every reference and hierarchical variant; round 2 reads the tuning file.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
export UMESH_TUNING_FILE=$R/tuning.txt
common="--size large --numbering natural --reorder rcm --layout soa --repeats 20"
(cd $R && timeout 330 $B/umesh_main $common --executor atomic,scatterview,hierarchical,auto --staging reads,inc,all --blocks 64,128,256 --blocks-per-team 1,2,4 --out round1) > $R/round1.log 2>&1
echo "round1 rc=$? ${SECONDS}s" | tee -a $R/summary.txt
(cd $R && timeout 150 $B/umesh_main $common --executor atomic,scatterview,auto --out round2) > $R/round2.log 2>&1
echo "round2 rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -h "auto" $R/round1.log | grep -E "against the best|tuned in" | head -12
grep -h "auto" $R/round2.log | grep -E "tuned in|tuning file|loaded" | head -8
cd $OUT && tar czf r.tgz r && rm -rf r
