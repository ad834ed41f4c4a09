#!/usr/bin/env bash
# Session 2026-11-26 (fourth): gps and rcm with the other sets numbered by first touch
# (gps/first-touch, rcm/first-touch) beside the plain ones on the lent H100, res_calc at the main
# job's large size, one call. umesh_main built on the development machine (CUDA build of the
# commit that adds this folder) and carried in .device/ft/; METIS and Scotch in .device/libs.
set -u
m=$PWD/.device/ft/umesh_main
export LD_LIBRARY_PATH=$PWD/.device/libs:/usr/local/cuda/lib64
nvidia-smi -L > $OUT/gpu.txt 2>&1
cd $OUT && timeout ${LIMIT:-300} $m --size large --kernel res_calc --numbering natural \
  --reorder gps,gps/first-touch,rcm,rcm/first-touch --layout soa --executor atomic,warp,hierarchical \
  --blocks 256 --staging all,inc --combine colours --writeback coloured --hier-registers 0,48 \
  --warp-registers 40 --warp-maps 16 --repeats 20 --out run > run.log 2>&1
echo "rc=$?" >> run.log
