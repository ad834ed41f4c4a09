# ctest app.miniaero.one_rank_fails: a failure on one rank alone (its plan
# file corrupted under --plan-dir) ends the whole job with that rank's exit
# status and message, instead of leaving the other ranks waiting for it.
#   cmake -DMPIEXEC=... -DEXE=<umesh_miniaero> -DINPUT=<miniaero.inp> -DDIR=<folder> -P rank_failure.cmake
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
set(_run ${MPIEXEC} -np 3 --oversubscribe ${EXE} --input ${INPUT} --exec hierarchical
         --mesh 1,1,40 --steps 2 --plan-dir ${DIR})
execute_process(COMMAND ${_run} RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "the run that writes the plans exited ${_rc}")
endif()
file(GLOB _plans ${DIR}/*rank1of3*faces*.plan)
list(LENGTH _plans _n)
if(NOT _n EQUAL 1)
  message(FATAL_ERROR "expected one plan of rank 1's faces in ${DIR}, found ${_n}")
endif()
file(WRITE ${_plans} "corrupted")
string(TIMESTAMP _start "%s")
execute_process(COMMAND ${_run} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err
                TIMEOUT 120)
string(TIMESTAMP _end "%s")
math(EXPR _seconds "${_end} - ${_start}")
if(NOT _rc EQUAL 2 OR NOT _err MATCHES "rank 1: plan file '[^']*' is not a umesh plan file"
   OR NOT _err MATCHES "rank 1: the other ranks did not stop with it: ending the job")
  message(FATAL_ERROR "exit ${_rc} after ${_seconds} s:\n${_err}")
endif()
message(STATUS "exit 2 after ${_seconds} s, rank 1's message given")
