# One mesh in three formats gives umesh_main the same results: MESH (a Gmsh
# file; with GMSH and GEO, the mesh gmsh makes of GEO) is converted to
# Exodus II and CGNS (umesh_mesh_convert), and umesh_main runs on each with
# one host thread (every executor then deterministic). What it derives from
# the mesh must be the same line for line: its mesh's description (the file's
# name left out), each configuration's max_rel_err against the serial
# reference (the executors' results, to the last bit), and the hierarchical
# plans' metrics (times left out).
#   cmake -DMAIN=umesh_main -DCONVERT=umesh_mesh_convert -DOUT=dir
#         (-DMESH=file.msh | -DGMSH=gmsh -DGEO=file.geo) -P mesh_formats.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(_msh ${OUT}/mesh.msh)
if(GEO)
  execute_process(COMMAND ${GMSH} -3 -format msh41 ${GEO} -o ${_msh} RESULT_VARIABLE _rc
                  OUTPUT_QUIET ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "gmsh failed on ${GEO}: ${_err}")
  endif()
else()
  configure_file(${MESH} ${_msh} COPYONLY)
endif()
set(_reference)
foreach(_format msh exo cgns)
  set(_file ${OUT}/mesh.${_format})
  if(NOT _format STREQUAL "msh")
    execute_process(COMMAND ${CONVERT} ${_msh} ${_file} RESULT_VARIABLE _rc OUTPUT_VARIABLE _o
                    ERROR_VARIABLE _o)
    message("${_o}")
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "umesh_mesh_convert ${_msh} ${_file} failed (exit status ${_rc})")
    endif()
  endif()
  execute_process(COMMAND ${MAIN} --mesh ${_file} --executor serial,atomic,gather,colour,hierarchical
                          --reorder none,rcm --layout soa --repeats 1 --warmup 1
                          --csv ${OUT}/${_format}/results.csv
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _o ERROR_VARIABLE _e)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "umesh_main --mesh ${_file} failed (exit status ${_rc}):\n${_o}${_e}")
  endif()
  # What must match: description lines, results without times, plans without times.
  string(REGEX MATCHALL "[a-z_]+/mesh: [^\n]*" _described "${_o}")
  string(REPLACE "${_file}" "FILE" _described "${_described}")
  string(REGEX REPLACE " \\[mesh [0-9.]+ s\\]" "" _described "${_described}")
  file(STRINGS ${OUT}/${_format}/results.csv _rows)
  set(_results)
  foreach(_row ${_rows})
    string(REPLACE "," ";" _f "${_row}")
    list(GET _f 0 1 2 3 4 9 _kept)
    list(APPEND _results "${_kept}")
  endforeach()
  set(_plans)
  if(EXISTS ${OUT}/${_format}/results_plans.csv)
    file(STRINGS ${OUT}/${_format}/results_plans.csv _rows)
    foreach(_row ${_rows})
      string(REPLACE "," ";" _f "${_row}")
      list(SUBLIST _f 0 10 _kept) # (up to the two times)
      string(REPLACE ";" "," _kept "${_kept}")
      list(APPEND _plans "${_kept}")
    endforeach()
  endif()
  set(_seen "mesh: ${_described}\nresults: ${_results}\nplans: ${_plans}")
  list(LENGTH _results _n)
  message("${_format}: ${_described}; ${_n} result rows")
  if(_format STREQUAL "msh")
    set(_reference "${_seen}")
  elseif(NOT _seen STREQUAL _reference)
    message(FATAL_ERROR "umesh_main's results on ${_file} differ from those on ${_msh}:\n"
                        "--- msh\n${_reference}\n--- ${_format}\n${_seen}")
  endif()
endforeach()
message("umesh_main: the same results on the Gmsh, Exodus II and CGNS files")
