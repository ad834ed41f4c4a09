# Runs an app with --output, then reads what it wrote back with VTK's own
# readers (tests/check_fields.py): every step's field ranges must be the
# run's own, to the last bit. With PICTURE, also renders FILE's last step
# (perf/render_field) and checks the PNG (tests/check_png.py).
#   cmake -DPYTHON=py -DSOURCE=dir -DOUT=dir -DFILE=path [-DPICTURE=png]
#         -P field_output.cmake -- COMMAND [ARGS...]
set(_command)
set(_collect FALSE)
math(EXPR _last "${CMAKE_ARGC} - 1")
foreach(_i RANGE 0 ${_last})
  if(_collect)
    list(APPEND _command "${CMAKE_ARGV${_i}}")
  elseif("${CMAKE_ARGV${_i}}" STREQUAL "--")
    set(_collect TRUE)
  endif()
endforeach()
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${_command} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}${_err}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "the run failed (exit status ${_rc})")
endif()
file(WRITE ${OUT}.log "${_out}")
execute_process(COMMAND ${PYTHON} ${SOURCE}/tests/check_fields.py ${OUT}.log ${FILE}
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _check ERROR_VARIABLE _check)
message("${_check}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "the fields read back differ from the run's")
endif()
if(PICTURE)
  execute_process(COMMAND ${PYTHON} ${SOURCE}/perf/render_field ${FILE} --out ${PICTURE}
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _render ERROR_VARIABLE _render)
  message("${_render}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "perf/render_field failed (exit status ${_rc})")
  endif()
  execute_process(COMMAND ${PYTHON} ${SOURCE}/tests/check_png.py ${PICTURE}
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _png ERROR_VARIABLE _png)
  message("${_png}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "the picture is not one")
  endif()
endif()
