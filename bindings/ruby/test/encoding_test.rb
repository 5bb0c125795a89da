# frozen_string_literal: true

# How Ruby strings reach the C ABI (bindings/README.md, "Strings"): UTF-8,
# binary (ASCII-8BIT) and US-ASCII strings go as their bytes, valid or not
# (the library reads invalid UTF-8 with U+FFFD, as from C); any other
# encoding is transcoded to UTF-8, its invalid or unconvertible characters
# becoming U+FFFD; results are UTF-8 Strings.

require 'minitest/autorun'
require 'wurl'

class EncodingTest < Minitest::Test
  def canon(str)
    Wurl.canonicalize(str)
  end

  def test_utf8
    assert_equal 'http://xn--4gq.com/', canon("http://\u4E00.com/")
    assert_equal 'http://a/%EF%BF%BD', canon((+"http://a/\xE9").force_encoding('UTF-8')), 'invalid UTF-8: U+FFFD'
    refute((+"http://a/\xE9").force_encoding('UTF-8').valid_encoding?)
  end

  def test_binary_strings_are_their_bytes
    # As read from a file in binary mode: valid UTF-8 bytes are UTF-8 ...
    assert_equal 'http://xn--4gq.com/', canon("http://\xE4\xB8\x80.com/".b)
    assert_equal 'http://a/%E2%98%BA', canon("http://a/\xE2\x98\xBA".b)
    # ... and anything else is U+FFFD, one per maximal invalid subpart,
    # exactly as the same bytes from C (not Latin-1).
    assert_equal 'http://a/%EF%BF%BD', canon("http://a/\xE9".b)
    assert_equal 'http://a/%EF%BF%BD%EF%BF%BD%EF%BF%BD', canon("http://a/\xED\xA0\x80".b)
    assert_equal 'http://a/%EF%BF%BD', canon("http://a/\xE4\xB8".b)
    assert_equal 'http://a/%00b', canon("http://a/\0b".b)
  end

  def test_us_ascii_with_high_bytes_is_bytes
    s = (+"http://a/\xE4\xB8\x80").force_encoding('US-ASCII')
    refute s.valid_encoding?
    assert_equal 'http://a/%E4%B8%80', canon(s)
  end

  def test_other_encodings_are_transcoded
    {
      'ISO-8859-1' => ["http://a/\u00E9", 'http://a/%C3%A9'],
      'Windows-1252' => ["http://a/\u20AC", 'http://a/%E2%82%AC'],
      'Shift_JIS' => ["http://a/\u65E5", 'http://a/%E6%97%A5'],
      'EUC-JP' => ["http://a/\u65E5", 'http://a/%E6%97%A5'],
      'ISO-2022-JP' => ["http://a/\u65E5", 'http://a/%E6%97%A5'],
      'UTF-16LE' => ["http://\u4E00.com/", 'http://xn--4gq.com/'],
      'UTF-16BE' => ["http://\u4E00.com/", 'http://xn--4gq.com/'],
      'UTF-16' => ["http://\u4E00.com/", 'http://xn--4gq.com/'],
      'UTF-32LE' => ["http://a/\u{1F600}", 'http://a/%F0%9F%98%80']
    }.each do |enc, (text, want)|
      s = text.encode(enc)
      assert_equal Encoding.find(enc), s.encoding
      assert_equal want, canon(s), enc
      assert_equal want, Wurl.parse(s).canonicalize.to_s, "#{enc}: parse"
    end
  end

  def test_invalid_bytes_in_another_encoding_are_replaced
    s = (+"http://a/\xA4").force_encoding('EUC-JP')
    refute s.valid_encoding?
    assert_equal 'http://a/%EF%BF%BD', canon(s)
    s = (+"http://a/\xFF").force_encoding('Shift_JIS')
    assert_equal 'http://a/%EF%BF%BD', canon(s)
  end

  def test_encoding_without_converter
    s = (+'http://a/+ZeU-').force_encoding('UTF-7')
    assert_raises(Encoding::ConverterNotFoundError) { canon(s) }
    assert_equal 'http://a/+ZeU-', canon(s.b), 'its bytes pass with String#b'
  end

  def test_charset_label_and_base_follow_the_same_rule
    base = "http://\u4E00.com/".encode('UTF-16LE')
    assert_equal 'http://xn--4gq.com/x', Wurl.canonicalize('x', base: base)
    assert_equal 'http://hoge/?%D0%F4', Wurl.canonicalize("?\u5050", base: 'http://hoge', charset: 'euc-jp'.b)
    assert_equal 'http://hoge/?%D0%F4', Wurl.canonicalize("?\u5050".encode('EUC-JP'), base: 'http://hoge',
                                                                                     charset: 'euc-jp')
    assert_equal 'http://hoge/?%D0%F4', Wurl.canonicalize("?\u5050", base: 'http://hoge', charset: :'euc-jp'),
                 'a Symbol label'
  end

  def test_results_are_utf8
    u = Wurl.parse("http://a/\u00E9".encode('ISO-8859-1'))
    assert_equal Encoding::UTF_8, u.path.encoding
    assert_equal "/\u00E9", u.path
    assert_equal Encoding::UTF_8, canon("http://a/\xE9".b).encoding
    assert_equal Encoding::UTF_8, Wurl.parse("http://a/\xFF".b).path.encoding
    assert_equal "/\uFFFD", Wurl.parse("http://a/\xFF".b).path
  end

  def test_input_is_not_modified
    s = "http://a/\u00E9".encode('ISO-8859-1')
    before = s.dup
    canon(s)
    assert_equal before, s
    assert_equal Encoding::ISO_8859_1, s.encoding
    frozen = 'http://a/x'.b.freeze
    assert_equal 'http://a/x', canon(frozen)
  end

  def test_non_strings
    assert_raises(TypeError) { canon(nil) }
    assert_raises(TypeError) { canon(:'http://a/') }
    assert_raises(TypeError) { canon(42) }
    to_str = Object.new
    def to_str.to_str = 'http://A/'
    assert_equal 'http://a/', canon(to_str)
  end
end
