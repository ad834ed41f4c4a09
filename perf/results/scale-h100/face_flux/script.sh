#!/usr/bin/env bash
# Session 2026-11-24e, call 5: face_flux at >= 100M faces on one H100 (issue 15 item 4): time per
# phase (mesh, plans), GPU memory (nvidia-smi sampled every 0.5 s), executors' ranking; then the
# same executors at --size large (6.24M faces) for the ranking at the paper's size.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
SECONDS=0
( while true; do echo "$SECONDS $(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits)" >> $R/gpu_mem.txt; sleep 0.5; done ) &
MON=$!
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv > $R/gpu.txt
nproc > $R/nproc.txt
ARGS="--kernel face_flux --numbering natural --reorder none --layout soa --executor atomic,scatterview,gather,colour,hierarchical,auto --blocks 256 --staging inc --combine gather --writeback atomic --blocks-per-team 1,4 --repeats 10"
TIMEV=""; [ -x /usr/bin/time ] && TIMEV="/usr/bin/time -v"
(cd $R && $TIMEV timeout 400 $B/umesh_main $ARGS --n3 323 --out big) > $R/big.log 2>&1
echo "big rc=$? ${SECONDS}s" | tee -a $R/summary.txt
echo "--- large at ${SECONDS}s" >> $R/gpu_mem.txt
(cd $R && timeout 150 $B/umesh_main $ARGS --size large --out large) > $R/large.log 2>&1
echo "large rc=$? ${SECONDS}s" | tee -a $R/summary.txt
kill $MON
cd $OUT && tar czf r.tgz r && rm -rf r
