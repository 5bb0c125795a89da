# frozen_string_literal: true

# Handles and scratch buffers: the raw handle is not reachable through the
# public API (it was, and `u.handle.free` then let `u.to_s` read another
# URL's bytes), copies share or refuse, and a large result's buffer does not
# stay behind in any fiber (8 fibers each kept 48 MiB).

require 'minitest/autorun'
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
    e = assert_raises(TypeError) { Marshal.dump([u]) }
    assert_match(/cannot be marshaled/, e.message)
    assert_equal 'http://a/b', u.to_s
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
