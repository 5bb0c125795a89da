# frozen_string_literal: true

# The gem of the Ruby binding of wurl:
#
#   gem build wurl-canon.gemspec && gem install --local wurl-canon-*.gem
#
# The gem is pure Ruby (the ffi gem calls libwurl.so). Install the library
# first (cmake --install build --prefix PREFIX); `gem install` then records
# where it is (ext/wurl/extconf.rb: $WURL_LIBDIR, else pkg-config, so
# PKG_CONFIG_PATH=PREFIX/lib/pkgconfig for a PREFIX outside pkg-config's
# path), and `require 'wurl'` loads it from there. WURL_LIB (the path of
# libwurl.so.0) overrides. The name wurl-canon follows the Rust crate;
# `require 'wurl'`.

# The version, read from the source rather than by loading it (loading
# wurl.rb loads libwurl).
version = File.read(File.join(__dir__, 'lib', 'wurl.rb'))[/^\s*VERSION = '([^']+)'/, 1] or
  raise 'no VERSION in lib/wurl.rb'

Gem::Specification.new do |s|
  s.name = 'wurl-canon'
  s.version = version
  s.summary = 'URL canonicalization exactly as the 2012 Web::URL::Canonicalize algorithm, through libwurl'
  s.description = <<~TEXT
    Parses, resolves, canonicalizes and serializes URLs as the 2012
    Web::URL::Canonicalize algorithm does (the browser-compatible model before
    the WHATWG URL Standard), for crawlers that use the canonical URL as a
    deduplication key. Absent and empty components are distinct (nil vs "").
    Calls libwurl.so (not included) through the ffi gem.
  TEXT
  s.authors = ['The wurl authors']
  s.license = 'MIT'
  s.files = %w[lib/wurl.rb ext/wurl/extconf.rb README.md LICENSE]
  # Not a C extension: extconf.rb records the directory of the installed
  # libwurl (lib/wurl/installed_libdir) at gem install.
  s.extensions = ['ext/wurl/extconf.rb']
  s.require_paths = ['lib']
  s.extra_rdoc_files = %w[README.md LICENSE]
  # Tested with Ruby 3.1 (Debian 12); not declared lower than what was tested.
  s.required_ruby_version = '>= 3.1'
  s.add_runtime_dependency 'ffi', '~> 1.15'
  s.requirements << 'libwurl.so.0 (wurl C library): the directory recorded at install (pkg-config), WURL_LIB or the system loader'
end
