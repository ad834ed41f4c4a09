# Concurrent and interrupted runs into one result file keep complete results:
#   cmake -DEXE=/path/to/umesh_plan -DWORK=scratch-folder
#         [-DMINIAERO=/path/to/umesh_miniaero -DINPUT=miniaero.inp] -P concurrent.cmake
# 1. While one run writes results.csv, a second run into the same file refuses
#    at once (exit 2) instead of replacing rows under it; the first completes.
# 2. A run killed halfway (SIGKILL: no handler runs) leaves the previous
#    results.csv as it was; the next run is not blocked by what it left.
# 3. (MINIAERO) miniAero's --bench table, rewritten whole after each row, is
#    locked for the whole run: a second run into it refuses (two runs each
#    exited 0 and the table kept one run's rows), and the first run's rows
#    are all there.
# 4. An output named through /proc/self/cwd is replaced whole, not appended to.
# 5. A named pipe with no reader as the output is refused, not waited on.
# 6. A valid 250-byte output name is written.
# 7. A run stopped by SIGTERM leaves the previous results and no temporary.
# 8. The temporaries an interrupted run left (regular files of ours, older
#    than the run) are removed by the next run into the same file; a link
#    at such a name is left alone, and its target unchanged.
# 9. A named pipe with a reader (`cat pipe`) as the output gets every row:
#    the reader is not sent away by a probe that opens and closes the pipe.
cmake_minimum_required(VERSION 3.22)
foreach(_v EXE WORK)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "concurrent.cmake: -D${_v}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(_csv "${WORK}/results.csv")
# The lock a run holds while it writes results.csv (its temporary has a
# random name: .results.csv.tmp.XXXXXXXXXXXX).
set(_temp "${WORK}/.results.csv.lock")
file(WRITE "${_csv}" "previous results\n")
set(_long --elements 1000000 --methods builtin --kernel res_calc --csv ${_csv})
set(_tiny --elements 100 --methods none --kernel res_calc)
set(_short ${_tiny} --csv ${_csv})

# 1. The second run starts once the first holds its temporary.
execute_process(
  COMMAND sh -c "exec \"$0\" \"$@\" > long.log 2>&1" ${EXE} ${_long}
  COMMAND sh -c "while [ ! -e '${_temp}' ]; do sleep 0.02; done; exec \"$0\" \"$@\"" ${EXE} ${_short}
  WORKING_DIRECTORY "${WORK}" RESULTS_VARIABLE _rcs OUTPUT_VARIABLE _out ERROR_VARIABLE _err
  TIMEOUT 120)
file(READ "${WORK}/long.log" _long_log)
if(NOT "${_rcs}" STREQUAL "0;2")
  message(FATAL_ERROR "concurrent runs exited '${_rcs}', expected 0;2\n${_long_log}\n${_out}${_err}")
endif()
if(NOT "${_err}" MATCHES "another run is writing it now")
  message(FATAL_ERROR "the second run did not say why it refused: ${_out}${_err}")
endif()
file(READ "${_csv}" _results)
if(NOT _results MATCHES "^kernel,elements,")
  message(FATAL_ERROR "results.csv is not the first run's table: ${_results}")
endif()
file(GLOB _left "${WORK}/.results.csv.*")
if(_left)
  message(FATAL_ERROR "the first run left its lock or temporary behind: ${_left}")
endif()

# 2. Killed halfway: the previous results stay; the next run writes.
file(WRITE "${_csv}" "previous results\n")
execute_process(
  COMMAND sh -c "\"$0\" \"$@\" > killed.log 2>&1 & while [ ! -e '${_temp}' ]; do sleep 0.02; done; kill -KILL $!; wait $!; exit 0"
          ${EXE} ${_long}
  WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE _rc TIMEOUT 120)
file(READ "${_csv}" _results)
if(NOT _results STREQUAL "previous results\n")
  message(FATAL_ERROR "a killed run changed results.csv: ${_results}")
