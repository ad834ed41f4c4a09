#!/usr/bin/env bash
# Session 2026-11-24e, call 11: per-loop medians of umesh_lulesh again after the fix that took the
# force zeroing out of the "stress" timer (-s 150 -i 200 --timers, SoA): gather, atomic, scatterview
# and the default hierarchical in one process, the best hierarchical configuration in a second.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
R=$OUT/r; mkdir -p $R
L=.device/bin/umesh_lulesh
SECONDS=0
timeout 200 $L -s 150 -i 200 -q --exec gather,atomic,scatterview,hierarchical --layout soa --timers --csv $R/timers.csv > $R/timers.log 2>&1
echo "timers rc=$? ${SECONDS}s" | tee -a $R/summary.txt
timeout 100 $L -s 150 -i 200 -q --exec hierarchical,atomic,scatterview --layout soa --timers --staging inc --combine gather --writeback atomic --block 128 --blocks-per-team 4 --csv $R/timers_best.csv > $R/timers_best.log 2>&1
echo "timers best rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "==|median|bandwidth" $R/timers.log $R/timers_best.log >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
