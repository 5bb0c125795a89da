# frozen_string_literal: true

# Canonicalizes the seed's one-call examples (url_to_canon_url.tsv) with the
# installed gem, and checks that `require 'wurl'` loaded it from the gem
# directory (not from the source tree):
#
#   ruby check_seed.rb TSV GEM_HOME
#
# Used by test-ruby-gem.sh; exits 1 on any difference.

tsv, gem_home = ARGV
abort "usage: #{$PROGRAM_NAME} TSV GEM_HOME" unless gem_home

require 'wurl'
loaded = $LOADED_FEATURES.find { |f| f.end_with?('/wurl.rb') }
abort "wurl.rb was loaded from #{loaded}, not from under #{gem_home}" unless loaded&.start_with?(gem_home)
spec = Gem.loaded_specs['wurl-canon'] or abort 'the wurl-canon gem is not activated'

def field(s)
  return nil if s == '\N'

  s.gsub(/\\(?:u(\h{4})|(\\))/) { Regexp.last_match(1) ? [Regexp.last_match(1).hex].pack('U') : '\\' }
end

n = 0
failed = 0
File.foreach(tsv, encoding: 'UTF-8') do |line|
  line = line.chomp
  next if line.start_with?('# ') || line.empty?

  input, base, charset, want = line.split("\t", -1).map { |f| field(f) }
  got = Wurl.canonicalize(input || '', base: base, charset: charset)
  n += 1
  next if got == want

  failed += 1
  puts "FAIL: #{line}: got #{got.inspect}"
end
abort "no examples in #{tsv}" if n.zero?
puts "wurl-canon #{spec.version} from #{loaded}: #{n} examples, #{n - failed} passed, #{failed} failed"
exit(failed.zero? ? 0 : 1)
