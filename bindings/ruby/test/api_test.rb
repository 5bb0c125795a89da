# frozen_string_literal: true

# Unit tests of the Ruby binding.

require 'minitest/autorun'
require 'rbconfig'
require 'wurl'

class ApiTest < Minitest::Test
  LIBDIR = File.expand_path('../lib', __dir__)

  def test_library
    assert_match(/\A\d+\.\d+\.\d+/, Wurl.library_version)
    # The key version (wurl_key_version) and its pin.
    v = Wurl.key_version
    assert_kind_of Integer, v
    assert_operator v, :>=, 1
    assert Wurl.require_key_version(v)
    e = assert_raises(RuntimeError) { Wurl.require_key_version(v + 998) }
    assert_includes e.message, "this wurl makes keys of version #{v}; its keys would not be those of version #{v + 998}"
    assert_raises(TypeError) { Wurl.require_key_version('1') }
    assert Wurl.library_path
    if Wurl::REPO_ROOT
      assert(Wurl.library_candidates.any? { |c| c.end_with?('target/release/libwurl.so') })
    else # an installed gem: no checkout paths
      refute(Wurl.library_candidates.any? { |c| c.include?('target/release') })
    end
    assert_equal 'input longer than WURL_MAX_INPUT_LEN', Wurl.status_string(Wurl::WURL_E_TOO_LONG)
  end

  def test_components
    u = Wurl.parse('HTTP://User:Pw@EXAMPLE.com:80/a/../b?q#f')
    assert_instance_of Wurl::URL, u
    assert_equal 'HTTP', u.scheme
    assert_equal 'User', u.user
    assert_equal 'Pw', u.password
    assert_equal 'EXAMPLE.com', u.host
    assert_equal '80', u.port
    assert_equal '/a/../b', u.path
    assert_equal 'q', u.query
    assert_equal 'f', u.fragment
    assert_equal 'EXAMPLE.com', u[:host]
    assert_equal 'EXAMPLE.com', u['host']
    refute u.invalid?
    assert_nil u.invalid_reason
    c = u.canonicalize
    # The path normalized as resolving it again would (CHANGELOG).
    assert_equal 'http://User:Pw@example.com/b?q#f', c.serialize
    assert_equal c.serialize, c.to_s
    assert_equal 'HTTP://User:Pw@EXAMPLE.com:80/a/../b?q#f', u.serialize, 'the original is untouched'
    assert_equal({ scheme: 'http', user: 'User', password: 'Pw', host: 'example.com',
                   path: '/b', query: 'q', fragment: 'f' }, c.to_h)
    assert_equal Encoding::UTF_8, c.path.encoding
    assert_raises(ArgumentError) { u[:nope] }
    assert_match(/\A#<Wurl::URL http/, c.inspect)
  end

  def test_absent_and_empty
    u = Wurl.parse('http://a/?')
    assert_equal '', u.query
    assert_nil u.fragment
    assert_nil u.user
    assert_equal '', Wurl.parse('http://a/?#').fragment
  end

  def test_resolve_and_one_call
    base = Wurl.parse('http://EXAMPLE.com:80/x/y')
    r = base.resolve('../a/./b')
    assert_equal 'http://EXAMPLE.com:80/a/b', r.serialize
    assert_equal 'http://example.com/a/b', r.canonicalize.serialize
    assert_equal 'http://example.com/a/b', Wurl.canonicalize('../a/./b', base: 'http://EXAMPLE.com:80/x/y')
    assert_equal 'http://example.com/a/b', Wurl.canonicalize('../a/./b', base: base)
    assert_equal 'http://foo/bar/', Wurl.canonicalize('http://foo/bar/./baz/..')
    assert_nil Wurl.canonicalize('foo')
    assert_nil Wurl.canonicalize('hoge', base: 'mailto:foo')
  end

  def test_invalid
    u = Wurl.parse('foo')
    assert u.invalid?
    assert_match(/scheme/, u.invalid_reason)
    assert_nil u.serialize
    assert_equal '', u.to_s
    assert_equal 'foo', u.path
    assert_match(/invalid/, u.inspect)
  end

  def test_host_kind
    {
      'mailto:x' => :none, 'file:///x' => :empty, 'http://example.com/' => :domain,
      'http://1.2.3.4/' => :ipv4, 'http://0x7f.1/' => :ipv4, 'http://[::1]/' => :ipv6
    }.each do |input, kind|
      assert_equal kind, Wurl.parse(input).canonicalize.host_kind, input
    end
    assert_equal :domain, Wurl.parse('http://0x7f.1/').host_kind
  end

  def test_charset_and_strict
    u = Wurl.parse('http://hoge').resolve("?\u5050")
    assert_equal 'http://hoge/?%E5%81%90', u.canonicalize.serialize
    assert_equal 'http://hoge/?%D0%F4', u.canonicalize(charset: 'euc-jp').serialize
    assert_equal 'http://hoge/??', u.canonicalize(charset: 'iso-8859-1').serialize
    assert_instance_of Wurl::URL, u.canonicalize(strict: true)
    assert_equal 'http://hoge/?%D0%F4', Wurl.canonicalize("?\u5050", base: 'http://hoge', charset: 'euc-jp')
    assert_equal 'http://example.com/', Wurl.canonicalize('http://example.com/', strict: true)
  end

  def test_an_unknown_charset_label_raises
    # The library would read it as UTF-8: a misspelt label is refused in
    # every call that takes a charset, with the library's message
    # (wurl_charset_message) as it is.
    u = Wurl.parse('http://hoge').resolve("?\u5050")
    ['shiftjis', 'no-such-label', 'utf-7', '', 'utf_8', "sj\u00e9is", 'a"b\\c', :nope].each do |label|
      msg = Wurl.charset_message(label)
      refute_nil msg, label
      assert_match(/\A[\x20-\x7E]+\z/, msg, 'printable ASCII')
      calls = {
        'URL#canonicalize' => -> { u.canonicalize(charset: label) },
        'Wurl.canonicalize' => -> { Wurl.canonicalize("?\u5050", base: 'http://hoge', charset: label) },
        'with rules' => -> { Wurl.canonicalize('http://a/', charset: label, rules: 'sort-query') },
        'with surt' => -> { Wurl.canonicalize('http://a/', charset: label, surt: true) },
        'URL Standard' => -> { Wurl.canonicalize('http://a/', charset: label, model: 'url-standard') },
        'URL Standard, URL base' => -> { Wurl.canonicalize('a', base: u, charset: label, model: 'url-standard') }
      }
      calls.each do |what, call|
        e = assert_raises(ArgumentError, "#{label.inspect} #{what}") { call.call }
        assert_equal msg, e.message, "#{label.inspect} #{what}"
      end
      refute Wurl.charset_known?(label), label
    end
    # WHATWG labels: case and surrounding whitespace do not matter.
    ['Shift_JIS', ' sjis ', 'EUC-JP', :latin1, 'utf-16le', Encoding::EUC_JP].each do |label|
      assert Wurl.charset_known?(label), label
      assert_nil Wurl.charset_message(label), label
    end
    assert_equal 'http://hoge/?%82%A0', Wurl.canonicalize("?\u3042", base: 'http://hoge', charset: ' Shift_JIS ')
    assert_equal 'http://hoge/?%E3%81%82', Wurl.canonicalize("?\u3042", base: 'http://hoge', charset: 'utf-16le'),
                 'a known label whose encoding is not ASCII-compatible means UTF-8'
    # A long unknown label is quoted in part; one over WURL_MAX_INPUT_LEN is
    # the call's refusal, as before.
    e = assert_raises(ArgumentError) { u.canonicalize(charset: 'x' * 10_000) }
    assert_equal Wurl.charset_message('x' * 10_000), e.message
    assert_operator e.message.bytesize, :<=, Wurl::WURL_CHARSET_MESSAGE_MAX
    huge = 'x' * (Wurl::WURL_MAX_INPUT_LEN + 1)
    e = assert_raises(Wurl::Error) { u.canonicalize(charset: huge) }
    assert_equal Wurl::WURL_E_TOO_LONG, e.status
    e = assert_raises(Wurl::Error) { Wurl.charset_message(huge) }
    assert_equal Wurl::WURL_E_TOO_LONG, e.status
    assert_raises(TypeError) { Wurl.charset_message(nil) }
  end

  def test_buffers_are_sized_once_by_the_output_bound
    # No call is made again on WURL_E_BUFFER_TOO_SMALL: results that expand
    # the most (an invalid UTF-8 byte is 9 bytes), below and above the
    # 64 KiB scratch buffer, come whole through every one-call path, as the
    # handle path gives them.
    [10, 7_200, 7_400, 30_000].each do |n|
      input = "http://a/#{"\xFF" * n}".b
      want = "http://a/#{'%EF%BF%BD' * n}"
      surt = "a)/#{'%EF%BF%BD' * n}"
      assert_equal want, Wurl.canonicalize(input), n
      assert_equal want, Wurl.parse(input).canonicalize.to_s, n
      assert_equal "#{want}?q", Wurl.canonicalize('?q', base: Wurl.parse(input)), n
      assert_equal want, Wurl.canonicalize(input, rules: 'sort-query'), n
      assert_equal surt, Wurl.canonicalize(input, surt: true), n
      assert_equal want, Wurl.canonicalize(input, model: 'url-standard'), n
      assert_equal 'http://a/x', Wurl.canonicalize('/x', base: input, model: 'url-standard'), n
      assert_equal want, Wurl.parse(input).key, n
      assert_equal surt, Wurl.parse(input).key(surt: true), n
    end
  end

  def test_bytes
    assert_equal 'http://a/?%EF%BF%BD', Wurl.canonicalize("http://a/?\xE9".b)
    assert_equal 'http://a/?%C3%A9', Wurl.canonicalize("http://a/?\xC3\xA9".b)
    assert_equal "/x\u{FFFD}", Wurl.parse('http://a/').resolve("x\xFF").path
    assert_raises(TypeError) { Wurl.parse(nil) }
  end

  # An object standing in for a string: to_str gives +value+.
  class StrLike
    def initialize(value)
      @value = value
    end

    def to_str
      @value
    end
  end

  # Every argument that takes a string: an object whose to_str gives no
  # String raises TypeError with Ruby's own message for that conversion
  # (what "" + obj says), naming the argument; one whose to_str gives a
  # String is that string.
  def test_to_str_that_gives_no_string
    u = Wurl.parse('http://hoge/')
    calls = {
      'input' => [->(x) { Wurl.parse(x) }, ->(x) { Wurl::URL.parse(x) }, ->(x) { u.resolve(x) },
                  ->(x) { Wurl.canonicalize(x) }, ->(x) { Wurl.canonicalize(x, model: 'url-standard') }],
      'base' => [->(x) { Wurl.canonicalize('a', base: x) },
                 ->(x) { Wurl.canonicalize('a', base: x, model: 'url-standard') },
                 ->(x) { Wurl.canonicalize('a', base: x, rules: 'sort-query') }],
      'charset' => [->(x) { Wurl.canonicalize('http://a/', charset: x) }, ->(x) { u.canonicalize(charset: x) }],
      'label' => [->(x) { Wurl.charset_known?(x) }],
      'rules' => [->(x) { Wurl.canonicalize('http://a/', rules: x) }, ->(x) { u.key(rules: x) },
                  ->(x) { Wurl::Rules.new(x) }]
    }
    [nil, 42, :sym].each do |bad|
      obj = StrLike.new(bad)
      core = assert_raises(TypeError) { +'' + obj }.message
      assert_equal "can't convert #{StrLike} to String (#{StrLike}#to_str gives #{bad.class})", core
      calls.each do |what, fns|
        fns.each do |fn|
          e = assert_raises(TypeError, what) { fn.call(obj) }
          assert_equal "Wurl: #{what}: #{core}", e.message
        end
      end
    end
    # A to_str that gives a String is used.
    assert_equal 'http://hoge/a', Wurl.canonicalize(StrLike.new('a'), base: StrLike.new('http://hoge/'))
    assert_equal 'http://hoge/x', u.resolve(StrLike.new('x')).to_s
    assert_equal 'http://hoge/?%D0%F4', Wurl.canonicalize("?\u5050", base: 'http://hoge', charset: StrLike.new('euc-jp'))
    assert_equal 'http://a/?a&b', Wurl.canonicalize('http://a/?b&a', rules: StrLike.new('sort-query'))
    assert Wurl.charset_known?(StrLike.new('sjis'))
    assert_equal 'http://b/c', Wurl.canonicalize('c', base: StrLike.new('http://b/'), model: 'url-standard')
    # Objects with no to_str at all, and nil where nil means nothing else.
    assert_raises(TypeError) { Wurl.parse(42) }
    assert_raises(TypeError) { Wurl.canonicalize('a', base: 42) }
    assert_raises(TypeError) { Wurl.canonicalize('http://a/', charset: 1252) }
    e = assert_raises(TypeError) { Wurl.canonicalize(nil) }
    assert_equal 'Wurl: input is nil', e.message
    # Encodings and Symbols are labels by their names.
    assert_equal 'http://hoge/?%D0%F4', Wurl.canonicalize("?\u5050", base: 'http://hoge', charset: Encoding::EUC_JP)
    assert_equal 'http://hoge/?%82%A0', u.resolve("?\u3042").canonicalize(charset: Encoding::Shift_JIS).to_s
  end

  def test_nul_bytes
    u = Wurl.parse("http://a/\0b?\0#\0")
    assert_equal "/\0b", u.path
    assert_equal "\0", u.query
    assert_equal "http://a/\0b?\0#\0", u.serialize
    assert_equal 'http://a/%00b', Wurl.canonicalize("http://a/\0b")
    assert_nil Wurl.canonicalize("\0http://test")
    assert_nil Wurl.canonicalize('')
  end

  def test_buffer_growth
    long = "http://a/#{"\u20AC" * 300}"
    want = "http://a/#{'%E2%82%AC' * 300}"
    assert_equal want, Wurl.canonicalize(long)
    assert_equal 'http://b/', Wurl.canonicalize('http://B/')
    assert_equal "#{want}x", Wurl.canonicalize("#{long}x")
    huge = "http://a/#{'b' * 100_000}"
    assert_equal huge.size, Wurl.canonicalize(huge).size
  end

  def test_too_long
    s = 'x' * (Wurl::WURL_MAX_INPUT_LEN + 1)
    e = assert_raises(Wurl::Error) { Wurl.parse(s) }
    assert_equal Wurl::WURL_E_TOO_LONG, e.status
    assert_raises(Wurl::Error) { Wurl.canonicalize(s) }
  end

  def test_many_handles_and_gc
    20_000.times do |i|
      assert_equal "/#{i}", Wurl.parse("http://a/#{i}").canonicalize.path if (i % 1000).zero?
      Wurl.parse("http://a/#{i}").canonicalize
    end
    GC.start
    pass
  end

  def test_threads
    threads = 4.times.map do |k|
      Thread.new do
        base = Wurl.parse("http://T#{k}/d/")
        200.times.map { |i| base.resolve("x#{i}").canonicalize.to_s }
      end
    end
    threads.each_with_index do |t, k|
      assert_equal 200.times.map { |i| "http://t#{k}/d/x#{i}" }, t.value
    end
  end

  def test_new_is_private
    assert_raises(NoMethodError) { Wurl::URL.new(FFI::Pointer::NULL) }
  end

  def ruby(code, env = {})
    inc = ENV['WURL_TEST_INSTALLED_GEM'] == '1' ? [] : ['-I', LIBDIR]
    IO.popen([env, RbConfig.ruby, *inc, '-e', code], err: %i[child out], &:read)
  end

  def test_subprocesses
    assert_equal 'http://example.com/a/b',
                 ruby("require 'wurl'; print Wurl.canonicalize('../a/./b', base: 'http://EXAMPLE.com:80/x/y')")
    out = ruby("require 'wurl'", 'WURL_LIB' => '/nonexistent/libwurl.so')
    assert_match(%r{WURL_LIB=/nonexistent/libwurl\.so is not a readable file}, out)
  end
end
