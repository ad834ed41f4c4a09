#!/usr/bin/env bash
# Session 2026-11-24b, call 5: Nsight Compute of the best pipelined kernels (L2 fabric, sectors, occupancy).
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__d_atomic_input_cycles_active.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,smsp__inst_executed_op_global_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__average_warp_latency_per_inst_issued.ratio
prof() { local n=$1 k=$2; shift 2
  ncu --kernel-name-base demangled -k "regex:$k" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --metrics $M \
    $B/umesh_main --size large --numbering natural --reorder rcm --layout soa --repeats 3 --warmup 1 "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued" $R/ncu-$n.txt | sort -u; }
prof res_calc-atomic 'ForFunctor.*ResCalc' --kernel res_calc --executor atomic
prof res_calc-hier-inc-sa-ga-p2-64 HierarchicalFunctor --kernel res_calc --executor hierarchical --staging inc --combine atomics --writeback atomic --blocks-per-team 2 --blocks 64
prof res_calc-hier-all-sa-ga-p4-128 HierarchicalFunctor --kernel res_calc --executor hierarchical --staging all --combine atomics --writeback atomic --blocks-per-team 4 --blocks 128
prof face_flux-hier-reads-p4-128 HierarchicalFunctor --kernel face_flux --executor hierarchical --staging reads --blocks-per-team 4 --blocks 128
cd $OUT && tar czf r.tgz r && rm -rf r
