#!/usr/bin/env bash
# umesh bootstrap: installs what is missing, provides Kokkos when none is
# installed, builds umesh outside the source tree and runs the main job or the
# tests. Run `./setup.sh --help` for the commands and options.
set -euo pipefail

UMESH_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KOKKOS_VERSION=3.4.01
TRILINOS_DEB_VERSION=13.2.0-4
TRILINOS_TOP=Trilinos-trilinos-release-13-2-0
KOKKOS_PATCH="$UMESH_SRC/cmake/bootstrap/kokkos-3.4.01-cuda13.patch"

usage() {
  cat <<'EOF'
usage: ./setup.sh [options] <command> [-- args for the main job]

commands
  main           set everything up, build, run the main job (perf/umesh_main,
                 then the miniAero app's benchmark rows, then a picture of
                 its ramp flow, umesh-results/miniaero_ramp_density.png): a
                 quick run, the winners timed and everything else validated
                 (a few minutes on 2 cores); `main -- --full` times the full
                 sweep
  test           set everything up, build, run the whole test suite (ctest)
  build          set everything up and build, run nothing
  cuda-check     build the library, tests and main job with the CUDA Kokkos
                 (compile only: works without a GPU)
  install        build and install the library only (umesh, and umesh::dist
                 where MPI is found) into --prefix DIR (default
                 CACHE/install/umesh-...); prints umesh's and Kokkos' prefixes.
                 find_package(umesh) then needs umesh's prefix only
  install-check  install, then build and run apps/quickstart from a folder of
                 its own against the installed package, with umesh's prefix
                 only, and check find_package(umesh COMPONENTS dist)
  fuzz [SECONDS] fuzz the file readers (Gmsh, plan, tuning, miniaero.inp,
                 Exodus II and CGNS where their libraries are installed) with
                 libFuzzer under ASan+UBSan, SECONDS per reader (default 60);
                 installs Debian's clang when missing (fuzz/run.sh)
  bundle DIR     write an offline bundle (patched Kokkos source, METIS, Scotch,
                 PT-Scotch and GoogleTest .debs) into DIR for machines without
                 network

options
  --backend host|cuda  Kokkos flavour to build against (default: host =
                       Serial+OpenMP; cuda = Serial+OpenMP+CUDA)
  --bundle DIR         take every dependency from an offline bundle, no network
  --cache DIR          where Kokkos, dependencies and builds are cached
                       (default: $UMESH_CACHE or ~/.cache/umesh)
  --cxx-std 17|20      C++ standard (default 17)
  --jobs N             parallel build jobs (default: number of cores)
  --no-partitioners    build without METIS, Scotch and PT-Scotch (reorderings gps and
                       metis, and --partition metis and ptscotch, then report that
                       they are unavailable); its own build folder
  --kokkos 5.2.2       compile against Debian's Kokkos 5.2.2 (the binary packages
                       libkokkos-dev and libkokkos5.2 of Debian unstable, fetched
                       into the cache and unpacked, not installed: OpenMP, C++20,
                       so --cxx-std 20; host only) instead of the bootstrap's
                       3.4.01; its own build folder. Its libraries need glibc
                       >= 2.38 to link and run: on older systems (Debian 12) only
                       `build` with --targets of libraries and object files works
  --kokkos-source DIR  build and use the Kokkos source tree in DIR (4.x, 5.x)
                       instead of the bootstrap's 3.4.01; its own Kokkos and umesh
                       build folders. DIR is not changed: with --backend cuda, a
                       version that has a patch in cmake/bootstrap
                       (kokkos-<version>-cuda13.patch) is copied and patched first
  --sanitize           build with AddressSanitizer and UndefinedBehaviorSanitizer
                       (host; its own build folder); `test` then fails on any report
  --prefix DIR         install: where umesh goes (default CACHE/install/umesh-...)
  --targets A,B        build only these CMake targets (e.g. umesh_main,test_hierarchical),
                       or object files by their path in the build folder: a GPU run
                       that needs two programs need not compile twenty

environment
  Kokkos_ROOT          use this installed Kokkos (>= 3.4) instead of building one
  UMESH_CUDA_ARCH      Kokkos arch option for --backend cuda (default HOPPER90)
  UMESH_BUILD_TYPE     CMake build type (default Release)
  UMESH_WARNINGS_AS_ERRORS=ON  compile umesh with -Werror (host builds; CI sets it)
  UMESH_CTEST_ARGS     more ctest arguments for `test`, e.g. "-E app.miniaero" to
                       leave out the miniAero regression cases
  UMESH_CCACHE=OFF     do not compile host builds through ccache (used when
                       installed, cache in CACHE/ccache: a rebuild of unchanged
                       files, even from a fresh clone at the same path, is quick)
  UMESH_CMAKE_ARGS     more CMake arguments for umesh's configure, e.g.
                       "-DUMESH_APP_EXECUTORS=Atomic;WarpCombine -DUMESH_APP_LAYOUTS=SoA"
                       (apps built for those executors and layouts only)
EOF
}

log() { printf '[umesh setup] %s\n' "$*" >&2; }
die() { printf '[umesh setup] error: %s\n' "$*" >&2; exit 1; }

