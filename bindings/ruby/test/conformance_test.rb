# frozen_string_literal: true

# The whole 2012 conformance suite (tests/data/*.dat and generated/*.dat)
# through the Ruby binding, judged as tests/data/README.md says and as the
# reference runner tests/conformance.rs does.

require 'minitest/autorun'
require_relative 'dat'
require 'wurl'

class ConformanceTest < Minitest::Test
  COMPONENTS = Wurl::COMPONENTS

  @@totals = [0, 0] # checks, failed
  Minitest.after_run do
    checks, failed = @@totals
    warn "\nruby-conformance: #{checks - failed} passed, #{failed} failed" if checks.positive?
  end

  def show(v)
    v.nil? ? '(absent)' : v.inspect
  end

  def compare_components(t, u, check_invalid, errs)
    f = t[:fields]
    if check_invalid && f.key?('invalid') != u.invalid?
      errs << "invalid: expected #{f.key?('invalid')}, got #{u.invalid?} (#{u.invalid_reason.inspect})"
    end
    COMPONENTS.each do |c|
      want = f[c.to_s]
      got = u[c]
      errs << "#{c}: expected #{show(want)}, got #{show(got)}" if want != got
    end
  end

  def describe(file, t)
    f = t[:fields]
    "#{file}:#{t[:line]} data=#{(f['data'] || '').inspect} base=#{show(f['base'])} charset=#{show(f['charset'])}"
  end

  def judge(name, checks, failures)
    @@totals[0] += checks
    @@totals[1] += failures.size
    assert_empty failures.first(50), "#{name}: #{failures.size} of #{checks} checks failed"
  end

  def test_parsing_dat
    tests = WurlDat.load('parsing.dat')
    assert_equal 147, tests.size
    failures = []
    tests.each do |t|
      u = Wurl.parse(t[:fields]['data'] || '')
      errs = []
      compare_components(t, u, true, errs)
      failures << "#{describe('parsing.dat', t)}\n  #{errs.join("\n  ")}" unless errs.empty?
    end
    judge('parsing.dat', tests.size, failures)
  end

  def test_resolving_dat
    tests = WurlDat.load('resolving.dat')
    assert_equal 103, tests.size
    failures = []
    tests.each do |t|
      base = Wurl.parse(t[:fields]['base'] || '')
      u = base.resolve(t[:fields]['data'] || '')
      errs = []
      compare_components(t, u, true, errs)
      failures << "#{describe('resolving.dat', t)}\n  #{errs.join("\n  ")}" unless errs.empty?
    end
    judge('resolving.dat', tests.size, failures)
  end

  # The suite's charset labels that are not WHATWG Encoding Standard labels.
  NOT_WHATWG = %w[utf-7 ibm037].freeze

  # One canonicalization test: [checks, errors].
  def run_canon_test(t)
    f = t[:fields]
    data = f['data'] || ''
    base_s = f['base'].nil? || f['base'].empty? ? data : f['base']
    charset = f['charset']
    base = Wurl.parse(base_s)
    # The suite has labels that name no encoding (utf-7, ibm037), which the
    # 2012 module read as UTF-8: Wurl refuses them, and the expected result
    # is the one with UTF-8.
    if charset && NOT_WHATWG.include?(charset.downcase)
      refute Wurl.charset_known?(charset)
      assert_raises(ArgumentError) { Wurl.canonicalize(data, base: base, charset: charset) }
      assert_raises(ArgumentError) { base.resolve(data).canonicalize(charset: charset) }
      charset = nil
    end
    canon = base.resolve(data).canonicalize(charset: charset)
    errs = []
    if f.key?('invalid')
      errs << "expected invalid, got #{show(canon.serialize)}" unless canon.invalid?
      one = Wurl.canonicalize(data, base: base, charset: charset)
      errs << "wurl_canon_into: expected invalid, got #{one.inspect}" unless one.nil?
      return [1, errs]
    end
    if canon.invalid?
      errs << "unexpectedly invalid: #{canon.invalid_reason}"
      return [2, errs]
    end
    ser = canon.serialize || ''
    want = f['canon'] || data
    errs << "canon: expected #{want.inspect}, got #{ser.inspect}" if ser != want
    compare_components(t, canon, false, errs)
    again = base.resolve(ser).canonicalize(charset: charset).serialize
    errs << "idempotency: #{ser.inspect} became #{show(again)}" if again != ser
    # The one-call path agrees.
    one = Wurl.canonicalize(data, base: base, charset: charset)
    errs << "wurl_canon_into: #{show(one)} instead of #{ser.inspect}" if one != ser
    [2, errs]
  end

  def test_canonicalization_files
    checks = 0
    ntests = 0
    failures = []
    WurlDat.canon_files.each do |file|
      tests = WurlDat.load(file)
      refute_empty tests, "#{file} has no tests"
      ntests += tests.size
      tests.each do |t|
        n, errs = run_canon_test(t)
        checks += n
        failures << "#{describe(file, t)}\n  #{errs.join("\n  ")}" unless errs.empty?
      end
    end
    assert_operator ntests, :>, 9000
    judge('decomps*.dat + generated/*.dat', checks, failures)
  end
end
