# tests/data/url_to_canon_url.tsv: the examples the original module was
# tested with, through Wurl::Compat::url_to_canon_url (the one-call path) and
# url_to_canon_parsed_url + serialize_parsed_url (the hash path).

use strict;
use warnings;

use File::Spec;
use FindBin;
use lib "$FindBin::Bin/lib";

use Test::More;
use WurlDat qw(data_dir unescape read_utf8);
use Wurl::Compat qw(url_to_canon_url url_to_canon_parsed_url serialize_parsed_url);

binmode $_, ':encoding(UTF-8)' for Test::More->builder->output,
  Test::More->builder->failure_output, Test::More->builder->todo_output;

# \N is undef; \uXXXX escapes; \\ is a backslash (as tests/conformance.rs).
sub field {
    my ($s) = @_;
    return undef if $s eq '\N';
    $s =~ s/\\\\/\x{E000}/g;
    $s = unescape($s);
    $s =~ s/\x{E000}/\\/g;
    return $s;
}

# The distribution's copy (t/data); in a checkout it must equal the
# repository's tests/data/url_to_canon_url.tsv.
my $copy = File::Spec->catfile($FindBin::Bin, 'data', 'url_to_canon_url.tsv');
my $text = read_utf8($copy);
my $repo = File::Spec->catfile(data_dir(), 'url_to_canon_url.tsv');
if (-e $repo) {
    is($text, read_utf8($repo), "t/data/url_to_canon_url.tsv is the same as $repo");
}
my ($n, $passed, $failed) = (0, 0, 0);
for my $line (split /\n/, $text) {
    $line =~ s/\r\z//;
    next if $line =~ /\A# / || $line eq '';
    my @cols = split /\t/, $line, -1;
    is(scalar(@cols), 4, "4 columns: $line") or next;
    my ($input, $base, $charset, $want) = map { field($_) } @cols;
    $input = '' unless defined $input;
    my $got = url_to_canon_url($input, $base, $charset);
    my $got2 = serialize_parsed_url(url_to_canon_parsed_url($input, $base, $charset));
    my $ok = is($got, $want, "url_to_canon_url: $line");
    $ok = is($got2, $want, "url_to_canon_parsed_url: $line") && $ok;
    $ok ? $passed++ : $failed++;
    $n++;
}
is($n, 23, '23 examples');

done_testing();
print STDERR "\nperl-url_to_canon_url: $passed passed, $failed failed\n";
