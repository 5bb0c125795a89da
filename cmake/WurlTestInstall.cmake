# cmake -P script: installs the build tree into a fresh prefix and checks the
# layout of the result. The CTest fixture `install.tree` runs it.
#
#   -DBUILD_DIR=<cmake binary dir>  -DPREFIX=<install prefix>
#   -DLIBDIR=<lib> -DINCLUDEDIR=<include> -DDATADIR=<share>
#   -DVERSION=<x.y.z> -DMAJOR=<x> -DREADELF=<readelf or empty>
cmake_minimum_required(VERSION 3.16)

file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()

set(_errors "")
set(_lib "${PREFIX}/${LIBDIR}")
foreach(_f IN ITEMS
    "${_lib}/libwurl.a"
    "${_lib}/libwurl.so.${VERSION}"
    "${PREFIX}/${INCLUDEDIR}/wurl.h"
    "${_lib}/cmake/wurl/wurlConfig.cmake"
    "${_lib}/cmake/wurl/wurlConfigVersion.cmake"
    "${_lib}/pkgconfig/wurl.pc"
    "${PREFIX}/${DATADIR}/wurl/wurl.map"
    "${PREFIX}/${DATADIR}/wurl/wurl.symbols")
  if(NOT EXISTS "${_f}" OR IS_SYMLINK "${_f}")
    string(APPEND _errors "  - missing (or a symlink): ${_f}\n")
  endif()
endforeach()

# libwurl.so -> libwurl.so.MAJOR -> libwurl.so.VERSION
foreach(_pair IN ITEMS "libwurl.so|libwurl.so.${MAJOR}" "libwurl.so.${MAJOR}|libwurl.so.${VERSION}")
  string(REPLACE "|" ";" _pair "${_pair}")
  list(GET _pair 0 _link)
  list(GET _pair 1 _target)
  if(NOT IS_SYMLINK "${_lib}/${_link}")
    string(APPEND _errors "  - ${_lib}/${_link} is not a symlink\n")
  else()
    file(READ_SYMLINK "${_lib}/${_link}" _dest)
    if(NOT _dest STREQUAL _target)
      string(APPEND _errors "  - ${_lib}/${_link} -> ${_dest}, expected -> ${_target}\n")
    endif()
  endif()
endforeach()

if(READELF)
  execute_process(COMMAND "${READELF}" -d "${_lib}/libwurl.so.${VERSION}" OUTPUT_VARIABLE _dyn)
  if(NOT _dyn MATCHES "\\(SONAME\\)[^\n]*\\[libwurl\\.so\\.${MAJOR}\\]")
    string(APPEND _errors "  - installed libwurl.so.${VERSION} does not have SONAME libwurl.so.${MAJOR}\n")
  endif()
  if(_dyn MATCHES "\\((RPATH|RUNPATH)\\)")
    string(APPEND _errors "  - installed libwurl.so.${VERSION} has an RPATH/RUNPATH\n")
  endif()
endif()

if(_errors)
  message(FATAL_ERROR "install tree ${PREFIX} is wrong:\n${_errors}")
endif()
message(STATUS "install tree ok: ${PREFIX}")
