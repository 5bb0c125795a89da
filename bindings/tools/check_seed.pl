#!/usr/bin/perl
# Canonicalizes the seed's one-call examples (url_to_canon_url.tsv) with an
# installed module, and checks that the module was loaded from where it was
# installed (not from the source tree):
#
#   perl check_seed.pl TSV MODULE INSTALL_DIR
#
# MODULE is Wurl::Compat or Web::URL::Canonicalize. Used by
# test-perl-dist.sh; exits 1 on any difference.

use strict;
use warnings;

my ($tsv, $module, $prefix) = @ARGV;
die "usage: $0 TSV MODULE INSTALL_DIR\n" unless defined $prefix;

(my $file = "$module.pm") =~ s{::}{/}g;
require $file;
$module->import('url_to_canon_url');
my $loaded = $INC{$file};
die "$module was loaded from $loaded, not from under $prefix\n"
  unless index($loaded, $prefix) == 0;
(my $wurl = $INC{'Wurl.pm'} // '') =~ s{/[^/]*\z}{};
die "Wurl was loaded from $INC{'Wurl.pm'}, not from under $prefix\n"
  unless index($wurl, $prefix) == 0;

sub field {
    my ($s) = @_;
    return undef if $s eq '\N';
    $s =~ s{\\(?:u([0-9A-Fa-f]{4})|(\\))}{defined $1 ? chr(hex $1) : '\\'}ge;
    utf8::upgrade($s);    # characters
    return $s;
}

open my $fh, '<:encoding(UTF-8)', $tsv or die "$tsv: $!";
my ($n, $failed) = (0, 0);
binmode STDOUT, ':encoding(UTF-8)';
while (my $line = <$fh>) {
    chomp $line;
    next if $line =~ /\A# / || $line eq '';
    my ($in, $base, $cs, $want) = map { field($_) } split /\t/, $line, -1;
    my $got = url_to_canon_url($in // '', $base, $cs);
    $n++;
    next if (defined $got ? "D$got" : 'U') eq (defined $want ? "D$want" : 'U');
    $failed++;
    print "FAIL: $line: got ", $got // '(undef)', "\n";
}
die "no examples in $tsv\n" unless $n;
print "$module from $loaded: $n examples, ", $n - $failed, " passed, $failed failed\n";
exit($failed ? 1 : 0);
