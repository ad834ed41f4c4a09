#!/usr/bin/env bash
# Session 2026-11-24e, call 3: exec::Auto on a host backend at --size large (past the 300 MiB L3):
# the device machine's 16 CPU cores, OpenMP, the main job's auto row against every other row, twice.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
SECONDS=0
lscpu > $R/lscpu.txt 2>&1
export OMP_PROC_BIND=spread OMP_PLACES=threads OMP_NUM_THREADS=16
for round in 1 2; do
  (cd $R && timeout 280 $B/umesh_main_host --size large --numbering natural --reorder rcm --layout soa --executor atomic,gather,colour,scatterview,hierarchical,auto --repeats 10 --out round$round) > $R/round$round.log 2>&1
  echo "round $round rc=$? ${SECONDS}s" | tee -a $R/summary.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r
