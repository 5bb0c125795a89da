# frozen_string_literal: true

# The URL Standard model (model: 'url-standard', WURL_FLAG_URL_STANDARD)
# through the Ruby binding: the Web Platform Tests' urltestdata
# (tests/data/wpt), the issue's example, rules and SURT, refusals (an
# unknown model; strict, with its reason).

require 'json'
require 'minitest/autorun'
require 'wurl'

class UrlStandardTest < Minitest::Test
  # tests/data, found as the conformance suite is (dat.rb): the test files
  # may run from a copy outside the repository (the installed-gem test).
  DATA = File.join(ENV['WURL_CONFORMANCE_DIR'] || File.expand_path('../../../tests/data', __dir__),
                   'wpt', 'urltestdata-href.json')
  EXAMPLE = "http://fa\u00DF.de/a\\b/../c"

  def test_urltestdata
    rows = JSON.parse(File.read(DATA, encoding: 'UTF-8'))
    assert_operator rows.size, :>, 700
    bad = rows.reject do |input, base, href|
      Wurl.canonicalize(input, base: base, model: 'url-standard') == href
    end
    assert_empty bad.first(10)
    assert_operator rows.count { |r| r[2].nil? }, :>, 100
  end

  def test_example_and_default
    assert_equal 'http://xn--fa-hia.de/a/c', Wurl.canonicalize(EXAMPLE, model: 'url-standard')
    assert_equal 'http://xn--fa-hia.de/a/c', Wurl.canonicalize(EXAMPLE, model: :'url-standard')
    assert_equal 'http://fass.de/a/c', Wurl.canonicalize(EXAMPLE)
    assert_equal 'http://fass.de/a/c', Wurl.canonicalize(EXAMPLE, model: '2012')
  end

  def test_base_rules_surt_invalid
    assert_equal 'http://ex.com/c%20d', Wurl.canonicalize('../c d', base: 'http://ex.com/a/b', model: 'url-standard')
    assert_equal 'de,xn--fa-hia)/?a&b',
                 Wurl.canonicalize("http://www.fa\u00DF.de/?b&a#f", rules: 'strip-www,sort-query,drop-fragment',
                                                                    surt: true, model: 'url-standard')
    assert_nil Wurl.canonicalize('http://a:99999/', model: 'url-standard')
    assert_raises(ArgumentError) { Wurl.canonicalize('http://a/', model: 'whatwg') }
  end

  def test_strict_is_refused_with_the_reason
    # Network-strict mode checks the 2012 result: refused, saying so, as the
    # CLI does (not the C call's bare "out of range").
    [nil, 'http://b/', Wurl.parse('http://b/')].each do |base|
      [{}, { rules: 'sort-query' }, { surt: true }].each do |more|
        e = assert_raises(ArgumentError) do
          Wurl.canonicalize('http://a/', base: base, strict: true, model: 'url-standard', **more)
        end
        assert_equal "Wurl: strict: true tests the 2012 result; it cannot be used with model: 'url-standard'",
                     e.message
        refute_match(/out of range/, e.message)
      end
    end
    assert_raises(ArgumentError) { Wurl.canonicalize('http://a/', strict: true, model: :'url-standard') }
    # Either alone still works.
    assert_equal 'http://a/', Wurl.canonicalize('http://a/', strict: true)
    assert_equal 'http://a/', Wurl.canonicalize('http://a/', strict: false, model: 'url-standard')
  end
end
