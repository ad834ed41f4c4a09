#!/usr/bin/env bash
# Issue 15 follow-up, on the lent 2-GPU kind: what one halo exchange between the two GPUs costs
# apart from umesh (perf/probes/nccl_sendrecv_probe.cpp, built here with the device's mpicxx,
# CUDA and NCCL; nothing carried), and which transport NCCL picks between the two GPUs in
# these containers (NCCL_DEBUG=INFO: P2P, SHM or NET lines), with what the machine offers it
# (peer-to-peer support, /dev/shm).
. perf/device/env.sh
mpicxx -O2 -std=c++17 -DOMPI_SKIP_MPICXX -I/usr/local/cuda/include perf/probes/nccl_sendrecv_probe.cpp \
  -L/usr/local/cuda/lib64 -lnccl -lcudart -o $R/nccl_probe > $R/build.log 2>&1
rc=$?
note "built rc=$rc"
if [ $rc != 0 ]; then cat $R/build.log; finish r; exit 1; fi
{ nvidia-smi -L; nvidia-smi topo -m; nvidia-smi topo -p2p r; df -h /dev/shm; mpirun --version | head -1; } > $R/env.txt 2>&1
NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P,SHM,NET timeout 200 mpirun -np 2 --bind-to none $R/nccl_probe 50 > $R/probe.log 2>&1
note "probe rc=$?"
grep -vE "NCCL INFO" $R/probe.log >> $R/summary.txt
grep -E "NCCL INFO.*(via|Using network|P2P|SHM|Channel 00)" $R/probe.log | sort | uniq -c | head -20 >> $R/summary.txt
rm -f $R/nccl_probe
finish r
