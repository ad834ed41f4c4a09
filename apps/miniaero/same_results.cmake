# Runs umesh_miniaero twice, once with each of two values of one option, on
# one host thread, and fails unless the two results files are identical byte
# for byte.
#   cmake -DEXE=umesh_miniaero -DINPUT=miniaero.inp -DOUT=DIR [-DOPTION=--graph
#         -DVALUES=on;off -DEXEC=colour] -P same_results.cmake
# By default the limiter's stencil and limiter over faces and over cells under
# atomics (one thread: their sums then come in a fixed order): the cell loops
# take the same minima of the same values as miniAero's face loops. With
# --graph on and off, an executor whose sums come in a fixed order on every
# backend (colour, gather): a recorded graph runs the same kernels.
if(NOT DEFINED OPTION)
  set(OPTION --stencil)
  set(VALUES faces cells)
endif()
if(NOT DEFINED EXEC)
  set(EXEC atomic)
endif()
list(GET VALUES 0 _first)
list(GET VALUES 1 _second)
set(ENV{OMP_NUM_THREADS} 1)
file(MAKE_DIRECTORY ${OUT})
foreach(_value ${_first} ${_second})
  execute_process(COMMAND ${EXE} --input ${INPUT} --exec ${EXEC} --layout soa --steps 20
                          ${OPTION} ${_value} --results ${OUT}/results.${_value}
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  message("${_out}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${OPTION} ${_value}: exit status ${_rc}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/results.${_first}
                        ${OUT}/results.${_second} RESULT_VARIABLE _differ)
if(_differ)
  message(FATAL_ERROR "the results with ${OPTION} ${_first} and ${_second} differ: "
                      "${OUT}/results.${_first}, ${OUT}/results.${_second}")
endif()
message("results with ${OPTION} ${_first} and ${_second} are identical")
