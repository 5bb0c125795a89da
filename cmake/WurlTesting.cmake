# WurlTesting.cmake — helpers to build the C/C++ tests against both library
# variants and register them with CTest, plain, under sanitizers
# (WURL_SANITIZE) or under valgrind (WURL_VALGRIND).
#
#   wurl_add_test_program(<name> SOURCES <src>... [THREADS])
#       Builds <name>-static (linked with wurl::wurl) and <name>-shared
#       (wurl::wurl_shared).
#
#   wurl_add_test_variants(<test> PROGRAM <name> [ARGS <arg>...]
#                          [LABELS <label>...] [ENVIRONMENT <VAR=value>...]
#                          [VALGRIND_ENVIRONMENT <VAR=value>...]
#                          [VALGRIND_VARIANTS static|shared...] [TIMEOUT <s>]
#                          [SANITIZER_ONLY] [WILL_FAIL])
#       Registers <test>.static and <test>.shared (label static/shared), and
#       with WURL_VALGRIND=ON valgrind.<test>.<variant> (label valgrind) for
#       the VALGRIND_VARIANTS (default: both). SANITIZER_ONLY tests exist
#       only when WURL_SANITIZE or WURL_VALGRIND is on; then the plain
#       variants are registered only under WURL_SANITIZE.
include_guard(GLOBAL)

set(WURL_SANITIZE_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
set(WURL_SANITIZE_ENVIRONMENT
  "ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
  "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")

if(WURL_VALGRIND)
  find_program(WURL_VALGRIND_EXECUTABLE valgrind)
  if(NOT WURL_VALGRIND_EXECUTABLE)
    message(FATAL_ERROR "WURL_VALGRIND=ON but valgrind is not installed")
  endif()
  if(WURL_SANITIZE)
    message(FATAL_ERROR "WURL_VALGRIND and WURL_SANITIZE cannot be combined (use two build trees)")
  endif()
  set(WURL_VALGRIND_COMMAND "${WURL_VALGRIND_EXECUTABLE}" --error-exitcode=1 --leak-check=full
      --errors-for-leak-kinds=definite,indirect,possible --show-leak-kinds=definite,indirect,possible
      --track-origins=yes --num-callers=30 --quiet
      "--suppressions=${PROJECT_SOURCE_DIR}/cmake/valgrind.supp")
endif()

find_package(Threads REQUIRED)

function(wurl_add_test_program name)
  cmake_parse_arguments(A "THREADS" "" "SOURCES" ${ARGN})
  foreach(variant IN ITEMS static shared)
    set(t "${name}-${variant}")
    add_executable(${t} ${A_SOURCES})
    if(variant STREQUAL "static")
      target_link_libraries(${t} PRIVATE wurl::wurl)
    else()
      target_link_libraries(${t} PRIVATE wurl::wurl_shared)
    endif()
    if(A_THREADS)
      target_link_libraries(${t} PRIVATE Threads::Threads)
    endif()
    target_include_directories(${t} PRIVATE "${PROJECT_SOURCE_DIR}/c-tests")
    set_target_properties(${t} PROPERTIES
      C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF
      CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
    target_compile_options(${t} PRIVATE -Wall -Wextra -g)
    if(WURL_SANITIZE)
      target_compile_options(${t} PRIVATE ${WURL_SANITIZE_FLAGS})
      target_link_options(${t} PRIVATE ${WURL_SANITIZE_FLAGS})
    endif()
  endforeach()
endfunction()

function(wurl_add_test_variants test)
  cmake_parse_arguments(A "SANITIZER_ONLY;WILL_FAIL" "PROGRAM;TIMEOUT"
    "ARGS;LABELS;ENVIRONMENT;VALGRIND_ENVIRONMENT;VALGRIND_VARIANTS" ${ARGN})
  if(NOT A_VALGRIND_VARIANTS)
    set(A_VALGRIND_VARIANTS static shared)
  endif()
  if(A_SANITIZER_ONLY AND NOT WURL_SANITIZE AND NOT WURL_VALGRIND)
    return()
  endif()
  foreach(variant IN ITEMS static shared)
    set(exe "${A_PROGRAM}-${variant}")
    if(NOT A_SANITIZER_ONLY OR WURL_SANITIZE)
      set(name "${test}.${variant}")
      add_test(NAME ${name} COMMAND ${exe} ${A_ARGS})
      set(labels ${A_LABELS} ${variant})
      set(env ${A_ENVIRONMENT})
      if(WURL_SANITIZE)
        list(APPEND labels sanitize)
        list(APPEND env ${WURL_SANITIZE_ENVIRONMENT})
      endif()
      set_tests_properties(${name} PROPERTIES LABELS "${labels}")
      if(env)
        set_tests_properties(${name} PROPERTIES ENVIRONMENT "${env}")
      endif()
      if(A_TIMEOUT)
        set_tests_properties(${name} PROPERTIES TIMEOUT ${A_TIMEOUT})
      endif()
      if(A_WILL_FAIL)
        set_tests_properties(${name} PROPERTIES WILL_FAIL TRUE)
      endif()
    endif()
    if(WURL_VALGRIND AND variant IN_LIST A_VALGRIND_VARIANTS)
      set(name "valgrind.${test}.${variant}")
      add_test(NAME ${name} COMMAND ${WURL_VALGRIND_COMMAND} $<TARGET_FILE:${exe}> ${A_ARGS})
      set_tests_properties(${name} PROPERTIES LABELS "${A_LABELS};${variant};valgrind")
      set(env ${A_ENVIRONMENT} ${A_VALGRIND_ENVIRONMENT})
      if(env)
        set_tests_properties(${name} PROPERTIES ENVIRONMENT "${env}")
      endif()
      if(A_TIMEOUT)
        math(EXPR _t "${A_TIMEOUT} * 20")
        set_tests_properties(${name} PROPERTIES TIMEOUT ${_t})
      endif()
      if(A_WILL_FAIL)
        set_tests_properties(${name} PROPERTIES WILL_FAIL TRUE)
      endif()
    endif()
  endforeach()
endfunction()