BACKEND="${UMESH_BACKEND:-host}"
BUNDLE="${UMESH_BUNDLE:-}"
CACHE="${UMESH_CACHE:-$HOME/.cache/umesh}"
CXX_STD=17
NO_PARTITIONERS=0
SANITIZE=0
FUZZ_SECONDS=60
TARGETS=""
PREFIX=""
LIBRARY_ONLY=0 # install, install-check: a build folder of the library alone
KOKKOS_SOURCE=""
KOKKOS_DEBIAN="" # --kokkos 5.2.2: Debian's binary packages
JOBS="$(nproc 2>/dev/null || echo 2)"
COMMAND=""
BUNDLE_OUT=""
EXTRA_ARGS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --backend) BACKEND="$2"; shift 2 ;;
    --bundle) BUNDLE="$2"; shift 2 ;;
    --cache) CACHE="$2"; shift 2 ;;
    --cxx-std) CXX_STD="$2"; shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --no-partitioners) NO_PARTITIONERS=1; shift ;;
    --sanitize) SANITIZE=1; shift ;;
    --targets) TARGETS="$2"; shift 2 ;;
    --prefix) PREFIX="${2:-}"; [[ -n "$PREFIX" ]] || die "--prefix needs a folder"; shift 2 ;;
    --kokkos-source) KOKKOS_SOURCE="$2"; shift 2 ;;
    --kokkos) case "${2:-}" in
                3.4.01) ;;
                5.2.2) KOKKOS_DEBIAN=5.2.2 ;;
                *) die "--kokkos takes 3.4.01 (built from Debian's trilinos source, the default) or 5.2.2 (Debian's binary packages), not '${2:-}'" ;;
              esac
              shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; EXTRA_ARGS=("$@"); break ;;
    main|test|build|cuda-check|install|install-check) COMMAND="$1"; shift ;;
    fuzz) COMMAND=fuzz; shift
          if [[ "${1:-}" =~ ^[0-9]+$ ]]; then FUZZ_SECONDS="$1"; shift; fi ;;
    bundle) COMMAND=bundle; BUNDLE_OUT="${2:-}"; [[ -n "$BUNDLE_OUT" ]] || die "bundle needs a folder: ./setup.sh bundle DIR"; shift 2 ;;
    *) usage >&2; die "unknown argument '$1'" ;;
  esac
done
[[ -n "$COMMAND" ]] || { usage >&2; die "no command given"; }
if [[ -n "$PREFIX" ]]; then
  [[ "$COMMAND" == install || "$COMMAND" == install-check ]] || die "--prefix is for install and install-check"
  mkdir -p "$PREFIX" && PREFIX="$(cd "$PREFIX" && pwd)" || die "--prefix: cannot make folder '$PREFIX'"
fi
[[ "$COMMAND" == cuda-check ]] && BACKEND=cuda
case "$BACKEND" in host|cuda) ;; *) die "--backend must be host or cuda, not '$BACKEND'" ;; esac
case "$CXX_STD" in 17|20) ;; *) die "--cxx-std must be 17 or 20, not '$CXX_STD'" ;; esac
[[ $SANITIZE == 0 || "$BACKEND" == host ]] || die "--sanitize builds the host backend only"
if [[ -n "$KOKKOS_DEBIAN" ]]; then
  [[ "$BACKEND" == host ]] || die "--kokkos $KOKKOS_DEBIAN: Debian's packages are built for OpenMP only; CUDA needs a Kokkos 5 source, which Debian does not serve"
  [[ "$CXX_STD" == 20 ]] || die "--kokkos $KOKKOS_DEBIAN needs --cxx-std 20 (Kokkos 5 requires C++20)"
  [[ -z "$KOKKOS_SOURCE" && -z "${Kokkos_ROOT:-}" ]] || die "--kokkos $KOKKOS_DEBIAN cannot be combined with --kokkos-source or Kokkos_ROOT"
fi
[[ "$FUZZ_SECONDS" -ge 1 ]] 2>/dev/null || die "fuzz: SECONDS must be at least 1, not '$FUZZ_SECONDS'"
[[ -z "$BUNDLE" ]] || BUNDLE="$(cd "$BUNDLE" 2>/dev/null && pwd)" || die "bundle folder '$UMESH_BUNDLE$BUNDLE' does not exist"
if [[ -n "$KOKKOS_SOURCE" ]]; then
  KOKKOS_SOURCE="$(cd "$KOKKOS_SOURCE" 2>/dev/null && pwd)" || die "--kokkos-source: no folder '$KOKKOS_SOURCE'"
  [[ -f "$KOKKOS_SOURCE/CMakeLists.txt" && -d "$KOKKOS_SOURCE/core" ]] || die "--kokkos-source $KOKKOS_SOURCE: not a Kokkos source tree (no CMakeLists.txt and core/)"
fi
mkdir -p "$CACHE"
CACHE="$(cd "$CACHE" && pwd)"
CUDA_ARCH="${UMESH_CUDA_ARCH:-HOPPER90}"
BUILD_TYPE="${UMESH_BUILD_TYPE:-Release}"
DEPS_PREFIX="$CACHE/deps"          # .debs from a bundle are unpacked here
CMAKE_PREFIXES=()

have_cmd() { command -v "$1" >/dev/null 2>&1; }
is_root() { [[ "$(id -u)" == 0 ]]; }

# ---------------------------------------------------------------- packages --
# Debian packages the build uses; METIS and Scotch are optional for the
# library but installed so that every feature is built.
# The mesh and result formats (umesh::io): Exodus II and CGNS, and VTK for
# .vtu/.pvtu results, its Python reader checking them and the picture. On the
# 2-core machine (loaded), from an empty download cache: libexodusii-dev 9 s
# download + 52 s install (with NetCDF and HDF5), libcgns-dev 5 + 11 s after
# it, libvtk9-dev 17 + 235 s (199 packages, 604 MB). paraview (699 MB more)
# is not installed: the picture is drawn with matplotlib from VTK's reader.
APT_PACKAGES=(cmake ninja-build g++ make patch xz-utils ca-certificates
              libgtest-dev libbenchmark-dev libmetis-dev libscotch-dev libptscotch-dev
              libcli11-dev gmsh
              python3-matplotlib libopenmpi-dev openmpi-bin
              libexodusii-dev libcgns-dev libvtk9-dev)
# Installed along when setup runs as root; without them the build still works.
OPTIONAL_PACKAGES=(ccache)
# libptscotch-7.0 links libmpi.so.40 and the bundle carries no MPI: at the
# machine it is unpacked on, the OpenMPI 4.x or 5.x already installed (the
# same soname, e.g. Ubuntu 24.04's 4.1.6) serves it; where no libmpi.so.40
# is found, configure leaves PT-Scotch out (see ptscotch_usable).
BUNDLE_DEBS=(libmetis5 libmetis-dev libscotch-7.0 libscotch-dev libptscotch-7.0 libptscotch-dev
             libgtest-dev libcli11-dev)

missing_packages() {
  local p missing=()
  for p in "${APT_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  echo "${missing[@]:-}"
}

