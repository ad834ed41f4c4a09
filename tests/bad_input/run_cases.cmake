# The bad-input corpus: runs every case of CASES whose program is PROGRAM and
# checks that each one fails as it should.
#   cmake -DCASES=cases.txt -DPROGRAM=umesh_main -DEXE=/path/to/umesh_main
#         -DDATA=tests/data -DWORK=scratch-folder -P run_cases.cmake
#
# A case is one line: NAME RC REGEX PROGRAM ARGS..., words as a shell splits
# them ("quoted words" keep their spaces). It passes when the program exits
# with status RC (a number: a signal or a timeout never passes), its output
# matches REGEX, and it left no new file behind and changed no file that was
# there: a failed run must not leave a result that looks complete, nor lose
# the previous one. Each case runs in a fresh folder, WORK/NAME, its current
# directory. In ARGS:
#   {empty}                  an empty argument
#   {data}                   the tests/data folder
#   {dir}                    the case's folder
#   {file:NAME:L1|L2|...}    a file NAME in the case's folder with the lines
#                            L1, L2, ... (written before the run); its path
#   {old:NAME}               a file NAME holding "previous results" (it must
#                            be unchanged after the run); its path
#   {memory:MB}              no argument: the run's address space is limited
#                            to MB megabytes (ulimit -v), so that memory runs
#                            out as on a machine that small. In a GPU build
#                            (-DGPU=ON) the limit may stop the GPU runtime
#                            from starting before the run's own check: the
#                            output may then say so instead (with the same
#                            status: memory is the cause either way)
#   {env:NAME=VALUE}         no argument: the run's environment has NAME=VALUE
#   {folder:NAME}            no argument: a folder NAME in the case's folder
#   {symlink:NAME}           no argument: a symbolic link NAME in the case's
#                            folder to a file "victim" (of "previous results")
#                            beside it: the link and the victim must be
#                            unchanged after the run
#   {fifo:NAME}              no argument: a named pipe NAME in the case's
#                            folder, which must still be there after the run
# Lines that are empty or start with '#' are comments.
cmake_minimum_required(VERSION 3.22) # policies: IN_LIST, empty list elements kept
foreach(_v CASES PROGRAM EXE DATA WORK)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "run_cases.cmake: -D${_v}=... is required")
  endif()
endforeach()

