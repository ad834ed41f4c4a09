#!/usr/bin/env bash
# miniAero on the lent 2-GPU kind: loops through maps that reach no halo (each boundary face is
# on its cell's rank) exchange nothing, against the same tree with every map exchanged as before
# (perf/device/miniaero-halo-free.patch applied to a copy). umesh_miniaero built on the device for
# both from the offline bundle (carry .bundle); the device's OpenMPI and NCCL. Two calls on one
# warm machine:
#   build  both programs (CUDA, Kokkos 3.4.01 patched, NCCL), one after the other: the Kokkos
#          build folder is shared
#   run    3D_Sod_Serial on 2 ranks through NCCL against miniAero's reference (both layouts,
#          atomic and hierarchical); then Sod 128^3 (20 steps, atomic, SoA) on one GPU, and on
#          two through NCCL, with and without --timed-exchanges, the two programs alternating,
#          twice; then 256^3 (10 steps) on two, both programs, untimed
. perf/device/env.sh
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
base=/tmp/halo-base
prog() { echo "$(ls -d $HOME/.cache/umesh/build/umesh-*-cuda-cxx17 | while read d; do
  grep -qs "CMAKE_HOME_DIRECTORY:INTERNAL=$1\$" $d/CMakeCache.txt && echo $d; done | head -1)/apps/miniaero/umesh_miniaero"; }
case "${1:-}" in
build)
  nvidia-smi -L > $R/gpus.txt 2>&1
  git log -1 --format=%H > $R/tree.txt 2>/dev/null; git status --short >> $R/tree.txt 2>/dev/null
  rm -rf $base && mkdir -p $base
  tar --exclude=./.device --exclude=./.git -cf - . | tar -xf - -C $base
  (cd $base && patch -p1 < perf/device/miniaero-halo-free.patch) > $R/patch.log 2>&1
  note "base tree patched rc=$?"
  for t in $PWD $base; do
    (cd $t && timeout $((580 - SECONDS)) ./setup.sh --bundle $PWD/.bundle --backend cuda --jobs 32 \
       --targets umesh_miniaero build) > $R/build-$(basename $t).log 2>&1
    note "build $t rc=$?"
  done
  ls -la "$(prog $PWD)" "$(prog $base)" >> $R/summary.txt 2>&1 ;;
run)
  new=$(prog $PWD) old=$(prog $base)
  export OMP_NUM_THREADS=8 OMP_PROC_BIND=false NCCL_DEBUG=WARN
  two="mpirun -np 2 --bind-to none"
  d=tests/data/miniaero/3D_Sod_Serial
  timeout 150 $two $new --input $d/miniaero.inp --distributed --exec atomic,hierarchical --layout aos,soa --block 64 \
    --kokkos-num-devices=2 --transport nccl --compare $d/reference.txt > $R/sod-check.log 2>&1
  note "3D_Sod_Serial, 2 GPUs, NCCL rc=$?"
  inp=$PWD/perf/miniaero/sod128_o2_visc.inp
  common="--input $inp --mesh 128,128,128 --steps 20 --exec atomic --layout soa"
  OMP_NUM_THREADS=16 timeout 100 $new $common --kokkos-device-id=0 > $R/one.log 2>&1
  note "128^3 one GPU rc=$?"
  for round in 1 2; do
    for timed in "" --timed-exchanges; do
      for v in old new; do
        p=$old; [ $v = new ] && p=$new
        log=$R/two-$v${timed:+-timed}-$round.log
        timeout 100 $two $p $common --kokkos-num-devices=2 --transport nccl $timed > $log 2>&1
        note "128^3 two GPUs $v ${timed:-untimed} round $round rc=$?"
      done
    done
  done
  for v in old new; do
    p=$old; [ $v = new ] && p=$new
    timeout 150 $two $p --input $inp --mesh 256,256,256 --steps 10 --exec atomic --layout soa \
      --kokkos-num-devices=2 --transport nccl > $R/two256-$v.log 2>&1
    note "256^3 two GPUs $v rc=$?"
  done
  grep -H "matches\|DIFFERS\|steps in\|halo exchange [0-9]\|copy bandwidth" $R/*.log >> $R/summary.txt ;;
*)
  echo "usage: $0 build|run" >&2; exit 2 ;;
esac
finish r
