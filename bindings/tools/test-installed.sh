#!/bin/sh
# The Perl distribution and the Ruby gem against an installed libwurl, as a
# new user gets them (run by CTest as install.bindings, after install.tree):
#
#   test-installed.sh PREFIX LIBDIR BINDINGS_DIR REPO_ROOT
#
# PREFIX is a `cmake --install` prefix (LIBDIR relative to it). In temporary
# directories (the source tree is never written to):
#   1. Perl: `PKG_CONFIG_PATH=PREFIX/LIBDIR/pkgconfig perl Makefile.PL
#      --with-compat && make && make install`, then the installed drop-in
#      Web::URL::Canonicalize on the seed's examples, with neither WURL_LIB,
#      LD_LIBRARY_PATH nor PKG_CONFIG_PATH set: the module loads the library
#      from the directory Makefile.PL recorded.
#   2. Ruby: `gem build`, `PKG_CONFIG_PATH=... gem install --local`, then
#      `require 'wurl'` on the seed's examples, with the same variables unset.
#   3. Without pkg-config's help (PKG_CONFIG_LIBDIR pointing nowhere), the
#      Perl module and the gem fail to load with a message that says where
#      they looked and which variable to set; Ruby's is printed once.
#   4. The files that building the dist and the gem makes in their
#      directories are all ignored by the repository's .gitignore (checked
#      with `git check-ignore` when REPO_ROOT is a git work tree), so
#      building them in a checkout leaves no untracked files.
set -eu

