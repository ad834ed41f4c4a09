#!/usr/bin/env bash
# Session 2026-11-24f, call 1: exec::Segmented (block reduction over point runs) beside atomics and
# ScatterView at --size large, natural numbering, none and rcm, both layouts, blocks 128-1024.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
R=$OUT/r; mkdir -p $R
M=.device/bin/umesh_main
SECONDS=0
nvidia-smi > $R/nvidia-smi.txt 2>&1
timeout 300 $M --size large --kernel res_calc,face_flux,getacc,integrate_stress,volna --numbering natural --reorder none,rcm \
  --executor atomic,scatterview,segmented --blocks 128,256,512,1024 --repeats 20 --out $R/main > $R/main.log 2>&1
echo "main rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "best per|^[a-z_]+/natural +(atomic|scatterview|segmented)" $R/main.log | head -120 >> $R/summary.txt
timeout 200 $M --size large --kernel res_calc,face_flux --numbering natural --reorder rcm --layout soa --executor atomic,scatterview,segmented,hierarchical --blocks 128,256 --staging inc,all --combine gather --writeback atomic --team-sizes 0,128 --blocks-per-team 1,4 --repeats 20 --out $R/hier > $R/hier.log 2>&1
echo "hier rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "best per|^[a-z_]+/natural +(atomic|scatterview|segmented|hier)" $R/hier.log >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
