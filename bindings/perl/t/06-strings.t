# The string rule (bindings/README.md, "Strings"): a string with the UTF8
# flag is characters; a string without it is UTF-8 when its bytes are
# well-formed UTF-8, Latin-1 otherwise (as Perl upgrades it); bytes => 1,
# parse_bytes and resolve_bytes pass raw bytes. And Wurl::Compat's contract:
# url_to_canon_url returns undef where the 2012 module did or where the
# library refuses the input, and never dies on a string.

use strict;
use warnings;

use Test::More;

use Wurl;
use Wurl::Compat qw(:all);

binmode $_, ':encoding(UTF-8)' for Test::More->builder->output,
  Test::More->builder->failure_output, Test::More->builder->todo_output;

sub flagged { my ($s) = @_; utf8::upgrade($s); return $s }
sub unflagged { my ($s) = @_; utf8::downgrade($s); return $s }

# --- strings without the UTF8 flag ---------------------------------------------

{
    # UTF-8 bytes, as read from a file without a layer: UTF-8 (they gave
    # "prohibited character in host" and double encoding before).
    my $host = unflagged("http://\xE4\xB8\x80.com/");
    ok(!utf8::is_utf8($host), 'the input has no UTF8 flag');
    is(Wurl->canonicalize($host), 'http://xn--4gq.com/', 'UTF-8 bytes in a host');
    is(url_to_canon_url(unflagged("http://a/\xE2\x98\xBA")), 'http://a/%E2%98%BA', 'UTF-8 bytes in a path');
    is(Wurl->parse($host)->host, "\x{4E00}.com", 'parse: the component is the character');
    is(Wurl->parse('http://a/')->resolve(unflagged("\xC3\xA9"))->path, "/\x{E9}", 'resolve: the same rule');
    is(Wurl->canonicalize(unflagged("?\xE5\x81\x90"), base => 'http://hoge', charset => 'euc-jp'),
        'http://hoge/?%D0%F4', 'UTF-8 bytes with a charset');
    is(Wurl->canonicalize('x', base => unflagged("http://\xE4\xB8\x80.com/")), 'http://xn--4gq.com/x',
        'a base string: the same rule');
    # U+FFFF and U+10FFFF are noncharacters but well-formed UTF-8: they go
    # out as they are (the library then replaces them), not as Latin-1.
    my $nonchar = unflagged("http://a/\xEF\xBF\xBF\xF4\x8F\xBF\xBF");
    is(Wurl->canonicalize($nonchar), Wurl->canonicalize($nonchar, bytes => 1),
        'noncharacters are well-formed UTF-8');
    unlike(Wurl->canonicalize($nonchar), qr/%C3%AF/, '... not Latin-1');

    # Not UTF-8: each byte is a Latin-1 character.
    is(Wurl->canonicalize(unflagged("http://a/\xE9")), 'http://a/%C3%A9', 'a lone \\xE9 is U+00E9');
    is(Wurl->canonicalize(unflagged("http://a/caf\xE9\xE4\xB8\x80")), 'http://a/caf%C3%A9%C3%A4%C2%B8%C2%80',
        'one invalid byte makes the whole string Latin-1');
    is(Wurl->canonicalize(unflagged("http://a/\xE4\xB8")), 'http://a/%C3%A4%C2%B8', 'a truncated sequence');
    is(Wurl->canonicalize(unflagged("http://a/\xC0\xAF")), 'http://a/%C3%80%C2%AF', 'an overlong form');
    is(Wurl->canonicalize(unflagged("http://a/\xED\xA0\x80")), 'http://a/%C3%AD%C2%A0%C2%80',
        'surrogate bytes are not UTF-8');
    is(Wurl->canonicalize(unflagged("http://a/\xF4\x90\x80\x80")), 'http://a/%C3%B4%C2%90%C2%80%C2%80',
        'above U+10FFFF is not UTF-8');
    is(Wurl->parse(unflagged("http://\xE9.com/"))->host, "\x{E9}.com", 'parse: Latin-1 host');
    is(Wurl->canonicalize(unflagged("http://a/\0b")), 'http://a/%00b', 'NUL passes');
    my $s = unflagged("http://a/\xE9");
    Wurl->canonicalize($s);
    is($s, "http://a/\xE9", 'the argument is not changed');
    ok(!utf8::is_utf8($s), '... nor its flag');
}

# --- strings with the UTF8 flag: characters ----------------------------------------

