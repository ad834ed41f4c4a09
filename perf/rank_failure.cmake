# ctest perf.dist_res_calc.one_rank_fails: a rank of umesh_dist_res_calc that
# fails alone (UMESH_TEST_FAIL_RANK names it; it fails once the edges are
# dealt, while the other ranks go on into the partition's collectives) ends
# the whole job within seconds with its own exit status and message: the
# apps' failure policy (apps/common/ranks.hpp). Rank 1 hung the job; rank 0
# ended it with MPI's errors and exit status 15.
#   cmake -DMPIEXEC=... -DEXE=<umesh_dist_res_calc> -P rank_failure.cmake
foreach(_rank 1 0)
  string(TIMESTAMP _start "%s")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env UMESH_TEST_FAIL_RANK=${_rank}
                          ${MPIEXEC} -np 2 --oversubscribe ${EXE} --nx 40 --ny 30 --steps 2
                          --warmup 1 --exec atomic --partition slabs
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 90)
  string(TIMESTAMP _end "%s")
  math(EXPR _seconds "${_end} - ${_start}")
  if(NOT _rc EQUAL 2
     OR NOT _err MATCHES "umesh_dist_res_calc rank ${_rank}: failing here, alone, as UMESH_TEST_FAIL_RANK=${_rank} asks"
     OR NOT _err MATCHES "rank ${_rank}: the other ranks did not stop with it: ending the job"
     OR _seconds GREATER 60)
    message(FATAL_ERROR "rank ${_rank} failing: exit '${_rc}' after ${_seconds} s:\n${_out}\n${_err}")
  endif()
  message(STATUS "rank ${_rank} failing: exit 2 after ${_seconds} s, its message given")
endforeach()
