#!/bin/sh
# Builds c-tests/pkgconfig_main.c with the flags `pkg-config wurl` gives for
# an installed wurl, once against libwurl.so and once against libwurl.a (the
# system libraries then come from Libs.private), and runs both; builds the
# C++ example (examples/tour.cpp, wurl.hpp) as C++17 the same way and
# compares its output.
#
# The shared program is linked with docs/INSTALL.md's rpath recipe, which records
# the library directory itself (realpath of pkg-config's libdir, not a path
# through lib/pkgconfig/..): it must still run after PREFIX/lib/pkgconfig is
# deleted. The prefix is copied first, so the shared test install is not
# changed under the tests that run beside this one.
#
# usage: pkgconfig_test.sh PKG_CONFIG CC PKGCONFIG_DIR SOURCE WORKDIR VERSION [CXX CXX_SOURCE CXX_ARG CXX_EXPECTED]
set -eu
PKG_CONFIG=$1 CC=$2 PCDIR=$3 SRC=$4 WORK=$5 VERSION=$6
CXX=${7:-} CXX_SRC=${8:-} CXX_ARG=${9:-} CXX_EXPECTED=${10:-}

unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR LD_LIBRARY_PATH 2>/dev/null || true
rm -rf "$WORK"
mkdir -p "$WORK"
# PCDIR is PREFIX/LIBDIR/pkgconfig: copy PREFIX.
libdir_rel=$(basename "$(dirname "$PCDIR")")
prefix_src=$(cd "$PCDIR/../.." && pwd)
cp -a "$prefix_src" "$WORK/prefix"
PCDIR="$WORK/prefix/$libdir_rel/pkgconfig"
export PKG_CONFIG_PATH="$PCDIR"

"$PKG_CONFIG" --exists --print-errors wurl
got=$("$PKG_CONFIG" --modversion wurl)
[ "$got" = "$VERSION" ] || { echo "pkg-config --modversion: $got, expected $VERSION" >&2; exit 1; }
cflags=$("$PKG_CONFIG" --cflags wurl)
libs=$("$PKG_CONFIG" --libs wurl)
static_libs=$("$PKG_CONFIG" --static --libs wurl)
# docs/INSTALL.md's recipe: the library directory itself.
rpath=$(realpath "$("$PKG_CONFIG" --variable=libdir wurl)")
echo "cflags: $cflags"
echo "libs: $libs"
echo "libs --static: $static_libs"
echo "rpath: $rpath"
[ "$rpath" = "$(cd "$WORK/prefix/$libdir_rel" && pwd -P)" ] || { echo "rpath $rpath is not PREFIX/$libdir_rel" >&2; exit 1; }

# Shared: cc prog.c $(pkg-config --cflags --libs wurl) -Wl,-rpath,...
set -x
# shellcheck disable=SC2086
"$CC" $cflags "$SRC" -o "$WORK/pc_shared" $libs -Wl,-rpath,"$rpath"
"$WORK/pc_shared" shared
{ set +x; } 2>/dev/null
if command -v readelf >/dev/null 2>&1; then
  readelf -d "$WORK/pc_shared" | grep -q 'NEEDED.*\[libwurl\.so\.[0-9]*\]' ||
    { echo "pc_shared does not depend on libwurl.so.N" >&2; exit 1; }
  if readelf -d "$WORK/pc_shared" | grep -E 'R(UN)?PATH' | grep -q '/pkgconfig'; then
    echo "pc_shared's rpath goes through lib/pkgconfig:" >&2
    readelf -d "$WORK/pc_shared" | grep -E 'R(UN)?PATH' >&2
    exit 1
  fi
fi

# C++17 with wurl.hpp, the same flags.
if [ -n "$CXX" ]; then
  set -x
  # shellcheck disable=SC2086
  "$CXX" -std=c++17 -Wall -Wextra -Werror $cflags "$CXX_SRC" -o "$WORK/pc_cxx" $libs -Wl,-rpath,"$rpath"
  "$WORK/pc_cxx" "$CXX_ARG" > "$WORK/pc_cxx.out"
  { set +x; } 2>/dev/null
  cmp "$WORK/pc_cxx.out" "$CXX_EXPECTED" ||
    { echo "pc_cxx: output differs from $CXX_EXPECTED" >&2; diff "$CXX_EXPECTED" "$WORK/pc_cxx.out" >&2 || true; exit 1; }
  echo "C++ program: ok"
fi

# Static: the same flags with libwurl.a forced; Libs.private must be enough.
static_libs=$(printf '%s\n' "$static_libs" | sed 's/-lwurl\( \|$\)/-Wl,-Bstatic -lwurl -Wl,-Bdynamic /')
set -x
# shellcheck disable=SC2086
"$CC" $cflags "$SRC" -o "$WORK/pc_static" $static_libs
"$WORK/pc_static" static
{ set +x; } 2>/dev/null
if command -v readelf >/dev/null 2>&1; then
  if readelf -d "$WORK/pc_static" | grep -q 'NEEDED.*libwurl'; then
    echo "pc_static depends on libwurl.so" >&2; exit 1
  fi
fi

# The rpath does not depend on lib/pkgconfig: delete it, run again.
rm -rf "$PCDIR"
set -x
"$WORK/pc_shared" "shared, lib/pkgconfig deleted"
{ set +x; } 2>/dev/null
if [ -n "$CXX" ]; then
  "$WORK/pc_cxx" "$CXX_ARG" | cmp - "$CXX_EXPECTED" || { echo "pc_cxx fails once lib/pkgconfig is deleted" >&2; exit 1; }
  echo "C++ program, lib/pkgconfig deleted: ok"
fi
echo "pkg-config: ok"
