#!/usr/bin/env bash
# Session 2026-11-24d, call 3: umesh's unit tests built with nvcc against Kokkos 4.6.01 (a snapshot of kokkos/kokkos, tag 4.6.01) through setup.sh --kokkos-source, with cmake/bootstrap/kokkos-4.6.01-cuda13.patch, from the offline bundle; each test program run on the H100.
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
[ -d /tmp/k/kokkos-4.6.01 ] || { mkdir -p /tmp/k && tar xzf .device/kokkos-4.6.01.tar.gz -C /tmp/k; }
export UMESH_CACHE=/tmp/uc
T=test_executors,test_errors,test_colouring,test_hierarchical,test_mesh,test_gmsh,test_connectivity,test_partition,test_reorder,test_auto
./setup.sh --bundle $PWD/.device/bundle --backend cuda --kokkos-source /tmp/k/kokkos-4.6.01 --jobs 16 --targets $T build > $R/build.log 2>&1
echo "build rc=$? ${SECONDS}s" | tee -a $R/summary.txt
grep -E "Kokkos built|applying|warning" $R/build.log | head -20
cp /tmp/uc/kokkos-src-4.6.01-cuda-*.log $R/ 2>/dev/null
B=$(ls -d /tmp/uc/build/umesh-*-cuda-cxx17-kokkos4.6.01 | head -1)
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
for t in ${T//,/ }; do
  OMP_NUM_THREADS=8 timeout 240 $B/tests/$t > $R/$t.log 2>&1
  echo "$t rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED)  \]' $R/$t.log | tr '\n' ' ')" | tee -a $R/summary.txt
done
nvidia-smi --query-gpu=name --format=csv,noheader >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
