#!/usr/bin/env bash
# Session 2026-11-24c, call 2: per-SASS-instruction profile of res_calc hier-all/sg/ga/p4 block 128 and hier-all/sa/ga/p4 (where the instructions go).
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
prof() { local n=$1 k=$2; shift 2
  timeout 120 ncu --kernel-name-base demangled -k "regex:$k" --launch-skip 2 --launch-count 1 --set full --import-source no -o $R/$n \
    $B/umesh_main --size large --numbering natural --reorder rcm --layout soa --repeats 3 --warmup 1 "$@" > $R/ncu-$n.log 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt
  ncu -i $R/$n.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > $R/sass-$n.csv.gz
  ncu -i $R/$n.ncu-rep --page details --print-details all 2>/dev/null > $R/details-$n.txt
  rm -f $R/$n.ncu-rep; }
prof all-sg-ga-p4-128 HierarchicalFunctor --kernel res_calc --executor hierarchical --staging all --combine gather --writeback atomic --blocks-per-team 4 --blocks 128
prof all-sa-ga-p4-128 HierarchicalFunctor --kernel res_calc --executor hierarchical --staging all --combine atomics --writeback atomic --blocks-per-team 4 --blocks 128
prof atomic 'ForFunctor.*ResCalc' --kernel res_calc --executor atomic
ls -la $R
cd $OUT && tar czf r.tgz r && rm -rf r
