# frozen_string_literal: true

# A reader for the conformance suite's .dat format (tests/data/README.md),
# mirroring the reference runner tests/common/dat.rs rule for rule.
module WurlDat
  module_function

  def data_dir
    ENV['WURL_CONFORMANCE_DIR'] || File.expand_path('../../../tests/data', __dir__)
  end

  # \uXXXX and \UXXXXXXXX become their code point; a surrogate or a value
  # above U+10FFFF becomes U+FFFD (as char::from_u32 fails in the Rust
  # runner). Rust's from_str_radix also takes a leading '+'.
  def unescape(s)
    s.gsub(/\\(?:u(\+\h{3}|\h{4})|U(\+\h{7}|\h{8}))/) do
      cp = (Regexp.last_match(1) || Regexp.last_match(2)).delete_prefix('+').to_i(16)
      (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF ? "\u{FFFD}" : [cp].pack('U')
    end
  end

  def finish_field(f, fields)
    options = f[:options].dup
    escaped = options.last == 'escaped'
    options.pop if escaped
    strip_bar = %w[data path path8].include?(f[:name])
    lines = f[:lines].map { |l| strip_bar ? l.delete_prefix('| ') : l }
    value = lines.empty? ? (options.first || '') : lines.join("\n")
    value = unescape(value) if escaped
    fields << [f[:name], value]
  end

  def finish_test(line, raw, out)
    return if raw.empty?

    fields = {}
    raw.each { |k, v| fields[k] = v }
    # NAME8 replaces NAME.
    raw.each { |k, v| fields[k.delete_suffix('8')] = v if k.end_with?('8') }
    out << { line: line, fields: fields }
  end

  def parse_dat(text)
    tests = []
    raw = []
    field = nil
    test_line = 0
    prev_blank = true
    pending = 0
    text.split("\n", -1).each_with_index do |line, n|
      line = line.delete_suffix("\r")
      if line.start_with?('#')
        body = line[1..]
        finish_field(field, raw) if field
        field = nil
        if prev_blank
          finish_test(test_line, raw, tests)
          raw = []
          test_line = n + 1
        end
        m = body.match(/\A([A-Za-z0-9_-]*)(.*)\z/m)
        options = m[2].split(/ /, -1).reject { |w| w.empty? || w == ':' }
        field = { name: m[1], options: options, lines: [] }
        pending = 0
        prev_blank = false
      elsif line.empty?
        pending += 1
        prev_blank = true
      else
        if field
          pending.times { field[:lines] << '' }
          field[:lines] << line
        end
        pending = 0
        prev_blank = false
      end
    end
    finish_field(field, raw) if field
    finish_test(test_line, raw, tests)
    tests
  end

  def read_utf8(path)
    text = File.binread(path).force_encoding(Encoding::UTF_8)
    raise "#{path}: not UTF-8" unless text.valid_encoding?

    text
  end

  def load(rel)
    parse_dat(read_utf8(File.join(data_dir, rel)))
  end

  # decomps*.dat and generated/*.dat, relative to the data directory.
  def canon_files
    v = []
    ['', 'generated/'].each do |dir|
      names = Dir.children(File.join(data_dir, dir)).select do |n|
        n.end_with?('.dat') && (n.start_with?('decomps') || !dir.empty?)
      end
      v.concat(names.sort.map { |n| "#{dir}#{n}" })
    end
    v
  end
end
