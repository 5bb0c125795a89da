# frozen_string_literal: true

# Wurl::URL compares by value (==, eql?, hash): the components, absent and
# empty kept apart, and the invalid reason; so uniq, Hash keys and Set see
# one URL however many times it was made.

require 'minitest/autorun'
require 'set'
require 'wurl'

class EqualityTest < Minitest::Test
  def test_same_input_twice
    a = Wurl.parse('http://u:p@a:8080/b?q#f')
    b = Wurl.parse('http://u:p@a:8080/b?q#f')
    refute a.equal?(b), 'two objects'
    assert_equal a, b
    assert a.eql?(b)
    assert_equal a.hash, b.hash
    assert_equal 1, [a, b].uniq.size
    assert_equal 1, Set[a, b].size
    h = { a => 1 }
    assert_equal 1, h[b]
    h[b] = 2
    assert_equal({ a => 2 }, h)
    assert_equal 1, [a, b].tally.size
  end

  def test_made_differently
    c = Wurl.parse('http://EXAMPLE.com:80/x/y').resolve('../a/./b').canonicalize
    assert_equal Wurl.parse('http://example.com/a/b'), c
    assert_equal Wurl.parse('http://example.com/a/b').hash, c.hash
    # Canonicalizing a canonical URL changes nothing: equal.
    assert_equal c, c.canonicalize
    # Different values: the parsed input and its canonical form.
    refute_equal Wurl.parse('HTTP://A/'), Wurl.parse('HTTP://A/').canonicalize
  end

  def test_absent_and_empty_differ
    pairs = [
      ['http://a/', 'http://a/?'], ['http://a/', 'http://a/#'], ['http://a/?', 'http://a/#'],
      ['http://u@a/', 'http://u:@a/'], ['http://a/', 'http://@a/'], ['http://a/', 'http://a:/']
    ]
    pairs.each do |x, y|
      a = Wurl.parse(x)
      b = Wurl.parse(y)
      refute_equal a, b, "#{x} vs #{y}"
      refute a.eql?(b), "#{x} vs #{y}"
      assert_equal 2, [a, b].uniq.size, "#{x} vs #{y}"
      assert_equal 2, { a => 1, b => 2 }.size, "#{x} vs #{y}"
    end
    refute_equal Wurl.parse('http://a/b'), Wurl.parse('http://a/c')
  end

  def test_validity_and_reason_count
    # The same components, valid in one, invalid (network-strict) in the other.
    u = Wurl.parse('http:///evil.com/x')
    valid = u.canonicalize
    strict = u.canonicalize(strict: true)
    refute valid.invalid?
    assert strict.invalid?
    assert_equal valid.to_h, strict.to_h
    refute_equal valid, strict
    assert_equal 2, [valid, strict].uniq.size
    assert_equal strict, u.canonicalize(strict: true)
    # Invalid URLs compare by value too.
    assert_equal Wurl.parse('foo'), Wurl.parse('foo')
    assert_equal Wurl.parse('foo').hash, Wurl.parse('foo').hash
    refute_equal Wurl.parse('foo'), Wurl.parse('bar')
    assert_equal Wurl.parse('mailto:x').resolve('a'), Wurl.parse('data:x').resolve('b'),
                 'both invalid for the same reason, with no components'
    refute_equal Wurl.parse('mailto:x').resolve('a'), Wurl.parse(''),
                 'no components against an empty path, and another reason'
  end

  def test_other_objects
    u = Wurl.parse('http://a/')
    refute_equal u, 'http://a/'
    refute u.eql?('http://a/')
    refute_equal u, nil
    refute_equal 'http://a/', u
    assert_equal u, u
  end

  # On many URLs made from many inputs: == holds exactly when the reason
  # and every component (read through the readers) agree, eql? and hash
  # follow it, and uniq keeps one URL per value.
  def test_definition_on_many_urls
    bases = ['http://a/b/c', 'mailto:x', 'file:///x', 'FILE:c:/x', 'foo:bar', 'http:x'].map { |b| Wurl.parse(b) }
    refs = ['', '#', '?', 'g', '../a/./b', '//h/p', '/p?', 'http://A:80/', 'x:y', 'mailto:m', '%2E', '..',
            'http://u:@h/', 'http://@h/', 'http:', 'c:/x', 'javascript:a#']
    urls = []
    bases.each do |b|
      refs.each do |r|
        x = b.resolve(r)
        urls << x << x.canonicalize << Wurl.parse(r) << Wurl.parse(r).canonicalize
      end
    end
    fields = ->(u) { [u.invalid_reason, *Wurl::COMPONENTS.map { |c| u.public_send(c) }] }
    urls.each_slice(7) do |group|
      group.product(urls.sample(40, random: Random.new(1))).each do |a, b|
        same = fields.call(a) == fields.call(b)
        assert_equal same, a == b, "#{a.inspect} == #{b.inspect}"
        assert_equal same, a.eql?(b)
        assert_equal a.hash, b.hash if same
      end
    end
    distinct = urls.map(&fields).uniq.size
    assert_operator distinct, :>, 50
    assert_operator distinct, :<, urls.size
    assert_equal distinct, urls.uniq.size
    assert_equal distinct, urls.to_set.size
    assert_equal distinct, urls.group_by(&:itself).size
  end

  def test_freed_handle
    u = Wurl.parse('http://a/b')
    other = Wurl.parse('http://a/b')
    u.instance_variable_get(:@handle).free
    assert_equal u, u, 'the same object'
    assert_raises(Wurl::Error) { u == other }
    assert_raises(Wurl::Error) { u.hash }
  end
end
