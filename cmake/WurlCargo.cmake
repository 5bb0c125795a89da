# WurlCargo.cmake — builds the wurl crate with cargo and defines the imported
# targets wurl::wurl (static) and wurl::wurl_shared (shared).
#
# Cargo's output goes to ${WURL_CARGO_TARGET_DIR} (inside the CMake binary
# dir); the libraries are then staged into ${WURL_STAGE_LIB_DIR} under the
# names they are installed with:
#
#   libwurl.a
#   libwurl.so.<version>            the cdylib (SONAME libwurl.so.<major>, set by build.rs)
#   libwurl.so.<major> -> libwurl.so.<version>
#   libwurl.so         -> libwurl.so.<major>
#
# Inputs (cache variables):
#   WURL_CARGO           the cargo executable
#   WURL_CARGO_PROFILE   cargo profile (default: release)
#   WURL_RUST_ASAN       build the Rust side with -Zsanitizer=address (nightly)
#
# Outputs (variables set in the including scope):
#   WURL_VERSION, WURL_VERSION_MAJOR     from Cargo.toml
#   WURL_STATIC_LIBRARY_PATH             staged libwurl.a
#   WURL_SHARED_LIBRARY_PATH             staged libwurl.so (a symlink)
#   WURL_SHARED_LIBRARY_REAL             staged libwurl.so.<version>
#   WURL_NATIVE_STATIC_LIBS              system libraries a static Rust
#                                        library needs (link after libwurl.a)
#   WURL_CARGO_OUT_DIR                   cargo's output directory (libwurl.rlib, deps/)

include_guard(GLOBAL)

include(WurlVersion)
wurl_read_cargo_version("${PROJECT_SOURCE_DIR}/Cargo.toml" WURL_VERSION)
string(REGEX MATCH "^[0-9]+" WURL_VERSION_MAJOR "${WURL_VERSION}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/Cargo.toml")

# --- System libraries of a static Rust library -----------------------------
# What `cargo rustc -- --print native-static-libs` prints for this crate on
# x86_64-unknown-linux-gnu: -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
# (libc is implicit; libutil is empty on glibc >= 2.34 but harmless).
if(NOT DEFINED WURL_NATIVE_STATIC_LIBS)
  set(WURL_NATIVE_STATIC_LIBS gcc_s util rt pthread m dl)
endif()

# --- cargo -----------------------------------------------------------------
find_program(WURL_CARGO cargo HINTS "$ENV{CARGO_HOME}/bin" "$ENV{HOME}/.cargo/bin")
if(NOT WURL_CARGO)
  message(FATAL_ERROR "wurl: cargo not found (set WURL_CARGO)")
endif()
set(WURL_CARGO_PROFILE "release" CACHE STRING "cargo profile used to build libwurl")
option(WURL_RUST_ASAN "Build the Rust library with -Zsanitizer=address (needs a nightly toolchain)" OFF)

set(WURL_CARGO_TARGET_DIR "${PROJECT_BINARY_DIR}/cargo" CACHE PATH
    "CARGO_TARGET_DIR for the cargo build (inside the build tree)")
set(WURL_STAGE_LIB_DIR "${PROJECT_BINARY_DIR}/lib")

set(_cargo_args build -p wurl-canon --lib --manifest-path "${PROJECT_SOURCE_DIR}/Cargo.toml")
if(WURL_CARGO_PROFILE STREQUAL "release")
  list(APPEND _cargo_args --release)
  set(_profile_dir release)
elseif(WURL_CARGO_PROFILE STREQUAL "dev" OR WURL_CARGO_PROFILE STREQUAL "debug")
  set(_profile_dir debug)
else()
  list(APPEND _cargo_args --profile "${WURL_CARGO_PROFILE}")
  set(_profile_dir "${WURL_CARGO_PROFILE}")
endif()

