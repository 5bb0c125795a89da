# frozen_string_literal: true

# Prints a GEM_PATH under which `require 'wurl'` can only load the gem a
# test installed into its own GEM_HOME, whatever else is installed:
#
#   ruby isolated_gem_path.rb GEM_HOME SCRATCH_DIR
#
# Run it with the caller's environment (GEM_HOME, GEM_PATH as they are):
# the result is GEM_HOME first, then every directory of this Ruby's gem path
# (where ffi and minitest come from). A directory that holds a wurl-canon gem
# (a `gem install` of the README, into the system, ~/.gem or a GEM_HOME) is
# replaced by a mirror in SCRATCH_DIR without that gem's specification: the
# other gems' specifications are linked there, and its gems/ and extensions/
# directories, so they load from the same files. Used by test-ruby-gem.sh
# and test-installed.sh.

home, scratch = ARGV
abort "usage: #{$PROGRAM_NAME} GEM_HOME SCRATCH_DIR" unless scratch
home = File.expand_path(home)
require 'fileutils'

dirs = Gem.path.map { |d| File.expand_path(d) }.uniq.reject { |d| d == home || !File.directory?(d) }
path = [home]
dirs.each_with_index do |dir, i|
  specs = Dir.glob(File.join(dir, 'specifications', '*.gemspec'))
  ours = specs.select { |s| File.basename(s).start_with?('wurl-canon-') }
  if ours.empty?
    path << dir
    next
  end
  mirror = File.join(File.expand_path(scratch), "gem-path-#{i}")
  FileUtils.mkdir_p(File.join(mirror, 'specifications'))
  (specs - ours).each { |s| File.symlink(s, File.join(mirror, 'specifications', File.basename(s))) }
  %w[gems extensions].each do |sub|
    File.symlink(File.join(dir, sub), File.join(mirror, sub)) if File.directory?(File.join(dir, sub))
  end
  warn "isolated_gem_path: #{dir} holds #{ours.map { |s| File.basename(s, '.gemspec') }.join(', ')}: mirrored without it"
  path << mirror
end
print path.join(File::PATH_SEPARATOR)
