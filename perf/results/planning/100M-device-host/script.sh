#!/usr/bin/env bash
# Session 2026-11-24e, call 9: planning at 100M edges on the device machine's 16 host cores
# (issue 15 item 3): umesh_plan (host build, OpenMP 16 threads) on a shuffled res_calc mesh of
# 100M edges, reorderings none, rcm, gps, then the hierarchical plan (block 256).
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
SECONDS=0
nproc > $R/nproc.txt
(cd $R && /usr/bin/time -v timeout 540 $B/umesh_plan_host --elements 100000000 --methods none,rcm,gps --kernel res_calc --csv planning.csv) > $R/plan.log 2>&1
echo "plan rc=$? ${SECONDS}s" | tee -a $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
