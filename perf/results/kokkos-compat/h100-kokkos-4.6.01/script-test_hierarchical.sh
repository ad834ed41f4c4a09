#!/usr/bin/env bash
# Session 2026-11-24d, call 4: test_hierarchical against Kokkos 4.6.01 (+ cmake/bootstrap/kokkos-4.6.01-cuda13.patch) after its tests learned that Kokkos 4 grants 40 KB of team scratch.
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
SECONDS=0
[ -d /tmp/k/kokkos-4.6.01 ] || { mkdir -p /tmp/k && tar xzf .device/kokkos-4.6.01.tar.gz -C /tmp/k; }
export UMESH_CACHE=/tmp/uc
./setup.sh --bundle $PWD/.device/bundle --backend cuda --kokkos-source /tmp/k/kokkos-4.6.01 --jobs 16 --targets test_hierarchical build > $R/build.log 2>&1
echo "build rc=$? ${SECONDS}s" | tee -a $R/summary.txt
B=$(ls -d /tmp/uc/build/umesh-*-cuda-cxx17-kokkos4.6.01 | head -1)
export LD_LIBRARY_PATH=/tmp/uc/deps/usr/lib/x86_64-linux-gnu
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
OMP_NUM_THREADS=8 timeout 200 $B/tests/test_hierarchical > $R/test_hierarchical.log 2>&1
echo "test_hierarchical rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $R/test_hierarchical.log | tr '\n' ' ')" | tee -a $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
