#!/usr/bin/env bash
# Session 2026-11-26 (second): exec::Auto on a host backend, the device machine's 16 CPU cores,
# OpenMP, --size large, the main job's auto row against every other row as before
# (../device-host-16cores-large/), and then, per kernel, auto's pick against the fastest other row
# timed in 20 alternating pairs (--paired 20). The host build of umesh_main (the tree of the
# commit that adds --paired) carried in .device/bin; METIS and Scotch in .device/libs.
set -u
export LD_LIBRARY_PATH=$PWD/.device/libs
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
SECONDS=0
lscpu > $R/lscpu.txt 2>&1
export OMP_PROC_BIND=spread OMP_PLACES=threads OMP_NUM_THREADS=16
(cd $R && timeout 205 $B/umesh_main_host --size large --numbering natural --reorder rcm --layout soa \
  --executor atomic,gather,colour,scatterview,hierarchical,auto --repeats 10 --paired 20 --out round1) > $R/round1.log 2>&1
echo "round 1 rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "^  auto|best per kernel|^[a-z_]+/natural +[a-z]" $R/round1.log | grep -E "auto|best" >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
