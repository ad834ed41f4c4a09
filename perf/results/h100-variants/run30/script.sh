#!/usr/bin/env bash
# Session 2026-11-24c, call 6: one flag per pipeline hook (working tree on 303ad8d) against the binary of e23bdbc, same GPU, same session; instruction counts.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R/new $R/old
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
timeout 100 $B/test_hierarchical > $R/test_hierarchical.log 2>&1
echo "test_hierarchical rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep -E "PASSED|FAILED" $R/test_hierarchical.log | head -5
common="--size large --numbering natural --repeats 20 --reorder rcm --layout soa --kernel res_calc,face_flux,getacc,integrate_stress --writeback atomic --blocks 64,128"
for round in 1 2; do
(cd $R/old && timeout 120 $B/umesh_main_old $common --csv results$round.csv --executor atomic,hierarchical --staging reads,inc,all --combine atomics --blocks-per-team 1,2,4) > $R/old/run$round.log 2>&1
echo "old $round rc=$? ${SECONDS}s" | tee -a $R/summary.txt
(cd $R/new && timeout 150 $B/umesh_main $common --csv results$round.csv --executor atomic,hierarchical --staging reads,inc,all --combine atomics,gather --blocks-per-team 1,2,4) > $R/new/run$round.log 2>&1
echo "new $round rc=$? ${SECONDS}s" | tee -a $R/summary.txt
done
for v in old new; do for round in 1 2; do echo "== $v $round"; grep -E "^[a-z_]+/natural +(atomic|hier)" $R/$v/run$round.log | grep -v "block 0:" | awk '{g=$2; key=$1" "g; if (!(key in best) || $6<best[key]) {best[key]=$6; row[key]=$0}} END {for (k in row) print row[k]}' | sort -k1,1 -k6g | cut -c1-75; grep "copy bandwidth" $R/$v/run$round.log; done; done
M=smsp__inst_executed.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed
prof() { local n=$1 bin=$2; shift 2
  timeout 60 ncu --kernel-name-base demangled -k "regex:HierarchicalFunctor" --launch-skip 2 --launch-count 1 --section LaunchStats --section Occupancy --metrics $M \
    $B/$bin --size large --numbering natural --reorder rcm --layout soa --repeats 3 --warmup 1 "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  grep -E "^ +(lts|smsp)__|Duration|Registers Per|Achieved Occupancy" $R/ncu-$n.txt | sort -u; }
prof old-inc-sa-ga-p2-64 umesh_main_old --kernel res_calc --executor hierarchical --staging inc --combine atomics --writeback atomic --blocks-per-team 2 --blocks 64
prof new-inc-sa-ga-p2-64 umesh_main --kernel res_calc --executor hierarchical --staging inc --combine atomics --writeback atomic --blocks-per-team 2 --blocks 64
prof new-inc-sg-ga-p2-64 umesh_main --kernel res_calc --executor hierarchical --staging inc --combine gather --writeback atomic --blocks-per-team 2 --blocks 64
prof new-all-sg-ga-p4-128 umesh_main --kernel res_calc --executor hierarchical --staging all --combine gather --writeback atomic --blocks-per-team 4 --blocks 128
cd $OUT && tar czf r.tgz r && rm -rf r