set(_cargo_env "CARGO_TARGET_DIR=${WURL_CARGO_TARGET_DIR}")
set(_cargo_cmd "${WURL_CARGO}")
if(WURL_RUST_ASAN)
  # Instrument the Rust code for AddressSanitizer. The C side must then be
  # built with -fsanitize=address too (WURL_SANITIZE=ON, implied), whose
  # runtime serves both. The precompiled std stays uninstrumented (no
  # -Zbuild-std, which would need the rust-src component); ASan still sees
  # every heap access of it through its malloc/free interceptors.
  execute_process(COMMAND rustup toolchain list OUTPUT_VARIABLE _toolchains ERROR_QUIET)
  if(NOT _toolchains MATCHES "nightly")
    message(FATAL_ERROR "wurl: WURL_RUST_ASAN=ON needs a nightly Rust toolchain (rustup toolchain install nightly)")
  endif()
  set(WURL_RUST_TARGET "x86_64-unknown-linux-gnu" CACHE STRING "Rust target triple for WURL_RUST_ASAN")
  set(_cargo_cmd "${WURL_CARGO}" +nightly)
  list(APPEND _cargo_args --target "${WURL_RUST_TARGET}")
  list(APPEND _cargo_env "RUSTFLAGS=-Zsanitizer=address")
  set(_cargo_out "${WURL_CARGO_TARGET_DIR}/${WURL_RUST_TARGET}/${_profile_dir}")
else()
  set(_cargo_out "${WURL_CARGO_TARGET_DIR}/${_profile_dir}")
endif()

# Where cargo writes libwurl.rlib and its dependencies (deps/): the README's
# Rust snippet test compiles against them.
set(WURL_CARGO_OUT_DIR "${_cargo_out}")

set(WURL_STATIC_LIBRARY_PATH "${WURL_STAGE_LIB_DIR}/libwurl.a")
set(WURL_SHARED_LIBRARY_REAL "${WURL_STAGE_LIB_DIR}/libwurl.so.${WURL_VERSION}")
set(WURL_SHARED_LIBRARY_SONAME "libwurl.so.${WURL_VERSION_MAJOR}")
set(WURL_SHARED_LIBRARY_PATH "${WURL_STAGE_LIB_DIR}/libwurl.so")

# The symlinks never change: make them now (dangling until the first build).
file(MAKE_DIRECTORY "${WURL_STAGE_LIB_DIR}")
file(CREATE_LINK "libwurl.so.${WURL_VERSION}" "${WURL_STAGE_LIB_DIR}/${WURL_SHARED_LIBRARY_SONAME}" SYMBOLIC)
file(CREATE_LINK "${WURL_SHARED_LIBRARY_SONAME}" "${WURL_SHARED_LIBRARY_PATH}" SYMBOLIC)

# cargo decides itself whether anything needs rebuilding, so the target
# always runs; the copies only touch the staged files when they changed.
add_custom_target(wurl_cargo ALL
  COMMAND "${CMAKE_COMMAND}" -E env ${_cargo_env} ${_cargo_cmd} ${_cargo_args}
  COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${_cargo_out}/libwurl.a" "${WURL_STATIC_LIBRARY_PATH}"
  COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${_cargo_out}/libwurl.so" "${WURL_SHARED_LIBRARY_REAL}"
  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
  BYPRODUCTS "${WURL_STATIC_LIBRARY_PATH}" "${WURL_SHARED_LIBRARY_REAL}"
  COMMENT "cargo build (${WURL_CARGO_PROFILE}) of libwurl"
  USES_TERMINAL
  VERBATIM)

# --- Imported targets --------------------------------------------------------
add_library(wurl::wurl STATIC IMPORTED GLOBAL)
set_target_properties(wurl::wurl PROPERTIES
  IMPORTED_LOCATION "${WURL_STATIC_LIBRARY_PATH}"
  IMPORTED_LINK_INTERFACE_LANGUAGES "C"
  INTERFACE_INCLUDE_DIRECTORIES "${PROJECT_SOURCE_DIR}/include"
  INTERFACE_LINK_LIBRARIES "${WURL_NATIVE_STATIC_LIBS}")
add_dependencies(wurl::wurl wurl_cargo)

add_library(wurl::wurl_shared SHARED IMPORTED GLOBAL)
set_target_properties(wurl::wurl_shared PROPERTIES
  IMPORTED_LOCATION "${WURL_SHARED_LIBRARY_REAL}"
  IMPORTED_SONAME "${WURL_SHARED_LIBRARY_SONAME}"
  INTERFACE_INCLUDE_DIRECTORIES "${PROJECT_SOURCE_DIR}/include")
add_dependencies(wurl::wurl_shared wurl_cargo)