ensure_packages() {
  if [[ -n "$BUNDLE" ]]; then
    # Offline: only a compiler and CMake must already be there.
    have_cmd cmake || die "cmake not found (the bundle does not carry it)"
    have_cmd g++ || have_cmd c++ || die "no C++ compiler found"
    # (Named by the .debs too: a bundle written again with more, PT-Scotch's
    # say, is unpacked again.)
    local stamp
    stamp="$DEPS_PREFIX/.from-$(basename "$BUNDLE")-$(ls "$BUNDLE"/debs | cksum | cut -d' ' -f1)"
    if [[ ! -f "$stamp" ]]; then
      log "unpacking the bundle's .debs into $DEPS_PREFIX"
      mkdir -p "$DEPS_PREFIX"
      local deb
      for deb in "$BUNDLE"/debs/*.deb; do dpkg-deb -x "$deb" "$DEPS_PREFIX" 2>/dev/null || dpkg -x "$deb" "$DEPS_PREFIX"; done
      touch "$stamp"
    fi
    CMAKE_PREFIXES+=("$DEPS_PREFIX/usr")
    # libscotch.so needs libscotcherr.so, which the loader finds only here.
    export LD_LIBRARY_PATH="$DEPS_PREFIX/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    return
  fi
  have_cmd dpkg-query || { log "not a Debian system: install cmake, a C++17 compiler, GoogleTest, METIS and Scotch yourself"; return; }
  local missing
  if is_root; then
    missing="$(missing_packages "${OPTIONAL_PACKAGES[@]}")"
  else
    missing="$(missing_packages)"
  fi
  [[ -z "$missing" ]] && return
  if ! is_root; then
    die "missing Debian packages: $missing
  install them as root:  apt-get update && apt-get install -y $missing"
  fi
  log "installing Debian packages: $missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# ------------------------------------------------------------------ kokkos --
APT_PRIVATE="$CACHE/apt"
apt_private() {
  # A private deb-src list so the system's apt sources stay untouched.
  mkdir -p "$APT_PRIVATE/lists/partial"
  if [[ ! -f "$APT_PRIVATE/sources.list" ]]; then
    local uri="http://deb.debian.org/debian"
    if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
      uri="$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources)"
    fi
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri bookworm main" >"$APT_PRIVATE/sources.list"
  fi
  apt-get -o Dir::Etc::SourceList="$APT_PRIVATE/sources.list" -o Dir::Etc::SourceParts=/dev/null \
          -o Dir::State::Lists="$APT_PRIVATE/lists" "$@"
}

# Prints the path of a folder holding the unpatched Kokkos 3.4.01 source.
kokkos_source_tarball() {
  local tarball="$CACHE/downloads/kokkos-$KOKKOS_VERSION.tar.gz"
  if [[ -n "$BUNDLE" ]]; then
    [[ -f "$BUNDLE/kokkos-$KOKKOS_VERSION.tar.gz" ]] || die "bundle $BUNDLE has no kokkos-$KOKKOS_VERSION.tar.gz"
    echo "$BUNDLE/kokkos-$KOKKOS_VERSION.tar.gz"; return
  fi
  if [[ ! -f "$tarball" ]]; then
    mkdir -p "$CACHE/downloads"
    local orig="$CACHE/downloads/trilinos_13.2.0.orig.tar.gz"
    if [[ ! -f "$orig" ]]; then
      log "downloading Kokkos $KOKKOS_VERSION inside Debian's trilinos $TRILINOS_DEB_VERSION source package (166 MB)"
      apt_private update -qq >/dev/null || die "apt-get update for the trilinos source failed"
      (cd "$CACHE/downloads" && apt_private source -qq --download-only "trilinos=$TRILINOS_DEB_VERSION" >/dev/null 2>&1) \
        || die "could not download the trilinos source package (needs Debian's registry; offline? use --bundle)"
    fi
    log "extracting packages/kokkos"
    local tmp; tmp="$(mktemp -d "$CACHE/downloads/extract.XXXX")"
    tar -xzf "$orig" -C "$tmp" "$TRILINOS_TOP/packages/kokkos"
    mv "$tmp/$TRILINOS_TOP/packages/kokkos" "$tmp/kokkos-$KOKKOS_VERSION"
    tar -czf "$tarball.part" -C "$tmp" "kokkos-$KOKKOS_VERSION"
    mv "$tarball.part" "$tarball"
    rm -rf "$tmp"
  fi
  echo "$tarball"
}

# The Kokkos a build uses: the bootstrap's patched 3.4.01, or the source tree
# given with --kokkos-source (its version from its CMakeLists.txt; for CUDA,
# patched in a copy where cmake/bootstrap has a patch for that version).
kokkos_source_version() {
  local major minor patch
  major=$(sed -n 's/^set(Kokkos_VERSION_MAJOR \([0-9]*\)).*/\1/p' "$KOKKOS_SOURCE/CMakeLists.txt")
  minor=$(sed -n 's/^set(Kokkos_VERSION_MINOR \([0-9]*\)).*/\1/p' "$KOKKOS_SOURCE/CMakeLists.txt")
  patch=$(sed -n 's/^set(Kokkos_VERSION_PATCH \([0-9]*\)).*/\1/p' "$KOKKOS_SOURCE/CMakeLists.txt")
  [[ -n "$major" && -n "$minor" && -n "$patch" ]] ||
    die "--kokkos-source $KOKKOS_SOURCE: no Kokkos_VERSION_MAJOR/MINOR/PATCH in its CMakeLists.txt (not a Kokkos source tree?)"
  printf "%s.%s.%02d\n" "$major" "$minor" "$((10#$patch))" # as Kokkos names releases: 4.6.01
}
# nvcc_wrapper of Kokkos 4 compiles for sm_70 unless told otherwise, which
# CUDA 13 no longer accepts: the compiler checks of CMake then fail.
cuda_arch_flags() {
  [[ "$BACKEND" == cuda && -n "$KOKKOS_SOURCE" ]] || return 0
  local sm; sm="$(printf '%s' "$CUDA_ARCH" | sed -n 's/^[A-Z]*\([0-9][0-9]*\)$/\1/p')"
  [[ -n "$sm" ]] && echo "-DCMAKE_CXX_FLAGS=-arch=sm_$sm"
}
kokkos_tag() { [[ -n "$KOKKOS_SOURCE" ]] && echo "src-$(kokkos_source_version)" || echo "$KOKKOS_VERSION"; }

