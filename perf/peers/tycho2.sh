#!/usr/bin/env bash
# Tycho2 (github lanl/tycho2: S_N transport on tets, its (cell, angle) graph swept by
# Kokkos::WorkGraphPolicy) beside umesh's sweeps, on the same Gmsh meshes, quadrature and
# problem (Tycho2's manufactured hat, sigma_t 10, sigma_s 5, vacuum). Run in the repository root
# on the GPU machine (the device tool; carry .bundle, .peers/tycho2 and .peers/meshes), or on a
# host (BACKEND=host). Tycho2's code is fetched and carried, never committed: TYCHO2 names a
# checkout (default .peers/tycho2), copied into the work folder and given a fenced timer around
# its sweep launch ("Traverse Timer (sweep)") before it is built against the Kokkos umesh uses
# (perf/peers/tycho2/CMakeLists.txt). Branch cmake_kokkos holds Tycho2's working Kokkos port
# (device views, Transport::updateKokkos); branch Kokkos-Cuda, which the issue names, does not
# compile (Mat.hh and TychoMesh.hh have syntax errors there, and its sweep calls host code
# through host pointers from a KOKKOS_LAMBDA): the script says so and stops.
#   perf/peers/tycho2.sh [build|run|all]      (default all)
# Steps: build: umesh_sweep_bench and umesh_tycho2_tools (./setup.sh --targets), then Tycho2.
# run: for each mesh (MESHES, default .peers/meshes/cube_100000.msh and cube_700000.msh; a .xz
# beside one is unpacked; missing ones are made with gmsh where it exists) converted to Tycho2's
# parallel mesh, and each group count in GROUP_COUNTS (default "4 16") that fits Tycho2's memory
# (psi, its source and total source on the host, psi and source on the GPU, each cells x angles
# x 4 vertices x groups doubles): Tycho2 for ITERS source iterations (default 4: 3 sweeps, the
# median kept), umesh_sweep_bench on the same product set of order SN (default 8, 2 SN^2 = 128
# directions) with every executor; then, on the first mesh with 4 groups, both to convergence
# (TOL, default 1e-8) and their cell-average scalar fluxes compared (umesh_tycho2_tools compare:
# relative differences, and each against the manufactured solution). Tycho2's discretisation is
# linear discontinuous (4 unknowns a cell, a 4x4 solve per update), umesh's the step closure:
# updates per second count (cell, angle, group) triples for both, and the fluxes differ by the
# discretisation, not by rounding. Results: $OUT/tycho2.tgz (device tool) or ./tycho2_peer/:
# summary.csv, summary.txt, every log.
set -u
STEP=${1:-all}
BACKEND=${BACKEND:-cuda}
TYCHO2=${TYCHO2:-$PWD/.peers/tycho2}
MESHES=${MESHES:-"$PWD/.peers/meshes/cube_100000.msh $PWD/.peers/meshes/cube_700000.msh"}
GROUP_COUNTS=${GROUP_COUNTS:-"4 16"}
SN=${SN:-8}
ITERS=${ITERS:-4}
TOL=${TOL:-1e-8}
WORK=${WORK:-$HOME/.cache/umesh/tycho2-peer-$BACKEND}
if [[ -n "${OUT:-}" ]]; then
  . perf/device/env.sh
else
  R=$PWD/tycho2_peer
  mkdir -p "$R"
  SECONDS=0
  note() { echo "$* ${SECONDS}s" | tee -a "$R/summary.txt"; }
  finish() { :; }
fi
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8} OMP_PROC_BIND=false
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
KOKKOS=$HOME/.cache/umesh/kokkos-3.4.01-$BACKEND-cxx17
# setup.sh's build folder of this checkout.
bench_dir() { echo "$HOME/.cache/umesh/build/umesh-$(printf '%s' "$PWD" | cksum | cut -d' ' -f1)-$BACKEND-cxx17"; }

