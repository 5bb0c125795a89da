# WurlInstallStrip.cmake — strip installed files that install(FILES) or
# install(PROGRAMS) put in place (`cmake --install --strip` strips only
# install(TARGETS) outputs; wurl's libraries and the CLI are built by cargo).
#
#   wurl_install_strip(<path relative to the prefix> [STATIC])
#
# Call it after the install() of that file. The file is stripped at install
# time when WURL_INSTALL_STRIP is ON (the default for Release and MinSizeRel
# builds) or when `cmake --install --strip` is used. Shared libraries and
# programs get `strip --strip-unneeded` (the dynamic symbol table stays);
# STATIC archives get `strip --strip-debug` (every symbol stays linkable).
include_guard(GLOBAL)

if(CMAKE_BUILD_TYPE MATCHES "^(Release|MinSizeRel)$")
  set(_wurl_strip_default ON)
else()
  set(_wurl_strip_default OFF)
endif()
option(WURL_INSTALL_STRIP "Strip the installed libraries and programs (default ON for Release)" ${_wurl_strip_default})

function(wurl_install_strip path)
  cmake_parse_arguments(A "STATIC" "" "" ${ARGN})
  if(NOT CMAKE_STRIP)
    install(CODE "message(STATUS \"wurl: no strip program found, ${path} is not stripped\")")
    return()
  endif()
  if(A_STATIC)
    set(_how --strip-debug)
  else()
    set(_how --strip-unneeded)
  endif()
  if(WURL_INSTALL_STRIP)
    set(_begin "")
    set(_end "")
  else()
    set(_begin "if(CMAKE_INSTALL_DO_STRIP)")
    set(_end "endif()")
  endif()
  install(CODE "${_begin}
      set(_wurl_f \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${path}\")
      message(STATUS \"Stripping (${_how}): \${_wurl_f}\")
      execute_process(COMMAND \"${CMAKE_STRIP}\" ${_how} \"\${_wurl_f}\" RESULT_VARIABLE _wurl_rc)
      if(NOT _wurl_rc EQUAL 0)
        message(FATAL_ERROR \"${CMAKE_STRIP} ${_how} \${_wurl_f} failed\")
      endif()
    ${_end}")
endfunction()
