#!/usr/bin/env bash
# Session 2026-11-24d, call 6: Nsight Compute of the best shared-memory configuration of each of the five kernels (run 32 / run 29) beside its atomic kernel: speed of light, occupancy, warp states, L2 fabric, instructions.
set -u
export LD_LIBRARY_PATH=$PWD/.device/deps/lib/x86_64-linux-gnu:/usr/local/cuda/lib64
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R
B=$PWD/.device/bin
mkdir -p /work && ln -sfn $PWD /work/main 2>/dev/null
SECONDS=0
M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
prof() { local n=$1 k=$2; shift 2
  timeout 90 ncu --kernel-name-base demangled -k "regex:$k" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --metrics $M \
    $B/umesh_main --size large --numbering natural --reorder rcm --layout soa --repeats 3 --warmup 1 "$@" > $R/ncu-$n.txt 2>&1
  echo "ncu $n rc=$? ${SECONDS}s" | tee -a $R/summary.txt; }
prof res_calc-atomic 'ForFunctor.*ResCalc' --kernel res_calc --executor atomic
prof res_calc-hier-inc-sg-ga-t128-256 HierarchicalFunctor --kernel res_calc --executor hierarchical --staging inc --combine gather --writeback atomic --blocks 256 --team-sizes 128
prof face_flux-atomic 'ForFunctor.*FaceFlux' --kernel face_flux --executor atomic
prof face_flux-hier-all-sg-ga-p4-128 HierarchicalFunctor --kernel face_flux --executor hierarchical --staging all --combine gather --writeback atomic --blocks-per-team 4 --blocks 128
prof getacc-atomic 'ForFunctor.*GetaccScatter' --kernel getacc --executor atomic
prof getacc-hier-all-sa-ga-64 HierarchicalFunctor --kernel getacc --executor hierarchical --staging all --combine atomics --writeback atomic --blocks 64
prof integrate_stress-atomic 'ForFunctor.*IntegrateStress' --kernel integrate_stress --executor atomic
prof integrate_stress-hier-inc-sg-ga-p4-128 HierarchicalFunctor --kernel integrate_stress --executor hierarchical --staging inc --combine gather --writeback atomic --blocks-per-team 4 --blocks 128
prof volna-atomic 'ForFunctor.*VolnaSpaceDiscretization' --kernel volna --executor atomic
prof volna-hier-reads-p4-64 HierarchicalFunctor --kernel volna --executor hierarchical --staging reads --blocks-per-team 4 --blocks 64
for f in $R/ncu-*.txt; do echo "== $(basename $f)"; grep -E "^ +(lts|smsp|dram)__|Duration|Achieved Occupancy|Registers Per|Theoretical Occupancy|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued" $f | sort -u; done > $R/digest.txt
head -c 6000 $R/digest.txt
cd $OUT && tar czf r.tgz r && rm -rf r