build() {
  local bundle=()
  [[ -d .bundle ]] && bundle=(--bundle "$PWD/.bundle")
  ./setup.sh "${bundle[@]}" --backend "$BACKEND" --targets umesh_sweep_bench,umesh_tycho2_tools \
    build >"$R/build-umesh.log" 2>&1 || { note "umesh build failed"; tail -5 "$R/build-umesh.log"; return 1; }
  if [[ ! -f "$TYCHO2/src/Main.cc" ]]; then
    note "no Tycho2 checkout at $TYCHO2 (src/Main.cc): fetch github lanl/tycho2 there"
    return 2
  fi
  if [[ ! -f "$TYCHO2/src/Transport.cc.hh" ]]; then
    note "$TYCHO2 is not Tycho2's Kokkos port (no src/Transport.cc.hh): branch Kokkos-Cuda" \
      "does not compile (Mat.hh, TychoMesh.hh) and sweeps through host pointers; check out" \
      "branch cmake_kokkos"
    return 2
  fi
  rm -rf "$WORK/src" && mkdir -p "$WORK" && cp -r "$TYCHO2/src" "$WORK/src"
  # The sweep alone, fenced: Tycho2 times its graph's setup and the whole traversal (with the
  # copies of psi to and from the GPU) but not the launch.
  sed -i 's|^\( *\)Kokkos::parallel_for(policy, lambda\(.*\));|\1Kokkos::fence(); Timer umeshSweep; umeshSweep.start();\n\1Kokkos::parallel_for(policy, lambda\2);\n\1Kokkos::fence(); umeshSweep.stop();\n\1if (Comm::rank() == 0) printf("      Traverse Timer (sweep):   %fs\\n", umeshSweep.wall_clock());|' \
    "$WORK/src/GraphTraverser.cc"
  grep -q "Traverse Timer (sweep)" "$WORK/src/GraphTraverser.cc" ||
    { note "could not add the sweep's timer to GraphTraverser.cc"; return 1; }
  local compiler=()
  [[ "$BACKEND" == cuda ]] && compiler=(-DCMAKE_CXX_COMPILER="$KOKKOS/bin/nvcc_wrapper")
  export PATH=$PATH:/usr/local/cuda/bin
  if ! { cmake -S perf/peers/tycho2 -B "$WORK/build" -DTYCHO2_SOURCE="$WORK/src" \
    -DCMAKE_PREFIX_PATH="$KOKKOS" -DCMAKE_BUILD_TYPE=Release "${compiler[@]}" \
    >"$R/build-tycho2.log" 2>&1 &&
    cmake --build "$WORK/build" -j "$(nproc)" >>"$R/build-tycho2.log" 2>&1; }; then
    note "Tycho2 build failed"
    grep -m5 error "$R/build-tycho2.log" | tee -a "$R/summary.txt"
    return 1
  fi
  note "built umesh_sweep_bench, umesh_tycho2_tools and Tycho2 ($(git -C "$TYCHO2" log -1 --format='%h %cd' 2>/dev/null))"
}

