# Replays the 2012 module's own test suite through the drop-in
# Web::URL::Canonicalize (compat/), judging each test as that module's test
# script does: the WHOLE result hash of parse_url, resolve_url and
# canonicalize_parsed_url (every key, invalid included, is_hierarchical
# left out), the serialization as `canon`, and idempotency; and that
# url_to_canon_parsed_url and url_to_canon_url give the same hash and
# string for each canonicalization test. It reads every
# data file the script reads: parsing.dat, resolving.dat, the decomps*.dat
# files, the generated Stringprep files B.x/C.x and the 94 files of table
# A.1 (unicode32-unassigned-a1.tar.xz). The tests of
# unicode32-differences.tsv (code points assigned after Unicode 6.0) must
# give the result recorded there instead.
#
# The data format, as the suite's reader takes it: tests are separated by a
# blank line before `#`; a field is `#name options` and the lines after
# it; the value is the text, or the first option when the text is empty;
# `| ` prefixes are removed in `data` and `path`; `escaped` turns \uXXXX
# and \UXXXXXXXX into code points (surrogates included, as the module's
# users would pass them); `NAME8` replaces `NAME`.

use strict;
use warnings;
no warnings qw(utf8 surrogate nonchar non_unicode);

use File::Spec;
use File::Temp ();
use FindBin;
use lib "$FindBin::Bin/lib";
use lib "$FindBin::Bin/../compat";

use Test::More;
use WurlDat qw(data_dir need_file);

need_file(File::Spec->catfile(data_dir(), 'parsing.dat'), "the 2012 module's suite");

use Web::URL::Canonicalize qw(url_to_canon_url url_to_canon_parsed_url parse_url resolve_url
  canonicalize_parsed_url serialize_parsed_url);

binmode $_, ':encoding(UTF-8)' for \*STDOUT, \*STDERR, Test::More->builder->output,
  Test::More->builder->failure_output, Test::More->builder->todo_output;

# --- reading the files ---------------------------------------------------------

sub read_text {
    my ($path) = @_;
    open my $fh, '<:raw', $path or die "$path: $!";
    local $/;
    my $text = <$fh>;
    close $fh;
    utf8::decode($text) or die "$path: not UTF-8";
    return $text;
}

sub unescape_code_points {
    my ($s) = @_;
    $s =~ s/\\u([0-9A-Fa-f]{4})/chr hex $1/ge;
    $s =~ s/\\U([0-9A-Fa-f]{8})/chr hex $1/ge;
    return $s;
}

# A list of tests, each { name => [text, [options]] }.
sub read_tests {
    my ($text) = @_;
    $text =~ s/\x0D\x0A/\x0A/g;
    $text =~ tr/\x0D/\x0A/;
    $text =~ s/\A\x0A*#//;
    $text =~ s/\x0A+\z//;
    my @tests;
    for my $block (split /\x0A\x0A#/, $text) {
        my %test;
        for my $field (split /\x0A#/, $block) {
            my ($head, $body) = $field =~ /\A([^\x0A]*)(?:\x0A(.*))?\z/s;
            $body = '' unless defined $body;
            my ($name, $opts) = $head =~ /\A([A-Za-z0-9-]*)(.*)\z/s;
            my @options = grep { length } split /[\x09\x20]+/, $opts;
            if ($name eq 'data' || $name eq 'path') {
                $body =~ s/\A\| //;
                $body =~ s/\x0A\| /\x0A/g;
            }
            if (@options && $options[-1] eq 'escaped') {
                pop @options;
                $body = unescape_code_points($body);
            }
            $test{$name} = [ $body, \@options ] unless exists $test{$name};
        }
        push @tests, \%test;
    }
    return \@tests;
}

# The value of a field: its text, or its first option, or ''.
sub value {
    my ($f) = @_;
    return length $f->[0] ? $f->[0] : defined $f->[1][0] ? $f->[1][0] : '';
}

# The expected hash: each named field that the test has (NAME8 first).
sub expected {
    my ($test, @names) = @_;
    my %r;
    for my $n (@names) {
        next unless $test->{$n};
        $r{$n} = value($test->{"${n}8"} || $test->{$n});
    }
    return \%r;
}

sub add_scheme_normalized {
    my ($r) = @_;
    ($r->{scheme_normalized} = $r->{scheme}) =~ tr/A-Z/a-z/ if defined $r->{scheme};
    return $r;
}

# --- comparing -------------------------------------------------------------------

