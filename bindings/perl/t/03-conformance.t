# The whole 2012 conformance suite (tests/data/*.dat and generated/*.dat)
# through Wurl::Compat, judged as tests/data/README.md says and as the
# reference runner tests/conformance.rs does.

use strict;
use warnings;

use File::Spec;
use FindBin;
use lib "$FindBin::Bin/lib";

use Test::More;
use WurlDat qw(load canon_files data_dir need_file);

need_file(File::Spec->catfile(data_dir(), 'parsing.dat'), 'the conformance suite');
use Wurl::Compat qw(parse_url resolve_url canonicalize_parsed_url serialize_parsed_url
  url_to_canon_url);

binmode $_, ':encoding(UTF-8)' for \*STDOUT, \*STDERR, Test::More->builder->output,
  Test::More->builder->failure_output, Test::More->builder->todo_output;

my @COMPONENTS = qw(scheme user password host port path query fragment);

my ($total_checks, $total_failed) = (0, 0);

sub show {
    my ($v) = @_;
    return '(absent)' unless defined $v;
    my $s = $v;
    $s =~ s/([^\x20-\x7E])/sprintf('\\x{%X}', ord $1)/ge;
    return qq{"$s"};
}

sub compare_components {
    my ($t, $h, $check_invalid, $errs) = @_;
    my $f = $t->{fields};
    if ($check_invalid && (exists $f->{invalid} ? 1 : 0) != ($h->{invalid} ? 1 : 0)) {
        push @$errs, sprintf('invalid: expected %d, got %d', exists $f->{invalid} ? 1 : 0,
            $h->{invalid} ? 1 : 0);
    }
    for my $c (@COMPONENTS) {
        my ($want, $got) = ($f->{$c}, $h->{$c});
        next if !defined $want && !defined $got;
        next if defined $want && defined $got && $want eq $got;
        push @$errs, "$c: expected " . show($want) . ', got ' . show($got);
    }
}

sub describe {
    my ($file, $t) = @_;
    my $f = $t->{fields};
    return "$file:$t->{line} data=" . show($f->{data} // '') . ' base=' . show($f->{base})
      . ' charset=' . show($f->{charset});
}

sub judge {
    my ($file, $checks, $failures) = @_;
    $total_checks += $checks;
    $total_failed += @$failures;
    diag($_) for @$failures[ 0 .. ($#$failures < 50 ? $#$failures : 49) ];
    is(scalar(@$failures), 0, "$file: " . ($checks - @$failures) . " of $checks checks pass");
}

# parsing.dat: parse only.
{
    my $tests = load('parsing.dat');
    is(scalar(@$tests), 147, 'parsing.dat has 147 tests');
    my @failures;
    for my $t (@$tests) {
        my $h = parse_url($t->{fields}{data} // '');
        my @errs;
        compare_components($t, $h, 1, \@errs);
        push @failures, describe('parsing.dat', $t) . "\n  " . join("\n  ", @errs) if @errs;
    }
    judge('parsing.dat', scalar(@$tests), \@failures);
}

# resolving.dat: parse the base, resolve.
{
    my $tests = load('resolving.dat');
    is(scalar(@$tests), 103, 'resolving.dat has 103 tests');
    my @failures;
    for my $t (@$tests) {
        my $base = parse_url($t->{fields}{base} // '');
        my $h = resolve_url($t->{fields}{data} // '', $base);
        my @errs;
        compare_components($t, $h, 1, \@errs);
        push @failures, describe('resolving.dat', $t) . "\n  " . join("\n  ", @errs) if @errs;
    }
    judge('resolving.dat', scalar(@$tests), \@failures);
}

# decomps*.dat and generated/*.dat.
sub run_canon_test {
    my ($t) = @_;
    my $f    = $t->{fields};
    my $data = $f->{data} // '';
    my $base_s = (defined $f->{base} && length $f->{base}) ? $f->{base} : $data;
    my $charset = $f->{charset};
    my $base  = parse_url($base_s);
    my $canon = canonicalize_parsed_url(resolve_url($data, $base), $charset);
    my @errs;
    if (exists $f->{invalid}) {
        push @errs, 'expected invalid, got ' . show(serialize_parsed_url($canon))
          unless $canon->{invalid};
        my $one = url_to_canon_url($data, $base_s, $charset);
        push @errs, 'url_to_canon_url: expected undef, got ' . show($one) if defined $one;
        return (1, \@errs);
    }
    if ($canon->{invalid}) {
        push @errs, 'unexpectedly invalid';
        return (2, \@errs);
    }
    my $ser = serialize_parsed_url($canon) // '';
    my $want = $f->{canon} // $data;
    push @errs, 'canon: expected ' . show($want) . ', got ' . show($ser) if $ser ne $want;
    compare_components($t, $canon, 0, \@errs);
    # Idempotency.
    my $again = serialize_parsed_url(canonicalize_parsed_url(resolve_url($ser, $base), $charset));
    push @errs, 'idempotency: ' . show($ser) . ' became ' . show($again)
      unless defined $again && $again eq $ser;
    # The one-call path (wurl_canon_into) agrees.
    my $one = url_to_canon_url($data, $base_s, $charset);
    push @errs, 'url_to_canon_url: ' . show($one) . ' instead of ' . show($ser)
      unless defined $one && $one eq $ser;
    return (2, \@errs);
}

{
    my ($checks, $ntests, @failures) = (0, 0);
    for my $file (canon_files()) {
        my $tests = load($file);
        ok(scalar(@$tests), "$file has tests");
        $ntests += @$tests;
        my ($fchecks, @ffail) = (0);
        for my $t (@$tests) {
            my ($n, $errs) = run_canon_test($t);
            $fchecks += $n;
            push @ffail, describe($file, $t) . "\n  " . join("\n  ", @$errs) if @$errs;
        }
        note("$file: $fchecks checks, " . scalar(@ffail) . ' tests failed');
        $checks += $fchecks;
        push @failures, @ffail;
    }
    note("$ntests canonicalization tests");
    cmp_ok($ntests, '>', 9000, 'the canonicalization files have over 9000 tests');
    judge('decomps*.dat + generated/*.dat', $checks, \@failures);
}

done_testing();
print STDERR "\nperl-conformance: ", $total_checks - $total_failed, " passed, $total_failed failed\n";