# Debian unstable's Kokkos binary packages (--kokkos 5.2.2), fetched through
# a private sources list like the trilinos source (or from a bundle's
# kokkos-debian/), unpacked into CACHE/kokkos-<version>-debian. Two fixes
# make its CMake package usable from there: include paths written as
# /usr/include/kokkos, and two static libraries it names but does not ship
# (libkokkosalgorithms.a, libkokkossimd.a: empty archives stand in; umesh
# uses neither).
KOKKOS_DEBIAN_DEBS=(libkokkos-dev libkokkos5.2)
kokkos_debian_debs() { # downloads the .debs into $1
  local to="$1" list="$CACHE/apt-sid"
  mkdir -p "$list/lists/partial" "$to"
  local uri="http://deb.debian.org/debian"
  if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
    uri="$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources)"
  fi
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri sid main" >"$list/sources.list"
  local apt=(apt-get -o Dir::Etc::SourceList="$list/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o Dir::State::Lists="$list/lists")
  log "downloading Debian unstable's ${KOKKOS_DEBIAN_DEBS[*]} ($KOKKOS_DEBIAN)"
  "${apt[@]}" update -qq >/dev/null 2>&1 || die "apt-get update for Debian unstable failed (needs Debian's registry; offline? use --bundle)"
  local want=() d
  for d in "${KOKKOS_DEBIAN_DEBS[@]}"; do want+=("$d=$KOKKOS_DEBIAN-*"); done
  (cd "$to" && "${apt[@]}" download "${want[@]}" >/dev/null 2>&1) ||
    die "Debian unstable no longer serves ${KOKKOS_DEBIAN_DEBS[*]} $KOKKOS_DEBIAN (apt-cache policy libkokkos-dev shows what it has)"
}
ensure_kokkos_debian() {
  local prefix="$CACHE/kokkos-$KOKKOS_DEBIAN-debian"
  if [[ ! -f "$prefix/.complete" ]]; then
    local debs="$CACHE/downloads/kokkos-$KOKKOS_DEBIAN-debian"
    if [[ -n "$BUNDLE" ]]; then
      debs="$BUNDLE/kokkos-debian"
      [[ -d "$debs" ]] || die "bundle $BUNDLE has no kokkos-debian/ (write the bundle again)"
    elif ! compgen -G "$debs/libkokkos-dev_$KOKKOS_DEBIAN-*.deb" >/dev/null; then
      kokkos_debian_debs "$debs"
    fi
    rm -rf "$prefix"; mkdir -p "$prefix"
    local deb
    for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$prefix" || die "cannot unpack $deb"; done
    local cm="$prefix/usr/lib/x86_64-linux-gnu/cmake/Kokkos"
    [[ -f "$cm/KokkosTargets.cmake" ]] || die "$debs: no Kokkos CMake package in the .debs"
    sed -i 's|"/usr/include/kokkos"|"${_IMPORT_PREFIX}/include/kokkos"|g' "$cm/KokkosTargets.cmake"
    local lib
    for lib in libkokkosalgorithms.a libkokkossimd.a; do
      [[ -f "$prefix/usr/lib/x86_64-linux-gnu/$lib" ]] || ar rc "$prefix/usr/lib/x86_64-linux-gnu/$lib"
    done
    touch "$prefix/.complete"
  fi
  local glibc; glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
  if [[ -n "$glibc" ]] && [[ "$(printf '%s\n2.38\n' "$glibc" | sort -V | head -1)" != 2.38 ]]; then
    [[ "$COMMAND" == build && -n "$TARGETS" ]] ||
      die "--kokkos $KOKKOS_DEBIAN: Debian's libraries need glibc >= 2.38 to link and run, this system has $glibc: only 'build' with --targets of libraries and object files works here"
    log "glibc $glibc < 2.38: compiling against Kokkos $KOKKOS_DEBIAN only (its libraries cannot be linked here)"
  fi
  CMAKE_PREFIXES+=("$prefix/usr")
}
kokkos_prefix() { echo "$CACHE/kokkos-$(kokkos_tag)-$BACKEND-cxx$CXX_STD"; }

# Builds and installs the Kokkos source tree $1 into $2; $3 is the stamp a
# later run compares to reuse it.
build_kokkos() {
  local src="$1" prefix="$2" stamp="$3" version="$4"
  local build="$CACHE/build/kokkos-$(kokkos_tag)-$BACKEND-cxx$CXX_STD"
  local args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_STANDARD="$CXX_STD"
              -DCMAKE_CXX_EXTENSIONS=OFF -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON
              -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF)
  if [[ "$BACKEND" == cuda ]]; then
    have_cmd nvcc || [[ -x /usr/local/cuda/bin/nvcc ]] || die "--backend cuda needs nvcc (looked in PATH and /usr/local/cuda/bin)"
    export PATH="$PATH:/usr/local/cuda/bin"
    args+=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON "-DKokkos_ARCH_$CUDA_ARCH=ON"
           -DCMAKE_CXX_COMPILER="$src/bin/nvcc_wrapper" $(cuda_arch_flags))
  fi
  log "building Kokkos $version ($BACKEND, C++$CXX_STD) into $prefix"
  rm -rf "$build"
  local t0=$SECONDS logs="$CACHE/kokkos-$(kokkos_tag)-$BACKEND"
  cmake -S "$src" -B "$build" "${args[@]}" $(generator_args) >"$logs-configure.log" 2>&1 \
    || { tail -30 "$logs-configure.log" >&2; die "Kokkos configure failed (log: $logs-configure.log)"; }
  cmake --build "$build" -j "$JOBS" >"$logs-build.log" 2>&1 \
    || { tail -30 "$logs-build.log" >&2; die "Kokkos build failed (log: $logs-build.log)"; }
  rm -rf "$prefix"
  cmake --install "$build" >/dev/null
  echo "$stamp" >"$prefix/.complete"
  log "Kokkos built in $((SECONDS - t0)) s"
}

