# The Java binding's tests (included by bindings/java/CMakeLists.txt), label
# java:
#
#   java_junit            the JUnit 5 suite (src/test/java) through the console
#                         launcher: golden keys, conformance suite, cross-binding
#                         table, threads, 10 million calls, hostile input
#   java_example          the crawler normalizer example (examples/), built
#                         against the jar alone, run with its expected output
#   java_installed_jar    `cmake --install` into a fresh prefix, then a
#                         five-line program against PREFIX/share/java/wurl.jar
#
# Each runs the jar's own copy of the native library: WURL_LIB (which names
# libwurl.so for the Perl and Ruby tests) is unset.

set(WURL_JUNIT_JAR "/usr/share/java/junit-platform-console-standalone.jar" CACHE FILEPATH
  "JUnit 5's console launcher (Debian: junit5)")
set(_wurl_no_lib "${CMAKE_COMMAND}" -E env --unset=WURL_LIB)

# The crawler normalizer example: it compiles against the jar alone (the
# public API), and prints one normalized URL per argument.
file(GLOB _wurl_example_sources CONFIGURE_DEPENDS "${_java_dir}/examples/org/wurl/examples/*.java")
add_jar(wurl_java_examples
  SOURCES ${_wurl_example_sources}
  INCLUDE_JARS wurl_java
  OUTPUT_NAME wurl-examples)
get_target_property(_examples_jar wurl_java_examples JAR_FILE)
add_test(NAME java_example
  COMMAND ${_wurl_no_lib} "${Java_JAVA_EXECUTABLE}" -cp "${WURL_JAR}:${_examples_jar}"
    org.wurl.examples.CrawlerUrlNormalizer --page "http://www.Example.com/dir/page.html"
    "../img/./x.png?utm_source=feed#top" "http://a:99999/")
set_tests_properties(java_example PROPERTIES LABELS "java;example" TIMEOUT 120
  PASS_REGULAR_EXPRESSION "^http://www\\.example\\.com/img/x\\.png\n-\n$")

# The done-when of the binding: the installed jar on the class path of a
# five-line program prints the canonical URL.
add_test(NAME java_installed_jar
  COMMAND "${CMAKE_COMMAND}"
    "-DBUILD_DIR=${PROJECT_BINARY_DIR}" "-DPREFIX=${PROJECT_BINARY_DIR}/java-test-install"
    "-DDATADIR=${CMAKE_INSTALL_DATADIR}" "-DVERSION=${WURL_VERSION}"
    "-DJAVAC=${Java_JAVAC_EXECUTABLE}" "-DJAVA=${Java_JAVA_EXECUTABLE}"
    "-DWORK=${CMAKE_CURRENT_BINARY_DIR}/installed-jar-test"
    -P "${_java_dir}/tools/test-installed-jar.cmake")
set_tests_properties(java_installed_jar PROPERTIES LABELS "java;install" TIMEOUT 300
  RESOURCE_LOCK wurl_test_install)

if(NOT EXISTS "${WURL_JUNIT_JAR}")
  message(STATUS "wurl Java binding: ${WURL_JUNIT_JAR} not found (apt-get install junit5); "
                 "java_junit not registered")
  return()
endif()

file(GLOB _wurl_test_sources CONFIGURE_DEPENDS "${_java_dir}/src/test/java/org/wurl/*.java")
add_jar(wurl_java_tests
  SOURCES ${_wurl_test_sources}
  INCLUDE_JARS wurl_java wurl_java_examples "${WURL_JUNIT_JAR}"
  OUTPUT_NAME wurl-tests)
get_target_property(_tests_jar wurl_java_tests JAR_FILE)
add_test(NAME java_junit
  COMMAND "${CMAKE_COMMAND}"
    "-DJAVA=${Java_JAVA_EXECUTABLE}" "-DJUNIT=${WURL_JUNIT_JAR}"
    "-DCLASSPATH=${WURL_JAR}:${_examples_jar}:${_tests_jar}"
    "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}" -DMIN=9500 "-DCLIB=${WURL_SHARED_LIBRARY_PATH}"
    -P "${_java_dir}/tools/run-junit.cmake")
set_tests_properties(java_junit PROPERTIES LABELS "java" TIMEOUT 900)
