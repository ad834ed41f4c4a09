#!/usr/bin/env bash
# Session 2026-11-24b, call 7: experiment, the team kernels built with launch bounds (256 threads,
# 6 blocks per SM: at most 42 registers); atomics unchanged.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R/rcm
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
(cd $R/rcm && timeout 300 $B/umesh_main_lb6 --size large --numbering natural --repeats 20 --csv results.csv \
  --kernel res_calc,face_flux,getacc --reorder rcm --executor atomic,hierarchical --staging reads,inc,all --combine atomics --writeback atomic \
  --blocks-per-team 1,2,4 --blocks 64,128,256 --layout soa) > $R/rcm.log 2>&1
echo "rcm rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "^[a-z_]+/natural +(atomic|hier)" $R/rcm.log | grep -v "block 0:" | sort -k1,1 -k6g | awk '{k=$1" "$2; if (!(k in s)) {s[k]=1; print}}'
grep "copy bandwidth" $R/rcm.log
ncu --kernel-name-base demangled -k regex:HierarchicalFunctor --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats \
  --metrics lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__average_warp_latency_per_inst_issued.ratio,l1tex__data_pipe_lsu_wavefronts_mem_local.sum \
  $B/umesh_main_lb6 --size large --numbering natural --reorder rcm --layout soa --repeats 3 --warmup 1 --kernel res_calc --executor hierarchical \
  --staging inc --combine atomics --writeback atomic --blocks-per-team 2 --blocks 64 > $R/ncu-res_calc-hier-inc-sa-ga-p2-64.txt 2>&1
echo "ncu rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "^ +(lts|smsp|l1tex)__|Duration|Achieved Occupancy|Registers Per|Theoretical Occupancy" $R/ncu-res_calc-hier-inc-sa-ga-p2-64.txt | sort -u
cd $OUT && tar czf r.tgz r && rm -rf r
