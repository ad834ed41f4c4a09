#!/usr/bin/env bash
# Session 2026-11-24b, call 1: L2 breakdown (which L2 unit and which operations) for the atomic
# kernel and the two best shared-memory kernels on res_calc, SoA, RCM.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $R/smi.txt
ncu --query-metrics --chip gh100 > $R/metrics.txt 2>&1
M=""
for m in lts__t_sectors_srcunit_tex_op_read lts__t_sectors_srcunit_tex_op_write lts__t_sectors_srcunit_tex_op_red \
  lts__t_sectors_srcunit_tex_op_atom lts__t_requests_srcunit_tex_op_read lts__t_requests_srcunit_tex_op_red \
  lts__t_requests_srcunit_tex_op_atom lts__t_requests_srcunit_tex_op_write lts__t_sectors_srcunit_tex_lookup_hit \
  lts__t_sectors lts__t_requests lts__t_tag_requests dram__bytes_read dram__bytes_write smsp__inst_executed_op_global_red \
  smsp__inst_executed_op_global_ld smsp__inst_executed_op_ldgsts l1tex__t_sectors_pipe_lsu_mem_global_op_ld \
  l1tex__t_requests_pipe_lsu_mem_global_op_ld lts__d_atomic_input_cycles_active lts__t_sectors_op_red lts__t_sectors_op_atom; do
  if grep -q "^$m " $R/metrics.txt; then M="$M,$m.sum"; else echo "no metric $m" >> $R/summary.txt; fi
done
M="breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed${M}"
echo "$M" > $R/metric-list.txt
prof() { # name regex args...
  local n=$1 k=$2; shift 2
  ncu --kernel-name-base demangled -k "regex:$k" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --section Occupancy --section LaunchStats --print-details all --metrics "$M" \
    $B/umesh_main --size large --numbering natural --kernel res_calc --reorder rcm --layout soa --repeats 3 --warmup 1 "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt
}
prof atomic 'ForFunctor.*ResCalc' --executor atomic
prof hier-inc-sa-ga-128 HierarchicalFunctor --executor hierarchical --staging inc --combine atomics --writeback atomic --blocks 128
prof hier-reads-p2-256 HierarchicalFunctor --executor hierarchical --staging reads --blocks-per-team 2 --blocks 256
prof atomic-natural 'ForFunctor.*ResCalc' --executor atomic --reorder none
cd $OUT && tar czf r.tgz r && rm -rf r
