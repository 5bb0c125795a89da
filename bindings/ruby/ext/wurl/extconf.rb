# frozen_string_literal: true

# Run by `gem install` (nothing is compiled: the gem is pure Ruby and calls
# libwurl through the ffi gem). It records the directory of the installed
# libwurl so that `require 'wurl'` finds it without WURL_LIB or
# LD_LIBRARY_PATH: $WURL_LIBDIR when set, else `pkg-config --variable=libdir
# wurl` (a `cmake --install` into PREFIX writes PREFIX/lib/pkgconfig/wurl.pc;
# for a PREFIX outside pkg-config's default path, install the gem with
# PKG_CONFIG_PATH=PREFIX/lib/pkgconfig). When neither gives a directory that
# holds libwurl.so.0, nothing is recorded and the gem relies on WURL_LIB or
# the system loader at run time.
#
# It writes installed_libdir and a Makefile whose install target copies it
# to the directory rubygems collects (sitearchdir: the gem's lib/ and its
# extension directory), as lib/wurl/installed_libdir.

require 'rbconfig'

def pkg_config_libdir
  out = IO.popen(%w[pkg-config --variable=libdir wurl], err: File::NULL, &:read)
  dir = out.to_s.strip
  $?.success? && !dir.empty? ? dir : nil
rescue SystemCallError
  nil
end

dir = ENV['WURL_LIBDIR']
source = 'WURL_LIBDIR'
if dir.nil? || dir.empty?
  dir = pkg_config_libdir
  source = 'pkg-config --variable=libdir wurl'
end

if dir && File.file?(File.join(dir, 'libwurl.so.0'))
  dir = File.expand_path(dir)
  puts "wurl: recording #{dir} (from #{source}) as the directory of libwurl.so.0"
elsif dir
  warn "wurl: #{source} gives #{dir}, which holds no libwurl.so.0; recording nothing"
  dir = ''
else
  warn 'wurl: pkg-config finds no wurl (PKG_CONFIG_PATH) and WURL_LIBDIR is not set; recording nothing: ' \
       'require "wurl" will need WURL_LIB or a libwurl.so.0 that the system loader finds'
  dir = ''
end

File.write('installed_libdir', "#{dir}\n")
dest = RbConfig::CONFIG['sitearchdir']
File.write('Makefile', <<~MAKE)
  # Written by extconf.rb: nothing to build; install records the libdir.
  all:
  clean:
  install:
  \tmkdir -p "#{dest}/wurl"
  \tcp installed_libdir "#{dest}/wurl/installed_libdir"
  .PHONY: all clean install
MAKE
