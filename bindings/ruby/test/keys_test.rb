# frozen_string_literal: true

# Keys (issue 28) through the Ruby binding: rules, SURT, bad specifications.

require 'minitest/autorun'
require 'wurl'

class KeysTest < Minitest::Test
  ISSUE_RULES = 'drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*'
  ISSUE_URL = 'http://www.Example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f'

  def test_issue_examples
    assert_equal 'http://example.com/x?a=1&b=2', Wurl.canonicalize(ISSUE_URL, rules: ISSUE_RULES)
    rules = Wurl::Rules.new(ISSUE_RULES)
    assert_equal 'http://example.com/x?a=1&b=2', Wurl.canonicalize(ISSUE_URL, rules: rules)
    assert_equal 'com,example)/x?a=1&b=2', Wurl.canonicalize(ISSUE_URL, rules: rules, surt: true)
    assert_equal 'com,example,www)/a/b?z=1&a=2',
                 Wurl.canonicalize('http://www.Example.com/a/b?z=1&a=2', surt: true)
    assert_equal 'http://(com,example,www)/a/b?z=1&a=2',
                 Wurl.canonicalize('http://www.Example.com/a/b?z=1&a=2', surt_scheme: true)
    # Without rules, the 2012 key.
    assert_equal 'http://www.example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f',
                 Wurl.canonicalize(ISSUE_URL)
    assert_equal ISSUE_RULES, rules.to_s
  end

  def test_with_base_and_invalid
    assert_equal 'com,a)/dir/x?a&b',
                 Wurl.canonicalize('x?b&a', base: 'http://www2.a.com/dir/', rules: 'strip-www,sort-query',
                                          surt: true)
    assert_nil Wurl.canonicalize('http://a:99999/', rules: 'sort-query', surt: true)
  end

  def test_handle_path
    u = Wurl.parse('HTTP://u:p@WWW.A.com/?b&a#f').canonicalize
    assert_equal 'com,a,www)/?b&a#f', u.key(surt: true)
    assert_equal 'http://a.com/?a&b', u.key(rules: 'drop-userinfo,strip-www,sort-query,drop-fragment')
    assert_equal 'http://u:p@www.a.com/?b&a#f', u.key
    assert_nil Wurl.parse('http://a:99999/').canonicalize.key(surt: true)
  end

  def test_handle_key_canonicalizes_first
    u = Wurl.parse('HTTP://WWW.Example.COM:80/a/../b?b&a')
    assert_equal 'com,example)/b?a&b', u.key(rules: 'strip-www,sort-query', surt: true)
    assert_equal 'com,example)/b?a&b', u.canonicalize.key(rules: 'strip-www,sort-query', surt: true)
    assert_nil Wurl.parse('http://a:99999/').key(surt: true)
  end

  def test_bad_specifications
    {
      'sort-querry' => '"sort-querry"',
      'drop-fragment,,strip-www' => 'empty rule',
      'strip-www=1' => '"strip-www=1"',
      'drop-params=a||b' => 'empty pattern',
      'sort-query,sort-query' => 'twice'
    }.each do |spec, part|
      e = assert_raises(Wurl::Error) { Wurl::Rules.new(spec) }
      assert_equal Wurl::WURL_E_BAD_RULES, e.status, spec
      assert_includes e.message, part, spec
      e = assert_raises(Wurl::Error) { Wurl.canonicalize('http://a/', rules: spec) }
      assert_includes e.message, part, spec
    end
    assert_raises(TypeError) { Wurl::Rules.new(nil) }
  end

  def test_long_result_grows_the_buffer
    q = (0...2000).map { |i| format('p%04d=1', 1999 - i) }
    got = Wurl.canonicalize("http://a/?#{q.join('&')}", rules: 'sort-query')
    assert_equal "http://a/?#{q.sort.join('&')}", got
  end

  def test_threads_share_rules
    rules = Wurl::Rules.new(ISSUE_RULES)
    results = Array.new(4) do
      Thread.new { Array.new(200) { Wurl.canonicalize(ISSUE_URL, rules: rules, surt: true) }.uniq }
    end.map(&:value)
    assert_equal [['com,example)/x?a=1&b=2']] * 4, results
  end
end
