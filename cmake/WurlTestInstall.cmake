# cmake -P script: installs the build tree into a fresh prefix and checks the
# layout of the result. The CTest fixture `install.tree` runs it.
#
#   -DBUILD_DIR=<cmake binary dir>  -DPREFIX=<install prefix>
#   -DLIBDIR=<lib> -DINCLUDEDIR=<include> -DDATADIR=<share>
#   -DDOCDIR=<share/doc/wurl> -DBINDIR=<bin> -DMANDIR=<share/man>
#   -DVERSION=<x.y.z> -DMAJOR=<x> -DREADELF=<readelf or empty>
#   -DCHECK_STRIPPED=ON|OFF   the libraries must have no debug sections
#   -DCHECK_CLI=ON|OFF        the wurl command, its man page and completions
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
    "${PREFIX}/${INCLUDEDIR}/wurl.hpp"
    "${_lib}/cmake/wurl/wurlConfig.cmake"
    "${_lib}/cmake/wurl/wurlConfigVersion.cmake"
    "${_lib}/pkgconfig/wurl.pc"
    "${PREFIX}/${DATADIR}/wurl/wurl.map"
    "${PREFIX}/${DATADIR}/wurl/wurl.symbols"
    "${PREFIX}/${DOCDIR}/LICENSE")
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

# The licence text, as shipped.
if(EXISTS "${PREFIX}/${DOCDIR}/LICENSE")
  file(READ "${PREFIX}/${DOCDIR}/LICENSE" _lic)
  if(NOT _lic MATCHES "MIT License" OR NOT _lic MATCHES "Copyright \\(c\\) [0-9]+ the wurl authors")
    string(APPEND _errors "  - ${PREFIX}/${DOCDIR}/LICENSE is not the MIT licence of the wurl authors\n")
  endif()
endif()

# Stripped: no debug sections left (readelf -S lists every member of an archive).
if(CHECK_STRIPPED AND READELF)
  foreach(_f IN ITEMS "${_lib}/libwurl.so.${VERSION}" "${_lib}/libwurl.a")
    execute_process(COMMAND "${READELF}" -S -W "${_f}" OUTPUT_VARIABLE _sections RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      string(APPEND _errors "  - readelf -S ${_f} failed\n")
    elseif(_sections MATCHES "\\.debug_")
      string(APPEND _errors "  - ${_f} is not stripped (it has .debug_* sections)\n")
    endif()
  endforeach()
endif()

# The command-line tool: the program, its man page and shell completions.
if(CHECK_CLI)
  foreach(_f IN ITEMS
      "${PREFIX}/${BINDIR}/wurl"
      "${PREFIX}/${MANDIR}/man1/wurl.1"
      "${PREFIX}/${DATADIR}/bash-completion/completions/wurl"
      "${PREFIX}/${DATADIR}/zsh/site-functions/_wurl"
      "${PREFIX}/${DATADIR}/fish/vendor_completions.d/wurl.fish")
    if(NOT EXISTS "${_f}")
      string(APPEND _errors "  - missing: ${_f}\n")
    elseif(IS_DIRECTORY "${_f}")
      string(APPEND _errors "  - a directory, not a file: ${_f}\n")
    else()
      file(SIZE "${_f}" _size)
      if(_size EQUAL 0)
        string(APPEND _errors "  - empty: ${_f}\n")
      endif()
    endif()
  endforeach()
  if(EXISTS "${PREFIX}/${BINDIR}/wurl")
    # The installed program runs from the installed tree.
    execute_process(COMMAND "${PREFIX}/${BINDIR}/wurl" canon "HTTP://Example.COM:80/a/./b/../c"
      OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0 OR NOT _out STREQUAL "http://example.com/a/c\n")
      string(APPEND _errors "  - ${PREFIX}/${BINDIR}/wurl canon gave status ${_rc}, output '${_out}' ${_err}\n")
    endif()
  endif()
  if(EXISTS "${PREFIX}/${MANDIR}/man1/wurl.1")
    file(READ "${PREFIX}/${MANDIR}/man1/wurl.1" _man)
    if(NOT _man MATCHES "\\.TH ")
      string(APPEND _errors "  - ${PREFIX}/${MANDIR}/man1/wurl.1 is not a man page (no .TH)\n")
    endif()
  endif()
endif()

if(_errors)
  message(FATAL_ERROR "install tree ${PREFIX} is wrong:\n${_errors}")
endif()
message(STATUS "install tree ok: ${PREFIX}")
