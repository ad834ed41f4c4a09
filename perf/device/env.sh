# Sourced by the device scripts (perf/device/*.sh, and the copies kept beside results in
# perf/results/*/), which the device tool runs in the repository root with $OUT the folder whose
# files come back: the environment every such run needs, and its record.
#   $R        the folder the run writes into ($OUT/r)
#   note MSG  appends MSG and the seconds since the script began to $R/summary.txt (and prints it)
#   finish N  packs $R into $OUT/N.tgz (a call returns at most 8 files)
# METIS and Scotch come from .device/libs when programs were built elsewhere and carried; OpenMPI
# refuses root without the two ALLOW variables, and its single-copy shared memory needs ptrace
# rights the device's containers lack.
set -u
export PATH=$PATH:/usr/local/cuda/bin
export LD_LIBRARY_PATH=$PWD/.device/libs:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
R=$OUT/r
mkdir -p "$R"
SECONDS=0
note() { echo "$* ${SECONDS}s" | tee -a "$R/summary.txt"; }
finish() { (cd "$OUT" && tar czf "$1.tgz" r && rm -rf r); }