ensure_kokkos() {
  if [[ -n "$KOKKOS_DEBIAN" ]]; then
    ensure_kokkos_debian; return
  fi
  if [[ -n "${Kokkos_ROOT:-}" ]]; then
    log "using the Kokkos in Kokkos_ROOT=$Kokkos_ROOT"
    CMAKE_PREFIXES+=("$Kokkos_ROOT"); return
  fi
  local prefix; prefix="$(kokkos_prefix)"
  if [[ -n "$KOKKOS_SOURCE" ]]; then
    local version; version="$(kokkos_source_version)"
    # Rebuilt when the tree's files (names, sizes, times) or its patch change.
    local patch="$UMESH_SRC/cmake/bootstrap/kokkos-$version-cuda13.patch"
    [[ "$BACKEND" == cuda && -f "$patch" ]] || patch=""
    local stamp; stamp="$( (find "$KOKKOS_SOURCE" -type f -not -path '*/.git/*' -printf '%P %s %T@\n' | sort; [[ -z "$patch" ]] || cat "$patch") | cksum | cut -d' ' -f1)"
    if [[ "$(cat "$prefix/.complete" 2>/dev/null)" != "$stamp" ]]; then
      local src="$KOKKOS_SOURCE"
      if [[ -n "$patch" ]]; then
        # CUDA 13 changed runtime signatures this release predates: patch a copy.
        src="$CACHE/src/kokkos-src-$version-patched"
        rm -rf "$src"; mkdir -p "$CACHE/src"
        cp -r "$KOKKOS_SOURCE" "$src"
        log "applying $(basename "$patch") to a copy of $KOKKOS_SOURCE"
        patch -s -p1 -d "$src" <"$patch" || die "$(basename "$patch") does not apply to $KOKKOS_SOURCE"
      fi
      build_kokkos "$src" "$prefix" "$stamp" "$version"
    fi
    CMAKE_PREFIXES+=("$prefix"); return
  fi
  # Stamps hold the patch's checksum: a changed patch rebuilds Kokkos.
  local patch_sum; patch_sum="$(cksum <"$KOKKOS_PATCH" | cut -d' ' -f1)"
  if [[ "$(cat "$prefix/.complete" 2>/dev/null)" == "$patch_sum" ]]; then CMAKE_PREFIXES+=("$prefix"); return; fi
  local tarball; tarball="$(kokkos_source_tarball)"
  local src="$CACHE/src/kokkos-$KOKKOS_VERSION-patched"
  if [[ "$(cat "$src/.patched" 2>/dev/null)" != "$patch_sum" ]]; then
    rm -rf "$src"; mkdir -p "$CACHE/src"
    tar -xzf "$tarball" -C "$CACHE/src"
    mv "$CACHE/src/kokkos-$KOKKOS_VERSION" "$src"
    log "applying $(basename "$KOKKOS_PATCH")"
    patch -s -p1 -d "$src" <"$KOKKOS_PATCH"
    echo "$patch_sum" >"$src/.patched"
  fi
  build_kokkos "$src" "$prefix" "$patch_sum" "$KOKKOS_VERSION (patched)"
  CMAKE_PREFIXES+=("$prefix")
}

generator_args() { have_cmd ninja && echo "-G Ninja" || true; }

# ------------------------------------------------------------------- umesh --
umesh_build_dir() {
  # One build folder per source checkout and flavour, outside the source tree.
  local key; key="$(printf '%s' "$UMESH_SRC" | cksum | cut -d' ' -f1)"
  echo "$CACHE/build/umesh-$key-$BACKEND-cxx$CXX_STD$([[ $LIBRARY_ONLY == 1 ]] && echo -lib)$([[ $NO_PARTITIONERS == 1 ]] && echo -nopart)$([[ $SANITIZE == 1 ]] && echo -sanitize)$([[ -n $KOKKOS_SOURCE ]] && echo "-kokkos$(kokkos_source_version)")$([[ -n $KOKKOS_DEBIAN ]] && echo "-kokkos$KOKKOS_DEBIAN-debian")"
}

install_prefix() { echo "$CACHE/install/umesh-$BACKEND-cxx$CXX_STD$([[ -n $KOKKOS_SOURCE ]] && echo "-kokkos$(kokkos_source_version)")"; }

# Whether the bundle's PT-Scotch can be used here: its .debs unpacked, and
# the libmpi.so.40 its library links (Debian's OpenMPI) served by this
# machine's MPI. Says why not when not: --partition ptscotch is then refused.
ptscotch_usable() {
  local lib="$DEPS_PREFIX/usr/lib/x86_64-linux-gnu/libptscotch.so"
  if [[ ! -e "$lib" ]]; then
    log "PT-Scotch: not in the bundle ($lib missing): built without it (--partition ptscotch refused)"
    return 1
  fi
  if ! have_cmd ldd; then
    log "PT-Scotch: no ldd to check that this machine's MPI serves the bundle's libptscotch: built without it (--partition ptscotch refused)"
    return 1
  fi
  local missing
  missing="$(LD_LIBRARY_PATH="$DEPS_PREFIX/usr/lib/x86_64-linux-gnu:$(mpi_library_dirs)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
             ldd "$lib" 2>/dev/null | awk '/not found/{print $1}' | tr '\n' ' ' || true)"
  if [[ -n "$missing" ]]; then
    log "PT-Scotch: the bundle's libptscotch (Debian's, built for OpenMPI) needs ${missing% }, which this machine's MPI does not provide: built without it (--partition ptscotch refused)"
    return 1
  fi
  log "PT-Scotch: the bundle's libptscotch runs on this machine's MPI: --partition ptscotch built"
  return 0
}
# Library folders of the MPI on PATH (mpicxx --showme, OpenMPI), ':'-joined.
mpi_library_dirs() {
  have_cmd mpicxx || return 0
  mpicxx --showme:libdirs 2>/dev/null | tr ' ' ':' || true
}

