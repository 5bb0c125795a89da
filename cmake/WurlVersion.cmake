# WurlVersion.cmake — wurl_read_cargo_version(<Cargo.toml> <out-var>): the
# version of the [package] section (x.y.z, without pre-release suffix).
include_guard(GLOBAL)

function(wurl_read_cargo_version manifest out_var)
  file(STRINGS "${manifest}" _lines)
  set(_in_package FALSE)
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "^\\[package\\]")
      set(_in_package TRUE)
    elseif(_line MATCHES "^\\[")
      set(_in_package FALSE)
    elseif(_in_package AND _line MATCHES "^version[ \t]*=[ \t]*\"([0-9]+\\.[0-9]+\\.[0-9]+)[^\"]*\"")
      set(${out_var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "wurl: no [package] version in ${manifest}")
endfunction()
