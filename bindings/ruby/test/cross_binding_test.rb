# frozen_string_literal: true

# The same bytes give the same results from C, Perl and Ruby: every line of
# bindings/cross-binding-expected.tsv (written by bindings/tools/cross_check.c)
# is recomputed through the Ruby binding and compared byte for byte.

require 'minitest/autorun'
require 'wurl'

class CrossBindingTest < Minitest::Test
  FILE = ENV['WURL_CROSS_EXPECTED'] || File.expand_path('../../cross-binding-expected.tsv', __dir__)
  BASE = 'http://base.example/dir/file?q#f'

  # The file's escaped form of a byte string; nil is \N.
  def self.esc(b)
    return '\\N' if b.nil?

    b.b.each_byte.map do |c|
      if c == 0x5C then '\\\\'
      elsif c.between?(0x21, 0x7E) then c.chr
      else format('\\x%02X', c)
      end
    end.join
  end

  def self.unesc(s)
    return nil if s == '\\N'

    s.b.gsub(/\\(?:\\|x(\h\h))/n) { Regexp.last_match(1) ? Regexp.last_match(1).hex.chr : '\\' }
  end

  def esc(b)
    self.class.esc(b)
  end

  def handle_line(op, input, u)
    f = [op, esc(input), u.invalid? ? '1' : '0', esc(u.invalid_reason),
         Wurl::HOST_KINDS.index(u.host_kind).to_s]
    Wurl::COMPONENTS.each { |c| f << esc(u[c]) }
    f << esc(u.serialize)
    f.join("\t")
  end

  # The line of (op, input); +input+ is a String of any encoding.
  def compute(op, input)
    case op
    when 'parse' then handle_line(op, input, Wurl.parse(input))
    when 'resolve' then handle_line(op, input, Wurl.parse(BASE).resolve(input))
    when 'canon', 'canon_1252'
      cs = op == 'canon_1252' ? 'windows-1252' : nil
      handle_line(op, input, Wurl.parse(input).resolve(input).canonicalize(charset: cs))
    when 'canon_into', /\Akey:(.*)\z/
      rules = Regexp.last_match(1)
      key = if rules.nil? then {}
            elsif rules == 'surt' then { surt: true }
            else { rules: rules }
            end
      s = Wurl.canonicalize(input, **key)
      ([op, esc(input), s.nil? ? '1' : '0'] + ['\\N'] * 10 + [esc(s)]).join("\t")
    else flunk "unknown op #{op}"
    end
  end

  def rows
    File.binread(FILE).split("\n").reject { |l| l.start_with?('#') || l.empty? }.map do |line|
      cols = line.split("\t", -1)
      assert_equal 14, cols.size, line
      [line, cols[0], self.class.unesc(cols[1])]
    end
  end

  def test_same_bytes_same_results
    rs = rows
    assert_operator rs.size, :>=, 900
    failed = 0
    rs.each do |line, op, input|
      # As a binary string, and as a UTF-8 string holding the same (possibly
      # invalid) bytes: both go out as they are.
      [input.b, input.dup.force_encoding(Encoding::UTF_8)].each do |s|
        got = compute(op, s)
        failed += 1 if got != line
        assert_equal line, got, "#{op} #{esc(input)} (#{s.encoding})"
      end
    end
    warn "\nruby-cross-binding: #{rs.size * 2 - failed} passed, #{failed} failed"
  end

  def test_other_encodings_are_transcoded
    latin1 = "http://a/?\xE9".dup.force_encoding(Encoding::ISO_8859_1)
    assert_equal 'http://a/?%C3%A9', Wurl.canonicalize(latin1)
    utf16 = 'http://a/€'.encode(Encoding::UTF_16LE)
    assert_equal 'http://a/%E2%82%AC', Wurl.canonicalize(utf16)
    bad_sjis = "http://a/\x82".dup.force_encoding(Encoding::Shift_JIS)
    assert_equal 'http://a/%EF%BF%BD', Wurl.canonicalize(bad_sjis)
  end
end
