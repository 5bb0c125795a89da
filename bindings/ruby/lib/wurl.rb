# frozen_string_literal: true

# Ruby binding of wurl (the 2012 Web::URL::Canonicalize algorithm) over its C
# ABI, with the ffi gem. See README.md (the gem's) or bindings/README.md.

require 'ffi'

# URL parsing, resolution and canonicalization exactly as the 2012
# Web::URL::Canonicalize algorithm does, through libwurl.
#
# The library is found through ENV['WURL_LIB'] (the path of libwurl.so),
# then, from a checkout, its build outputs, then the directory recorded when
# the gem was installed, then the system loader (libwurl.so.0), then
# pkg-config. See {library_candidates} and {library_path}.
#
# @example
#   require 'wurl'
#   base = Wurl.parse('http://EXAMPLE.com:80/x/y')
#   base.resolve('../a/./b').canonicalize.to_s   # => "http://example.com/a/b"
#   Wurl.canonicalize("?\u5050", base: 'http://hoge', charset: 'euc-jp')
#   # => "http://hoge/?%D0%F4"
#   Wurl.parse('http://a/?').query                # => "" (present, empty)
#   Wurl.parse('http://a/?').fragment             # => nil (absent)
module Wurl
  VERSION = '0.1.0'

  # A call of the C ABI failed (not an invalid URL: that is a result), or a
  # Wurl::URL whose handle was freed was used.
  class Error < StandardError
    # @return [Integer] the wurl_status (WURL_E_TOO_LONG, ...)
    attr_reader :status

    def initialize(message, status)
      super(message)
      @status = status
    end
  end

  # The C ABI's constants (include/wurl.h; test/header_test.rb compares
  # every WURL_* constant here, and the orders of COMPONENTS and HOST_KINDS,
  # with the header).
  WURL_OK = 0
  WURL_E_NULL_ARG = 1
  WURL_E_BAD_ARG = 2
  WURL_E_TOO_LONG = 3
  WURL_E_PANIC = 4
  WURL_E_BUFFER_TOO_SMALL = 5
  WURL_INVALID_URL = 6
  WURL_E_BAD_RULES = 7
  WURL_E_UNKNOWN_CHARSET = 8
  WURL_E_BAD_STATE = 9
  WURL_KEY_SURT = 1
  WURL_KEY_SURT_SCHEME = 2
  WURL_FLAG_NETWORK_STRICT = 1
  # wurl_canon_into flag: the WHATWG URL Standard model instead of the 2012
  # algorithm (see include/wurl.h).
  WURL_FLAG_URL_STANDARD = 2
  # An unknown charset label is WURL_E_UNKNOWN_CHARSET instead of UTF-8.
  WURL_FLAG_CHARSET_STRICT = 4
  WURL_MAX_INPUT_LEN = 16 * 1024 * 1024
  WURL_CHARSET_MESSAGE_MAX = 400
  WURL_RULES_MESSAGE_MAX = 400

  # Scratch buffers larger than this are released when the call returns
  # (the C library's own cap for its per-thread buffer is the same).
  SCRATCH_CAP = 64 * 1024

  COMPONENTS = %i[scheme user password host port path query fragment].freeze
  HOST_KINDS = %i[none empty domain ipv4 ipv6].freeze

  # The repository root, seen from this file when it is the checkout's
  # bindings/ruby/lib/wurl.rb; nil for an installed gem, which must not pick
  # up a libwurl.so that happens to lie three directories above it.
  REPO_ROOT = File.expand_path('../../..', __dir__).then do |root|
    root if File.file?(File.join(root, 'include', 'wurl.h')) &&
            File.file?(File.join(root, 'bindings', 'ruby', 'lib', 'wurl.rb'))
  end

  # The directory of the installed libwurl, recorded when the gem was
  # installed (ext/wurl/extconf.rb: $WURL_LIBDIR, or `pkg-config
  # --variable=libdir wurl`); nil in a checkout or when nothing was found.
  INSTALLED_LIBDIR = begin
    files = [File.join(__dir__, 'wurl', 'installed_libdir')]
    spec = defined?(Gem) && Gem.loaded_specs['wurl-canon']
    if spec && File.expand_path('..', __dir__) == File.expand_path(spec.full_gem_path)
      files << File.join(spec.extension_dir, 'wurl', 'installed_libdir')
    end
    dir = files.select { |f| File.file?(f) }.map { |f| File.read(f).strip }.first
    dir unless REPO_ROOT || dir.nil? || dir.empty?
  end

  # Where the library is looked for after ENV['WURL_LIB'], in order: the
  # usual build outputs of this checkout (when this file is in one), the
  # directory recorded at install ({INSTALLED_LIBDIR}), then
  # $CARGO_TARGET_DIR.
  #
  # @return [Array<String>] paths of libwurl.so
  def self.library_candidates
    # cargo at the root; then the CMake build in build/ (its staged copy in
    # build/lib, and cargo's output in build/cargo).
    dirs = REPO_ROOT ? %w[target/release target/debug build/lib build/cargo/release build/cargo/debug] : []
    c = dirs.map { |d| File.join(REPO_ROOT, d, 'libwurl.so') }
    c += %w[libwurl.so.0 libwurl.so].map { |n| File.join(INSTALLED_LIBDIR, n) } if INSTALLED_LIBDIR
    ctd = ENV['CARGO_TARGET_DIR']
    c += %w[release debug].map { |d| File.join(ctd, d, 'libwurl.so') } if ctd && !ctd.empty?
    c
  end

  # The libdir that pkg-config gives for wurl now (PKG_CONFIG_PATH), or nil.
  #
  # @return [String, nil]
  def self.pkg_config_libdir
    out = IO.popen(%w[pkg-config --variable=libdir wurl], err: File::NULL, &:read)
    dir = out.to_s.strip
    $?.success? && !dir.empty? ? dir : nil
  rescue SystemCallError
    nil
  end

  # The path (or, for the system loader, the names) of the library to load.
  #
  # @return [String, Array<String>]
  # @raise [LoadError] when WURL_LIB is set to a file that is not there
  def self.find_library
    lib = ENV['WURL_LIB']
    if lib && !lib.empty?
      raise LoadError, "Wurl: WURL_LIB=#{lib} is not a readable file" unless File.file?(lib) && File.readable?(lib)

      return lib
    end
    found = library_candidates.find { |c| File.file?(c) }
    return File.realpath(found) if found

    # The system loader: the versioned SONAME first, then the dev symlink.
    %w[libwurl.so.0 libwurl.so]
  end

  # What a failed load says: where the library was looked for and what to
  # set.
  #
  # @return [String]
  def self.not_found_message
    recorded = INSTALLED_LIBDIR ? "#{INSTALLED_LIBDIR} (recorded at gem install)" : nil
    places = ['WURL_LIB (not set)', *library_candidates, recorded,
              'the system loader (libwurl.so.0, libwurl.so: LD_LIBRARY_PATH, /etc/ld.so.conf)'].compact
    pc = pkg_config_libdir
    places << (pc ? "pkg-config's libdir #{pc}" : 'pkg-config (no wurl.pc on PKG_CONFIG_PATH)')
    "Wurl: cannot find libwurl. Looked in: #{places.uniq.join('; ')}. " \
      'Set WURL_LIB to the path of libwurl.so.0 (e.g. PREFIX/lib/libwurl.so.0), or reinstall the gem with ' \
      'PKG_CONFIG_PATH=PREFIX/lib/pkgconfig (or WURL_LIBDIR=PREFIX/lib) so that it records where libwurl is; ' \
      'from a checkout, build it: cargo build --release'
  end

  # The C functions.
  module Lib
    extend FFI::Library

    # What was loaded: a path, or an array of names that the system loader
    # tried in turn; as a last resort, pkg-config's libdir (PKG_CONFIG_PATH
    # of this run).
    LIBRARY = begin
      lib = Wurl.find_library
      begin
        ffi_lib lib
        lib
      rescue LoadError
        pc = lib.is_a?(Array) && Wurl.pkg_config_libdir
        raise unless pc && File.file?(File.join(pc, 'libwurl.so.0'))

        ffi_lib File.join(pc, 'libwurl.so.0')
        File.join(pc, 'libwurl.so.0')
      end
    rescue LoadError => e
      raise if e.message.start_with?('Wurl: WURL_LIB=')

      # One message, without the ffi gem's (cause: nil), which would repeat it.
      raise LoadError, Wurl.not_found_message, cause: nil
    end

    typedef :pointer, :wurl_url
    typedef :int32, :wurl_status

    # Inputs are :buffer_in: a Ruby String is passed as a pointer to its bytes
    # (with an explicit length, so NUL bytes pass through).
    attach_function :wurl_parse, %i[buffer_in size_t uint32 pointer], :wurl_status
    attach_function :wurl_resolve, %i[wurl_url buffer_in size_t uint32 pointer], :wurl_status
    attach_function :wurl_canonicalize, %i[wurl_url buffer_in size_t uint32 pointer], :wurl_status
    attach_function :wurl_canon_into,
                    %i[wurl_url buffer_in size_t buffer_in size_t uint32 pointer size_t pointer], :wurl_status
    attach_function :wurl_serialize, %i[wurl_url pointer pointer], :bool
    attach_function :wurl_get, %i[wurl_url uint32 pointer pointer], :bool
    attach_function :wurl_is_invalid, %i[wurl_url], :bool
    attach_function :wurl_invalid_reason, %i[wurl_url], :string
    attach_function :wurl_host_kind, %i[wurl_url], :uint32
    attach_function :wurl_free, %i[wurl_url], :void
    attach_function :wurl_status_str, %i[wurl_status], :string
    attach_function :wurl_version, [], :string
    attach_function :wurl_key_version, [], :uint32
    attach_function :wurl_output_bound, %i[size_t size_t uint32], :size_t
    attach_function :wurl_charset_known, %i[buffer_in size_t], :bool
    attach_function :wurl_charset_message, %i[buffer_in size_t pointer size_t], :wurl_status
    # The record state pair.
    attach_function :wurl_state_export, %i[wurl_url pointer size_t pointer], :wurl_status
    attach_function :wurl_state_import, %i[buffer_in size_t pointer], :wurl_status
  end

  # The library that was loaded (a path, or the first name tried with the
  # system loader).
  #
  # @return [String]
  def self.library_path
    Lib::LIBRARY.is_a?(Array) ? Lib::LIBRARY.first : Lib::LIBRARY
  end

  # @return [String] the library's version (wurl_version)
  def self.library_version
    Lib.wurl_version
  end

  # @return [Integer] the version of the keys the library makes
  #   (wurl_key_version), bumped by every key change its CHANGELOG lists
  def self.key_version
    Lib.wurl_key_version
  end

  # Raises unless the library makes keys of +version+, as
  # <tt>wurl canon --key-version N</tt> refuses to run.
  # @raise [RuntimeError] another key version
  # @raise [TypeError] +version+ is not an Integer
  def self.require_key_version(version)
    raise TypeError, "Wurl.require_key_version: an Integer, not #{version.class}" unless version.is_a?(Integer)
    v = key_version
    return true if version == v

    raise "Wurl.require_key_version: this wurl makes keys of version #{v}; " \
          "its keys would not be those of version #{version}"
  end

  # @param status [Integer] a wurl_status
  # @return [String] its description (wurl_status_str)
  def self.status_string(status)
    Lib.wurl_status_str(status)
  end

  # A Ruby String as the UTF-8 bytes the C ABI takes. UTF-8, ASCII-8BIT
  # (binary) and US-ASCII strings go as they are, valid or not: the library
  # decodes invalid UTF-8 with U+FFFD replacement. A string in another
  # encoding is transcoded to UTF-8 first (invalid or unconvertible
  # characters become U+FFFD).
  #
  # A dummy encoding without a converter (UTF-7) raises
  # Encoding::ConverterNotFoundError: pass its bytes with +String#b+ instead.
  #
  # An object that is not a String is converted with +to_str+, as Ruby's
  # implicit conversion is; one whose +to_str+ gives something other than a
  # String raises TypeError with the message Ruby's own conversion gives
  # ("can't convert X to String (X#to_str gives NilClass)"), preceded by
  # the argument's name.
  #
  # @param str [String, #to_str]
  # @param what [String] the argument's name, for the messages
  # @return [String] the string itself, or a transcoded copy
  # @raise [TypeError] for nil, an object without +to_str+, or one whose
  #   +to_str+ gives no String
  # @api private
  def self.to_bytes(str, what = 'input')
    raise TypeError, "Wurl: #{what} is nil" if str.nil?
    raise TypeError, "Wurl: #{what} is a #{str.class}, not a String" unless str.respond_to?(:to_str)

    unless str.is_a?(String)
      converted = str.to_str
      unless converted.is_a?(String)
        raise TypeError, "Wurl: #{what}: can't convert #{str.class} to String " \
                         "(#{str.class}#to_str gives #{converted.class})"
      end
      str = converted
    end
    case str.encoding
    when Encoding::UTF_8, Encoding::BINARY, Encoding::US_ASCII
      str
    else
      str.encode(Encoding::UTF_8, invalid: :replace, undef: :replace)
    end
  end

  # Whether +label+ is a charset label that names an encoding: a WHATWG
  # Encoding Standard label, ASCII case-insensitive, surrounding whitespace
  # ignored (wurl_charset_known).
  #
  # @param label [String, Symbol, Encoding, #to_str]
  # @return [Boolean]
  # @raise [TypeError] for nil or an object that is no string (see {to_bytes})
  # @example
  #   Wurl.charset_known?('Shift_JIS')   # => true
  #   Wurl.charset_known?('shiftjis')    # => false
  def self.charset_known?(label)
    bytes = label_bytes(label, 'label')
    Lib.wurl_charset_known(bytes, bytes.bytesize)
  end

  # A charset label as bytes: a Symbol or an Encoding by its name (Ruby's
  # names of encodings are labels too: 'Shift_JIS', 'EUC-JP'), anything
  # else as a string ({to_bytes}: a String, or an object with +to_str+).
  # @api private
  def self.label_bytes(label, what)
    to_bytes(label.is_a?(Symbol) || label.is_a?(Encoding) ? label.to_s : label, what)
  end

  # The message wurl gives for a charset label that names no encoding
  # (wurl_charset_message: the label quoted in ASCII, cut after 64 bytes; the
  # text every wurl front end shows, and that of the ArgumentError raised for
  # such a +charset:+), or nil for a label that names one.
  #
  # @param label [String, Symbol, Encoding, #to_str]
  # @return [String, nil]
  # @raise [Wurl::Error] for a label longer than WURL_MAX_INPUT_LEN bytes
  # @raise [TypeError] for nil or an object that is no string (see {to_bytes})
  # @example
  #   Wurl.charset_message('shiftjs')   # => "unknown charset label \"shiftjs\" (a WHATWG ...)"
  #   Wurl.charset_message('sjis')      # => nil
  def self.charset_message(label)
    bytes = label_bytes(label, 'label')
    msg = FFI::MemoryPointer.new(:char, WURL_CHARSET_MESSAGE_MAX + 1)
    st = Lib.wurl_charset_message(bytes, bytes.bytesize, msg, msg.size)
    return nil if st == WURL_OK
    return msg.read_string.force_encoding(Encoding::UTF_8) if st == WURL_E_UNKNOWN_CHARSET

    check(st, 'wurl_charset_message')
  end

  # A +charset:+ argument as the bytes the C ABI takes (nil for nil). The
  # calls that take it are given WURL_FLAG_CHARSET_STRICT: the library reads
  # a label that names no encoding as UTF-8 otherwise (the 2012 algorithm's
  # rule), so a misspelt one would silently mean UTF-8.
  # @api private
  def self.charset_bytes(charset)
    charset.nil? ? nil : label_bytes(charset, 'charset')
  end

  # Raises the ArgumentError of a label the library refused
  # (WURL_E_UNKNOWN_CHARSET) with the library's message.
  # @api private
  def self.unknown_charset(cs)
    raise ArgumentError, charset_message(cs)
  end

  # A view (pointer, length) into a handle, copied into a UTF-8 String.
  # @api private
  def self.view(ptr, len)
    return +'' if len.zero?

    ptr.read_bytes(len).force_encoding(Encoding::UTF_8)
  end

  # @api private
  def self.check(status, what)
    return if status == WURL_OK

    raise Error.new("Wurl: #{what}: #{Lib.wurl_status_str(status)} (status #{status})", status)
  end

  # Parses a string into a {Wurl::URL}. A string that is not a URL gives an
  # invalid URL ({Wurl::URL#invalid?}), not an exception.
  #
  # @param input [String] in any encoding (see {to_bytes})
  # @return [Wurl::URL]
  # @raise [Wurl::Error] for an input longer than WURL_MAX_INPUT_LEN bytes
  def self.parse(input)
    URL.parse(input)
  end

  # The one-call path (wurl_canon_into): resolves +input+ against +base+ (a
  # String or a Wurl::URL; without it, +input+ is its own base),
  # canonicalizes with +charset+ and serializes. nil for an invalid URL.
  #
  # The output goes into a buffer sized once by wurl_output_bound: a scratch
  # buffer kept per fiber (Thread.current[] is fiber-local) up to
  # SCRATCH_CAP bytes; a call whose bound is larger uses a buffer for that
  # call only, freed before it returns.
  #
  # @param input [String] the URL or reference
  # @param base [String, Wurl::URL, nil] the base URL
  # @param charset [String, Symbol, Encoding, nil] the label of the document's encoding (query),
  #   a WHATWG Encoding Standard label
  # @param strict [Boolean] WURL_FLAG_NETWORK_STRICT
  # @param rules [Wurl::Rules, String, nil] opt-in dedup rules applied after
  #   canonicalization (a {Wurl::Rules} or its specification)
  # @param surt [Boolean] return the SURT form (wurl_canon_key_into)
  # @param surt_scheme [Boolean] the SURT form keeping the scheme
  # @param model [String, Symbol] '2012' (the default) or 'url-standard'
  #   (the WHATWG URL Standard, WURL_FLAG_URL_STANDARD; a base counts by
  #   its serialization, and +strict+ is refused)
  # @return [String, nil] the canonical URL (UTF-8), nil when invalid
  # @raise [Wurl::Error] when the call fails (an input over WURL_MAX_INPUT_LEN bytes),
  #   or for a bad rules specification (status WURL_E_BAD_RULES)
  # @raise [ArgumentError] for a charset label that names no encoding (the
  #   library's message, {charset_message}), or +strict+ with the URL Standard model
  # @raise [TypeError] for a nil input, or an argument that is no string
  #   (see {to_bytes})
  #
  # @example
  #   Wurl.canonicalize('../a/./b', base: 'http://EXAMPLE.com:80/x/y') # => "http://example.com/a/b"
  #   Wurl.canonicalize('http://www.A.com/?b&a#f', rules: 'strip-www,sort-query', surt: true) # => "com,a)/?a&b#f"
  def self.canonicalize(input, base: nil, charset: nil, strict: false, rules: nil, surt: false,
                        surt_scheme: false, model: '2012')
    flags = strict ? WURL_FLAG_NETWORK_STRICT : 0
    case model.to_s
    when '2012' then nil
    when 'url-standard'
      # Network-strict mode is a check of the 2012 algorithm's result; the
      # URL Standard has no such mode, so the pair is refused up front, with
      # the reason, rather than as the C call's bare "out of range".
      if strict
        raise ArgumentError, "Wurl: strict: true tests the 2012 result; it cannot be used with model: 'url-standard'"
      end

      flags |= WURL_FLAG_URL_STANDARD
    else raise ArgumentError, "model must be '2012' or 'url-standard', not #{model.inspect}"
    end
    bytes = to_bytes(input)
    # The URL Standard reads a string base itself (wurl_canon_standard_into),
    # not through a 2012 handle.
    std_base = flags == WURL_FLAG_URL_STANDARD && !base.is_a?(URL)
    std_base_bytes = base.nil? ? nil : to_bytes(base, 'base') if std_base
    base = URL.parse(to_bytes(base, 'base')) unless std_base || base.nil? || base.is_a?(URL)
    cs = charset_bytes(charset)
    # wurl_canon_standard_into has no flags: the label is tested first.
    unknown_charset(cs) if std_base && cs && charset_message(cs)
    flags |= WURL_FLAG_CHARSET_STRICT
    base_ptr = std_base ? nil : base&.send(:pointer)
    rules = Rules.new(rules) unless rules.nil? || rules.is_a?(Rules)
    key_flags = Rules.key_flags(surt, surt_scheme)
    keyed = !rules.nil? || key_flags != 0
    out_len = FFI::MemoryPointer.new(:size_t)
    # Sized once: wurl_output_bound of the base and the input.
    base_len = std_base ? std_base_bytes&.bytesize || 0 : base&.send(:serialized_len) || 0
    buf = big = out_buffer(Lib.wurl_output_bound(base_len, bytes.bytesize, std_base ? 0 : flags))
    buf = Thread.current[:__wurl_canon_buf] if big.nil?
    st = if std_base
           Lib.wurl_canon_standard_into(std_base_bytes, std_base_bytes ? std_base_bytes.bytesize : 0, bytes,
                                        bytes.bytesize, cs, cs ? cs.bytesize : 0, rules&.send(:pointer),
                                        key_flags, buf, buf.size, out_len)
         elsif keyed
           Lib.wurl_canon_key_into(base_ptr, bytes, bytes.bytesize, cs, cs ? cs.bytesize : 0,
                                   flags, rules&.send(:pointer), key_flags, buf, buf.size, out_len)
         else
           Lib.wurl_canon_into(base_ptr, bytes, bytes.bytesize, cs, cs ? cs.bytesize : 0,
                               flags, buf, buf.size, out_len)
         end
    case st
    when WURL_OK then view(buf, out_len.read(:size_t))
    when WURL_INVALID_URL then nil
    when WURL_E_UNKNOWN_CHARSET then unknown_charset(cs)
    else check(st, std_base ? 'wurl_canon_standard_into' : keyed ? 'wurl_canon_key_into' : 'wurl_canon_into')
    end
  ensure
    # The buffer of a large result is released now, not at some later GC.
    big&.free
  end

  # The buffer of a call whose results are at most +need+ bytes with their
  # NUL (wurl_output_bound): nil when the per-fiber scratch buffer
  # (Thread.current[:__wurl_canon_buf], grown to +need+ when smaller) holds
  # them, up to SCRATCH_CAP; else a buffer for that call only, not cleared
  # (the caller frees it), so that its untouched pages are never resident.
  # @api private
  def self.out_buffer(need)
    return FFI::MemoryPointer.new(:char, need, false) if need > SCRATCH_CAP

    scratch = Thread.current[:__wurl_canon_buf]
    Thread.current[:__wurl_canon_buf] = FFI::MemoryPointer.new(:char, need, false) if scratch.nil? || scratch.size < need
    nil
  end

  # A parsed, resolved or canonicalized URL: an immutable handle, freed by
  # the garbage collector (FFI::AutoPointer calls wurl_free). Every
  # operation returns a new URL. The handle is not part of the public API:
  # nothing outside this class can free it while the URL still uses it.
  class URL
    # The handle; wurl_free releases it when it is collected. Freeing it
    # explicitly (only reachable through instance_variable_get) detaches it
    # from its URL, which then raises Wurl::Error instead of reading freed
    # memory.
    class Handle < FFI::AutoPointer
      def self.release(ptr)
        Lib.wurl_free(ptr)
      end

      def free
        @freed = true
        super
      end

      def freed?
        @freed ? true : false
      end
    end
    private_constant :Handle

    # @see Wurl.parse
    # @return [Wurl::URL]
    def self.parse(input)
      bytes = Wurl.to_bytes(input)
      out = FFI::MemoryPointer.new(:pointer)
      Wurl.check(Lib.wurl_parse(bytes, bytes.bytesize, 0, out), 'wurl_parse')
      new(out.read_pointer)
    end

    # The URL of a state ({#state}), in this process or another, with this
    # version of wurl or a later one.
    #
    # @param state [String] the bytes of {#state} (read as bytes, whatever
    #   the String's encoding)
    # @return [Wurl::URL]
    # @raise [Wurl::Error] with status WURL_E_BAD_STATE for bytes that are not
    #   a state (another format, truncated, altered): any bytes are safe to pass
    # @raise [TypeError] for nil or an object that is no string
    def self.from_state(state)
      raise TypeError, 'Wurl: state is nil' if state.nil?
      raise TypeError, "Wurl: state is a #{state.class}, not a String" unless state.respond_to?(:to_str)

      bytes = state.to_str.b
      out = FFI::MemoryPointer.new(:pointer)
      Wurl.check(Lib.wurl_state_import(bytes, bytes.bytesize, out), 'wurl_state_import')
      new(out.read_pointer)
    end

    def initialize(ptr)
      raise ArgumentError, 'Wurl::URL.new takes a handle; use Wurl.parse' unless ptr.is_a?(FFI::Pointer) && !ptr.null?

      @handle = Handle.new(ptr)
    end
    private_class_method :new

    # Resolves a string against this URL.
    #
    # @param input [String]
    # @return [Wurl::URL] a new URL
    # @raise [Wurl::Error] for an input over WURL_MAX_INPUT_LEN bytes, or a freed handle
    def resolve(input)
      bytes = Wurl.to_bytes(input)
      out = FFI::MemoryPointer.new(:pointer)
      Wurl.check(Lib.wurl_resolve(pointer, bytes, bytes.bytesize, 0, out), 'wurl_resolve')
      self.class.send(:new, out.read_pointer)
    end

    # Canonicalizes this URL.
    #
    # @param charset [String, Symbol, Encoding, nil] the label of the document's encoding, used
    #   for the query (a WHATWG Encoding Standard label)
    # @param strict [Boolean] WURL_FLAG_NETWORK_STRICT (see the top-level README)
    # @return [Wurl::URL] a new URL
    # @raise [ArgumentError] for a charset label that names no encoding, with
    #   the library's message ({Wurl.charset_message})
    def canonicalize(charset: nil, strict: false)
      cs = Wurl.charset_bytes(charset)
      flags = (strict ? WURL_FLAG_NETWORK_STRICT : 0) | WURL_FLAG_CHARSET_STRICT
      out = FFI::MemoryPointer.new(:pointer)
      st = Lib.wurl_canonicalize(pointer, cs, cs ? cs.bytesize : 0, flags, out)
      Wurl.unknown_charset(cs) if st == WURL_E_UNKNOWN_CHARSET
      Wurl.check(st, 'wurl_canonicalize')
      self.class.send(:new, out.read_pointer)
    end

    # @return [String, nil] the serialization, or nil for an invalid URL
    def serialize
      ptr = FFI::MemoryPointer.new(:pointer)
      len = FFI::MemoryPointer.new(:size_t)
      return nil unless Lib.wurl_serialize(pointer, ptr, len)

      Wurl.view(ptr.read_pointer, len.read(:size_t))
    end

    # @return [String] the serialization, or "" for an invalid URL
    def to_s
      serialize || +''
    end

    # A component: nil when absent, "" when present and empty. The readers
    # +scheme user password host port path query fragment+ are the same.
    #
    # @param name [Symbol, String] one of {Wurl::COMPONENTS}
    # @return [String, nil]
    # @raise [ArgumentError] for an unknown name
    def [](name)
      i = COMPONENTS.index(name.to_sym)
      raise ArgumentError, "Wurl::URL: unknown component #{name.inspect}" unless i

      ptr = FFI::MemoryPointer.new(:pointer)
      len = FFI::MemoryPointer.new(:size_t)
      return nil unless Lib.wurl_get(pointer, i, ptr, len)

      Wurl.view(ptr.read_pointer, len.read(:size_t))
    end

    COMPONENTS.each do |name|
      define_method(name) { self[name] }
    end

    # @return [Hash{Symbol => String}] the present components
    def to_h
      COMPONENTS.each_with_object({}) do |name, h|
        v = self[name]
        h[name] = v unless v.nil?
      end
    end

    # @return [Boolean] whether the URL is invalid (it then has no serialization)
    def invalid?
      Lib.wurl_is_invalid(pointer)
    end

    # @return [String, nil] why the URL is invalid (a static English phrase), nil when valid
    def invalid_reason
      Lib.wurl_invalid_reason(pointer)
    end

    # @return [Symbol] :none, :empty, :domain, :ipv4 or :ipv6
    def host_kind
      HOST_KINDS[Lib.wurl_host_kind(pointer)] || :none
    end

    # The key of this URL's canonicalization (a parsed or resolved URL is
    # canonicalized first, with UTF-8): +rules+ applied and, with +surt+,
    # its SURT form (wurl_url_key_into).
    #
    # @param rules [Wurl::Rules, String, nil]
    # @param surt [Boolean]
    # @param surt_scheme [Boolean] the SURT form keeping the scheme
    # @return [String, nil] nil when the canonicalization is invalid
    # @raise [Wurl::Error] for a bad rules specification
    def key(rules: nil, surt: false, surt_scheme: false)
      rules = Rules.new(rules) unless rules.nil? || rules.is_a?(Rules)
      key_flags = Rules.key_flags(surt, surt_scheme)
      out_len = FFI::MemoryPointer.new(:size_t)
      # Sized once: wurl_output_bound of this URL's serialization.
      buf = big = Wurl.out_buffer(Lib.wurl_output_bound(serialized_len, 0, 0))
      buf = Thread.current[:__wurl_canon_buf] if big.nil?
      st = Lib.wurl_url_key_into(pointer, rules&.send(:pointer), key_flags, buf, buf.size, out_len)
      return nil if st == WURL_INVALID_URL

      Wurl.check(st, 'wurl_url_key_into')
      Wurl.view(buf, out_len.read(:size_t))
    ensure
      big&.free
    end

    # Two URLs are equal when they have the same value: the same invalid
    # reason (nil for both when both are valid) and every component the
    # same, absent (nil) and empty ("") kept apart. How a URL was made does
    # not matter: Wurl.parse(s) == Wurl.parse(s), and a parsed URL equals
    # the canonical URL when canonicalizing changes nothing. A URL never
    # equals a String (compare +to_s+ for that). +eql?+ is the same and
    # +hash+ follows it, so equal URLs are one Hash key and +uniq+ keeps one.
    #
    # @param other [Object]
    # @return [Boolean]
    # @raise [Wurl::Error] for a URL whose handle was freed
    def ==(other)
      other.is_a?(URL) && (equal?(other) || value == other.value)
    end

    alias eql? ==

    # @return [Integer] the same for equal URLs (see {#==})
    def hash
      value.hash
    end

    protected

    # The value {#==} compares: the invalid reason, then the components in
    # {Wurl::COMPONENTS} order. Computed once (the URL is immutable), frozen.
    def value
      @value ||= [invalid_reason, *COMPONENTS.map { |c| self[c]&.freeze }].freeze
    end

    private

    # The length of the serialization (0 for an invalid URL), what
    # wurl_output_bound counts for a base or a key's URL. Computed once (the
    # URL is immutable).
    def serialized_len
      @serialized_len ||= begin
        ptr = FFI::MemoryPointer.new(:pointer)
        len = FFI::MemoryPointer.new(:size_t)
        Lib.wurl_serialize(pointer, ptr, len) ? len.read(:size_t) : 0
      end
    end

    # The handle, for the C functions; raises when it was freed.
    def pointer
      raise Error.new('Wurl::URL: its handle was freed', WURL_E_NULL_ARG) if @handle.freed?

      @handle
    end

    public

    # The URL's state (wurl_state_export): its whole value as bytes (each
    # component absent or present, invalid and why), from which
    # {Wurl::URL.from_state} makes the same URL; what Marshal stores.
    #
    # @return [String] a binary (ASCII-8BIT) String
    # @raise [Wurl::Error] for a freed handle
    def state
      len = FFI::MemoryPointer.new(:size_t)
      # Its length first, so that the buffer is sized once.
      st = Lib.wurl_state_export(pointer, nil, 0, len)
      Wurl.check(st, 'wurl_state_export') unless st == WURL_E_BUFFER_TOO_SMALL
      buf = FFI::MemoryPointer.new(:uint8, len.read(:size_t))
      Wurl.check(Lib.wurl_state_export(pointer, buf, buf.size, len), 'wurl_state_export')
      buf.read_bytes(len.read(:size_t))
    end

    # Marshal: the state, not the handle's address (which would mean nothing
    # in another process).
    # @api private
    def _dump(_level)
      state
    end

    # @api private
    def self._load(state)
      from_state(state)
    end

    def inspect
      return '#<Wurl::URL (handle freed)>' if @handle.freed?

      s = serialize
      s ? "#<Wurl::URL #{s}>" : "#<Wurl::URL invalid (#{invalid_reason}) #{to_h.inspect}>"
    end
  end

  # Keys (issue 28): the C functions of the rules and keys.
  module Lib
    typedef :pointer, :wurl_rules
    attach_function :wurl_rules_compile, %i[buffer_in size_t pointer pointer size_t], :wurl_status
    attach_function :wurl_rules_free, %i[wurl_rules], :void
    attach_function :wurl_canon_key_into,
                    %i[wurl_url buffer_in size_t buffer_in size_t uint32 wurl_rules uint32 pointer size_t
                       pointer], :wurl_status
    attach_function :wurl_url_key_into, %i[wurl_url wurl_rules uint32 pointer size_t pointer], :wurl_status
    # The URL Standard model with a string base.
    attach_function :wurl_canon_standard_into,
                    %i[buffer_in size_t buffer_in size_t buffer_in size_t wurl_rules uint32 pointer size_t
                       pointer], :wurl_status
  end

  # A compiled rules specification (wurl_rules_compile): opt-in dedup rules
  # applied after canonicalization, e.g.
  # "drop-fragment,strip-www,sort-query,drop-params=utm_*|fbclid". Compile
  # it once and pass it to {Wurl.canonicalize} or {Wurl::URL#key}; it is
  # immutable, and any number of threads may use it. See docs/keys.md.
  class Rules
    # Frees the compiled rules when the object is collected.
    class Handle < FFI::AutoPointer
      def self.release(ptr)
        Lib.wurl_rules_free(ptr)
      end
    end
    private_constant :Handle

    # @return [String] the specification
    attr_reader :spec

    # @param spec [String] the rules specification
    # @raise [Wurl::Error] with status WURL_E_BAD_RULES and a message naming
    #   the bad part, for a bad specification
    def initialize(spec)
      bytes = Wurl.to_bytes(spec, 'rules')
      out = FFI::MemoryPointer.new(:pointer)
      msg = FFI::MemoryPointer.new(:char, WURL_RULES_MESSAGE_MAX + 1)
      st = Lib.wurl_rules_compile(bytes, bytes.bytesize, out, msg, msg.size)
      raise Error.new("Wurl::Rules: #{msg.read_string.force_encoding(Encoding::UTF_8)}", st) if st == WURL_E_BAD_RULES

      Wurl.check(st, 'wurl_rules_compile')
      @spec = bytes.dup.force_encoding(Encoding::UTF_8).freeze
      @handle = Handle.new(out.read_pointer)
    end

    alias to_s spec

    def inspect
      "#<Wurl::Rules #{@spec.inspect}>"
    end

    # The key flags of +surt+ and +surt_scheme+.
    # @api private
    def self.key_flags(surt, surt_scheme)
      return WURL_KEY_SURT_SCHEME if surt_scheme

      surt ? WURL_KEY_SURT : 0
    end

    # Marshal: the specification, compiled again by Marshal.load.
    # @api private
    def _dump(_level)
      @spec
    end

    # @api private
    def self._load(spec)
      new(spec)
    end

    private

    def pointer
      @handle
    end
  end
end
