#!/usr/bin/env bash
# Session 2026-11-24c, call 3: slot program (table-driven pipelined staging) and gather kernels of their own: tests, sweep, Nsight Compute.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R/rcm
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 $B/test_hierarchical > $R/test_hierarchical.log 2>&1
echo "test_hierarchical rc=$? ${SECONDS}s" | tee -a $R/summary.txt; tail -3 $R/test_hierarchical.log; grep -A3 Failure $R/test_hierarchical.log | head -20
(cd $R/rcm && timeout 260 $B/umesh_main --size large --numbering natural --repeats 20 --csv results.csv \
  --kernel res_calc,face_flux,getacc --reorder rcm --executor atomic,scatterview,hierarchical --staging reads,all,inc --combine atomics,gather --writeback atomic \
  --blocks-per-team 1,2,4 --blocks 64,128 --layout soa) > $R/rcm.log 2>&1
echo "rcm rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "^[a-z_]+/natural +(atomic|scatterview|hier)" $R/rcm.log | grep -v "block 0:" | sort -k1,1 -k6g | awk '{k=$1; c[k]++; if (c[k]<=8) print}'
grep "copy bandwidth" $R/rcm.log
M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
prof() { local n=$1 k=$2; shift 2
  timeout 60 ncu --kernel-name-base demangled -k "regex:$k" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --metrics $M \
    $B/umesh_main --size large --numbering natural --reorder rcm --layout soa --repeats 3 --warmup 1 "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued|Dynamic Shared" $R/ncu-$n.txt | sort -u; }
prof res_calc-atomic 'ForFunctor.*ResCalc' --kernel res_calc --executor atomic
prof res_calc-hier-all-sa-ga-p4-128 HierarchicalFunctor --kernel res_calc --executor hierarchical --staging all --combine atomics --writeback atomic --blocks-per-team 4 --blocks 128
prof res_calc-hier-all-sg-ga-p4-128 HierarchicalFunctor --kernel res_calc --executor hierarchical --staging all --combine gather --writeback atomic --blocks-per-team 4 --blocks 128
prof res_calc-hier-inc-sg-ga-p2-64 HierarchicalFunctor --kernel res_calc --executor hierarchical --staging inc --combine gather --writeback atomic --blocks-per-team 2 --blocks 64
grep -h smsp__inst_executed.sum $R/ncu-*.txt
cd $OUT && tar czf r.tgz r && rm -rf r
