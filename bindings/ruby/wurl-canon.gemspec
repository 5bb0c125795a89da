# frozen_string_literal: true

# The gem of the Ruby binding of wurl:
#
#   gem build wurl-canon.gemspec && gem install --local wurl-canon-*.gem
#
# The gem is pure Ruby (the ffi gem calls libwurl.so); build the library
# separately (cargo build --release -p wurl-canon, or the CMake build) and
# point WURL_LIB at it, or install libwurl.so.0 where the system loader finds
# it. The name wurl-canon follows the Rust crate; `require 'wurl'`.

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
  s.files = %w[lib/wurl.rb README.md LICENSE]
  s.require_paths = ['lib']
  s.extra_rdoc_files = %w[README.md LICENSE]
  # Tested with Ruby 3.1 (Debian 12); not declared lower than what was tested.
  s.required_ruby_version = '>= 3.1'
  s.add_runtime_dependency 'ffi', '~> 1.15'
  s.requirements << 'libwurl.so (wurl C library), found through WURL_LIB or the system loader'
end
