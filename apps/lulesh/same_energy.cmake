# Runs umesh_lulesh with --graph on and with --graph off and fails unless each
# run's final origin energy is the same to all 17 digits (its --csv), and the
# cycles too. For executors whose sums come in a fixed order on every backend
# (gather, colour): a recorded graph runs the same kernels on the same data.
#   cmake -DEXE=umesh_lulesh -DOUT=DIR "-DARGS=-s;8;--exec;gather,colour" -P same_energy.cmake
file(MAKE_DIRECTORY ${OUT})
set(_rows)
foreach(_graph on off)
  execute_process(COMMAND ${EXE} ${ARGS} --graph ${_graph} --csv ${OUT}/graph-${_graph}.csv
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  message("${_out}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "--graph ${_graph}: exit status ${_rc}")
  endif()
  # exec, layout, size, cycles, ..., origin_energy (columns 1-4 and 8).
  file(STRINGS ${OUT}/graph-${_graph}.csv _lines)
  list(REMOVE_AT _lines 0)
  set(_kept)
  foreach(_line ${_lines})
    string(REPLACE "," ";" _fields "${_line}")
    list(GET _fields 0 1 2 3 7 _key)
    string(REPLACE ";" " " _key "${_key}")
    list(APPEND _kept "${_key}")
  endforeach()
  list(APPEND _rows "${_kept}")
  set(_rows_${_graph} "${_kept}")
endforeach()
if(NOT _rows_on STREQUAL _rows_off OR _rows_on STREQUAL "")
  message(FATAL_ERROR "with and without the graph (exec layout size cycles energy):\n"
                      "  on:  ${_rows_on}\n  off: ${_rows_off}")
endif()
message("the same cycles and energies with and without the graph: ${_rows_on}")
