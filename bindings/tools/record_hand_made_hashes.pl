#!/usr/bin/perl
# Records what the 2012 Web::URL::Canonicalize module gives for hand-edited
# hashes: a component of a parsed URL set to a value holding a delimiter
# (@ # ? : /), then canonicalize_parsed_url and serialize_parsed_url. The
# output is bindings/perl/t/data/hand-made-hashes.tsv, which
# t/14-hand-made-hashes.t checks the drop-in against.
#
#   perl -I MODULE/lib -I WEB-ENCODINGS/lib -I CHARCLASS/lib \
#     bindings/tools/record_hand_made_hashes.pl > bindings/perl/t/data/hand-made-hashes.tsv
#
# MODULE is the 2012 module (manakai/perl-web-url at 85968d4, 2012-08-06),
# with the versions of its submodules of that day: wakaba/perl-web-encodings
# 9139385 and wakaba/perl-charclass 857245e (Unicode::Stringprep and
# Exporter::Lite from CPAN). The module itself is not part of wurl.

use strict;
use warnings;

use Web::URL::Canonicalize qw(parse_url canonicalize_parsed_url serialize_parsed_url);

# The file's escaped form: printable ASCII other than backslash as itself,
# a backslash as \\, any other character as \x{H..}; undef is \N.
sub esc {
    my ($s) = @_;
    return '\N' unless defined $s;
    return join '', map {
        my $o = ord $_;
        $_ eq '\\' ? '\\\\' : ($o >= 0x21 && $o <= 0x7E) ? $_ : sprintf('\\x{%X}', $o)
    } split //, $s;
}

my $BASE = 'http://user:pass@host.example:8080/path?query#frag';
my @COMPONENTS = qw(scheme user password host port path query fragment);
my %VALUE = (
    scheme   => sub { "http$_[0]x" },
    user     => sub { "u$_[0]v" },
    password => sub { "p$_[0]q" },
    host     => sub { "good.com$_[0]evil.com" },
    port     => sub { "8$_[0]9" },
    path     => sub { "/p$_[0]q" },
    query    => sub { "q$_[0]r" },
    fragment => sub { "f$_[0]g" },
);

print "# Recorded from the 2012 Web::URL::Canonicalize by bindings/tools/record_hand_made_hashes.pl\n";
print "# (manakai/perl-web-url 85968d4; see that script). A hash of parse_url('$BASE')\n";
print "# with one component set (scheme: scheme and scheme_normalized), then\n";
print "# canonicalize_parsed_url: the canonical hash's components, invalid, and\n";
print "# serialize_parsed_url of it. \\N: absent (undef).\n";
print join("\t", qw(component value), @COMPONENTS, qw(invalid serialization)), "\n";
for my $c (@COMPONENTS) {
    for my $d ('@', '#', '?', ':', '/') {
        my $h = parse_url($BASE);
        my $v = $VALUE{$c}->($d);
        $h->{$c} = $v;
        ($h->{scheme_normalized} = $v) =~ tr/A-Z/a-z/ if $c eq 'scheme';
        my $r = canonicalize_parsed_url($h);
        print join("\t", $c, esc($v), (map { esc($r->{$_}) } @COMPONENTS),
            $r->{invalid} ? 1 : 0, esc(serialize_parsed_url($r))), "\n";
    }
}
