package WurlDat;

# A reader for the conformance suite's .dat format (tests/data/README.md),
# mirroring the reference runner tests/common/dat.rs rule for rule.

use strict;
use warnings;

use File::Basename ();
use File::Spec ();
use Exporter 'import';

our @EXPORT_OK = qw(data_dir unescape parse_dat load canon_files read_utf8 need_file);

sub data_dir {
    return $ENV{WURL_CONFORMANCE_DIR} if $ENV{WURL_CONFORMANCE_DIR};
    my $here = File::Basename::dirname(File::Spec->rel2abs(__FILE__));    # bindings/perl/t/lib
    return File::Spec->catdir($here, ('..') x 4, 'tests', 'data');
}

# A test that needs data outside the distribution (the repository's
# tests/data, bindings/cross-binding-expected.tsv) skips when it is not
# there, as in a copy of the distribution, unless WURL_TEST_REQUIRE_ALL is
# set (CI sets it and points WURL_CONFORMANCE_DIR / WURL_CROSS_EXPECTED at
# the repository): then a missing file fails.
sub need_file {
    my ($path, $what) = @_;
    return if -e $path;
    require Test::More;
    if ($ENV{WURL_TEST_REQUIRE_ALL}) {
        Test::More::BAIL_OUT("$what: $path not found (WURL_TEST_REQUIRE_ALL is set)");
    }
    Test::More::plan(skip_all => "$what: $path not found (a copy of the distribution; "
          . 'set WURL_CONFORMANCE_DIR / WURL_CROSS_EXPECTED)');
}

# \uXXXX and \UXXXXXXXX become their code point; a surrogate or a value
# above U+10FFFF becomes U+FFFD (as char::from_u32 fails in the Rust runner).
# Rust's from_str_radix also takes a leading '+'.
sub _cp {
    my ($hex) = @_;
    my $cp = hex($hex =~ s/\A\+//r);
    return "\x{FFFD}" if ($cp >= 0xD800 && $cp <= 0xDFFF) || $cp > 0x10FFFF;
    return chr($cp);
}

sub unescape {
    my ($s) = @_;
    $s =~ s{\\(?:u(\+[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4})|U(\+[0-9A-Fa-f]{7}|[0-9A-Fa-f]{8}))}
           {_cp(defined $1 ? $1 : $2)}ge;
    # Characters: a string without the UTF8 flag would be read as UTF-8
    # bytes when it happens to be valid UTF-8 ("\u00C2\u00A9" is two
    # characters, not the bytes of U+00A9), so say so with the flag.
    utf8::upgrade($s);
    return $s;
}

sub _finish_field {
    my ($f, $fields) = @_;
    my @options = @{ $f->{options} };
    my $escaped = @options && $options[-1] eq 'escaped';
    pop @options if $escaped;
    my $strip_bar = $f->{name} eq 'data' || $f->{name} eq 'path' || $f->{name} eq 'path8';
    my @lines = @{ $f->{lines} };
    if ($strip_bar) {
        s/\A\| // for @lines;
    }
    my $value = @lines ? join("\n", @lines) : (@options ? $options[0] : '');
    $value = unescape($value) if $escaped;
    push @$fields, [ $f->{name}, $value ];
}

sub _finish_test {
    my ($line, $raw, $out) = @_;
    return unless @$raw;
    my %fields;
    $fields{ $_->[0] } = $_->[1] for @$raw;
    for (@$raw) {
        my ($k, $v) = @$_;
        if ($k =~ /\A(.*)8\z/s) {
            $fields{$1} = $v;
        }
    }
    push @$out, { line => $line, fields => \%fields };
}

# Parses the text (a character string) of a .dat file into a list of
# { line => N, fields => { name => value } }.
sub parse_dat {
    my ($text) = @_;
    my @tests;
    my @raw;
    my $field;
    my $test_line  = 0;
    my $prev_blank = 1;
    my $pending    = 0;
    my $n          = -1;
    for my $line (split /\n/, $text, -1) {
        $n++;
        $line =~ s/\r\z//;
        if ($line =~ /\A#(.*)\z/s) {
            my $body = $1;
            _finish_field($field, \@raw) if $field;
            undef $field;
            if ($prev_blank) {
                _finish_test($test_line, [@raw], \@tests);
                @raw       = ();
                $test_line = $n + 1;
            }
            $body =~ /\A([A-Za-z0-9_-]*)(.*)\z/s;
            my ($name, $rest) = ($1, $2);
            my @options = grep { length $_ && $_ ne ':' } split / /, $rest, -1;
            $field      = { name => $name, options => \@options, lines => [] };
            $pending    = 0;
            $prev_blank = 0;
        } elsif ($line eq '') {
            $pending++;
            $prev_blank = 1;
        } else {
            if ($field) {
                push @{ $field->{lines} }, ('') x $pending;
                push @{ $field->{lines} }, $line;
            }
            $pending    = 0;
            $prev_blank = 0;
        }
    }
    _finish_field($field, \@raw) if $field;
    _finish_test($test_line, \@raw, \@tests);
    return \@tests;
}

sub read_utf8 {
    my ($path) = @_;
    open my $fh, '<:raw', $path or die "$path: $!";
    local $/;
    my $text = <$fh>;
    close $fh;
    utf8::decode($text) or die "$path: not UTF-8";
    return $text;
}

sub load {
    my ($rel) = @_;
    return parse_dat(read_utf8(File::Spec->catfile(data_dir(), split m{/}, $rel)));
}

# decomps*.dat and generated/*.dat, relative to the data directory, sorted
# by name within each directory.
sub canon_files {
    my @v;
    for my $dir ('', 'generated/') {
        my $d = File::Spec->catdir(data_dir(), $dir eq '' ? () : 'generated');
        opendir my $dh, $d or die "$d: $!";
        my @names = sort grep { /\.dat\z/ && (/\Adecomps/ || $dir ne '') } readdir $dh;
        closedir $dh;
        push @v, map { "$dir$_" } @names;
    }
    return @v;
}

1;