configure_and_build() {
  local build; build="$(umesh_build_dir)"
  local prefix_path; prefix_path="$(IFS=';'; echo "${CMAKE_PREFIXES[*]}")"
  local args=(-DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DCMAKE_CXX_STANDARD="$CXX_STD" -DCMAKE_PREFIX_PATH="$prefix_path"
              -DUMESH_ENABLE_TESTS=ON -DUMESH_ENABLE_APPS=ON -DUMESH_ENABLE_PERF=ON
              -DCMAKE_INSTALL_PREFIX="$(install_prefix)" "$@")
  if [[ "$BACKEND" == cuda ]]; then
    export PATH="$PATH:/usr/local/cuda/bin"
    local wrapper="${Kokkos_ROOT:-$(kokkos_prefix)}/bin/nvcc_wrapper"
    [[ -x "$wrapper" ]] || die "no nvcc_wrapper at $wrapper"
    args+=(-DCMAKE_CXX_COMPILER="$wrapper" $(cuda_arch_flags))
  fi
  # ccache for host builds (nvcc_wrapper is a script ccache does not know).
  # Paths under the source tree are hashed relative to the build folder, so
  # a fresh clone at the same path hits what the last one compiled.
  if [[ "$BACKEND" == host && "${UMESH_CCACHE:-ON}" != OFF ]] && have_cmd ccache; then
    export CCACHE_DIR="${CCACHE_DIR:-$CACHE/ccache}" CCACHE_BASEDIR="$UMESH_SRC" CCACHE_NOHASHDIR=true
    export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
    args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  else
    args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=)
  fi
  # Warnings fail the host build in CI (nvcc's own warnings are not ours to fix).
  if [[ "${UMESH_WARNINGS_AS_ERRORS:-OFF}" == ON && "$BACKEND" == host ]]; then
    args+=(-DUMESH_WARNINGS_AS_ERRORS=ON)
  fi
  if [[ $LIBRARY_ONLY == 1 ]]; then # (no GoogleTest, CLI11 or apps to configure)
    args+=(-DUMESH_ENABLE_TESTS=OFF -DUMESH_ENABLE_APPS=OFF -DUMESH_ENABLE_PERF=OFF)
  fi
  if [[ $NO_PARTITIONERS == 1 ]]; then
    args+=(-DUMESH_ENABLE_METIS=OFF -DUMESH_ENABLE_SCOTCH=OFF -DUMESH_ENABLE_PTSCOTCH=OFF)
  fi
  # On Debian the packages above include OpenMPI: umesh::dist and its
  # multi-rank tests are built, never silently left out.
  if [[ "$BACKEND" == host && -z "$BUNDLE" ]] && have_cmd dpkg-query; then
    args+=(-DUMESH_REQUIRE_MPI=ON)
  fi
  if [[ $SANITIZE == 1 ]]; then
    # umesh's code instrumented (Kokkos, installed apart, is not); any report
    # is fatal, so a test that triggers one fails.
    # -O0 (the executor suite's OpenMP/AoS part: 105 s of compile time
    # against 236 s at -O1, g++ 12 on 2 cores; it then ran 6.4 s instead of
    # 2.5 s), and -g1 (line tables: reports still name file and line) instead
    # of build type Debug's -g, whose debug information of the executor
    # templates took the assembler minutes per test file.
    local san="-O0 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    args+=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_CXX_FLAGS="$san"
           -DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_SHARED_LINKER_FLAGS="$san")
  fi
  if [[ -n "$BUNDLE" ]]; then
    args+=(-DMETIS_ROOT="$DEPS_PREFIX/usr" -DSCOTCH_ROOT="$DEPS_PREFIX/usr")
    # (ON said again: an OFF cached by an earlier configure of this folder
    # would outlive a bundle that now serves PT-Scotch.)
    if [[ $NO_PARTITIONERS == 1 ]]; then
      :
    elif ptscotch_usable; then
      args+=(-DPTSCOTCH_ROOT="$DEPS_PREFIX/usr" -DUMESH_ENABLE_PTSCOTCH=ON)
    else
      args+=(-DUMESH_ENABLE_PTSCOTCH=OFF)
    fi
  fi
  # The mesh and result formats where their libraries are found (a bundle
  # carries none of them: its builds leave them out and say so); said again
  # so that an ON cached by an earlier configure does not outlive its call.
  args+=(-DUMESH_ENABLE_EXODUS=AUTO -DUMESH_ENABLE_CGNS=AUTO -DUMESH_ENABLE_VTK=AUTO)
  # Every executor, layout and test space unless UMESH_CMAKE_ARGS says
  # otherwise (a restriction cached by an earlier configure must not outlive
  # its call).
  # (The executors: the registry's, include/umesh/exec_registry.hpp; the tuner is CMake's Auto.)
  local executors
  executors="$(sed -n 's/^  X(\([A-Za-z]*\), [a-z]*, \([a-z]*\)).*/\1 \2/p' "$UMESH_SRC/include/umesh/exec_registry.hpp" |
               awk '{print ($2 == "tuner" ? "Auto" : $1)}' | paste -sd';')"
  [[ -n "$executors" ]] || die "read no executors from include/umesh/exec_registry.hpp"
  args+=("-DUMESH_APP_EXECUTORS=$executors" "-DUMESH_APP_LAYOUTS=AoS;SoA" "-DUMESH_TEST_SPACES=")
  if [[ -n "${UMESH_CMAKE_ARGS:-}" ]]; then
    local extra
    read -r -a extra <<<"$UMESH_CMAKE_ARGS"
    args+=("${extra[@]}")
  fi
  mkdir -p "$(dirname "$build")"
  log "configuring umesh in $build"
  cmake -S "$UMESH_SRC" -B "$build" "${args[@]}" $(generator_args) >"$build.configure.log" 2>&1 \
    || { mkdir -p "$build"; tail -40 "$build.configure.log" >&2; die "umesh configure failed (log: $build.configure.log)"; }
  grep -E "^-- umesh:" "$build.configure.log" >&2 || true
  log "building umesh ($BACKEND, C++$CXX_STD, $JOBS jobs)"
  local targets=()
  [[ -z "$TARGETS" ]] || targets=(--target ${TARGETS//,/ })
  cmake --build "$build" -j "$JOBS" "${targets[@]}" >&2 || die "umesh build failed"
  echo "$build"
}

write_bundle() {
  local out="$BUNDLE_OUT"
  mkdir -p "$out/debs"
  out="$(cd "$out" && pwd)"
  local tarball; tarball="$(kokkos_source_tarball)"
  cp "$tarball" "$out/"
  KOKKOS_DEBIAN=5.2.2 kokkos_debian_debs "$out/kokkos-debian"
  (cd "$out/debs" && apt-get download "${BUNDLE_DEBS[@]}" >/dev/null 2>&1) \
    || { is_root || true; (cd "$out/debs" && apt-get update -qq && apt-get download "${BUNDLE_DEBS[@]}" >/dev/null) \
         || die "could not download ${BUNDLE_DEBS[*]}"; }
  cat >"$out/README.txt" <<EOF
umesh offline bundle, written $(date -u +%Y-%m-%d) by ./setup.sh bundle
  kokkos-$KOKKOS_VERSION.tar.gz  Kokkos $KOKKOS_VERSION as in Debian's trilinos $TRILINOS_DEB_VERSION source
                                 (packages/kokkos); umesh applies cmake/bootstrap/$(basename "$KOKKOS_PATCH")
  debs/                          ${BUNDLE_DEBS[*]} from Debian bookworm
  kokkos-debian/                 ${KOKKOS_DEBIAN_DEBS[*]} 5.2.2 from Debian unstable (--kokkos 5.2.2)
use: ./setup.sh --bundle $out [--backend cuda] test|main
EOF
  log "bundle written to $out ($(du -sh "$out" | cut -f1))"
}

# -------------------------------------------------------------------- main --
case "$COMMAND" in
  bundle) write_bundle; exit 0 ;;
  fuzz)
    # Only clang is needed (the readers are Kokkos-free).
    if ! have_cmd clang++ && have_cmd dpkg-query; then
      is_root || die "clang++ not found; install it as root:  apt-get update && apt-get install -y clang"
      log "installing Debian's clang (libFuzzer)"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq && apt-get install -y -qq --no-install-recommends clang >/dev/null
    fi
    exec "$UMESH_SRC/fuzz/run.sh" "$FUZZ_SECONDS" ;;