file(STRINGS "${CASES}" _lines ENCODING UTF-8)
set(_failed)
set(_count 0)
foreach(_line IN LISTS _lines)
  if(_line MATCHES "^[ \t]*(#|$)")
    continue()
  endif()
  separate_arguments(_words UNIX_COMMAND "${_line}")
  list(LENGTH _words _n)
  if(_n LESS 4)
    message(FATAL_ERROR "malformed case (NAME RC REGEX PROGRAM ARGS...): ${_line}")
  endif()
  list(GET _words 0 _name)
  list(GET _words 1 _rc)
  list(GET _words 2 _regex)
  list(GET _words 3 _program)
  if(NOT _program STREQUAL PROGRAM)
    continue()
  endif()
  list(SUBLIST _words 4 -1 _args)
  math(EXPR _count "${_count} + 1")

  set(_dir "${WORK}/${_name}")
  set(_planted) # links and pipes: checked to be there, never read
  set(_links)
  file(REMOVE_RECURSE "${_dir}")
  file(MAKE_DIRECTORY "${_dir}")
  # Run through sh, every argument quoted: a CMake list cannot carry an
  # empty argument to execute_process.
  set(_command "exec '${EXE}'")
  foreach(_a IN LISTS _args)
    if(_a STREQUAL "{empty}")
      string(APPEND _command " ''")
      continue()
    endif()
    if(_a MATCHES "^{memory:([0-9]+)}$")
      math(EXPR _kb "${CMAKE_MATCH_1} * 1024")
      set(_command "ulimit -v ${_kb} && ${_command}")
      if(GPU)
        set(_regex "(${_regex})|the GPU runtime could not start .*ulimit -v")
      endif()
      continue()
    endif()
    if(_a MATCHES "^{folder:([^}]+)}$")
      file(MAKE_DIRECTORY "${_dir}/${CMAKE_MATCH_1}")
      continue()
    endif()
    if(_a MATCHES "^{(symlink|fifo):([^}]+)}$")
      set(_path "${_dir}/${CMAKE_MATCH_2}")
      get_filename_component(_parent "${_path}" DIRECTORY)
      file(MAKE_DIRECTORY "${_parent}")
      if(CMAKE_MATCH_1 STREQUAL "symlink")
        file(WRITE "${_dir}/victim" "previous results\n")
        file(CREATE_LINK "${_dir}/victim" "${_path}" SYMBOLIC)
        list(APPEND _links "${_path}")
      else()
        execute_process(COMMAND mkfifo "${_path}" RESULT_VARIABLE _mkfifo)
        if(NOT _mkfifo EQUAL 0)
          message(FATAL_ERROR "${_name}: mkfifo ${_path} failed")
        endif()
      endif()
      list(APPEND _planted "${_path}")
      continue()
    endif()
    if(_a MATCHES "^{env:([A-Za-z_][A-Za-z0-9_]*)=([^}']*)}$")
      set(_command "export ${CMAKE_MATCH_1}='${CMAKE_MATCH_2}' && ${_command}")
      continue()
    endif()
    string(REPLACE "{data}" "${DATA}" _a "${_a}")
    string(REPLACE "{dir}" "${_dir}" _a "${_a}")
    while(_a MATCHES "{file:([^:}]+):([^}]*)}")
      set(_path "${_dir}/${CMAKE_MATCH_1}")
      string(REPLACE "|" "\n" _text "${CMAKE_MATCH_2}")
      file(WRITE "${_path}" "${_text}\n")
      string(REPLACE "${CMAKE_MATCH_0}" "${_path}" _a "${_a}")
    endwhile()
    while(_a MATCHES "{old:([^}]+)}")
      set(_path "${_dir}/${CMAKE_MATCH_1}")
      get_filename_component(_parent "${_path}" DIRECTORY)
      file(MAKE_DIRECTORY "${_parent}")
      file(WRITE "${_path}" "previous results\n")
      string(REPLACE "${CMAKE_MATCH_0}" "${_path}" _a "${_a}")
    endwhile()
    string(REPLACE "'" "'\\''" _a "${_a}")
    string(APPEND _command " '${_a}'")
  endforeach()

  # What was there before: each file's name and hash.
  file(GLOB_RECURSE _before LIST_DIRECTORIES false "${_dir}/*")
  set(_hashes)
  foreach(_f IN LISTS _before)
    if(NOT _f IN_LIST _planted)
      file(SHA1 "${_f}" _h)
      list(APPEND _hashes "${_f}=${_h}")
    endif()
  endforeach()

  execute_process(COMMAND sh -c "${_command}" WORKING_DIRECTORY "${_dir}" TIMEOUT 60
                  RESULT_VARIABLE _got OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  set(_why)
  if(NOT "${_got}" STREQUAL "${_rc}")
    set(_why "exit status '${_got}', expected ${_rc}")
  elseif(NOT "${_out}${_err}" MATCHES "${_regex}")
    set(_why "the output does not match '${_regex}'")
  else()
    file(GLOB_RECURSE _after LIST_DIRECTORIES false "${_dir}/*")
    foreach(_f IN LISTS _after)
      if(NOT _f IN_LIST _before)
        file(RELATIVE_PATH _rel "${_dir}" "${_f}")
        set(_why "it left a new file behind: ${_rel}")
        break()
      endif()
      if(_f IN_LIST _planted)
        continue()
      endif()
      file(SHA1 "${_f}" _h)
      if(NOT "${_f}=${_h}" IN_LIST _hashes)
        file(RELATIVE_PATH _rel "${_dir}" "${_f}")
        set(_why "it changed ${_rel}")
        break()
      endif()
    endforeach()
    foreach(_f IN LISTS _planted)
      file(RELATIVE_PATH _rel "${_dir}" "${_f}")
      if(_f IN_LIST _links)
        if(NOT IS_SYMLINK "${_f}")
          set(_why "it replaced or removed the link ${_rel}")
        else()
          file(READ_SYMLINK "${_f}" _to)
          if(NOT _to STREQUAL "${_dir}/victim")
            set(_why "it changed the link ${_rel}")
          endif()
        endif()
      elseif(IS_SYMLINK "${_f}" OR NOT EXISTS "${_f}" OR IS_DIRECTORY "${_f}")
        set(_why "it replaced or removed the pipe ${_rel}")
      endif()
    endforeach()
    foreach(_f IN LISTS _before)
      if(NOT IS_SYMLINK "${_f}" AND NOT EXISTS "${_f}")
        file(RELATIVE_PATH _rel "${_dir}" "${_f}")
        set(_why "it removed ${_rel}")
      endif()
    endforeach()
  endif()
  if(_why)
    message("FAILED ${_name}: ${_why}\n  command: ${_command}\n  output: ${_out}${_err}")
    list(APPEND _failed ${_name})
  else()
    file(REMOVE_RECURSE "${_dir}")
  endif()
endforeach()

if(_count EQUAL 0)
  message(FATAL_ERROR "no case for ${PROGRAM} in ${CASES}")
endif()
list(LENGTH _failed _nfailed)
if(_nfailed GREATER 0)
  string(REPLACE ";" ", " _names "${_failed}")
  message(FATAL_ERROR "${_nfailed} of ${_count} ${PROGRAM} cases failed: ${_names}")
endif()
message("${_count} ${PROGRAM} cases pass")
