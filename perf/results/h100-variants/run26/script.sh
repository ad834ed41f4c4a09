#!/usr/bin/env bash
# Session 2026-11-24b, call 9: exec::Auto with the pipelined candidates beside the references and the swept variants.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
R=$OUT/r; mkdir -p $R/rcm
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
(cd $R/rcm && timeout 400 $B/umesh_main --size large --numbering natural --repeats 20 --csv results.csv \
  --kernel res_calc,face_flux,getacc --reorder rcm --executor atomic,scatterview,hierarchical,auto --staging reads,inc --combine atomics --writeback atomic \
  --blocks-per-team 1,2,4 --blocks 64,128 --layout soa) > $R/rcm.log 2>&1
echo "rcm rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "^[a-z_]+/natural +(atomic|scatterview|hier|auto)" $R/rcm.log | grep -v "block 0:" | sort -k1,1 -k6g | awk '{k=$1" "$2; if (!(k in s)) {s[k]=1; print}}'
grep -iE "auto|tun" $R/rcm.log | grep -v "^\[umesh\] reorder" | head -20
grep "copy bandwidth" $R/rcm.log
cd $OUT && tar czf r.tgz r && rm -rf r