esac

# install: the library alone (its own build folder, targets umesh and umesh_io,
# both installed; umesh::dist is header-only) into PREFIX; says where umesh and
# Kokkos are (stderr, as every log line) and echoes umesh's prefix for the
# caller.
install_library() {
  LIBRARY_ONLY=1
  TARGETS=umesh,umesh_io
  local build prefix kokkos_dir kokkos_prefix start=$SECONDS
  build="$(configure_and_build)"
  prefix="${PREFIX:-$(install_prefix)}"
  cmake --install "$build" --prefix "$prefix" >/dev/null || die "umesh install into $prefix failed"
  kokkos_dir="$(sed -n 's/^Kokkos_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")"
  kokkos_prefix="${kokkos_dir%/cmake/Kokkos}"
  kokkos_prefix="${kokkos_prefix%/lib*}"
  log "installed in $((SECONDS - start)) s"
  {
    echo "umesh installed in: $prefix"
    echo "Kokkos (as umesh was built against it): $kokkos_prefix"
    echo "use: find_package(umesh REQUIRED) with -DCMAKE_PREFIX_PATH=$prefix (umesh's prefix alone:"
    echo "     Kokkos, METIS and Scotch are found where umesh's build found them);"
    echo "     find_package(umesh REQUIRED COMPONENTS dist) for umesh::dist (MPI)"
  } >&2
  echo "$prefix"
}

# install-check: apps/quickstart copied to a folder of its own (outside the
# source tree and the build folders), built and run against the package in
# $1 with umesh's prefix only; then find_package(umesh COMPONENTS dist)
# configured, and umesh without MPI (CMAKE_DISABLE_FIND_PACKAGE_MPI) found
# while its dist component is not.
install_check() {
  local prefix="$1" ex="$CACHE/install-check"
  rm -rf "$ex"
  mkdir -p "$ex/quickstart" "$ex/dist"
  cp "$UMESH_SRC/apps/quickstart/CMakeLists.txt" "$UMESH_SRC/apps/quickstart/quickstart.cpp" \
     "$ex/quickstart/"
  # Only umesh's prefix: no Kokkos_ROOT or prefix path from the environment.
  local cm=(env -u Kokkos_ROOT -u Kokkos_DIR -u CMAKE_PREFIX_PATH cmake)
  "${cm[@]}" -S "$ex/quickstart" -B "$ex/quickstart/build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE="$BUILD_TYPE" $(generator_args) >"$ex/quickstart.log" 2>&1 \
    || { tail -20 "$ex/quickstart.log" >&2; die "quickstart configure against the installed umesh failed"; }
  cmake --build "$ex/quickstart/build" -j "$JOBS" >>"$ex/quickstart.log" 2>&1 \
    || { tail -20 "$ex/quickstart.log" >&2; die "quickstart build against the installed umesh failed"; }
  "$ex/quickstart/build/umesh_quickstart"
  local config
  config="$(find "$prefix" -name umeshConfig.cmake -path '*/cmake/umesh/*' | head -1)"
  if [[ -e "$(dirname "$config")/umeshDistTargets.cmake" ]]; then
    cat >"$ex/dist/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(umesh_dist_check LANGUAGES CXX)
find_package(umesh REQUIRED COMPONENTS dist)
file(WRITE ${CMAKE_BINARY_DIR}/main.cpp "int main() { return 0; }\n")
add_executable(dist_check ${CMAKE_BINARY_DIR}/main.cpp)
target_link_libraries(dist_check PRIVATE umesh::dist)
CMAKE
    "${cm[@]}" -S "$ex/dist" -B "$ex/dist/build" -DCMAKE_PREFIX_PATH="$prefix" \
      >"$ex/dist.log" 2>&1 || { tail -20 "$ex/dist.log" >&2; die "find_package(umesh COMPONENTS dist) failed"; }
    "${cm[@]}" -S "$ex/dist" -B "$ex/dist/no-mpi" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >"$ex/no-mpi.log" 2>&1 \
      && die "find_package(umesh COMPONENTS dist) succeeded without MPI"
    grep -q "needs MPI" "$ex/no-mpi.log" || { tail -20 "$ex/no-mpi.log" >&2; die "find_package(umesh COMPONENTS dist) without MPI failed without saying why"; }
    "${cm[@]}" -S "$ex/quickstart" -B "$ex/quickstart/no-mpi" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON $(generator_args) >>"$ex/no-mpi.log" 2>&1 \
      || { tail -20 "$ex/no-mpi.log" >&2; die "find_package(umesh) without MPI failed: only the dist component needs it"; }
    log "install check: find_package(umesh COMPONENTS dist) configured; without MPI umesh is found and its dist component is not"
  fi
  log "install check passed: apps/quickstart built and ran in $ex against $prefix (umesh's prefix only)"
}

