# frozen_string_literal: true

# Runs every test of the Ruby binding: ruby bindings/ruby/test/all_tests.rb
# With WURL_TEST_INSTALLED_GEM=1 the tests use the installed gem (require
# 'wurl' through RubyGems) instead of ../lib.
$LOAD_PATH.unshift File.expand_path('../lib', __dir__) unless ENV['WURL_TEST_INSTALLED_GEM'] == '1'
Dir.glob(File.join(__dir__, '*_test.rb')).sort.each { |f| require f }

if ENV['WURL_TEST_INSTALLED_GEM'] == '1'
  require 'wurl'
  loaded = $LOADED_FEATURES.find { |f| f.end_with?('/wurl.rb') }
  abort "WURL_TEST_INSTALLED_GEM=1 but wurl.rb came from #{loaded}" unless Gem.loaded_specs['wurl-canon']
  puts "testing the installed gem: #{loaded}"
end