sub show {
    my ($v) = @_;
    return 'undef' unless defined $v;
    (my $s = $v) =~ s/([^\x20-\x7E]|\\)/sprintf('\\x{%X}', ord $1)/ge;
    return qq{"$s"};
}

sub show_hash {
    my ($h) = @_;
    return show($h) unless ref $h eq 'HASH';
    return '{' . join(', ', map { "$_ => " . show($h->{$_}) } sort keys %$h) . '}';
}

# Every key and value, compared as strings (the port is a number in the
# module's canonical hash and a string in the data).
sub same_hash {
    my ($got, $want) = @_;
    return 0 unless ref $got eq 'HASH';
    return 0 unless join("\0", sort keys %$got) eq join("\0", sort keys %$want);
    for my $k (keys %$want) {
        my ($g, $w) = ($got->{$k}, $want->{$k});
        next if !defined $g && !defined $w;
        return 0 unless defined $g && defined $w && "$g" eq "$w";
    }
    return 1;
}

my ($PASSED, $FAILED, $UNICODE_ROWS) = (0, 0, 0);

sub report {
    my ($what, $n, $failures) = @_;
    $PASSED += $n - @$failures;
    $FAILED += @$failures;
    diag($_) for @$failures[ 0 .. ($#$failures < 20 ? $#$failures : 19) ];
    is(scalar(@$failures), 0, "$what: " . ($n - @$failures) . " of $n pass");
}

# --- the documented Unicode-version rows ------------------------------------------

my %UNICODE32;    # data => the canonical URL wurl gives
{
    my $tsv = File::Spec->catfile(data_dir(), 'unicode32-differences.tsv');
    need_file($tsv, 'the Unicode-version differences');
    open my $fh, '<:encoding(UTF-8)', $tsv or die "$tsv: $!";
    while (my $line = <$fh>) {
        next if $line =~ /\A#/;
        chomp $line;
        my ($data, undef, undef, $diff) = split /\t/, $line;
        $data =~ s/\\u\{([0-9A-Fa-f]+)\}/chr hex $1/ge;
        my ($got) = $diff =~ /\Acanon: expected "[^"]*", got "([^"]*)"\z/
          or die "$tsv: cannot read the difference of $data";
        $UNICODE32{$data} = $got;
    }
    close $fh;
    is(scalar(keys %UNICODE32), 393, 'unicode32-differences.tsv lists 393 tests');
}

# --- parse_url and resolve_url ----------------------------------------------------

my @COMPONENTS = qw(scheme user password host port path query fragment invalid);

{
    my $tests = read_tests(read_text(File::Spec->catfile(data_dir(), 'parsing.dat')));
    my @failures;
    for my $t (@$tests) {
        my $want = add_scheme_normalized(expected($t, @COMPONENTS));
        my $got  = parse_url($t->{data}[0]);
        delete $got->{is_hierarchical};
        push @failures, 'parse_url(' . show($t->{data}[0]) . '): ' . show_hash($got)
          . ', expected ' . show_hash($want)
          unless same_hash($got, $want);
    }
    report('parsing.dat (parse_url)', scalar(@$tests), \@failures);
}

{
    my $tests = read_tests(read_text(File::Spec->catfile(data_dir(), 'resolving.dat')));
    my @failures;
    for my $t (@$tests) {
        my $want = add_scheme_normalized(expected($t, @COMPONENTS));
        my $base = $t->{base} ? value($t->{base}) : '';
        my $got  = resolve_url($t->{data}[0], parse_url($base));
        delete $got->{is_hierarchical};
        push @failures, 'resolve_url(' . show($t->{data}[0]) . ', ' . show($base) . '): '
          . show_hash($got) . ', expected ' . show_hash($want)
          unless same_hash($got, $want);
    }
    report('resolving.dat (resolve_url)', scalar(@$tests), \@failures);
}

# --- canonicalization ------------------------------------------------------------------

# One test of a decomps file: (checks run, failures).
sub canon_test {
    my ($t) = @_;
    my $data = $t->{data}[0];
    my $want = expected($t, @COMPONENTS, qw(canon charset));
    if ($want->{invalid}) {
        delete @{$want}{qw(canon scheme host path query fragment)};
    } else {
        delete $want->{invalid};
    }
    my $charset = delete $want->{charset};
    add_scheme_normalized($want);
    my $base = $t->{base} ? value($t->{base}) : '';
    $base = $data unless length $base;
    $want->{canon} = $data if !defined $want->{canon} && !$want->{invalid};

    my $parsed_base = parse_url($base);
    my $got = resolve_url($data, $parsed_base);
    canonicalize_parsed_url($got, $charset);
    my $url = serialize_parsed_url($got);
    $got->{canon} = $url if defined $url;
    delete $got->{is_hierarchical};

    my @failures;
    my $what = show($data) . ' against ' . show($base) . (defined $charset ? ' in ' . show($charset) : '');
    if (exists $UNICODE32{$data}) {
        $UNICODE_ROWS++;
        push @failures, "$what: " . show($got->{canon}) . ', recorded ' . show($UNICODE32{$data})
          unless defined $got->{canon} && $got->{canon} eq $UNICODE32{$data};
    } elsif (!same_hash($got, $want)) {
        push @failures, "$what: " . show_hash($got) . ', expected ' . show_hash($want);
    }
    # The one-call functions give the same hash and string.
    my $one = url_to_canon_parsed_url($data, $base, $charset);
    my $one_url = serialize_parsed_url($one);
    $one->{canon} = $one_url if defined $one_url;
    delete $one->{is_hierarchical};
    push @failures, "$what: url_to_canon_parsed_url: " . show_hash($one) . ', not ' . show_hash($got)
      unless same_hash($one, $got);
    my $str = url_to_canon_url($data, $base, $charset);
    push @failures, "$what: url_to_canon_url: " . show($str) . ', not ' . show($url)
      unless (defined $str ? $str : "\0undef") eq (defined $url ? $url : "\0undef");
    return (1, @failures) unless defined $url;
    my $again = resolve_url($url, $parsed_base);
    canonicalize_parsed_url($again, $charset);
    my $url2 = serialize_parsed_url($again);
    push @failures, "$what: idempotency: " . show($url) . ' became ' . show($url2)
      unless defined $url2 && $url2 eq $url;
    return (2, @failures);
}

sub canon_files {
    my ($what, $dir, @files) = @_;
    my ($n, @failures) = (0);
    for my $f (@files) {
        my $tests = read_tests(read_text(File::Spec->catfile($dir, split m{/}, $f)));
        die "$f: no tests" unless @$tests;
        for my $t (@$tests) {
            my ($checks, @f) = canon_test($t);
            $n += $checks;
            push @failures, map { "$f: $_" } @f;
        }
    }
    report($what, $n, \@failures);
}

canon_files('decomps*.dat (canonicalize_parsed_url)', data_dir(),
    'decomps.dat', map { "decomps-$_.dat" } qw(about authority authority-domain authority-ipv4
      authority-ipv6 charsets data file fragment ftp javascript mailto path port query relative
      scheme));

canon_files('generated B.x and C.x (canonicalize_parsed_url)', data_dir(),
    map { "generated/decomps-authority-stringprep-$_.dat" } qw(b1-pe b1 b2-pe b2),
    map { ("c$_-1", "c$_-pe-1") } qw(12 22 3 4 5 6 7 8 9));

# Table A.1, from the archive.
SKIP: {
    my $archive = File::Spec->catfile(data_dir(), 'unicode32-unassigned-a1.tar.xz');
    need_file($archive, 'the table A.1 archive');
    my $tmp = File::Temp->newdir;
    my $rc = system('tar', '-xJf', $archive, '-C', "$tmp");
    if ($rc != 0) {
        fail("tar -xJf $archive (needs tar with xz)") if $ENV{WURL_TEST_REQUIRE_ALL};
        skip("tar -xJf $archive failed (tar with xz needed)", 1);
    }
    canon_files('generated A.1 (canonicalize_parsed_url)', "$tmp",
        map { "generated/decomps-authority-stringprep-a1-$_.dat" } 1 .. 94);
}
is($UNICODE_ROWS, 393, 'each row of unicode32-differences.tsv was met once');

# --- the script's checks that take no data file ---------------------------------

{
    my $canon = url_to_canon_parsed_url(q<http://foo/bar?>);
    is_deeply($canon, { scheme => 'http', host => 'foo', path => '/bar', query => '',
        is_hierarchical => 1, scheme_normalized => 'http' }, 'url_to_canon_parsed_url: the whole hash');
    is_deeply(resolve_url(undef, parse_url(q<http://foo/bar>)), { invalid => 1 },
        'resolve_url(undef, ...) is { invalid => 1 }');
}

done_testing();
print STDERR "\nmodule-suite: $PASSED passed, $FAILED failed ($UNICODE_ROWS Unicode-version rows as recorded)\n";