{
    is(Wurl->canonicalize(flagged("http://a/\xC2\xA9")), 'http://a/%C3%82%C2%A9',
        'flagged: two characters, even though their bytes would be UTF-8');
    is(Wurl->canonicalize(flagged("http://a/\xE9")), 'http://a/%C3%A9', 'flagged Latin-1 range');
    is(Wurl->canonicalize("http://\x{4E00}.com/"), 'http://xn--4gq.com/', 'wide characters');
    is(Wurl->canonicalize("http://a/\x{D800}"), 'http://a/%EF%BF%BD%EF%BF%BD%EF%BF%BD',
        'a surrogate character: three U+FFFD (its bytes ED A0 80)');
    my $u = Wurl->canonicalize("http://a/\x{263A}");
    ok(utf8::is_utf8(Wurl->parse("http://a/\x{263A}")->path), 'results are character strings');
    is($u, 'http://a/%E2%98%BA', 'U+263A');
}

# --- bytes => 1 ---------------------------------------------------------------------

{
    is(Wurl->canonicalize(unflagged("http://a/\xE9"), bytes => 1), 'http://a/%EF%BF%BD',
        'bytes => 1: an invalid byte is U+FFFD, as from C');
    is(Wurl->canonicalize(unflagged("http://a/\xE2\x98\xBA"), bytes => 1), 'http://a/%E2%98%BA', 'bytes => 1: UTF-8');
    is(Wurl->canonicalize(flagged("http://a/\xE9"), bytes => 1), 'http://a/%EF%BF%BD',
        'bytes => 1 takes a flagged string as its bytes (Latin-1 range)');
    is(Wurl->canonicalize(unflagged("http://a/\xED\xA0\x80"), bytes => 1), 'http://a/%EF%BF%BD%EF%BF%BD%EF%BF%BD',
        'bytes => 1: surrogate bytes');
    is(Wurl->parse_bytes(unflagged("http://a/\xFF"))->path, "/\x{FFFD}", 'parse_bytes');
    is(Wurl->parse('http://a/')->resolve_bytes(unflagged("\xFF"))->path, "/\x{FFFD}", 'resolve_bytes');
    eval { Wurl->canonicalize("http://a/\x{263A}", bytes => 1) };
    like($@, qr/cannot hold characters above U\+00FF/, 'bytes => 1 with a wide character croaks');
}

# --- Wurl::Compat: undef, never a die --------------------------------------------

{
    my $long = 'http://a/' . ('a' x 20e6);
    my $r = eval { url_to_canon_url($long) };
    is($@, '', 'url_to_canon_url: a 20 MB input does not die');
    is($r, undef, '... it is undef (the library refuses it)');
    is(eval { url_to_canon_url('x', $long) }, undef, 'a 20 MB base: undef');
    is($@, '', '... without dying');
    is(eval { url_to_canon_url('http://a/', undef, 'x' x 20e6) }, undef, 'a 20 MB charset label: undef');
    is($@, '', '... without dying');
    my $just = 'http://a/' . ('a' x (Wurl::WURL_MAX_INPUT_LEN - 9));
    is(length(url_to_canon_url($just) // ''), Wurl::WURL_MAX_INPUT_LEN, 'exactly the limit is accepted');
    is(url_to_canon_url($just . 'a'), undef, 'one byte over is undef');
    # Over the limit only once encoded: 6 MB of U+263A is 18 MB of UTF-8.
    is(url_to_canon_url('http://a/' . ("\x{263A}" x 6e6)), undef, 'the limit is in UTF-8 bytes');

    is_deeply(parse_url($long), { invalid => 1 }, 'parse_url of a 20 MB input: an invalid hash');
    is_deeply(resolve_url($long, parse_url('http://a/')), { invalid => 1 }, 'resolve_url: the same');
    is(serialize_parsed_url(url_to_canon_parsed_url($long)), undef, 'url_to_canon_parsed_url: invalid');
    ok(resolve_url('x', parse_url($long))->{invalid}, 'resolving against it gives invalid');
    my $h = parse_url('http://a/');
    $h->{path} = '/' . ('a' x 20e6);
    ok(canonicalize_parsed_url($h)->{invalid}, 'a hand-made hash too long to rebuild: invalid');
    undef $h;
    undef $long;
    undef $just;

    # Every kind of string: never a die.
    my @inputs = ('', ' ', "\0", "\x{D800}", "\x{110000}", "\x{7FFFFFFF}", "\xFF\xFE", "\t\n\r",
        '%', '%zz', 'http://[', 'http://a:b', '\\\\', 'javascript:', "http://\x{FFFD}/", 0, 1.5,
        [], {}, \'x', "http://a/\x{263A}", 'mailto:', '//', '#', '?', '..', "a\0b:c");
    my $died = 0;
    my $n = 0;
    for my $in (@inputs) {
        for my $base (undef, @inputs) {
            for my $cs (undef, '', 'euc-jp', "\x{263A}", "\0") {
                $n++;
                eval { url_to_canon_url($in, $base, $cs); 1 } or do {
                    $died++;
                    diag('died: ' . (defined $base ? 'base' : 'no base') . ": $@") if $died < 5;
                };
            }
        }
    }
    is($died, 0, "url_to_canon_url died on none of $n combinations of odd strings");
}

done_testing();
