#!/usr/bin/env bash
# Issue 43 in one call: the whole host suite linked to Debian's Kokkos 5.2.2 (OpenMP, C++20; its
# libraries need glibc >= 2.38, which the device machines have) and, beside it, against Kokkos
# 4.6.01 built from its source (tag 4.6.01 of kokkos/kokkos, `git archive` carried as
# .device/kokkos-4.6.01.tar.gz; never committed), both from the offline bundle (carry .bundle).
# Best on a machine of 32 cores or more (nvidia-h200-x2): the two build and test side by side.
#   perf/device/kokkos-compat.sh [JOBS_EACH]
. perf/device/env.sh
jobs=${1:-16}
export LD_LIBRARY_PATH=$HOME/.cache/umesh/deps/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
{
  git log -1 --format='%H %s'
  git status --short
  nproc
  ldd --version | head -1
  g++ --version | head -1
} >"$R/env.txt" 2>&1
suite() { # suite NAME SETUP-ARGS...: build and run the suite, its log and exit status under $R
  local name=$1 rc=0
  shift
  timeout $((580 - SECONDS)) ./setup.sh --bundle "$PWD/.bundle" --jobs "$jobs" "$@" test \
    >"$R/$name.log" 2>&1 || rc=$?
  echo "rc=$rc" >>"$R/$name.log"
}
suite k5 --kokkos 5.2.2 --cxx-std 20 &
k5=$!
# The bundle's .debs are unpacked once (a stamp); the second starts after that.
while ! ls "$HOME"/.cache/umesh/deps/.from-* >/dev/null 2>&1 && ((SECONDS < 60)); do sleep 1; done
k46=
if [[ -f .device/kokkos-4.6.01.tar.gz ]]; then
  tar xzf .device/kokkos-4.6.01.tar.gz -C /tmp
  suite k46 --kokkos-source /tmp/kokkos-4.6.01 &
  k46=$!
fi
wait $k5
note "Kokkos 5.2.2: $(grep -E 'tests passed|tests failed' "$R/k5.log") $(tail -1 "$R/k5.log")"
[[ -n $k46 ]] && wait $k46 &&
  note "Kokkos 4.6.01: $(grep -E 'tests passed|tests failed' "$R/k46.log") $(tail -1 "$R/k46.log")"
for f in k5 k46; do
  [[ -f $R/$f.log ]] || continue
  grep -E "Kokkos .*(5[.]2|4[.]6)|KOKKOS_VERSION|warning:" "$R/$f.log" | head -5 >>"$R/summary.txt"
  sed -n '/The following tests FAILED/,$p' "$R/$f.log" | head -20 >>"$R/summary.txt"
done
finish kokkos-compat
