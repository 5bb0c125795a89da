# The query's charset in the drop-in Web::URL::Canonicalize, as the 2012
# module did it: a label matching the module's pattern of ASCII-compatible
# names goes to Perl's Encode (Encode::encode with its default check: the
# encoding's substitution character for a character it cannot represent, a
# die for an encoding it does not know); any other label, and the query of
# a URL that is not hierarchical, is UTF-8. The expected results are what
# the 2012 module gives with Encode 3.x (run with the module itself);
# Wurl's own interface keeps the WHATWG labels (last block).

use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/../compat";

use Test::More;
use Web::URL::Canonicalize qw(url_to_canon_url url_to_canon_parsed_url parse_url resolve_url
  canonicalize_parsed_url serialize_parsed_url);
use Wurl;

use constant DIES => \'dies';

# label, then the results for the queries "?\x{20AC}\x{2018}",
# "?\x{A5}\x{203E}\x{FF5E}", "?\x{5050}", "?a~b" against http://h/.
my @QUERIES = ("?\x{20AC}\x{2018}", "?\x{A5}\x{203E}\x{FF5E}", "?\x{5050}", '?a~b');
my @TABLE = (
    [q<iso-8859-1>, q<http://h/???>, q<http://h/?%A5??>, q<http://h/??>, q<http://h/?a~b>],
    [q<latin1>, q<http://h/?%E2%82%AC%E2%80%98>, q<http://h/?%C2%A5%E2%80%BE%EF%BD%9E>, q<http://h/?%E5%81%90>, q<http://h/?a~b>],
    [q<sjis>, q<http://h/?%E2%82%AC%E2%80%98>, q<http://h/?%C2%A5%E2%80%BE%EF%BD%9E>, q<http://h/?%E5%81%90>, q<http://h/?a~b>],
    [q<gbk>, q<http://h/?%E2%82%AC%E2%80%98>, q<http://h/?%C2%A5%E2%80%BE%EF%BD%9E>, q<http://h/?%E5%81%90>, q<http://h/?a~b>],
    [q<big5>, q<http://h/?%E2%82%AC%E2%80%98>, q<http://h/?%C2%A5%E2%80%BE%EF%BD%9E>, q<http://h/?%E5%81%90>, q<http://h/?a~b>],
    [q<cp1252>, q<http://h/?%E2%82%AC%E2%80%98>, q<http://h/?%C2%A5%E2%80%BE%EF%BD%9E>, q<http://h/?%E5%81%90>, q<http://h/?a~b>],
    [q<koi8-r>, q<http://h/?%E2%82%AC%E2%80%98>, q<http://h/?%C2%A5%E2%80%BE%EF%BD%9E>, q<http://h/?%E5%81%90>, q<http://h/?a~b>],
    [q<windows-936>, q<http://h/?%80%A1%AE>, q<http://h/?%A3%A4%A3%FE%A1%AB>, q<http://h/?%82%A9>, q<http://h/?a~b>],
    [q<hz-gb-2312>, q<http://h/??%A1%AE>, q<http://h/???%A1%AB>, q<http://h/??>, q<http://h/?a~b>],
    [q<iso-2022-kr>, q<http://h/?%1B$)C%0E%22f!.%0F>, q<http://h/?%1B$)C\x{00a5}\x{203e}%0E%22&%0F>, q<http://h/?%1B$)C\x{5050}>, q<http://h/?%1B$)Ca~b>],
    [q<Shift_JIS>, q<http://h/??%81e>, q<http://h/????>, q<http://h/?%98%F2>, q<http://h/?a~b>],
    [q<EUC-JP>, q<http://h/??%A1%C6>, q<http://h/????>, q<http://h/?%D0%F4>, q<http://h/?a~b>],
    [q<iso-8859-12>, DIES, DIES, DIES, DIES],
    [q<iso-2022-cn>, DIES, DIES, DIES, DIES],
    [q<utf-8x>, DIES, DIES, DIES, DIES],
    [q<x-windows-949>, q<http://h/?%A2%E6%A1%AE>, q<http://h/?%A1%CD?%A2%A6>, q<http://h/??>, q<http://h/?a~b>],
    [q<us-ascii>, q<http://h/???>, q<http://h/????>, q<http://h/??>, q<http://h/?a~b>],
    [q<windows-1252>, q<http://h/?%80%91>, q<http://h/?%A5??>, q<http://h/??>, q<http://h/?a~b>],
    [undef, q<http://h/?%E2%82%AC%E2%80%98>, q<http://h/?%C2%A5%E2%80%BE%EF%BD%9E>, q<http://h/?%E5%81%90>, q<http://h/?a~b>],
    [q<0>, q<http://h/?%E2%82%AC%E2%80%98>, q<http://h/?%C2%A5%E2%80%BE%EF%BD%9E>, q<http://h/?%E5%81%90>, q<http://h/?a~b>],
);

for my $row (@TABLE) {
    my ($label, @want) = @$row;
    my $name = defined $label ? $label : 'undef';
    for my $i (0 .. $#QUERIES) {
        my $q = $QUERIES[$i];
        my $what = sprintf '%s, %s', $name, join '', map { sprintf '\\x{%X}', ord } split //, $q;
        my $got = eval { url_to_canon_url($q, 'http://h/', $label) };
        my $died = $@;
        # The same through the hash functions.
        my $h = eval { canonicalize_parsed_url(resolve_url($q, parse_url('http://h/')), $label) };
        my $hdied = $@;
        if (ref $want[$i] && $want[$i] == DIES) {
            like($died, qr/Unknown encoding/, "url_to_canon_url: $what dies");
            like($hdied, qr/Unknown encoding/, "canonicalize_parsed_url: $what dies");
        } else {
            is($died, '', "url_to_canon_url: $what does not die");
            is($got, $want[$i], "url_to_canon_url: $what");
            is($h && serialize_parsed_url($h), $want[$i], "canonicalize_parsed_url: $what");
        }
    }
}

# Encode is asked only where the module asked it: a hierarchical URL with a
# query that is valid up to the query.
for my $label (qw(iso-2022-cn utf-8x)) {
    is(eval { url_to_canon_url('http://a%00b/?x', undef, $label) }, undef,
        "$label: an invalid host is undef, no die");
    is(eval { url_to_canon_url("mailto:a?\x{E9}", undef, $label) }, 'mailto:a?%C3%A9',
        "$label: mailto: is UTF-8, no die");
    is(eval { url_to_canon_url("data:a?\x{E9}", undef, $label) }, 'data:a?%C3%A9',
        "$label: data: is UTF-8, no die");
    is(eval { url_to_canon_url('http://a/#x', undef, $label) }, 'http://a/#x',
        "$label: no query, no die");
    is(eval { url_to_canon_url('http://a/?', undef, $label) // 'undef' }, undef,
        "$label: an empty query goes to Encode (dies)");
}

# Hash shape and the non-hierarchical rule with an encoding.
is_deeply(url_to_canon_parsed_url("?\x{E9}", 'http://h:81/', 'iso-8859-1'),
    { scheme => 'http', scheme_normalized => 'http', host => 'h', port => 81, path => '/',
      query => '%E9', is_hierarchical => 1 }, 'url_to_canon_parsed_url with iso-8859-1');
is(url_to_canon_url("javascript:x?\x{E9}", undef, 'iso-8859-1'), 'javascript:x?%C3%A9',
    'javascript: is not hierarchical: UTF-8');

# Wurl's own interface: WHATWG labels, as documented in perldoc Wurl.
is(Wurl->canonicalize("?\x{20AC}", base => 'http://h/', charset => 'iso-8859-1'), 'http://h/?%80',
    'Wurl: iso-8859-1 is windows-1252 (WHATWG)');

done_testing();
