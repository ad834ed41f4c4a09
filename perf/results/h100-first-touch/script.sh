#!/usr/bin/env bash
# Issue 11, on the lent H100 (name nvidia-h100-x1: the comparison is H100 against H100): gps and
# rcm with the other sets numbered by first touch (gps/first-touch, rcm/first-touch) beside the
# plain ones, res_calc at the main job's large size, then the paper's library (bgd54/cuda_fot) on
# the same 2400 x 1200 mesh in the same session, AoS, block 448. Calls on one warm machine, with
# .bundle (./setup.sh bundle .bundle) and .device/cuda_fot (a checkout of cuda_fot's `merging`
# branch: fetch github:bgd54/cuda_fot, then git --git-dir=... archive merging | tar -x -C
# .device/cuda_fot) carried:
#   script.sh build  umesh_main and umesh_export_cuda_fot from the offline bundle (CUDA)
#   script.sh umesh  umesh's rows (atomic, warp /r40/m16, hierarchical staging all and inc,
#                    register budgets 0 and 48), every row validated against the serial reference
#   script.sh fot    cuda_fot's res_calc (none, GPS, METIS; AoS) through perf/cuda_fot/run.sh
set -u
export PATH=$PATH:/usr/local/cuda/bin
export LD_LIBRARY_PATH="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64"
b() { echo "$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build 2>/dev/null | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"; }
R=$OUT/r; mkdir -p $R
SECONDS=0
note() { echo "$* ${SECONDS}s" | tee -a $R/summary.txt; }
case "$1" in
build)
  nvidia-smi > $R/nvidia-smi.txt 2>&1; git log -1 --format=%H > $R/commit.txt
  timeout 400 ./setup.sh --bundle .bundle --backend cuda --targets umesh_main,umesh_export_cuda_fot build > $R/build.log 2>&1
  note "build rc=$?"; [ -x "$(b)/perf/umesh_main" ] && LIMIT=$((570 - SECONDS)) "$0" umesh ;;
umesh)
  # The GPS family (plain and first touch, GPS and RCM), both layouts, then built-in blocks of
  # 256 (the METIS family's best last time), in one call after the build.
  m=$(b)/perf/umesh_main
  common="--size large --kernel res_calc --numbering natural --layout all --staging all,inc \
    --combine colours --writeback coloured --hier-registers 0,48 --repeats 20"
  (cd $R && timeout ${LIMIT:-300} $m $common --reorder gps,gps/first-touch,rcm,rcm/first-touch \
    --executor atomic,warp,hierarchical --blocks 128,192,256,448 --warp-registers 40 --warp-maps 16 \
    --out gps > gps.log 2>&1)
  note "umesh_main gps family rc=$?"
  (cd $R && timeout 120 $m $common --reorder builtin --reorder-block 256 --executor hierarchical \
    --blocks 256 --out builtin > builtin.log 2>&1)
  note "umesh_main builtin rc=$?"; grep -h "copy bandwidth" $R/*.log >> $R/summary.txt ;;
fot)
  LAYOUTS=aos UMESH=0 timeout ${LIMIT:-560} perf/cuda_fot/run.sh .device/cuda_fot $(b) $R/cuda_fot > $R/fot.log 2>&1
  note "cuda_fot rc=$?"; tail -20 $R/fot.log >> $R/summary.txt ;;
esac