prefix=$(cd "$1" && pwd)
libdir="$prefix/$2"
bindings=$(cd "$3" && pwd)
repo=$(cd "$4" && pwd)
perl=${PERL:-perl}
make=${MAKE:-make}
ruby=${RUBY:-ruby}
gem=${GEM:-gem}
tools="$bindings/tools"
tsv="$repo/tests/data/url_to_canon_url.tsv"
[ -f "$libdir/libwurl.so.0" ] || { echo "no $libdir/libwurl.so.0: run install.tree first" >&2; exit 1; }
[ -f "$libdir/pkgconfig/wurl.pc" ] || { echo "no $libdir/pkgconfig/wurl.pc" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wurl-installed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# The gem paths of the Ruby part, from the caller's gem directories with
# any installed wurl-canon hidden (tools/isolated_gem_path.rb): the gems
# installed here are the ones loaded, whatever is installed on the machine.
gem_path=
gem_path2=
if "$ruby" -e 1 2>/dev/null; then
  gem_path=$("$ruby" "$tools/isolated_gem_path.rb" "$tmp/gems" "$tmp/gem-path")
  gem_path2=$("$ruby" "$tools/isolated_gem_path.rb" "$tmp/gems2" "$tmp/gem-path2")
fi
# Nothing of the caller's may point at the library or at an installed
# module (PERL5LIB: the Perl part sets its own).
unset WURL_LIB WURL_LIBDIR LD_LIBRARY_PATH PKG_CONFIG_PATH PERL5LIB PERL5OPT RUBYLIB RUBYOPT GEM_PATH GEM_HOME || true
nowhere="$tmp/no-pkgconfig"
mkdir "$nowhere"

# The failure messages can only be seen when the system loader has no
# libwurl of its own (a machine where wurl was installed into /usr/local and
# ldconfig ran would load that one).
system_has_wurl=false
if command -v ldconfig >/dev/null 2>&1 && ldconfig -p 2>/dev/null | grep -q 'libwurl\.so\.0 '; then
  system_has_wurl=true
fi

step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

# The files a build made in DIR that the copy of it did not have, checked
# against the repository's .gitignore as if they were in SUBDIR.
check_ignored() {
  dir=$1 subdir=$2 list=$3
  (cd "$dir" && find . -mindepth 1 -maxdepth 1 -print | sed 's|^\./||' | LC_ALL=C sort) > "$list.after"
  LC_ALL=C comm -13 "$list" "$list.after" > "$list.new"
  if ! git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "(not a git work tree: .gitignore not checked)"; return 0
  fi
  while IFS= read -r f; do
    slash=; [ -d "$dir/$f" ] && slash=/
    git -C "$repo" check-ignore -q --no-index "$subdir/$f$slash" ||
      fail "building in $subdir makes $f, which .gitignore does not ignore"
  done < "$list.new"
  echo "made and ignored by .gitignore: $(tr '\n' ' ' < "$list.new")"
}

# --- Perl ----------------------------------------------------------------------
if "$perl" -MFFI::Platypus -MExtUtils::MakeMaker -e 1 2>/dev/null; then
  step "Perl: PKG_CONFIG_PATH=$libdir/pkgconfig perl Makefile.PL --with-compat; make; make install"
  cp -R "$bindings/perl" "$tmp/perl-src"
  (cd "$tmp/perl-src" && find . -mindepth 1 -maxdepth 1 -print | sed 's|^\./||' | LC_ALL=C sort) > "$tmp/perl.list"
  (cd "$tmp/perl-src" &&
    PKG_CONFIG_PATH="$libdir/pkgconfig" "$perl" Makefile.PL --with-compat INSTALL_BASE="$tmp/perl-inst" &&
    "$make" && "$make" install) > "$tmp/perl-build.log" 2>&1 || { cat "$tmp/perl-build.log"; fail "perl build"; }
  grep 'libwurl: recording' "$tmp/perl-build.log"
  check_ignored "$tmp/perl-src" bindings/perl "$tmp/perl.list"
  pm=$(find "$tmp/perl-inst" -path '*/Web/URL/Canonicalize.pm' | head -n 1)
  [ -n "$pm" ] || fail "Web/URL/Canonicalize.pm not installed"
  plib=${pm%/Web/URL/Canonicalize.pm}

  step "Perl: the installed Web::URL::Canonicalize, no WURL_LIB, LD_LIBRARY_PATH or PKG_CONFIG_PATH"
  cd "$tmp"
  PERL5LIB="$plib" PKG_CONFIG_LIBDIR="$nowhere" "$perl" "$tools/check_seed.pl" "$tsv" Web::URL::Canonicalize "$plib"
  out=$(PERL5LIB="$plib" PKG_CONFIG_LIBDIR="$nowhere" "$perl" -MWeb::URL::Canonicalize \
    -e 'print url_to_canon_url(q<../a/./b>, q<http://EXAMPLE.com:80/x/y>), " ", Wurl::library_path()')
  echo "$out"
  case "$out" in
    "http://example.com/a/b $libdir/"*) ;;
    *) fail "Perl: got '$out', not the canonical URL and a library under $libdir" ;;
  esac

  if $system_has_wurl; then
    echo "the system loader has a libwurl.so.0: the failure message is not checked"
  else
  step "Perl: built without pkg-config's help, the module says where it looked"
  rm -rf "$tmp/perl-src2" && cp -R "$bindings/perl" "$tmp/perl-src2"
  (cd "$tmp/perl-src2" && PKG_CONFIG_LIBDIR="$nowhere" "$perl" Makefile.PL && "$make") > "$tmp/perl-build2.log" 2>&1 ||
    { cat "$tmp/perl-build2.log"; fail "perl build without pkg-config"; }
  if PERL5LIB="$tmp/perl-src2/blib/lib" PKG_CONFIG_LIBDIR="$nowhere" "$perl" -MWurl -e 1 2> "$tmp/perl.err"; then
    fail "Perl: Wurl loaded without any way to find libwurl (is libwurl.so.0 on the system loader's path?)"
  fi
  cat "$tmp/perl.err"
  grep -q 'Looked in: WURL_LIB (not set);' "$tmp/perl.err" || fail "Perl: the message does not say where it looked"
  grep -q 'Set WURL_LIB' "$tmp/perl.err" || fail "Perl: the message does not name WURL_LIB"
  grep -q 'PKG_CONFIG_PATH=PREFIX/lib/pkgconfig' "$tmp/perl.err" || fail "Perl: the message does not name PKG_CONFIG_PATH"
  fi
else
  echo "perl with FFI::Platypus and ExtUtils::MakeMaker not found: Perl part skipped"
fi

