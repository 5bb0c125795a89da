# The string rule (bindings/README.md, "Strings"): a Perl string is its
# characters, whatever its internal UTF8 flag (a string without the flag
# holds U+0000..U+00FF, read as Latin-1 characters, as the 2012 module read
# it); a surrogate or a code point above U+10FFFF is one U+FFFD; bytes => 1,
# parse_bytes and resolve_bytes pass raw bytes. And Wurl::Compat's
# contract: url_to_canon_url returns undef where the 2012 module did or
# where the library refuses the input, and never dies on a string.

use strict;
use warnings;

use Test::More;

use Wurl;
use Wurl::Compat qw(:all);

binmode $_, ':encoding(UTF-8)' for Test::More->builder->output,
  Test::More->builder->failure_output, Test::More->builder->todo_output;

sub flagged { my ($s) = @_; utf8::upgrade($s); return $s }
sub unflagged { my ($s) = @_; utf8::downgrade($s); return $s }

# --- strings without the UTF8 flag: Latin-1 characters ----------------------------

{
    my $host = unflagged("http://\xE4\xB8\x80.com/");
    ok(!utf8::is_utf8($host), 'the input has no UTF8 flag');
    is(Wurl->canonicalize(unflagged("http://a/\xC3\xA9")), 'http://a/%C3%83%C2%A9',
        'bytes that would be UTF-8 are still two characters (as the module reads them)');
    is(url_to_canon_url(unflagged("http://a/\xC3\xA9")), 'http://a/%C3%83%C2%A9', '... in the drop-in too');
    is(Wurl->parse($host)->host, "\x{E4}\x{B8}\x{80}.com", 'parse: each byte is a character');
    is(Wurl->parse('http://a/')->resolve(unflagged("\xC3\xA9"))->path, "/\x{C3}\x{A9}", 'resolve: the same rule');
    is(Wurl->canonicalize(unflagged("http://a/\xE9")), 'http://a/%C3%A9', 'a lone \\xE9 is U+00E9');
    is(Wurl->canonicalize(unflagged("http://a/\xED\xA0\x80")), 'http://a/%C3%AD%C2%A0%C2%80',
        'surrogate bytes are three characters');
    is(Wurl->parse(unflagged("http://\xE9.com/"))->host, "\x{E9}.com", 'parse: Latin-1 host');
    is(Wurl->canonicalize(unflagged("http://a/\0b")), 'http://a/%00b', 'NUL passes');
    my $s = unflagged("http://a/\xE9");
    Wurl->canonicalize($s);
    is($s, "http://a/\xE9", 'the argument is not changed');
    ok(!utf8::is_utf8($s), '... nor its flag');
}

# --- the same characters, the same result, whatever the flag ----------------------

{
    for my $chars ("http://a/\xC3\xA9", "http://\xE4\xB8\x80.com/", "http://a/?\xE9\xFF",
        "http://a/caf\xE9", "http://a/\xEF\xBF\xBF")
    {
        my ($u, $f) = (unflagged($chars), flagged($chars));
        ok($u eq $f && !utf8::is_utf8($u) && utf8::is_utf8($f), 'two equal strings, one flagged');
        is(Wurl->canonicalize($f), Wurl->canonicalize($u), "Wurl->canonicalize: the same result");
        is(Wurl->canonicalize($f, surt => 1), Wurl->canonicalize($u, surt => 1), '... the same key');
        is(url_to_canon_url($f), url_to_canon_url($u), '... and the same in the drop-in');
        is(Wurl->canonicalize('?' . $f, base => 'http://h/', charset => 'windows-1252'),
            Wurl->canonicalize('?' . $u, base => 'http://h/', charset => 'windows-1252'),
            '... and with a charset');
    }
}

# --- strings with the UTF8 flag: characters ----------------------------------------

{
    is(Wurl->canonicalize(flagged("http://a/\xC2\xA9")), 'http://a/%C3%82%C2%A9',
        'flagged: two characters, even though their bytes would be UTF-8');
    is(Wurl->canonicalize(flagged("http://a/\xE9")), 'http://a/%C3%A9', 'flagged Latin-1 range');
    is(Wurl->canonicalize("http://\x{4E00}.com/"), 'http://xn--4gq.com/', 'wide characters');
    is(Wurl->canonicalize("http://a/\x{D800}"), 'http://a/%EF%BF%BD',
        'a surrogate character: one U+FFFD (as the module preprocesses it)');
    is(Wurl->canonicalize("http://a/\x{DFFF}\x{D800}x"), 'http://a/%EF%BF%BD%EF%BF%BDx',
        'two surrogates: two U+FFFD');
    is(Wurl->canonicalize("http://a/\x{110000}"), 'http://a/%EF%BF%BD', 'above U+10FFFF: one U+FFFD');
    is(url_to_canon_url("http://example.com/a\x{D800}b"), 'http://example.com/a%EF%BF%BDb',
        'the drop-in: one U+FFFD per code point');
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
    is(eval { url_to_canon_url('http://a/?q', undef, 'x' x 20e6) }, 'http://a/?q',
        'a 20 MB charset label that names no encoding: UTF-8, as the module');
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