endif()
execute_process(COMMAND ${EXE} ${_short} WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE _rc
                OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 120)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "the run after a killed one failed (${_rc}): ${_out}${_err}")
endif()
file(READ "${_csv}" _results)
if(NOT _results MATCHES "^kernel,elements,")
  message(FATAL_ERROR "results.csv after the next run: ${_results}")
endif()

# 4. An output named through /proc/self/cwd is the regular file it resolves
#    to: replaced whole through the temporary, not appended to in place.
file(WRITE "${_csv}" "previous results\n")
execute_process(COMMAND ${EXE} ${_tiny} --csv /proc/self/cwd/results.csv
                WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE _rc OUTPUT_VARIABLE _out
                ERROR_VARIABLE _err TIMEOUT 120)
file(READ "${_csv}" _results)
if(NOT _rc EQUAL 0 OR NOT _results MATCHES "^kernel,elements," OR _results MATCHES "previous")
  message(FATAL_ERROR "--csv /proc/self/cwd/results.csv (${_rc}): ${_results}${_out}${_err}")
endif()

# 5. A named pipe nobody reads is refused at once (opening it to write
#    waited for a reader for ever).
execute_process(COMMAND mkfifo "${WORK}/pipe" RESULT_VARIABLE _rc)
if(_rc EQUAL 0)
  execute_process(COMMAND ${EXE} ${_tiny} --csv "${WORK}/pipe" WORKING_DIRECTORY "${WORK}"
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 60)
  if(NOT _rc EQUAL 2 OR NOT _err MATCHES "a named pipe with no reader")
    message(FATAL_ERROR "--csv naming a pipe with no reader (${_rc}): ${_out}${_err}")
  endif()
endif()

# 6. A valid name near the 255-byte limit is written (its temporary's name,
#    two dots and ".partial" longer, would pass the limit).
string(REPEAT "y" 250 _long_name)
execute_process(COMMAND ${EXE} ${_tiny} --csv "${WORK}/${_long_name}"
                WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE _rc OUTPUT_VARIABLE _out
                ERROR_VARIABLE _err TIMEOUT 120)
if(NOT _rc EQUAL 0 OR NOT EXISTS "${WORK}/${_long_name}")
  message(FATAL_ERROR "--csv with a 250-byte name (${_rc}): ${_out}${_err}")
endif()

# 7. Stopped by SIGTERM (or SIGINT, SIGHUP) halfway: the previous results
#    stay, and the run's temporary goes with it (it was left behind).
file(WRITE "${_csv}" "previous results\n")
execute_process(
  COMMAND sh -c "\"$0\" \"$@\" > stopped.log 2>&1 & while [ ! -e '${_temp}' ]; do sleep 0.02; done; sleep 0.2; kill -TERM $!; wait $!; exit 0"
          ${EXE} ${_long}
  WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE _rc TIMEOUT 120)
file(READ "${_csv}" _results)
if(NOT _results STREQUAL "previous results\n")
  message(FATAL_ERROR "a stopped run changed results.csv: ${_results}")
endif()
file(GLOB _left "${WORK}/.results.csv.*")
if(_left)
  message(FATAL_ERROR "a run stopped by SIGTERM left its lock or temporary behind: ${_left}")
endif()

# 8. What a SIGKILLed run leaves (its temporary, under this version's name
#    or an older one's) goes with the next run into the same file; a link
#    planted at such a name stays, and the file it names is not touched.
file(WRITE "${WORK}/victim" "not yours\n")
foreach(_name .results.csv.tmp.k1LLedRun0ab .results.csv.partial results.csv.tmp.Ab12Cd)
  file(WRITE "${WORK}/${_name}" "cut short\n")
