# cmake -P script: the CTest test abi.version_script. Does what the comment
# of abi/wurl.map tells embedders to do — link libwurl.a whole into their own
# shared object with that version script — and checks the result: it
# exports exactly the symbols of abi/wurl.symbols (nothing of the Rust
# runtime), and a program linked against it calls wurl_version().
#
#   -DCC=<C compiler> -DSTATIC_LIB=<libwurl.a> -DMAP=<abi/wurl.map>
#   -DSYMBOLS=<abi/wurl.symbols> -DINCLUDE_DIR=<include> -DNM=<nm>
#   -DWORK_DIR=<scratch dir> -DVERSION=<x.y.z> -DNATIVE_LIBS=<gcc_s;pthread;...>
cmake_minimum_required(VERSION 3.16)

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK_DIR}"
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    string(REPLACE ";" " " _cmd "${ARGN}")
    message(FATAL_ERROR "failed (${_rc}): ${_cmd}\n${_out}${_err}")
  endif()
  set(run_out "${_out}" PARENT_SCOPE)
endfunction()

file(WRITE "${WORK_DIR}/yours.c" "static int unused(void) { return 0; }\nint yours_helper(void) { return unused(); }\n")
file(WRITE "${WORK_DIR}/main.c" "#include <stdio.h>\n#include <wurl.h>\nint main(void) { puts(wurl_version()); return 0; }\n")

set(_libs "")
foreach(_l IN LISTS NATIVE_LIBS)
  list(APPEND _libs "-l${_l}")
endforeach()

run("${CC}" -fPIC -c yours.c -o yours.o)
run("${CC}" -shared -o libyours.so yours.o
  -Wl,--whole-archive "${STATIC_LIB}" -Wl,--no-whole-archive
  "-Wl,--version-script=${MAP}" ${_libs})

# Exported: exactly abi/wurl.symbols (yours_helper is local under `local: *;`).
run("${NM}" -D --defined-only libyours.so)
string(REPLACE "\n" ";" _lines "${run_out}")
set(_exported "")
foreach(_l IN LISTS _lines)
  if(_l MATCHES "^[0-9a-fA-F]* *[A-Za-z] ([^ @]+)")
    list(APPEND _exported "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(SORT _exported)
file(STRINGS "${SYMBOLS}" _want)
list(SORT _want)
if(NOT _exported STREQUAL _want)
  message(FATAL_ERROR "libyours.so linked with ${MAP} exports\n  ${_exported}\nexpected (${SYMBOLS})\n  ${_want}")
endif()

# A program linked against it works.
run("${CC}" "-I${INCLUDE_DIR}" main.c -o main -L. -lyours "-Wl,-rpath,${WORK_DIR}")
run("${WORK_DIR}/main")
if(NOT run_out STREQUAL "${VERSION}\n")
  message(FATAL_ERROR "a program linked with libyours.so printed '${run_out}', expected '${VERSION}'")
endif()
list(LENGTH _exported _n)
message(STATUS "abi/wurl.map ok: a shared object embedding libwurl.a exports the ${_n} wurl_* symbols only")
