# The C ABI's constants that Wurl.pm restates, against include/wurl.h: every
# WURL_* constant of the Wurl package, the order of the component names
# (WURL_COMPONENT_*) and of the host kinds (WURL_HOST_*). A value that
# drifts from the header fails here.

use strict;
use warnings;

use File::Spec;
use FindBin;
use lib "$FindBin::Bin/lib";

use Test::More;
use WurlDat qw(need_file);

# The header: $WURL_HEADER (a copy of the distribution, tested by CI), else
# the checkout's include/wurl.h.
my $header = $ENV{WURL_HEADER}
  || File::Spec->catfile($FindBin::Bin, (File::Spec->updir) x 3, 'include', 'wurl.h');
need_file($header, 'the C header');

use Wurl;

# `#define WURL_NAME VALUE` lines whose value is an integer expression
# (cbindgen writes `((16 * 1024) * 1024)`), evaluated.
my %h;
{
    open my $fh, '<', $header or die "$header: $!";
    while (my $line = <$fh>) {
        next unless $line =~ /^\s*#\s*define\s+(WURL_\w+)\s+(.*?)\s*$/;
        my ($name, $v) = ($1, $2);
        next unless $v =~ /\A[0-9\s()*+\-<]+\z/;
        my $n = eval $v;
        die "$header: cannot evaluate $name = $v: $@" if $@;
        $h{$name} = $n;
    }
}
# A parser that found nothing would make every check below vacuous.
cmp_ok(scalar(keys %h), '>=', 30, 'the header defines its integer constants');
like($h{WURL_MAX_INPUT_LEN} // '', qr/\A[1-9][0-9]*\z/, 'an expression is evaluated');

my @mine = sort grep { /\AWURL_/ && Wurl->can($_) } keys %Wurl::;
cmp_ok(scalar @mine, '>=', 15, 'Wurl restates the constants it uses');
for my $name (@mine) {
    ok(exists $h{$name}, "$name is in the header") or next;
    is(Wurl->can($name)->(), $h{$name}, "$name = $h{$name}");
}

# The component names in the order of their numbers, every one of the header.
my @components = Wurl::components();
my @hc = grep { /\AWURL_COMPONENT_/ } keys %h;
is(scalar @components, scalar @hc, 'as many components as the header');
for my $i (0 .. $#components) {
    is($h{ 'WURL_COMPONENT_' . uc $components[$i] }, $i, "component $components[$i] is $i");
}

my @kinds = Wurl::host_kinds();
my @hk = grep { /\AWURL_HOST_/ } keys %h;
is(scalar @kinds, scalar @hk, 'as many host kinds as the header');
for my $i (0 .. $#kinds) {
    is($h{ 'WURL_HOST_' . uc $kinds[$i] }, $i, "host kind $kinds[$i] is $i");
}

done_testing;