# --- Ruby ----------------------------------------------------------------------
if "$ruby" -e "require 'ffi'" 2>/dev/null && command -v "$gem" >/dev/null 2>&1; then
  step "Ruby: gem build; PKG_CONFIG_PATH=$libdir/pkgconfig gem install --local"
  cp -R "$bindings/ruby" "$tmp/ruby-src"
  (cd "$tmp/ruby-src" && find . -mindepth 1 -maxdepth 1 -print | sed 's|^\./||' | LC_ALL=C sort) > "$tmp/ruby.list"
  (cd "$tmp/ruby-src" && "$gem" build wurl-canon.gemspec) > "$tmp/gem-build.log" 2>&1 ||
    { cat "$tmp/gem-build.log"; fail "gem build"; }
  check_ignored "$tmp/ruby-src" bindings/ruby "$tmp/ruby.list"
  pkg=$(cd "$tmp/ruby-src" && ls wurl-canon-*.gem)
  echo "GEM_PATH=$gem_path"
  GEM_HOME="$tmp/gems" GEM_PATH="$gem_path" PKG_CONFIG_PATH="$libdir/pkgconfig" \
    "$gem" install --local --no-document "$tmp/ruby-src/$pkg" > "$tmp/gem-install.log" 2>&1 ||
    { cat "$tmp/gem-install.log"; fail "gem install"; }
  cat "$tmp/gem-install.log"
  find "$tmp/gems" -name installed_libdir -path '*/lib/wurl/*' -exec cat {} \;

  step "Ruby: require 'wurl', no WURL_LIB, LD_LIBRARY_PATH or PKG_CONFIG_PATH"
  cd "$tmp"
  GEM_HOME="$tmp/gems" GEM_PATH="$gem_path" PKG_CONFIG_LIBDIR="$nowhere" "$ruby" "$tools/check_seed.rb" "$tsv" "$tmp/gems"
  out=$(GEM_HOME="$tmp/gems" GEM_PATH="$gem_path" PKG_CONFIG_LIBDIR="$nowhere" "$ruby" -e \
    'require "wurl"; print Wurl.canonicalize("../a/./b", base: "http://EXAMPLE.com:80/x/y"), " ", Wurl.library_path')
  echo "$out"
  case "$out" in
    "http://example.com/a/b $libdir/"*) ;;
    *) fail "Ruby: got '$out', not the canonical URL and a library under $libdir" ;;
  esac

  if $system_has_wurl; then
    echo "the system loader has a libwurl.so.0: the failure message is not checked"
  else
  step "Ruby: installed without pkg-config's help, the gem says where it looked, once"
  GEM_HOME="$tmp/gems2" GEM_PATH="$gem_path2" PKG_CONFIG_LIBDIR="$nowhere" \
    "$gem" install --local --no-document "$tmp/ruby-src/$pkg" > "$tmp/gem-install2.log" 2>&1 ||
    { cat "$tmp/gem-install2.log"; fail "gem install without pkg-config"; }
  if GEM_HOME="$tmp/gems2" GEM_PATH="$gem_path2" PKG_CONFIG_LIBDIR="$nowhere" "$ruby" -e 'require "wurl"' 2> "$tmp/ruby.err"; then
    fail "Ruby: wurl loaded without any way to find libwurl (is libwurl.so.0 on the system loader's path?)"
  fi
  cat "$tmp/ruby.err"
  [ "$(grep -c 'Looked in: WURL_LIB (not set);' "$tmp/ruby.err")" = 1 ] || fail "Ruby: the message is not there exactly once"
  grep -q 'Set WURL_LIB' "$tmp/ruby.err" || fail "Ruby: the message does not name WURL_LIB"
  grep -q 'PKG_CONFIG_PATH=PREFIX/lib/pkgconfig' "$tmp/ruby.err" || fail "Ruby: the message does not name PKG_CONFIG_PATH"
  ! grep -q 'Could not open library' "$tmp/ruby.err" || fail "Ruby: the ffi gem's LoadError is printed too"
  fi
else
  echo "ruby with the ffi gem, or gem, not found: Ruby part skipped"
fi

echo
echo "install.bindings: all checks passed"
