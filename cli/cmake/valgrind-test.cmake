# cmake -DVALGRIND=<cmd|args> -DWURL=<built wurl> -DCASE=<case> -DDATA=<kasztp.txt>
#       -DWORK=<dir> -P valgrind-test.cmake
#
# Runs the built wurl under valgrind memcheck with two worker threads on an
# input made here: the start of the kasztp dataset (about 2,000 lines) with
# invalid lines among them, or (too_long_j2) a 17 MB line between valid ones.
# Fails on any valgrind error (exit status 99: errors, leaks definite,
# indirect or possible, after cmake/valgrind.supp) and on an unexpected exit
# status of wurl.
string(REPLACE "|" ";" VALGRIND "${VALGRIND}")
file(MAKE_DIRECTORY "${WORK}")
set(_input "${WORK}/input.txt")

if(CASE STREQUAL "too_long_j2")
  string(REPEAT "a" 17000000 _long)
  file(WRITE "${_input}" "HTTP://A/1\nhttp://a/${_long}\nhttp://a/3\n")
  unset(_long)
else()
  file(READ "${DATA}" _data LIMIT 100000)
  # Whole lines only, then invalid lines.
  string(FIND "${_data}" "\n" _last REVERSE)
  string(SUBSTRING "${_data}" 0 ${_last} _data)
  file(WRITE "${_input}" "${_data}\n")
  foreach(_i RANGE 1 20)
    file(APPEND "${_input}" "not a url ${_i}\nhttp://a:99999/${_i}\n")
  endforeach()
endif()

set(_expect 1)
if(CASE STREQUAL "canon_j2" OR CASE STREQUAL "too_long_j2")
  set(_args canon -j 2 --stats)
elseif(CASE STREQUAL "parse_tsv_j2")
  set(_args parse -f tsv -j 2 --stats)
elseif(CASE STREQUAL "canon_z_j2")
  # The whole file is one NUL-terminated record (line feeds inside a URL
  # are dropped by the algorithm's preprocessing).
  set(_args canon -z -f json -j 2 --stats)
  set(_expect "[01]")
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()

execute_process(COMMAND ${VALGRIND} "${WURL}" ${_args} -i "${_input}"
  OUTPUT_FILE "${WORK}/stdout.txt" ERROR_VARIABLE _err RESULT_VARIABLE _rc)
message("${_err}")
if(_rc EQUAL 99)
  message(FATAL_ERROR "valgrind found errors (above)")
endif()
if(NOT _rc MATCHES "^${_expect}$")
  message(FATAL_ERROR "wurl ${_args}: exit status ${_rc}, expected ${_expect}")
endif()
file(SIZE "${WORK}/stdout.txt" _size)
if(_size EQUAL 0)
  message(FATAL_ERROR "wurl ${_args}: no output")
endif()
message(STATUS "valgrind: no errors; wurl exit status ${_rc}, ${_size} bytes of output")
