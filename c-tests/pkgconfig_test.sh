#!/bin/sh
# Builds c-tests/pkgconfig_main.c with the flags `pkg-config wurl` gives for
# an installed wurl, once against libwurl.so and once against libwurl.a (the
# system libraries then come from Libs.private), and runs both.
#
# usage: pkgconfig_test.sh PKG_CONFIG CC PKGCONFIG_DIR SOURCE WORKDIR VERSION
set -eu
PKG_CONFIG=$1 CC=$2 PCDIR=$3 SRC=$4 WORK=$5 VERSION=$6

export PKG_CONFIG_PATH="$PCDIR"
unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR 2>/dev/null || true
mkdir -p "$WORK"

"$PKG_CONFIG" --exists --print-errors wurl
got=$("$PKG_CONFIG" --modversion wurl)
[ "$got" = "$VERSION" ] || { echo "pkg-config --modversion: $got, expected $VERSION" >&2; exit 1; }
cflags=$("$PKG_CONFIG" --cflags wurl)
libs=$("$PKG_CONFIG" --libs wurl)
static_libs=$("$PKG_CONFIG" --static --libs wurl)
libdir=$("$PKG_CONFIG" --variable=libdir wurl)
echo "cflags: $cflags"
echo "libs: $libs"
echo "libs --static: $static_libs"

# Shared: cc prog.c $(pkg-config --cflags --libs wurl)
set -x
# shellcheck disable=SC2086
"$CC" $cflags "$SRC" -o "$WORK/pc_shared" $libs -Wl,-rpath,"$libdir"
"$WORK/pc_shared" shared
{ set +x; } 2>/dev/null
if command -v readelf >/dev/null 2>&1; then
  readelf -d "$WORK/pc_shared" | grep -q 'NEEDED.*\[libwurl\.so\.[0-9]*\]' ||
    { echo "pc_shared does not depend on libwurl.so.N" >&2; exit 1; }
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
echo "pkg-config: ok"
