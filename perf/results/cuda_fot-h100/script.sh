#!/usr/bin/env bash
# Session 2026-11-25 (fourth): res_calc at 2400 x 1200 quads, umesh's hierarchical executor
# in the paper's mode (staging all, thread and block colours: hier-all) and in cuda_fot's
# (staged increments: hier-inc) beside the paper's library, bgd54/cuda_fot branch `merging`,
# in the same device session.
#   script.sh aos   umesh's rows (GPS and RCM, blocks 128, 256, 448, both layouts), then cuda_fot's
#                   AoS cases at its block 448 (perf/cuda_fot/run.sh LAYOUTS=aos UMESH=0)
#   script.sh soa   cuda_fot's SoA cases at block 448
# Binaries built on the development machine (umesh_main, umesh_export_cuda_fot, stripped) and
# carried in .device/build/perf with the bundle's METIS and Scotch (.device/deps); cuda_fot's
# checkout carried in .device/cuda_fot (git archive of the fetched snapshot; never committed).
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
export LD_LIBRARY_PATH=$PWD/.device/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
B=$PWD/.device/build
nvidia-smi > $R/nvidia-smi-$1.txt 2>&1
if [[ "$1" == aos ]]; then
  timeout 170 $B/perf/umesh_main --nx 2400 --ny 1200 --kernel res_calc --numbering natural --reorder gps,rcm \
    --blocks 128,256,448 --executor atomic,scatterview,hierarchical --staging all,inc --combine colours \
    --writeback coloured --layout all --repeats 20 --out $R/umesh > $R/umesh.log 2>&1
  echo "umesh rc=$? ${SECONDS}s" | tee -a $R/summary-$1.txt
  grep -E "copy bandwidth" $R/umesh.log | head -1 >> $R/summary-$1.txt
fi
LAYOUTS=$1 UMESH=0 BLOCKS=448 ITERATIONS=20 DEPS=$PWD/.device/deps/usr timeout 400 \
  perf/cuda_fot/run.sh .device/cuda_fot $B $R/cuda_fot-$1 > $R/cuda_fot-$1.log 2>&1
echo "cuda_fot $1 rc=$? ${SECONDS}s" | tee -a $R/summary-$1.txt
tail -12 $R/cuda_fot-$1.log >> $R/summary-$1.txt
cd $OUT && tar czf r-$1.tgz r && rm -rf r
