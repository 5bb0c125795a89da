# frozen_string_literal: true

# Handles and scratch buffers: the raw handle is not reachable through the
# public API (it was, and `u.handle.free` then let `u.to_s` read another
# URL's bytes), copies share the handle or go through the state pair
# (Marshal, URL#state / URL.from_state), a malformed state raises, and a
# large result's buffer does not stay behind in any fiber (8 fibers each
# kept 48 MiB).

require 'minitest/autorun'
require 'rbconfig'
require 'wurl'

class LifetimeTest < Minitest::Test
  def test_handle_is_not_public
    u = Wurl.parse('http://a/b')
    refute_respond_to u, :handle
    assert_raises(NoMethodError) { u.handle }
    refute Wurl::URL.public_method_defined?(:pointer)
    assert_raises(NameError) { Wurl::URL::Handle }
  end

  def test_freed_handle_is_detached
    # Row 10 of issue 12, through the only way left to reach the handle.
    u = Wurl.parse('http://a/b')
    u.instance_variable_get(:@handle).free
    others = Array.new(50) { |i| Wurl.parse("http://zzz#{'z' * i}/other") }
    %i[to_s serialize host invalid? invalid_reason host_kind to_h canonicalize].each do |m|
      e = assert_raises(Wurl::Error, m.to_s) { u.public_send(m) }
      assert_match(/handle was freed/, e.message)
    end
    assert_raises(Wurl::Error) { u.resolve('x') }
    assert_raises(Wurl::Error) { Wurl.canonicalize('x', base: u) }
    assert_equal '#<Wurl::URL (handle freed)>', u.inspect
    assert_equal 'http://zzz/other', others[0].to_s
    GC.start # the finalizer of the freed handle does nothing
  end

  def test_copies
    u = Wurl.parse('http://a/b')
    c = u.dup
    d = u.clone
    c = nil # rubocop:disable Lint/UselessAssignment
    GC.start
    assert_equal 'http://a/b', u.to_s
    assert_equal 'http://a/b', d.to_s
    m = Marshal.load(Marshal.dump([u, u]))
    assert_equal [u, u], m
    assert_same m[0], m[1], 'Marshal keeps sharing within the copy'
    assert_equal 'http://a/b', u.to_s
  end

  # Parsed, resolved, canonical and invalid URLs; absent and empty.
  def samples
    base = Wurl.parse('http://User@EXAMPLE.com:80/a/b?q#f')
    [
      base,
      base.resolve('../c/./d?x=%41'),
      base.resolve("?\u5050").canonicalize(charset: 'euc-jp'),
      Wurl.parse('http:///evil.com/').canonicalize(strict: true),
      Wurl.parse('foo'), # invalid: no scheme
      Wurl.parse('mailto:x').resolve('hoge'), # invalid: relative against mailto:
      Wurl.parse('http://a:99999/').canonicalize, # invalid: port
      Wurl.parse("http://a/\xFF\0".b),
      Wurl.parse('http://user:@host/p?#'), # password, query, fragment present and empty
      Wurl.parse('http://user:@host/p?#').canonicalize,
      Wurl.parse('http://host/p'), # absent
      Wurl.parse('http://a/').resolve('//@/')
    ]
  end

  def test_state_round_trip
    samples.each do |u|
      what = u.inspect
      s = u.state
      assert_equal Encoding::BINARY, s.encoding, what
      back = Wurl::URL.from_state(s)
      assert_equal u, back, what
      assert_equal [u.invalid_reason, u.to_h], [back.invalid_reason, back.to_h], what
      assert_equal s, back.state, "#{what}: one encoding"
      assert_equal u.canonicalize, back.canonicalize, what
      # The state is bytes, whatever the String's encoding says.
      assert_equal u, Wurl::URL.from_state(s.dup.force_encoding(Encoding::UTF_8)), what
    end
    all = samples
    copy = Marshal.load(Marshal.dump(all))
    assert_equal all, copy
    empty = Marshal.load(Marshal.dump(all[8]))
    assert_equal ['', '', ''], [empty.password, empty.query, empty.fragment]
    absent = Marshal.load(Marshal.dump(all[10]))
    assert_equal [nil, nil, nil, nil], [absent.user, absent.password, absent.query, absent.fragment]
    # Marshal in another process.
    dumped = Marshal.dump(all)
    out = IO.popen([RbConfig.ruby, '-I', File.expand_path('../lib', __dir__), '-rwurl', '-e',
                    'print Marshal.load($stdin.read).map(&:inspect).join("\n")'], 'r+b') do |io|
      io.write(dumped)
      io.close_write
      io.read
    end
    assert_equal all.map(&:inspect).join("\n"), out.force_encoding(Encoding::UTF_8)
  end

  def test_malformed_states_raise
    bad = lambda do |bytes|
      e = assert_raises(Wurl::Error, bytes.inspect) { Wurl::URL.from_state(bytes) }
      assert_equal Wurl::WURL_E_BAD_STATE, e.status
    end
    ['', 'wurl', 'junk', "wurl\x02", "\0" * 64, 'x' * 1000].each { |b| bad.call(b) }
    state = samples[8].state
    (0...state.bytesize).each { |n| bad.call(state.byteslice(0, n)) }
    bad.call(state + 'x')
    refused = made = 0
    (0...state.bytesize).each do |i|
      [0x01, 0x80, 0xFF].each do |x|
        s = state.dup
        s.setbyte(i, s.getbyte(i) ^ x)
        begin
          v = Wurl::URL.from_state(s)
          # Another value: a whole URL whose state is that state.
          made += 1 if v.state == s && v.to_h
        rescue Wurl::Error => e
          refused += 1 if e.status == Wurl::WURL_E_BAD_STATE
        end
      end
    end
    assert_equal 3 * state.bytesize, refused + made
    assert_operator refused, :>, state.bytesize
    # Marshal of altered bytes raises the same error.
    dumped = Marshal.dump(samples[0])
    e = assert_raises(Wurl::Error) { Marshal.load(dumped.sub('wurl', 'wurx')) }
    assert_equal Wurl::WURL_E_BAD_STATE, e.status
    assert_raises(TypeError) { Wurl::URL.from_state(nil) }
    assert_raises(TypeError) { Wurl::URL.from_state(1) }
  end

  def test_rules_marshal
    r = Wurl::Rules.new('strip-www,sort-query')
    c = Marshal.load(Marshal.dump(r))
    assert_equal r.spec, c.spec
    assert_equal 'http://a.com/?a&b', Wurl.canonicalize('http://www.a.com/?b&a', rules: c)
  end

  def test_fork
    skip 'no fork' unless Process.respond_to?(:fork)
    u = Wurl.parse('http://A/b').resolve('c?d')
    r, w = IO.pipe
    pid = fork do
      r.close
      w.write(u.canonicalize.to_s, ' ', Wurl.canonicalize('x', base: u))
      w.close
      u = nil
      GC.start
      exit!(0)
    end
    w.close
    out = r.read
    Process.wait(pid)
    assert_equal 0, $?.exitstatus
    assert_equal 'http://a/c?d http://a/x', out
    assert_equal 'http://A/c?d', u.to_s
  end

  # glibc's malloc_trim, when the C library has it: memory a test freed is
  # handed back before RSS is read. Without it, whether glibc returns a freed
  # 48 MiB block at once depends on what the tests that ran before left on
  # the heap (its mmap threshold grows after a large block is freed), so the
  # same library passed or failed with the test order.
  module LibC
    extend FFI::Library
    ffi_lib FFI::Library::LIBC
    begin
      attach_function :malloc_trim, [:size_t], :int
    rescue FFI::NotFoundError
      nil
    end
  end

  def rss_mib
    LibC.malloc_trim(0) if LibC.respond_to?(:malloc_trim)
    File.read('/proc/self/statm').split[1].to_i * 4096 / (1024.0 * 1024)
  end

  # The largest input the library takes (16 MiB of UTF-8), whose result is
  # three times as long.
  def big_input
    n = (Wurl::WURL_MAX_INPUT_LEN - 'http://a/'.bytesize) / 3
    ["http://a/#{"\u20AC" * n}", 'http://a/'.bytesize + (9 * n)]
  end

  def test_large_result_buffer_is_released_in_every_fiber
    skip 'needs /proc/self/statm' unless File.readable?('/proc/self/statm')
    input, want = big_input
    GC.start
    base = rss_mib
    fibers = Array.new(8) do
      Fiber.new do
        len = Wurl.canonicalize(input).bytesize
        # What this fiber keeps (Thread.current[] is fiber-local).
        Fiber.yield [len, Thread.current[:__wurl_canon_buf]&.size || 0]
        Wurl.canonicalize('http://a/small')
      end
    end
    first = fibers.map(&:resume)
    assert_equal [want] * 8, first.map(&:first)
    first.each { |_, kept| assert_operator kept, :<=, 64 * 1024, 'a suspended fiber keeps at most the cap' }
    assert_equal ['http://a/small'] * 8, fibers.map(&:resume)
    # The fibers have finished but are still referenced, so their fiber-local
    # storage is alive. (RSS is not measured while they are suspended: their
    # stacks may still hold the caller's 48 MiB result strings, which the GC
    # scans conservatively.)
    GC.start
    after = rss_mib - base
    # A kept buffer would be 48 MiB per fiber (384 MiB for 8).
    assert_operator after, :<, 60,
                    format('RSS %+.1f MiB after 8 fibers made a 48 MiB result each', after)
    assert_equal 8, fibers.size
  end

  def test_large_result_repeated_rss_flat
    skip 'needs /proc/self/statm' unless File.readable?('/proc/self/statm')
    input, want = big_input
    GC.start
    base = rss_mib
    deltas = Array.new(3) do
      assert_equal want, Wurl.canonicalize(input).bytesize
      GC.start
      Wurl.canonicalize('http://a/small')
      rss_mib - base
    end
    msg = deltas.map { |d| format('%+.1f MiB', d) }.join(', ')
    assert(deltas.all? { |d| d < 20 }, "RSS after each 16 MiB call from the baseline: #{msg}")
  end
end