mesh_file() { # the .msh for $1, unpacked or made when missing
  local m=$1
  [[ -f "$m" ]] && { echo "$m"; return; }
  [[ -f "$m.xz" ]] && { xz -dk "$m.xz" && echo "$m"; return; }
  local n; n=$(basename "$m" .msh); n=${n#cube_}
  if command -v gmsh >/dev/null; then
    "$(bench_dir)/perf/umesh_sweep_bench" --tets "$n" --mesh-dir "$(dirname "$m")" \
      --groups 4 --executors levels --repeats 1 --max-iterations 1 --reference none \
      --csv "$R/mesh-$n.csv" >"$R/mesh-$n.log" 2>&1 && [[ -f "$m" ]] && { echo "$m"; return; }
  fi
  note "no mesh $m (nor $m.xz), and no gmsh to make it"
  return 1
}

deck() { # groups iterations tolerance output-flag
  printf 'snOrder %s\niterMax %s\nerrMax %s\nnGroups %s\nsigmaT 10.0\nsigmaS 5.0\nOutputFile %s\nOutputFilename %s\nuseKokkos true\n' \
    "$SN" "$2" "$3" "$1" "$4" tycho2_psi # (a name: its reader refuses paths)
}

fits() { # cells groups: whether Tycho2's arrays fit this machine
  local bytes=$(($1 * 2 * SN * SN * 4 * $2 * 8))
  local host_kb; host_kb=$(awk '/MemTotal/ {print $2}' /proc/meminfo)
  (( 4 * bytes / 1024 < host_kb * 85 / 100 )) || return 1
  if [[ "$BACKEND" == cuda ]]; then
    local gpu_mb; gpu_mb=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
    (( 3 * bytes / 1048576 < gpu_mb * 90 / 100 )) || return 1
  fi
}

tycho2_run() { # pmesh groups iterations tolerance output-flag label
  deck "$2" "$3" "$4" "$5" >"$WORK/deck-$6"
  (cd "$WORK" && mpirun -n 1 "$WORK/build/tycho2" "$1" "deck-$6") >"$R/tycho2-$6.log" 2>&1
}

run() {
  local b; b=$(bench_dir)
  local q=(--quadrature product --sn "$SN")
  echo "mesh,cells,groups,angles,tycho2_sweep_s,tycho2_updates_per_s,umesh_best,umesh_best_ms,umesh_updates_per_s,best_vs_tycho2,umesh_levels_ms,best_vs_levels" >"$R/summary.csv"
  local first=1 m msh cells g
  for m in $MESHES; do
    msh=$(mesh_file "$m") || continue
    "$b/perf/umesh_tycho2_tools" mesh "$msh" "$WORK/$(basename "$msh" .msh).pmesh" >"$R/convert.log" 2>&1 ||
      { note "conversion of $msh failed"; continue; }
    cells=$(awk '{print $2; exit}' "$R/convert.log")
    for g in $GROUP_COUNTS; do
      local label; label="$(basename "$msh" .msh)-g$g"
      local t2=nan t2u=nan
      if fits "$cells" "$g"; then
        tycho2_run "$WORK/$(basename "$msh" .msh).pmesh" "$g" "$ITERS" 1e-30 false "$label"
        t2=$(grep 'Traverse Timer (sweep)' "$R/tycho2-$label.log" | awk '{print $NF}' | tr -d s | sort -g |
          awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]; else print "nan"}')
        [[ "$t2" != nan ]] && t2u=$(awk -v c="$cells" -v g="$g" -v t="$t2" -v n="$SN" 'BEGIN {printf "%.4g", c*2*n*n*g/t}')
      else
        note "$label: Tycho2 skipped, its arrays do not fit this machine"
      fi
      OMP_PROC_BIND=spread "$b/perf/umesh_sweep_bench" --mesh "$msh" "${q[@]}" --groups "$g" \
        --executors levels,teams,flow,auto --repeats 5 --tolerance "$TOL" \
        --csv "$R/umesh-$label.csv" >"$R/umesh-$label.log" 2>&1 || note "$label: umesh_sweep_bench exit $?"
      awk -F, -v m="$label" -v c="$cells" -v g="$g" -v t2="$t2" -v t2u="$t2u" -v n="$SN" '
        NR > 1 && $19 == "ok" { if ($6 == "levels") lv = $10; if (best == "" || $10 < best) { best = $10; who = $6 ($7 != "" ? ":" $7 : "") } }
        END { u = c * 2 * n * n * g / (best / 1e3);
              printf "%s,%s,%s,%d,%s,%s,%s,%.4f,%.4g,%s,%.4f,%.3f\n", m, c, g, 2 * n * n, t2, t2u, who, best, u,
                     (t2u == "nan" ? "nan" : sprintf("%.3f", u / t2u)), lv, lv / best }' \
        "$R/umesh-$label.csv" >>"$R/summary.csv"
      note "$(tail -1 "$R/summary.csv")"
    done
    if [[ $first == 1 ]] && fits "$cells" 4; then # the fluxes, both converged
      first=0
      tycho2_run "$WORK/$(basename "$msh" .msh).pmesh" 4 500 "$TOL" true converged
      "$b/perf/umesh_sweep_bench" --mesh "$msh" "${q[@]}" --groups 4 --executors auto --repeats 1 \
        --tolerance "$TOL" --max-iterations 500 --flux-out "$WORK/umesh" \
        --csv "$R/umesh-converged.csv" >"$R/umesh-converged.log" 2>&1
      "$b/perf/umesh_tycho2_tools" compare "$msh" "$WORK/tycho2_psi.psi" \
        "$WORK/umesh_${cells}_g4.phi" "$SN" 100 >"$R/compare.log" 2>&1
      note "$(cat "$R/compare.log"); Tycho2: $(grep -E 'PBJ Iters|L2 Relative' "$R/tycho2-converged.log" | tr '\n' ' ')"
      rm -f "$WORK/tycho2_psi.psi"
    fi
  done
}

device=host
command -v nvidia-smi >/dev/null && device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
note "tycho2.sh $STEP on $device ($BACKEND)"
rc=0
[[ "$STEP" == build || "$STEP" == all ]] && { build || rc=$?; }
[[ $rc == 0 && ( "$STEP" == run || "$STEP" == all ) ]] && { run || rc=$?; }
finish tycho2
exit $rc
