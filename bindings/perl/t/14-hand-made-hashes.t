# A delimiter in a component of a hand-made hash never moves into another
# component: t/data/hand-made-hashes.tsv holds the 2012 module's answers
# (recorded from it by bindings/tools/record_hand_made_hashes.pl) for a
# parsed hash with one component set to a value holding @ # ? : or /, then
# canonicalize_parsed_url and serialize_parsed_url. The drop-in gives the
# module's hash and string, except where the module's own string, read
# again, has another host than its hash (a scheme holding a delimiter):
# there it gives an invalid result (docs/DIFFERENCES.md: drop-in rows).

use strict;
use warnings;

use FindBin;
use File::Spec;
use Test::More;
use lib "$FindBin::Bin/lib";
use lib "$FindBin::Bin/../compat";
use WurlDat qw(need_file);
use Wurl;
use Web::URL::Canonicalize qw(parse_url canonicalize_parsed_url serialize_parsed_url);

my $file = File::Spec->catfile($FindBin::Bin, 'data', 'hand-made-hashes.tsv');
need_file($file, "the 2012 module's answers for hand-made hashes");
my $BASE = 'http://user:pass@host.example:8080/path?query#frag';
my @C = Wurl::components();

sub esc {
    my ($s) = @_;
    return '\N' unless defined $s;
    return join '', map {
        my $o = ord $_;
        $_ eq '\\' ? '\\\\' : ($o >= 0x21 && $o <= 0x7E) ? $_ : sprintf('\\x{%X}', $o)
    } split //, $s;
}

sub unesc {
    my ($s) = @_;
    return undef if $s eq '\N';
    $s =~ s/\\(?:\\|x\{([0-9A-F]+)\})/defined $1 ? chr(hex $1) : '\\'/ge;
    return $s;
}

open my $fh, '<', $file or die "$file: $!";
my ($rows, $same, $invalid) = (0, 0, 0);
while (my $line = <$fh>) {
    chomp $line;
    next if $line =~ /\A#/ || $line =~ /\Acomponent\t/;
    my ($c, $v, @want) = split /\t/, $line, -1;
    is(scalar(@want), 10, "10 answer columns: $c $v") or next;
    $rows++;
    $v = unesc($v);
    my $h = parse_url($BASE);
    $h->{$c} = $v;
    ($h->{scheme_normalized} = $v) =~ tr/A-Z/a-z/ if $c eq 'scheme';
    my $r   = canonicalize_parsed_url($h);
    my $got = join "\t", (map { esc($r->{$_}) } @C), $r->{invalid} ? 1 : 0,
      esc(serialize_parsed_url($r));
    my $module = join "\t", @want;
    # The module's string read again: its host (absent: '').
    my $module_url = unesc($want[9]);
    my $reread_host = defined $module_url ? Wurl->parse($module_url)->host // '' : undef;
    my $module_host = unesc($want[3]) // '';
    if (defined $reread_host && $reread_host ne $module_host) {
        is($got, join("\t", ('\N') x 8, 1, '\N'),
            "drop-in difference: $c " . esc($v) . " (the module's string has the host '"
              . esc($reread_host) . "'): invalid")
          and $invalid++;
    } else {
        is($got, $module, "$c " . esc($v) . ": the module's answer") and $same++;
    }
    # Never another host than the hash's: the canonical host is the
    # module's, or the result is invalid.
    ok($r->{invalid} || (defined $r->{host} && $r->{host} eq $module_host),
        "... the host is the hash's ($c " . esc($v) . ')');
}
close $fh;
is($rows, 40, 'every component with every delimiter');
cmp_ok($same, '>=', 30, "most answers are the module's");

# The case of the finding, and the ones the module itself makes invalid.
{
    my $h = parse_url('http://a/x');
    $h->{host} = 'good.com@evil.com';
    is(serialize_parsed_url(canonicalize_parsed_url($h)), 'http://good.com%40evil.com/x',
        'a @ in a hand-made host stays in the host, percent-encoded, as in the module');
    for my $bad ('good.com:evil.com', 'good.com/evil.com', 'good.com\\evil.com') {
        $h = parse_url('http://a/x');
        $h->{host} = $bad;
        ok(canonicalize_parsed_url($h)->{invalid}, 'host ' . esc($bad) . ': invalid');
    }
    $h = parse_url('http://[::1]/x');
    $h->{path} = '/y';
    is(serialize_parsed_url(canonicalize_parsed_url($h)), 'http://[::1]/y',
        "an IPv6 host keeps its colons");
    # A path with a %23 of its own: the rest of it is read as the string
    # reads (the host does not change), so the serialization is the module's.
    $h = parse_url('http://a/x');
    $h->{path} = '/p%23#q';
    my $r = canonicalize_parsed_url($h);
    is($r->{host}, 'a', 'a path with # and %23: the host stays');
    is(serialize_parsed_url($r), 'http://a/p%23#q', '... and the string is the one it reads as');
    # resolve_url against an edited base: the base's host is its own.
    $h = parse_url('http://a/x');
    $h->{host} = 'good.com@evil.com';
    my $res = resolve_url_ok('y', $h);
    is($res->{host}, 'good.com%40evil.com', 'resolve_url against an edited base keeps its host');
}

sub resolve_url_ok { Web::URL::Canonicalize::resolve_url($_[0], $_[1]) }

done_testing();
