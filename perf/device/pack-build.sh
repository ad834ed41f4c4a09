#!/usr/bin/env bash
# Packs the CUDA build made on the development machine (./setup.sh --backend cuda build) for
# perf/device/h100-suite-prebuilt.sh: its programs, stripped, and its ctest files, with their
# absolute paths (the device's checkout and home are this machine's), in xz archives
# .device/suite1.tar.xz, suite2.tar.xz, ... of at most LIMIT_MB each (default 48: a device call
# carries 64 MiB in all), and the tree they were built from in the build folder's tree.txt.
# Refuses a build that is not up to date with the working tree (ninja -n has work left).
# Usage: perf/device/pack-build.sh [LIMIT_MB]
set -euo pipefail
cd "$(dirname "$0")/../.."
limit_mb=${1:-48}
[[ $limit_mb =~ ^[1-9][0-9]*$ ]] || { echo "pack-build: LIMIT_MB must be a positive whole number, not '$limit_mb'" >&2; exit 2; }
B="$HOME/.cache/umesh/build/umesh-$(printf '%s' "$PWD" | cksum | cut -d' ' -f1)-cuda-cxx17"
[[ -f $B/build.ninja ]] || { echo "pack-build: no CUDA build at $B (./setup.sh --backend cuda build)" >&2; exit 1; }
left=$(PATH=$PATH:/usr/local/cuda/bin ninja -C "$B" -n | grep -c '^\[' || true)
((left == 0)) || { echo "pack-build: $B is $left steps behind the working tree; build it first" >&2; exit 1; }
{ git log -1 --format='%H %s'; git status --short; date -u +'packed %FT%TZ'; } > "$B/tree.txt"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# Programs and ctest files, no objects, libraries or CMake internals.
(cd / && find "${B#/}" -path '*/CMakeFiles' -prune -o -type f \( -name CTestTestfile.cmake -o -name tree.txt \
  -o \( -perm -u+x -not -name '*.so*' -not -name '*.a' \) \) -print) > "$stage/list"
echo "pack-build: $(wc -l < "$stage/list") files from $B"
(cd / && tar cf - -T "$stage/list") | (cd "$stage" && mkdir root && tar xf - -C root)
find "$stage/root" -type f -perm -u+x -exec strip --strip-unneeded {} + 2>/dev/null || true
# Parts by first fit, largest first, on each program's own compressed size (a part's archive
# is about the sum of its members'); a part that still comes out over the limit is an error.
rm -f .device/suite*.tar.xz
mkdir -p .device
limit=$((limit_mb * 1048576))
(cd "$stage/root" && find . -type f -printf '%P\n') | while read -r f; do
  echo "$(xz -6 -T2 -c "$stage/root/$f" | wc -c) $f"
done | sort -rn > "$stage/sizes"
declare -a fill=() members=()
while read -r size f; do
  ((size < limit)) || { echo "pack-build: $f alone is $((size / 1048576)) MiB compressed, over $limit_mb" >&2; exit 1; }
  for ((i = 0; i <= ${#fill[@]}; ++i)); do
    if ((i == ${#fill[@]})); then fill+=(0); members+=(""); fi
    if ((fill[i] + size < limit)); then fill[i]=$((fill[i] + size)); members[i]+="$f"$'\n'; break; fi
  done
done < "$stage/sizes"
for i in "${!members[@]}"; do
  out=.device/suite$((i + 1)).tar.xz
  printf '%s' "${members[i]}" > "$stage/part"
  (cd "$stage/root" && tar cJf - -T "$stage/part") > "$out"
  mb=$(($(stat -c %s "$out") / 1048576))
  ((mb < limit_mb)) || { echo "pack-build: $out came out at $mb MiB, over $limit_mb" >&2; exit 1; }
  echo "pack-build: $out $mb MiB, $(wc -l < "$stage/part") files"
done