ensure_packages
ensure_kokkos
case "$COMMAND" in
  build) configure_and_build >/dev/null ;;
  main)
    build="$(configure_and_build)"
    # Results land where the user is: ./umesh-results (or the main job's --out).
    size=small out=umesh-results csv="" full=0
    for ((i = 0; i < ${#EXTRA_ARGS[@]}; ++i)); do
      case "${EXTRA_ARGS[i]}" in
        --full) full=1 ;;
        --size) size="${EXTRA_ARGS[i + 1]:-small}" ;;
        --size=*) size="${EXTRA_ARGS[i]#--size=}" ;;
        --out) out="${EXTRA_ARGS[i + 1]:-umesh-results}" ;;
        --csv) csv="${EXTRA_ARGS[i + 1]:-}" ;;
      esac
    done
    # Its output is kept for the closing lines: the headline comes last.
    main_log="$(mktemp "${TMPDIR:-/tmp}/umesh-main.XXXXXX")"
    trap 'rm -f "$main_log" "$main_log.miniaero" "$main_log.ramp" "$main_log.render"' EXIT
    if [[ $full == 1 ]]; then
      log "running the main job: the full sweep, every configuration timed (results in $out/)"
    else
      log "running the main job: a quick run, the winners timed and every other configuration validated (-- --full times them all; results in $out/)"
    fi
    "$build/perf/umesh_main" --out "$out" "${EXTRA_ARGS[@]}" | tee "$main_log"
    # Its miniAero row set: the solver's loops on a Sod problem sized like the
    # main job (--size tiny/small/large: 16^3/48^3/128^3); the quick run times
    # umesh's atomics (SoA, after RCM: the fastest on the H100) against
    # miniAero's own atomics, --full every variant, layout and ordering.
    case "$size" in tiny) n=16 ;; large) n=128 ;; *) n=48 ;; esac
    if [[ $full == 1 ]]; then
      ma_args=(--exec all --layout aos,soa --reorder none,rcm)
    else
      ma_args=(--exec atomic,miniaero-atomic --layout soa --reorder rcm)
    fi
    log "running the main job's miniAero rows (Sod ${n}^3, second order, viscous: ${ma_args[*]})"
    "$build/apps/miniaero/umesh_miniaero" \
      --input "$UMESH_SRC/perf/miniaero/sod128_o2_visc.inp" --mesh "$n,$n,$n" "${ma_args[@]}" \
      --block 128 --bench 5 --csv "$out/miniaero_bench.csv" | tee "$main_log.miniaero"
    py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
    # A picture of a flow: miniAero's ramp (its regression case), the last
    # state written as VTK (--output vtu) and its density drawn beside the
    # charts (perf/render_field: VTK's reader, matplotlib's renderer).
    picture="$out/miniaero_ramp_density.png"
    log "running miniAero's ramp for a picture of its flow (--output vtu)"
    if ! "$build/apps/miniaero/umesh_miniaero" --input "$UMESH_SRC/tests/data/miniaero/Ramp_Serial/miniaero.inp" \
         --exec atomic --layout soa --output vtu --output-dir "$out/miniaero-ramp" >"$main_log.ramp" 2>&1; then
      picture="not drawn: $(grep -m1 -E 'umesh_miniaero' "$main_log.ramp" || tail -1 "$main_log.ramp")"
    elif ! "$py" "$UMESH_SRC/perf/render_field" "$out/miniaero-ramp/miniaero.pvd" \
           --title "miniAero's ramp" --out "$picture" >"$main_log.render" 2>&1; then
      picture="not drawn: $(tail -1 "$main_log.render")"
    fi
    # Charts next to the tables (Debian's python3-matplotlib).
    csv="${csv:-$out/results.csv}"
    charts="not drawn (no matplotlib for $py: apt-get install python3-matplotlib)"
    if "$py" -c "import matplotlib" 2>/dev/null; then
      log "charts:"
      "$py" "$UMESH_SRC/perf/plot" "$csv" "$out/miniaero_bench.csv"
      charts="the PNGs listed above, next to the tables"
    fi
    # The closing lines: the main job's headline again, then where things are.
    echo
    sed -n '/^best per kernel/,/^tables: /p' "$main_log" | sed '$d'
    echo "miniAero (Sod ${n}^3; x: speedup over miniAero's own atomics, face flux and RK stage):"
    grep -E '^  [a-z]+[.](aos|soa)[.][a-z]+ +face_flux' "$main_log.miniaero" || true
    log "tables: $(cd "$(dirname "$csv")" && pwd)/$(basename "$csv") (plan metrics beside it), $(cd "$out" && pwd)/miniaero_bench.csv"
    log "charts: $charts"
    log "picture: $picture (the fields: $out/miniaero-ramp/miniaero.pvd, for ParaView)"
    ;;
  test)
    build="$(configure_and_build)"
    log "running the tests"
    # shellcheck disable=SC2086
    # Sanitized builds: reports abort the test; leaks are not checked (Kokkos
    # and the OpenMP runtime keep memory until exit by design).
    (cd "$build" && OMP_PROC_BIND=false ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" \
       UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
       ctest --output-on-failure -j "$JOBS" ${UMESH_CTEST_ARGS:-})
    ;;
  cuda-check)
    configure_and_build >/dev/null
    log "CUDA compile check passed: the targets asked for built with nvcc (not run)"
    ;;
  install)
    install_library >/dev/null
    ;;
  install-check)
    prefix="$(install_library)"
    install_check "$prefix"
    ;;
esac
