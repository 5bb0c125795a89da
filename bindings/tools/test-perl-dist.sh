#!/bin/sh
# The Perl distribution as a user gets it (run by CTest as perl_dist):
#
#   test-perl-dist.sh BINDINGS_PERL_DIR REPO_ROOT
#
# In a temporary directory (the source tree is never written to): copy
# bindings/perl, check its MANIFEST, `perl Makefile.PL && make dist`; unpack
# the tarball elsewhere and run `perl Makefile.PL && make && make test`
# there (the whole suite: WURL_TEST_REQUIRE_ALL=1, with the repository's
# conformance data), `make install DESTDIR=...`, then canonicalize the seed's
# examples with the installed Wurl::Compat; the same with --with-compat and
# the installed Web::URL::Canonicalize; and the one-liner with -I compat.
# Needs WURL_LIB (the built libwurl.so).
set -eu

src=$(cd "$1" && pwd)
repo=$(cd "$2" && pwd)
: "${WURL_LIB:?set WURL_LIB to the built libwurl.so}"
export WURL_LIB
perl=${PERL:-perl}
make=${MAKE:-make}
tools=$(cd "$(dirname "$0")" && pwd)
tsv="$src/t/data/url_to_canon_url.tsv"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wurl-perl-dist.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
before=$(cd "$src" && find . -print | LC_ALL=C sort | cksum)

step() { printf '\n== %s\n' "$*"; }

step "copy and check the MANIFEST"
cp -R "$src" "$tmp/src"
cd "$tmp/src"
"$perl" -MExtUtils::Manifest=filecheck,manicheck -e '
  $ExtUtils::Manifest::Quiet = 1;
  my @extra = filecheck(); my @missing = manicheck();
  print "not in MANIFEST: @extra\n" if @extra;
  print "in MANIFEST but missing: @missing\n" if @missing;
  exit(@extra || @missing ? 1 : 0)'
cmp "$src/LICENSE" "$repo/LICENSE" || { echo "bindings/perl/LICENSE differs from LICENSE" >&2; exit 1; }

step "perl Makefile.PL && make dist"
"$perl" Makefile.PL
"$make" dist
tarball=$(ls Wurl-*.tar.gz)
tar tzf "$tarball" | grep -q '/META.json$' || { echo "no META.json in $tarball" >&2; exit 1; }
tar tzf "$tarball" | grep -q '/LICENSE$' || { echo "no LICENSE in $tarball" >&2; exit 1; }

step "unpack $tarball; perl Makefile.PL && make && make test"
mkdir "$tmp/unpacked"
tar xzf "$tarball" -C "$tmp/unpacked"
dist=$(ls -d "$tmp"/unpacked/Wurl-*)
cd "$dist"
"$perl" Makefile.PL
"$make"
WURL_TEST_REQUIRE_ALL=1 WURL_CONFORMANCE_DIR="$repo/tests/data" WURL_HEADER="$repo/include/wurl.h" \
  WURL_CROSS_EXPECTED="$repo/bindings/cross-binding-expected.tsv" "$make" test

step "make install DESTDIR=..."
"$make" install DESTDIR="$tmp/dest"
pm=$(find "$tmp/dest" -name Compat.pm -path '*/Wurl/Compat.pm' | head -n 1)
[ -n "$pm" ] || { echo "Wurl/Compat.pm not installed" >&2; exit 1; }
libdir=${pm%/Wurl/Compat.pm}
for f in Wurl.pm Wurl/URL.pm; do
  [ -f "$libdir/$f" ] || { echo "$f not installed in $libdir" >&2; exit 1; }
done
if [ -e "$libdir/Web/URL/Canonicalize.pm" ]; then
  echo "Web::URL::Canonicalize installed without --with-compat" >&2; exit 1
fi
find "$tmp/dest" -name 'Wurl.3*' | grep -q . || { echo "no Wurl man page installed" >&2; exit 1; }

step "the installed Wurl::Compat on the seed's examples"
cd "$tmp"
env -u PERL5OPT PERL5LIB="$libdir" "$perl" "$tools/check_seed.pl" "$tsv" Wurl::Compat "$libdir"
out=$(env -u PERL5OPT PERL5LIB="$libdir" "$perl" -MWurl -e 'print Wurl->parse(q<http://a/?>)->query // q<undef>, q<|>, Wurl->parse(q<http://a/>)->query // q<undef>')
[ "$out" = "|undef" ] || { echo "installed Wurl: absent vs empty: got '$out'" >&2; exit 1; }

step "perl Makefile.PL --with-compat; make install; the installed Web::URL::Canonicalize"
cd "$dist"
"$make" realclean >/dev/null
"$perl" Makefile.PL --with-compat
"$make"
"$make" install DESTDIR="$tmp/dest2"
pm=$(find "$tmp/dest2" -path '*/Web/URL/Canonicalize.pm' | head -n 1)
[ -n "$pm" ] || { echo "Web/URL/Canonicalize.pm not installed with --with-compat" >&2; exit 1; }
libdir2=${pm%/Web/URL/Canonicalize.pm}
find "$tmp/dest2" -name 'Web::URL::Canonicalize.3*' | grep -q . \
  || { echo "no Web::URL::Canonicalize man page installed" >&2; exit 1; }
if find "$tmp/dest2" -name 'compat::*' | grep -q .; then
  echo "a man page named after compat/ was installed" >&2; exit 1
fi
cd "$tmp"
env -u PERL5OPT PERL5LIB="$libdir2" "$perl" "$tools/check_seed.pl" "$tsv" Web::URL::Canonicalize "$libdir2"
out=$(env -u PERL5OPT PERL5LIB="$libdir2" "$perl" -e 'use Web::URL::Canonicalize 1.0; print url_to_canon_url(q<http://a/>)')
[ "$out" = "http://a/" ] || { echo "use Web::URL::Canonicalize 1.0: got '$out'" >&2; exit 1; }

step "perl Makefile.PL --with-compat INSTALL_BASE=...; make install; man Web::URL::Canonicalize"
cd "$dist"
"$make" realclean >/dev/null
"$perl" Makefile.PL --with-compat INSTALL_BASE="$tmp/prefix"
"$make"
"$make" install
[ -f "$tmp/prefix/man/man3/Web::URL::Canonicalize.3pm" ] \
  || { echo "no man3/Web::URL::Canonicalize.3pm under INSTALL_BASE" >&2; exit 1; }
if command -v man >/dev/null 2>&1; then
  man -M "$tmp/prefix/man" -w Web::URL::Canonicalize \
    || { echo "man Web::URL::Canonicalize finds nothing under INSTALL_BASE" >&2; exit 1; }
fi
cd "$tmp"

step "the one-liner with -I compat (unpacked distribution)"
out=$(env -u PERL5OPT -u PERL5LIB "$perl" -I"$dist/compat" -MWeb::URL::Canonicalize \
  -e 'print url_to_canon_url(q<../a/./b>, q<http://EXAMPLE.com:80/x/y>), "\n"')
[ "$out" = "http://example.com/a/b" ] || { echo "one-liner: got '$out'" >&2; exit 1; }
echo "$out"

after=$(cd "$src" && find . -print | LC_ALL=C sort | cksum)
[ "$before" = "$after" ] || { echo "the source tree $src was changed" >&2; exit 1; }
echo
echo "perl_dist: all checks passed"
