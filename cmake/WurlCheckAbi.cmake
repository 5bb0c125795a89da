# cmake -P script: ABI discipline checks for libwurl.so.
#
#   -DLIB=<libwurl.so>            the shared library to inspect
#   -DSYMBOLS=<abi/wurl.symbols>  the committed, sorted list of exported symbols
#   -DMAP=<abi/wurl.map>          the linker version script shipped for embedders
#   -DHEADER=<include/wurl.h>     the committed header
#   -DNM=<nm> -DREADELF=<readelf>
#   -DSONAME=<libwurl.so.N>       the expected SONAME
#   -DVERSION=<x.y.z>             the version from Cargo.toml
#
# Fails (FATAL_ERROR) when:
#   - `nm -D --defined-only` of the library differs from abi/wurl.symbols
#     (an unexported function, or anything that is not wurl_* exported);
#   - abi/wurl.symbols is not sorted, or the version script's global: list
#     or the functions declared in the header differ from it;
#   - the SONAME is not SONAME; WURL_VERSION (and _MAJOR, _MINOR, _PATCH) in
#     the header is not VERSION.
cmake_minimum_required(VERSION 3.16)

set(_errors "")
macro(_fail msg)
  string(APPEND _errors "  - ${msg}\n")
endmacro()

# --- exported symbols ----------------------------------------------------------
execute_process(COMMAND "${NM}" -D --defined-only "${LIB}"
  OUTPUT_VARIABLE _nm RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIB} failed: ${_err}")
endif()
string(REPLACE "\n" ";" _nm_lines "${_nm}")
set(_exported "")
foreach(_l IN LISTS _nm_lines)
  # "<address> <type> <name>[@version]"
  if(_l MATCHES "^[0-9a-fA-F]* *[A-Za-z] ([^ @]+)")
    list(APPEND _exported "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(SORT _exported)
list(REMOVE_DUPLICATES _exported)

file(STRINGS "${SYMBOLS}" _committed REGEX "^[^#]")
set(_sorted ${_committed})
list(SORT _sorted)
if(NOT _sorted STREQUAL _committed)
  _fail("${SYMBOLS} is not sorted (LC_ALL=C sort)")
endif()

foreach(_s IN LISTS _exported)
  if(NOT _s MATCHES "^wurl_")
    _fail("libwurl.so exports ${_s}, which is not wurl_*")
  elseif(NOT _s IN_LIST _committed)
    _fail("libwurl.so exports ${_s}, which is not in ${SYMBOLS} (a new function? add it there and to abi/wurl.map)")
  endif()
endforeach()
foreach(_s IN LISTS _committed)
  if(NOT _s IN_LIST _exported)
    _fail("${_s} is in ${SYMBOLS} but libwurl.so does not export it (an ABI break)")
  endif()
endforeach()

# --- the version script ---------------------------------------------------------
file(READ "${MAP}" _map)
string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" _map "${_map}")
string(REGEX MATCH "global:([^}]*)local:" _m "${_map}")
set(_global "")
if(_m)
  string(REGEX MATCHALL "[A-Za-z_][A-Za-z0-9_]*[ \t\r\n]*;" _items "${CMAKE_MATCH_1}")
  foreach(_i IN LISTS _items)
    string(REGEX REPLACE "[ \t\r\n;]" "" _i "${_i}")
    if(_i)
      list(APPEND _global "${_i}")
    endif()
  endforeach()
  list(SORT _global)
else()
  _fail("${MAP} has no global: ... local: section")
endif()
if(NOT _global STREQUAL _committed)
  _fail("the global: list of ${MAP} (${_global}) differs from ${SYMBOLS}")
endif()

# --- the header -----------------------------------------------------------------
file(READ "${HEADER}" _h_full)
# Declarations only: drop comments first.
string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" _h "${_h_full}")
string(REGEX REPLACE "//[^\n]*" "" _h "${_h}")
string(REGEX MATCHALL "[A-Za-z_0-9 *]+[ *](wurl_[a-z_0-9]+)\\(" _decls "${_h}")
set(_declared "")
foreach(_d IN LISTS _decls)
  if(_d MATCHES "(wurl_[a-z_0-9]+)\\($")
    list(APPEND _declared "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(SORT _declared)
list(REMOVE_DUPLICATES _declared)
if(NOT _declared STREQUAL _committed)
  _fail("functions declared in ${HEADER} (${_declared}) differ from ${SYMBOLS}")
endif()
if(NOT _h_full MATCHES "#define WURL_VERSION \"${VERSION}\"")
  _fail("${HEADER} does not define WURL_VERSION \"${VERSION}\" (the Cargo.toml version)")
endif()
string(REPLACE "." ";" _vparts "${VERSION}")
set(_vnames MAJOR MINOR PATCH)
foreach(_i RANGE 2)
  list(GET _vparts ${_i} _num)
  list(GET _vnames ${_i} _part)
  if(NOT _h_full MATCHES "#define WURL_VERSION_${_part} ${_num}\n")
    _fail("${HEADER} does not define WURL_VERSION_${_part} ${_num} (the Cargo.toml version ${VERSION})")
  endif()
endforeach()

# --- SONAME -----------------------------------------------------------------------
if(READELF)
  execute_process(COMMAND "${READELF}" -d "${LIB}" OUTPUT_VARIABLE _dyn RESULT_VARIABLE _rc)
  if(NOT _dyn MATCHES "\\(SONAME\\)[^\n]*\\[([^]]*)\\]")
    _fail("${LIB} has no SONAME")
  elseif(NOT CMAKE_MATCH_1 STREQUAL SONAME)
    _fail("${LIB} has SONAME ${CMAKE_MATCH_1}, expected ${SONAME}")
  endif()
endif()

list(LENGTH _exported _n)
if(_errors)
  message(FATAL_ERROR "ABI check failed:\n${_errors}")
endif()
message(STATUS "ABI ok: ${_n} exported symbols, all wurl_*, matching ${SYMBOLS}, ${MAP} and ${HEADER}; SONAME ${SONAME}")
