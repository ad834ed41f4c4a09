#!/usr/bin/env bash
# Session 2026-11-24f, call 6: the committed exec::Segmented with exec::Auto candidates:
# test_executors (every executor incl. segmented, Cuda configs), test_auto, test_segmented on the
# GPU; the main job's auto rows beside atomic, ScatterView and segmented (SoA, rcm, five kernels).
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
SECONDS=0
nvidia-smi > $R/nvidia-smi.txt 2>&1
for t in $TESTS; do
  timeout 200 $B/$t > $R/$t.log 2>&1
  echo "$t rc=$? ${SECONDS}s" | tee -a $R/summary.txt; tail -3 $R/$t.log >> $R/summary.txt
done
[ -x $B/umesh_main ] && timeout 250 $B/umesh_main --size large --kernel res_calc,face_flux,getacc,integrate_stress,volna --numbering natural --reorder rcm --layout soa \
  --executor atomic,scatterview,segmented,auto --blocks 128,256 --repeats 20 --out $R/main > $R/main.log 2>&1
echo "main rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "^[a-z_]+/natural +(auto|atomic)|best per" -A0 $R/main.log >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
