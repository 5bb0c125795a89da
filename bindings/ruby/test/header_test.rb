# frozen_string_literal: true

# The C ABI's constants that wurl.rb restates, against include/wurl.h: every
# Wurl::WURL_* constant, the order of Wurl::COMPONENTS (WURL_COMPONENT_*)
# and of Wurl::HOST_KINDS (WURL_HOST_*). A value that drifts from the header
# fails here.

require 'minitest/autorun'
require 'wurl'

class HeaderTest < Minitest::Test
  # $WURL_HEADER (a copy of the sources, as the gem test runs), else the
  # checkout's include/wurl.h.
  HEADER = ENV['WURL_HEADER'] || File.expand_path('../../../include/wurl.h', __dir__)

  # `#define WURL_NAME VALUE` lines whose value is an integer expression
  # (cbindgen writes `((16 * 1024) * 1024)`), evaluated.
  def self.header_constants
    File.readlines(HEADER).each_with_object({}) do |line, h|
      m = /\A\s*#\s*define\s+(WURL_\w+)\s+(.*?)\s*\z/.match(line)
      next unless m && m[2].match?(/\A[0-9\s()*+\-<]+\z/)

      h[m[1]] = Integer(eval_integer(m[2]))
    end
  end

  # An integer expression of the header: numbers, + - * << and parentheses
  # (checked above), so evaluating it runs nothing else.
  def self.eval_integer(expr)
    Kernel.eval(expr) # rubocop:disable Security/Eval
  end

  H = header_constants

  def test_the_header_is_read
    # A parser that found nothing would make every check below vacuous.
    assert_operator H.size, :>=, 30
    assert_operator H['WURL_MAX_INPUT_LEN'], :>, 0
  end

  def test_every_constant_is_the_header_s
    mine = Wurl.constants.map(&:to_s).grep(/\AWURL_/).sort
    assert_operator mine.size, :>=, 15
    mine.each do |name|
      assert H.key?(name), "#{name} is not in #{HEADER}"
      assert_equal H[name], Wurl.const_get(name), name
    end
  end

  def test_component_order
    header = H.keys.grep(/\AWURL_COMPONENT_/)
    assert_equal header.size, Wurl::COMPONENTS.size
    Wurl::COMPONENTS.each_with_index do |c, i|
      assert_equal i, H["WURL_COMPONENT_#{c.upcase}"], c
    end
  end

  def test_host_kind_order
    header = H.keys.grep(/\AWURL_HOST_/)
    assert_equal header.size, Wurl::HOST_KINDS.size
    Wurl::HOST_KINDS.each_with_index do |k, i|
      assert_equal i, H["WURL_HOST_#{k.upcase}"], k
    end
  end
end