endforeach()
file(CREATE_LINK "${WORK}/victim" "${WORK}/.results.csv.tmp.plantedL1nk" SYMBOLIC)
execute_process(COMMAND ${EXE} ${_short} WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE _rc
                OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 120)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "the run after interrupted ones failed (${_rc}): ${_out}${_err}")
endif()
foreach(_name .results.csv.tmp.k1LLedRun0ab .results.csv.partial results.csv.tmp.Ab12Cd)
  if(EXISTS "${WORK}/${_name}")
    message(FATAL_ERROR "the next run left an interrupted run's ${_name}")
  endif()
endforeach()
file(READ "${WORK}/victim" _victim)
if(NOT IS_SYMLINK "${WORK}/.results.csv.tmp.plantedL1nk" OR NOT _victim STREQUAL "not yours\n")
  message(FATAL_ERROR "a link planted at a temporary's name was followed or removed")
endif()
file(REMOVE "${WORK}/.results.csv.tmp.plantedL1nk" "${WORK}/victim")

# 9. A pipe with a reader: the run retries while the reader is not there
#    yet (it refuses at once then), and must not hang once it is.
execute_process(COMMAND mkfifo "${WORK}/read_pipe" RESULT_VARIABLE _rc)
if(_rc EQUAL 0)
  execute_process(
    COMMAND sh -c "cat read_pipe > got.csv & for i in $(seq 200); do \"$0\" \"$@\" > run.log 2>&1; rc=$?; [ $rc = 2 ] && grep -q 'no reader' run.log || break; sleep 0.05; done; wait; exit $rc"
            ${EXE} ${_tiny} --csv read_pipe
    WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE _rc TIMEOUT 60)
  file(READ "${WORK}/got.csv" _got)
  file(READ "${WORK}/run.log" _log)
  if(NOT _rc EQUAL 0 OR NOT _got MATCHES "^kernel,elements,.*\n[a-z_]+,[0-9]+,")
    message(FATAL_ERROR "--csv naming a pipe with a reader (${_rc}): read '${_got}'\n${_log}")
  endif()
endif()

# 3. miniAero's benchmark table: the second run starts between the first
#    one's rewrites (its lock file is there), and refuses.
if(DEFINED MINIAERO)
  set(_bench "${WORK}/bench.csv")
  set(_lock "${WORK}/.bench.csv.lock")
  set(_runs --input ${INPUT} --exec atomic --bench 20 --mesh 24,24,24 --reorder none,rcm,builtin
            --csv ${_bench})
  execute_process(
    COMMAND sh -c "exec \"$0\" \"$@\" > bench.log 2>&1" ${MINIAERO} ${_runs}
    COMMAND sh -c "while [ ! -e '${_lock}' ]; do sleep 0.02; done; exec \"$0\" \"$@\""
            ${MINIAERO} ${_runs}
    WORKING_DIRECTORY "${WORK}" RESULTS_VARIABLE _rcs OUTPUT_VARIABLE _out ERROR_VARIABLE _err
    TIMEOUT 120)
  file(READ "${WORK}/bench.log" _bench_log)
  if(NOT "${_rcs}" STREQUAL "0;2")
    message(FATAL_ERROR "concurrent --bench runs exited '${_rcs}', expected 0;2\n${_bench_log}\n${_out}${_err}")
  endif()
  if(NOT "${_err}" MATCHES "another run is writing it now")
    message(FATAL_ERROR "the second --bench run did not say why it refused: ${_out}${_err}")
  endif()
  file(STRINGS "${_bench}" _rows)
  list(LENGTH _rows _nrows)
  if(NOT _nrows EQUAL 4) # the header and the first run's three rows
    message(FATAL_ERROR "bench.csv has ${_nrows} lines, expected 4: ${_rows}")
  endif()
  if(EXISTS "${_lock}")
    message(FATAL_ERROR "the first --bench run left its lock behind")
  endif()
endif()
file(REMOVE_RECURSE "${WORK}")
message("concurrent and interrupted runs keep complete results")
