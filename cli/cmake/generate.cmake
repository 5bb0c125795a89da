# cmake -DWURL=<built wurl> -DOUT=<dir> -DCONFIG=<config> -DBUILD_TYPE=<type>
#       -DSTRIP=<strip or empty> -P generate.cmake
#
# Writes OUT/wurl.1, OUT/wurl.bash, OUT/_wurl and OUT/wurl.fish with the
# built binary's hidden `generate` command, and OUT/wurl: the binary,
# stripped in Release and MinSizeRel when a strip program is known.
file(MAKE_DIRECTORY "${OUT}")
foreach(_pair IN ITEMS "man=wurl.1" "bash=wurl.bash" "zsh=_wurl" "fish=wurl.fish")
  string(REPLACE "=" ";" _pair "${_pair}")
  list(GET _pair 0 _what)
  list(GET _pair 1 _file)
  execute_process(COMMAND "${WURL}" generate ${_what}
    OUTPUT_FILE "${OUT}/${_file}.tmp" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${WURL} generate ${_what}: exit status ${_rc}")
  endif()
  file(RENAME "${OUT}/${_file}.tmp" "${OUT}/${_file}")
endforeach()

set(_config "${CONFIG}")
if(_config STREQUAL "")
  set(_config "${BUILD_TYPE}")
endif()
if(STRIP AND _config MATCHES "^(Release|MinSizeRel)$")
  execute_process(COMMAND "${STRIP}" --strip-all -o "${OUT}/wurl.tmp" "${WURL}" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${STRIP} ${WURL}: exit status ${_rc}")
  endif()
  file(RENAME "${OUT}/wurl.tmp" "${OUT}/wurl")
else()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E copy "${WURL}" "${OUT}/wurl" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "copying ${WURL}: ${_rc}")
  endif()
endif()
