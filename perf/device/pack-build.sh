#!/usr/bin/env bash
# Packs the CUDA build made on the development machine (./setup.sh --backend cuda build) for
# perf/device/h100-suite-prebuilt.sh: its programs, stripped, and its ctest files, with their
# absolute paths (the device's checkout and home are this machine's), in xz archives
# .device/suite1.tar.xz, suite2.tar.xz, ... of at most LIMIT_MB each (default 60: a device call
# carries 64 MiB in all), and the tree they were built from in the build folder's tree.txt.
# Refuses a build that is not up to date with the working tree (ninja -n has work left).
# Usage: perf/device/pack-build.sh [LIMIT_MB]
set -euo pipefail
cd "$(dirname "$0")/../.."
limit_mb=${1:-60}
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
# Greedy parts by stripped size (xz roughly halves these programs), each checked against the
# limit after compressing; a part over it is split again.
rm -f .device/suite*.tar.xz
mkdir -p .device
part=0
pack() { # files...
  part=$((part + 1))
  local out=.device/suite$part.tar.xz
  (cd "$stage/root" && tar cJf - "$@") > "$out"
  local mb=$(( $(stat -c %s "$out") / 1048576 ))
  if ((mb >= limit_mb)) && (($# > 1)); then
    rm -f "$out"; part=$((part - 1))
    local half=$(($# / 2))
    pack "${@:1:half}"
    pack "${@:half+1}"
  elif ((mb >= limit_mb)); then
    echo "pack-build: $1 alone is $mb MiB compressed, over $limit_mb" >&2; exit 1
  else
    echo "pack-build: $out $mb MiB, $# files"
  fi
}
files=(); bytes=0
while read -r f; do
  s=$(stat -c %s "$stage/root/$f")
  if ((bytes + s > 2 * limit_mb * 1048576 && ${#files[@]} > 0)); then
    pack "${files[@]}"; files=(); bytes=0
  fi
  files+=("$f"); bytes=$((bytes + s))
done < <(cd "$stage/root" && find . -type f -printf '%s %P\n' | sort -rn | cut -d' ' -f2-)
((${#files[@]} == 0)) || pack "${files[@]}"
