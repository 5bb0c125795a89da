#!/bin/sh
# The Ruby gem as a user gets it (run by CTest as ruby_gem):
#
#   test-ruby-gem.sh BINDINGS_RUBY_DIR REPO_ROOT
#
# In a temporary directory (the source tree is never written to): copy
# bindings/ruby, `gem build`, `gem install --local` into a temporary
# GEM_HOME, then canonicalize the seed's examples with the installed gem and
# run the Ruby test suite against it (WURL_TEST_INSTALLED_GEM=1). Another
# wurl-canon installed on the machine is never loaded instead.
# Needs WURL_LIB (the built libwurl.so).
set -eu

src=$(cd "$1" && pwd)
repo=$(cd "$2" && pwd)
: "${WURL_LIB:?set WURL_LIB to the built libwurl.so}"
export WURL_LIB
ruby=${RUBY:-ruby}
gem=${GEM:-gem}
tools=$(cd "$(dirname "$0")" && pwd)
tsv="$repo/tests/data/url_to_canon_url.tsv"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wurl-ruby-gem.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
before=$(cd "$src" && find . -print | LC_ALL=C sort | cksum)

step() { printf '\n== %s\n' "$*"; }

step "copy; gem build"
cp -R "$src" "$tmp/src"
cmp "$src/LICENSE" "$repo/LICENSE" || { echo "bindings/ruby/LICENSE differs from LICENSE" >&2; exit 1; }
cd "$tmp/src"
"$gem" build wurl-canon.gemspec
pkg=$(ls wurl-canon-*.gem)
for f in lib/wurl.rb README.md LICENSE; do
  "$gem" spec "$pkg" files | grep -qx -- "- $f" || { echo "$f not in $pkg" >&2; exit 1; }
done

step "gem install --local into a temporary GEM_HOME"
# GEM_PATH: that GEM_HOME first, then the caller's gem directories (the ffi
# dependency: Debian's ruby-ffi; minitest) with any other wurl-canon gem
# hidden (tools/isolated_gem_path.rb), so that everything below loads the
# gem built here even when one is installed (gem install, GEM_HOME, ~/.gem).
gem_path=$("$ruby" "$tools/isolated_gem_path.rb" "$tmp/gems" "$tmp/gem-path")
export GEM_HOME="$tmp/gems" GEM_PATH="$gem_path"
echo "GEM_PATH=$GEM_PATH"
unset RUBYOPT RUBYLIB || true
"$gem" install --local --no-document "$pkg"
[ -f "$GEM_HOME/gems/${pkg%.gem}/lib/wurl.rb" ] || { echo "wurl.rb not installed" >&2; exit 1; }
[ -f "$GEM_HOME/gems/${pkg%.gem}/LICENSE" ] || { echo "LICENSE not installed" >&2; exit 1; }

step "the installed gem on the seed's examples"
cd "$tmp"
"$ruby" "$tools/check_seed.rb" "$tsv" "$GEM_HOME"
out=$("$ruby" -e 'require "wurl"; u = Wurl.parse("http://a/?"); print u.query.inspect, " ", u.fragment.inspect')
[ "$out" = '"" nil' ] || { echo "installed gem: absent vs empty: got '$out'" >&2; exit 1; }

step "the test suite against the installed gem"
WURL_TEST_INSTALLED_GEM=1 WURL_CONFORMANCE_DIR="$repo/tests/data" WURL_HEADER="$repo/include/wurl.h" \
  WURL_CROSS_EXPECTED="$repo/bindings/cross-binding-expected.tsv" "$ruby" "$tmp/src/test/all_tests.rb"

after=$(cd "$src" && find . -print | LC_ALL=C sort | cksum)
[ "$before" = "$after" ] || { echo "the source tree $src was changed" >&2; exit 1; }
echo
echo "ruby_gem: all checks passed"
