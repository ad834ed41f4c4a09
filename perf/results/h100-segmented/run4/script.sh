#!/usr/bin/env bash
# Session 2026-11-24f, call 5: exec::Segmented with both combine forms (per-point entries, and
# scratch atomics '/sa') beside atomics and ScatterView on the five kernels, natural numbering,
# none and rcm, both layouts, blocks 64-256; test_segmented on the GPU with compute-sanitizer
# memcheck and racecheck.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
SECONDS=0
nvidia-smi > $R/nvidia-smi.txt 2>&1
timeout 120 $B/test_segmented > $R/test_segmented.log 2>&1
echo "test_segmented rc=$? ${SECONDS}s" | tee -a $R/summary.txt; tail -3 $R/test_segmented.log >> $R/summary.txt
timeout 200 compute-sanitizer --tool memcheck $B/test_segmented --gtest_filter='Segmented/4.*:Segmented/5.*' > $R/san-memcheck.log 2>&1
echo "memcheck rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep "ERROR SUMMARY" $R/san-memcheck.log >> $R/summary.txt
timeout 200 compute-sanitizer --tool racecheck $B/test_segmented --gtest_filter='Segmented/4.*:Segmented/5.*' > $R/san-racecheck.log 2>&1
echo "racecheck rc=$? ${SECONDS}s" | tee -a $R/summary.txt; grep "RACECHECK SUMMARY" $R/san-racecheck.log >> $R/summary.txt
timeout 240 $B/umesh_main --size large --kernel res_calc,face_flux,getacc,integrate_stress,volna --numbering natural --reorder none,rcm \
  --executor atomic,scatterview,segmented --blocks 64,128,256 --repeats 20 --out $R/main > $R/main.log 2>&1
echo "main rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "^[a-z_]+/natural .* (atomic|scatterview|segmented)" $R/main.log | grep -A200 "best per" >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
