# One large input must not leave its buffers behind: the one-call path's
# scratch buffer is kept only up to 64 KiB (a 16 MiB input whose result is
# 48 MiB used to keep 48 MiB for the life of the interpreter, plus lexical
# copies of the input). Measured here with the resident set size from
# /proc/self/statm.

use strict;
use warnings;

use Test::More;

use Wurl;
use Wurl::Compat qw(url_to_canon_url);

plan skip_all => 'needs /proc/self/statm (Linux)' unless -r '/proc/self/statm';

sub rss_mib {
    open my $f, '<', '/proc/self/statm' or die "/proc/self/statm: $!";
    my (undef, $resident) = split ' ', scalar <$f>;
    close $f;
    return $resident * 4096 / (1024 * 1024);
}

# The largest input the library takes (16 MiB of UTF-8: U+20AC is 3 bytes),
# whose result is three times as long (%E2%82%AC). Built once, before the
# baseline, and kept for the whole test: an expression that builds a string
# keeps a buffer of its size in its own op (Perl's pad temporaries), which
# would be counted against the binding.
my $n = int((Wurl::WURL_MAX_INPUT_LEN - length('http://a/')) / 3);
my $in = 'http://a/' . ("\x{20AC}" x $n);
my $want_len = length('http://a/') + 9 * $n;

my %paths = (
    'Wurl->canonicalize' => sub { Wurl->canonicalize($in) },
    'url_to_canon_url'   => sub { url_to_canon_url($in) },
    'Wurl::URL objects'  => sub { Wurl->parse($in)->canonicalize->serialize },
);

for my $name (sort keys %paths) {
    my $code = $paths{$name};
    Wurl->canonicalize('http://a/small') for 1 .. 10;
    my $base = rss_mib();
    my @after;
    for my $i (1 .. 3) {
        my $out = $code->();
        is(length($out), $want_len, "$name: call $i gives the whole result") if $i == 1;
        undef $out;
        Wurl->canonicalize("http://a/small$_") for 1 .. 10;    # small calls after the big one
        push @after, rss_mib() - $base;
    }
    my $desc = join(', ', map { sprintf '%+.1f MiB', $_ } @after);
    diag("$name: RSS after each of 3 calls with a 16 MiB input, from the baseline: $desc");
    # The result alone is 48 MiB; a kept scratch buffer would be 48 MiB more
    # after every call. The first call may leave up to one input's size in
    # the C heap (glibc keeps freed memory below its mmap threshold).
    my @over = grep { $_ > 24 } @after;
    is(scalar(@over), 0, "$name: RSS stays within 24 MiB (half the result) of the baseline after each call ($desc)");
    cmp_ok($after[2] - $after[1], '<', 4, "$name: RSS is flat from the second call to the third");
}

done_testing();
