# frozen_string_literal: true

# tests/data/url_to_canon_url.tsv through Wurl.canonicalize (the one-call
# path) and through parse / resolve / canonicalize / serialize.

require 'minitest/autorun'
require_relative 'dat'
require 'wurl'

class UrlToCanonUrlTest < Minitest::Test
  # \N is nil; \uXXXX escapes; \\ is a backslash (as tests/conformance.rs).
  def field(s)
    return nil if s == '\\N'

    WurlDat.unescape(s.gsub('\\\\', "\u{E000}")).gsub("\u{E000}", '\\')
  end

  def test_examples
    text = WurlDat.read_utf8(File.join(WurlDat.data_dir, 'url_to_canon_url.tsv'))
    n = 0
    passed = 0
    text.split("\n").each do |line|
      line = line.delete_suffix("\r")
      next if line.start_with?('# ') || line.empty?

      cols = line.split("\t", -1)
      assert_equal 4, cols.size, line
      input, base, charset, want = cols.map { |c| field(c) }
      input ||= ''
      got = Wurl.canonicalize(input, base: base, charset: charset)
      got2 = Wurl.parse(base || input).resolve(input).canonicalize(charset: charset).serialize
      want.nil? ? assert_nil(got, line) : assert_equal(want, got, line)
      want.nil? ? assert_nil(got2, line) : assert_equal(want, got2, line)
      n += 1
      passed += 1
    end
    assert_equal 23, n
    warn "\nruby-url_to_canon_url: #{passed} passed, #{n - passed} failed"
  end
end
