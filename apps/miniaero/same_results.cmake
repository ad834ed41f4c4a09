# Runs umesh_miniaero twice, with the limiter's stencil and limiter over faces
# and over cells, on one host thread (atomics then add in a fixed order), and
# fails unless the two results files are identical byte for byte: the cell
# loops take the same minima of the same values as miniAero's face loops.
#   cmake -DEXE=umesh_miniaero -DINPUT=miniaero.inp -DOUT=DIR -P same_results.cmake
set(ENV{OMP_NUM_THREADS} 1)
file(MAKE_DIRECTORY ${OUT})
foreach(_stencil faces cells)
  execute_process(COMMAND ${EXE} --input ${INPUT} --exec atomic --layout soa --steps 20
                          --stencil ${_stencil} --results ${OUT}/results.${_stencil}
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  message("${_out}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "--stencil ${_stencil}: exit status ${_rc}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/results.faces ${OUT}/results.cells
                RESULT_VARIABLE _differ)
if(_differ)
  message(FATAL_ERROR "the results over faces and over cells differ: ${OUT}/results.faces, ${OUT}/results.cells")
endif()
message("results over faces and over cells are identical")
