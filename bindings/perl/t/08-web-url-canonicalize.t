# Web::URL::Canonicalize (compat/): code written for the 2012 module runs
# unchanged with one -I. Checked on the seed's one-call examples
# (t/data/url_to_canon_url.tsv), in this process and as the one-liner
#   perl -I<compat dir> -MWeb::URL::Canonicalize -e 'print url_to_canon_url(...)'
# in a perl that has nothing else on @INC.

use strict;
use warnings;

use File::Spec;
use FindBin;
use lib "$FindBin::Bin/lib";

use Test::More;
use WurlDat qw(unescape read_utf8);

binmode $_, ':encoding(UTF-8)' for Test::More->builder->output,
  Test::More->builder->failure_output, Test::More->builder->todo_output;

my $COMPAT;
BEGIN { $COMPAT = File::Spec->catdir($FindBin::Bin, File::Spec->updir, 'compat') }

sub field {
    my ($s) = @_;
    return undef if $s eq '\N';
    $s =~ s/\\\\/\x{E000}/g;
    $s = unescape($s);
    $s =~ s/\x{E000}/\\/g;
    return $s;
}

my @examples;
for my $line (split /\n/, read_utf8(File::Spec->catfile($FindBin::Bin, 'data', 'url_to_canon_url.tsv'))) {
    next if $line =~ /\A# / || $line eq '';
    push @examples, [ map { field($_) } split /\t/, $line, -1 ];
}
is(scalar(@examples), 23, '23 examples');

# In this process.
{
    package Crawler2012;
    use lib $COMPAT;
    use Web::URL::Canonicalize;
    use Web::URL::Canonicalize qw(parse_url resolve_url canonicalize_parsed_url serialize_parsed_url
      url_to_canon_parsed_url);
    for my $e (@examples) {
        my ($in, $base, $cs, $want) = @$e;
        $in = '' unless defined $in;
        ::is(url_to_canon_url($in, $base, $cs), $want, "url_to_canon_url: " . join(' | ', map { $_ // '(none)' } @$e));
        ::is(serialize_parsed_url(url_to_canon_parsed_url($in, $base, $cs)), $want, '... url_to_canon_parsed_url');
    }
    my $p = canonicalize_parsed_url(resolve_url('../a/./b', parse_url('http://EXAMPLE.com:80/x/y')));
    ::is(serialize_parsed_url($p), 'http://example.com/a/b', 'the hash functions');
    ::is(\&Web::URL::Canonicalize::url_to_canon_url, \&Wurl::Compat::url_to_canon_url, 'the same function as Wurl::Compat');
}
{
    package Other;
    use Web::URL::Canonicalize;
    ::ok(defined &Other::url_to_canon_url, 'url_to_canon_url is exported by default');
    ::ok(!defined &Other::parse_url, 'parse_url on request only');
}

# The one-liner, in a perl with only the compat directory added: the
# Wurl modules are found beside it.
{
    local $ENV{PERL5LIB};
    local $ENV{PERLLIB};
    local $ENV{PERL5OPT};
    my $perl = $^X;
    # The examples without escapes, as a shell one-liner would give them.
    my $n = 0;
    for my $e (grep { !grep { defined && /[^\x20-\x7E]|'/ } @$_ } @examples) {
        my ($in, $base, $cs, $want) = @$e;
        my @args = map {
            my $v = $_;
            if (defined $v) {
                my ($d) = grep { index($v, $_) < 0 } qw(| ! ~ % ^);
                $v =~ s/\\/\\\\/g;    # in q//, a backslash is written twice
                "q$d$v$d";
            } else {
                'undef';
            }
        } $in // '', $base, $cs;
        my $code = 'print url_to_canon_url(' . join(', ', @args) . ') // "(undef)"';
        my $out = `"$perl" -I"$COMPAT" -MWeb::URL::Canonicalize -e '$code' 2>&1`;
        is($out, $want // '(undef)', "one-liner: $code");
        $n++;
    }
    cmp_ok($n, '>=', 15, "$n examples as one-liners");
    my $out = `"$perl" -I"$COMPAT" -MWeb::URL::Canonicalize -e 'print \$INC{q<Wurl/Compat.pm>}' 2>&1`;
    like($out, qr{lib/Wurl/Compat\.pm\z}, "the tree's own Wurl::Compat: $out");
}

done_testing();
