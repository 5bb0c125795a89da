# cmake -P script: runs the JUnit 5 console launcher and checks that it
# passed and ran at least MIN tests (the conformance suite alone is 9,462).
#
#   -DJAVA=<java> -DJUNIT=<console launcher jar> -DCLASSPATH=<a:b:c>
#   -DSOURCE_DIR=<repository root> -DMIN=<count> -DCLIB=<the built libwurl.so>
cmake_minimum_required(VERSION 3.16)

# The heap is fixed and touched at start: MemoryTest measures the growth of
# native memory over ten million calls, not the heap's.
execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=WURL_LIB
    "${JAVA}" -Xms256m -Xmx256m -XX:+AlwaysPreTouch "-Dwurl.source.dir=${SOURCE_DIR}" "-Dwurl.test.clib=${CLIB}"
    -jar "${JUNIT}" --class-path "${CLASSPATH}" --scan-class-path --fail-if-no-tests
    --disable-banner --details=summary --details-theme=ascii
  OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
message("${_out}")
if(_err)
  message("${_err}")
endif()
string(REGEX MATCH "\\[ *([0-9]+) tests successful" _m "${_out}")
set(_n "${CMAKE_MATCH_1}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "JUnit: status ${_rc}")
endif()
if(NOT _n OR _n LESS MIN)
  message(FATAL_ERROR "JUnit: ${_n} tests passed, expected at least ${MIN}")
endif()
message(STATUS "JUnit: ${_n} tests passed")
