# cmake -P script: installs the build tree into a fresh prefix, then compiles
# and runs a five-line Java program with PREFIX/share/java/wurl.jar as its
# class path (the jar's own native library: WURL_LIB and wurl.lib unset).
#
#   -DBUILD_DIR=<cmake binary dir> -DPREFIX=<prefix> -DDATADIR=<share>
#   -DVERSION=<x.y.z> -DJAVAC=<javac> -DJAVA=<java> -DWORK=<scratch dir>
cmake_minimum_required(VERSION 3.16)

file(REMOVE_RECURSE "${PREFIX}" "${WORK}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
  RESULT_VARIABLE _rc OUTPUT_QUIET)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()

set(_dir "${PREFIX}/${DATADIR}/java")
foreach(_f "wurl-${VERSION}.jar" "wurl.jar" "wurl-${VERSION}.pom")
  if(NOT EXISTS "${_dir}/${_f}")
    message(FATAL_ERROR "not installed: ${_dir}/${_f}")
  endif()
endforeach()

file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/Hello.java" [=[
public class Hello {
    public static void main(String[] args) {
        System.out.println(org.wurl.Wurl.canonicalize("HTTP://Example.COM:80/a/./b/../c?q=\u00e9#f"));
    }
}
]=])
execute_process(COMMAND "${JAVAC}" -cp "${_dir}/wurl.jar" -d "${WORK}" "${WORK}/Hello.java"
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "javac Hello.java failed")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=WURL_LIB
    "${JAVA}" -cp "${_dir}/wurl.jar:${WORK}" Hello
  OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
set(_want "http://example.com/a/c?q=%C3%A9#f\n")
if(NOT _rc EQUAL 0 OR NOT _out STREQUAL _want)
  message(FATAL_ERROR "Hello with ${_dir}/wurl.jar: status ${_rc}, printed '${_out}' (want '${_want}'), stderr: ${_err}")
endif()
message(STATUS "Hello with ${_dir}/wurl.jar printed ${_out}")
