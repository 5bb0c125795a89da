# The same bytes give the same results from C, Perl and Ruby: every line of
# bindings/cross-binding-expected.tsv (written by bindings/tools/cross_check.c)
# is recomputed through the Perl binding and compared byte for byte. Perl
# character strings holding surrogates or code points above U+10FFFF give
# what the same strings with one U+FFFD for each of those give.

use strict;
use warnings;

use FindBin;
use File::Spec;
use Test::More;
use Wurl;
use lib "$FindBin::Bin/lib";
use WurlDat qw(need_file);

my $file = $ENV{WURL_CROSS_EXPECTED}
  || File::Spec->catfile($FindBin::Bin, File::Spec->updir, File::Spec->updir,
    'cross-binding-expected.tsv');

my $BASE = 'http://base.example/dir/file?q#f';

# The file's escaped form of a byte string; undef is \N.
sub esc {
    my ($b) = @_;
    return '\N' unless defined $b;
    return join '', map {
        my $o = ord $_;
        $_ eq '\\' ? '\\\\' : ($o >= 0x21 && $o <= 0x7E) ? $_ : sprintf('\\x%02X', $o)
    } split //, $b;
}

sub unesc {
    my ($s) = @_;
    return undef if $s eq '\N';
    $s =~ s/\\(?:\\|x([0-9A-F]{2}))/defined $1 ? chr(hex $1) : '\\'/ge;
    return $s;
}

# A result of the binding (a character string) as UTF-8 bytes.
sub out_bytes {
    my ($s) = @_;
    return undef unless defined $s;
    utf8::encode($s);
    return $s;
}

sub handle_line {
    my ($op, $input_bytes, $u) = @_;
    my @f = ($op, esc($input_bytes), $u->is_invalid ? 1 : 0, esc($u->invalid_reason));
    my %kind = (none => 0, empty => 1, domain => 2, ipv4 => 3, ipv6 => 4);
    push @f, $kind{ $u->host_kind };
    push @f, esc(out_bytes($u->$_)) for Wurl::components();
    push @f, esc(out_bytes($u->serialize));
    return join "\t", @f;
}

# Computes the line of (op, input). $input is bytes, or with $chars a Perl
# character string to go through the character API.
sub compute {
    my ($op, $input, $chars) = @_;
    my $bytes = $chars ? out_bytes($input) : $input;
    my $parse = $chars ? sub { Wurl::URL->parse($_[0]) } : sub { Wurl::URL->parse_bytes($_[0]) };
    my $resolve = $chars ? sub { $_[0]->resolve($_[1]) } : sub { $_[0]->resolve_bytes($_[1]) };
    if ($op eq 'parse') {
        return handle_line($op, $bytes, $parse->($input));
    } elsif ($op eq 'resolve') {
        return handle_line($op, $bytes, $resolve->(Wurl::URL->parse($BASE), $input));
    } elsif ($op eq 'canon' || $op eq 'canon_1252') {
        my %opt;
        $opt{charset} = 'windows-1252' if $op eq 'canon_1252';
        my $u = $resolve->($parse->($input), $input)->canonicalize(%opt);
        return handle_line($op, $bytes, $u);
    } elsif ($op eq 'canon_into' || $op =~ /\Akey:(.*)\z/) {
        my @key = !defined $1 ? () : $1 eq 'surt' ? (surt => 1) : (rules => $1);
        my $s = Wurl->canonicalize($input, $chars ? () : (bytes => 1), @key);
        return join "\t", $op, esc($bytes), defined $s ? 0 : 1, ('\N') x 10, esc(out_bytes($s));
    }
    die "unknown op $op";
}

need_file($file, 'the cross-binding table');
open my $fh, '<:raw', $file or die "$file: $!";
my @rows;
while (my $line = <$fh>) {
    chomp $line;
    next if $line =~ /\A#/ || $line eq '';
    my @cols = split /\t/, $line, -1;
    is(scalar(@cols), 14, "14 columns: $cols[0] $cols[1]") or next;
    push @rows, [ $line, $cols[0], unesc($cols[1]) ];
}
close $fh;
cmp_ok(scalar(@rows), '>=', 900, 'the expected file has the rows (the invalid-UTF-8 sample too)');

my ($passed, $failed) = (0, 0);
my %expected;
for my $r (@rows) {
    my ($line, $op, $input) = @$r;
    $expected{"$op\t$input"} = $line;
    my $got = compute($op, $input, 0);
    if (is($got, $line, "$op " . esc($input))) { $passed++ } else { $failed++ }
}

# Character strings: a surrogate, two surrogates, a code point above
# U+10FFFF. Each is one U+FFFD (as the 2012 module's preprocessing makes
# it): the results are those of the string with U+FFFD in its place, and
# the bytes of that string have a row of their own when the table has one.
{
    no warnings;    # surrogates and non-Unicode code points
    my %with_fffd = (
        "http://\x{D800}.com/"      => "http://\x{FFFD}.com/",
        "http://a/\x{DFFF}\x{D800}x" => "http://a/\x{FFFD}\x{FFFD}x",
        "http://a/\x{110000}"       => "http://a/\x{FFFD}",
    );
    for my $s (sort keys %with_fffd) {
        my $r = $with_fffd{$s};
        for my $op (qw(parse resolve canon canon_1252 canon_into)) {
            my ($got, $want) = map { my @f = split /\t/, compute($op, $_, 1), -1; splice @f, 1, 1; join "\t", @f }
              $s, $r;
            if (is($got, $want, "$op as characters: " . esc(out_bytes($r)))) {
                $passed++;
            } else {
                $failed++;
            }
            my $row = $expected{"$op\t" . out_bytes($r)};
            is(compute($op, $r, 1), $row, "... its row") if defined $row;
        }
    }
    is(Wurl::URL->parse("http://a/\x{D800}")->path, "/\x{FFFD}", 'a surrogate becomes one U+FFFD');
}

# Bytes read from a file or socket: bytes => 1 (parse_bytes, resolve_bytes)
# is the road, and gives what C gives (the rows above). Decoding them first
# with Encode is not: Encode's UTF-8 decoder makes one U+FFFD of a
# surrogate's three bytes (and of an overlong or out-of-range sequence),
# where the library, C, the CLI, Ruby and Python make one per maximal
# invalid subpart, so the same bytes would give another key.
{
    require Encode;
    my %diff;
    for my $input ("http://www.example.com/p\xED\xA0\x80", "http://www.example.com/p\xC0\xAF",
        "http://www.example.com/p\xF4\x90\x80\x80")
    {
        my $row = $expected{"canon_into\t$input"};
        ok(defined $row, 'the sample has ' . esc($input)) or next;
        my $want = unesc((split /\t/, $row, -1)[13]);
        is(out_bytes(Wurl->canonicalize($input, bytes => 1)), $want,
            'bytes => 1: the bytes C gives for ' . esc($input));
        my $decoded = Encode::decode('UTF-8', $input);
        isnt(out_bytes(Wurl->canonicalize($decoded)), $want,
            "decode('UTF-8') first is another key for " . esc($input));
    }
    is(Wurl->canonicalize("http://a.example/p\xED\xA0\x80", bytes => 1),
        'http://a.example/p%EF%BF%BD%EF%BF%BD%EF%BF%BD', 'a surrogate\'s bytes: three U+FFFD');
}

done_testing();
print STDERR "\nperl-cross-binding: $passed passed, $failed failed\n";
