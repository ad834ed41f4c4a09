#!/usr/bin/env bash
# Session 2026-11-26 (sixth): the whole suite and the two-GPU runs on one 2-GPU machine
# (asked for as nvidia-h100-x2; every call came as two H200s, 32 host cores), one mode per call:
#   script.sh build  the whole suite built from the offline bundle (./setup.sh bundle .bundle,
#                    carried), CUDA with MPI and the device's NCCL; then, with the time left, the
#                    overlapped distributed test on two GPUs (one per rank, host and NCCL) and
#                    res_calc's check on two GPUs (issue 15)
#   script.sh test   the build finished without reconfiguring, then ctest over the whole suite;
#                    KOKKOS_NUM_DEVICES=2 gives each MPI rank a GPU by its local rank, so the
#                    multi-rank cases spread over both GPUs (and test_distributed_overlap's ranks
#                    each have their own GPU, which runs its NCCL cases)
#   script.sh time   (umesh_dist_res_calc built first on a fresh machine) res_calc at 50.4M edges on one GPU and on two (host or NCCL, plain or
#                    overlapped, same processes), then 196M edges (atomic) (issue 15)
#   script.sh why    (after a change printing each rank's median) one GPU on half the 50.4M mesh
#                    beside the whole mesh on one and two GPUs
set -u
export PATH=$PATH:/usr/local/cuda/bin
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export NCCL_DEBUG=WARN OMP_PROC_BIND=false
export LD_LIBRARY_PATH="$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:/usr/local/cuda/lib64"
R=$OUT/r; mkdir -p $R
S=$R/summary.txt
SECONDS=0
LIMIT=${LIMIT:-585}
b() { echo "$HOME/.cache/umesh/build/$(ls $HOME/.cache/umesh/build 2>/dev/null | grep -E '^umesh-[0-9]+-cuda-cxx17$' | head -1)"; }
note() { echo "$* ${SECONDS}s" | tee -a $S; }
dist() { # name np timeout args... : umesh_dist_res_calc, one GPU per rank
  local name=$1 np=$2 t=$3; shift 3
  OMP_NUM_THREADS=8 timeout $t mpirun -np $np --bind-to none $(b)/perf/umesh_dist_res_calc \
    --kokkos-num-devices=2 --csv $R/$name.csv "$@" > $R/$name.log 2>&1
  note "$name rc=$?"; grep -E 'rank [0-9]+:|ranks|median' $R/$name.log >> $S
}
case "$1" in
build)
  { nvidia-smi; nvidia-smi -L; nvidia-smi topo -m; nproc; mpirun --version | head -1; ldconfig -p | grep -i nccl; } > $R/env.txt 2>&1
  timeout 520 ./setup.sh --bundle .bundle --backend cuda --jobs 32 build > $R/build.log 2>&1
  note "build rc=$?"; grep -E "^\[[0-9]+/" $R/build.log | tail -1 >> $S; grep -E "NCCL|MPI" $R/build.log | head -5 >> $S
  if [ -x $(b)/tests/test_distributed_overlap ] && [ $((LIMIT - SECONDS)) -gt 100 ]; then
    OMP_NUM_THREADS=8 timeout $((LIMIT - SECONDS - 60)) mpirun -np 2 --bind-to none $(b)/tests/test_distributed_overlap \
      --kokkos-num-devices=2 > $R/test_overlap_np2.log 2>&1
    note "test_distributed_overlap np2 (two GPUs) rc=$?"; grep -E "PASSED|FAILED|NCCL|skipp" $R/test_overlap_np2.log | head >> $S
  fi
  if [ -x $(b)/perf/umesh_dist_res_calc ] && [ $((LIMIT - SECONDS)) -gt 50 ]; then
    dist check_np2 2 $((LIMIT - SECONDS - 5)) --nx 2400 --ny 1200 --steps 20 --overlap off,on --transport host,nccl
  fi ;;
test)
  timeout 300 cmake --build $(b) -j 32 > $R/build2.log 2>&1
  note "build rc=$?"; grep -E "^\[[0-9]+/" $R/build2.log | tail -1 >> $S
  export KOKKOS_NUM_DEVICES=2 OMP_NUM_THREADS=2
  # miniAero's multi-rank cases are the longest: they start first, beside the rest
  (cd $(b) && timeout $((LIMIT - SECONDS)) ctest -j 6 --timeout 500 -R 'app[.]miniaero[.].*[.]np[23]$' \
     --output-on-failure > $R/ctest-mpi.log 2>&1) &
  sleep 2
  (cd $(b) && timeout $((LIMIT - 2 - SECONDS)) ctest -j 10 --timeout 480 -E 'app[.]miniaero[.].*[.]np[23]$' \
     --output-on-failure > $R/ctest.log 2>&1)
  note "ctest (all but miniAero's multi-rank cases) rc=$?"
  wait
  note "ctest (miniAero's multi-rank cases) done"
  grep -hE "tests passed|tests failed|Failed|Not Run|Timeout|\*\*\*" $R/ctest*.log | tail -30 >> $S
  grep -hE "Test +#.*(Passed|Failed)" $R/ctest*.log | sed 's/^ *[0-9]*\/[0-9]* //' > $R/done.txt ;;
rest) # $2: ctest regex of what the test call did not finish
  export KOKKOS_NUM_DEVICES=2 OMP_NUM_THREADS=2
  (cd $(b) && timeout $((LIMIT - SECONDS)) ctest -j 8 --timeout 500 -R "$2" --output-on-failure > $R/ctest-rest.log 2>&1)
  note "ctest rest rc=$?"; grep -hE "tests passed|tests failed|Test +#" $R/ctest-rest.log >> $S ;;
time)
  # on a fresh machine (the test call's machine went back): the one program first
  [ -x "$(b)/perf/umesh_dist_res_calc" ] || { timeout 300 ./setup.sh --bundle .bundle --backend cuda --jobs 32 \
     --targets umesh_dist_res_calc build > $R/build-dist.log 2>&1; note "build umesh_dist_res_calc rc=$?"; }
  dist e50M_np1 1 70 --nx 7000 --ny 3600 --steps 30 --no-check
  dist e50M_np2 2 200 --nx 7000 --ny 3600 --steps 30 --no-check --overlap off,on --transport host,nccl
  [ $((LIMIT - SECONDS)) -gt 150 ] && dist e196M_np1 1 100 --nx 14000 --ny 7000 --steps 20 --no-check --exec atomic
  [ $((LIMIT - SECONDS)) -gt 90 ] && dist e196M_np2 2 $((LIMIT - SECONDS - 5)) --nx 14000 --ny 7000 --steps 20 --no-check \
     --exec atomic --overlap off,on --transport host,nccl ;;
why) # the 2-GPU step's excess over half the 1-GPU step: each rank's median and edge count,
     # and one GPU on half the mesh (7000 x 1800), beside the whole mesh on one and two GPUs
  [ -x "$(b)/perf/umesh_dist_res_calc" ] || { timeout 300 ./setup.sh --bundle .bundle --backend cuda --jobs 32 \
     --targets umesh_dist_res_calc build > $R/build-dist.log 2>&1; note "build umesh_dist_res_calc rc=$?"; }
  dist half_np1 1 60 --nx 7000 --ny 1800 --steps 30 --no-check --exec atomic
  dist whole_np1 1 60 --nx 7000 --ny 3600 --steps 30 --no-check --exec atomic
  dist whole_np2 2 $((LIMIT - SECONDS - 5)) --nx 7000 --ny 3600 --steps 30 --no-check --exec atomic --transport nccl ;;
esac
(cd $OUT && tar czf r-$1.tgz r && rm -rf r)
