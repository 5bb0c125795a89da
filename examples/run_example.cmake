# cmake -P script: runs one example program and compares what it writes with
# the expected files. Used by the CTest tests of examples/CMakeLists.txt.
#
#   -DPROGRAM=<exe> [-DEX_ARGC=<n> -DEX_ARG0=<a> -DEX_ARG1=<b> ...] [-DINPUT=<stdin file>]
#   -DEXPECTED_OUT=<file> [-DEXPECTED_ERR=<file>] [-DEXPECTED_RC=<n>, default 0]
cmake_minimum_required(VERSION 3.16)

if(NOT DEFINED EXPECTED_RC)
  set(EXPECTED_RC 0)
endif()
set(ARGS "")
if(EX_ARGC)
  math(EXPR _last "${EX_ARGC} - 1")
  foreach(_i RANGE ${_last})
    list(APPEND ARGS "${EX_ARG${_i}}")
  endforeach()
endif()
set(_input_args "")
if(INPUT)
  set(_input_args INPUT_FILE "${INPUT}")
endif()
execute_process(COMMAND "${PROGRAM}" ${ARGS} ${_input_args}
  OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)

set(_errors "")
if(NOT "${_rc}" STREQUAL "${EXPECTED_RC}")
  string(APPEND _errors "exit status ${_rc}, expected ${EXPECTED_RC}\n")
endif()
file(READ "${EXPECTED_OUT}" _want_out)
if(NOT _out STREQUAL _want_out)
  string(APPEND _errors "standard output differs from ${EXPECTED_OUT}:\n--- got ---\n${_out}--- expected ---\n${_want_out}")
endif()
if(EXPECTED_ERR)
  file(READ "${EXPECTED_ERR}" _want_err)
  if(NOT _err STREQUAL _want_err)
    string(APPEND _errors "standard error differs from ${EXPECTED_ERR}:\n--- got ---\n${_err}--- expected ---\n${_want_err}")
  endif()
elseif(NOT _err STREQUAL "")
  string(APPEND _errors "unexpected standard error:\n${_err}")
endif()
if(_errors)
  message(FATAL_ERROR "${PROGRAM} ${ARGS}:\n${_errors}")
endif()
message(STATUS "ok: ${PROGRAM} ${ARGS}")
