# frozen_string_literal: true

# Runs every test of the Ruby binding: ruby bindings/ruby/test/all_tests.rb
$LOAD_PATH.unshift File.expand_path('../lib', __dir__)
Dir.glob(File.join(__dir__, '*_test.rb')).sort.each { |f| require f }
