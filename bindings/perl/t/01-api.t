# Unit tests of the Perl binding: Wurl / Wurl::URL and Wurl::Compat.

use strict;
use warnings;

use Config;
use File::Spec;
use FindBin;
use Test::More;

use Wurl;
use Wurl::Compat qw(:all);

my $LIBDIR = File::Spec->catdir($FindBin::Bin, File::Spec->updir, 'lib');

# --- the library -----------------------------------------------------------

like(Wurl::library_version(), qr/\A\d+\.\d+\.\d+/, 'wurl_version');
ok(-e Wurl::library_path() || Wurl::library_path() =~ /\Alibwurl\.so/, 'library_path');
if (defined Wurl::_repo_root()) {
    like(join(' ', Wurl::library_candidates()), qr{target/release/libwurl\.so}, 'candidates');
} else {
    # A copy of the distribution or an installed module: no checkout paths.
    unlike(join(' ', Wurl::library_candidates()), qr{target/release}, 'no checkout candidates');
}
is(Wurl::status_string(Wurl::WURL_E_TOO_LONG), 'input longer than WURL_MAX_INPUT_LEN', 'status string');

# --- Wurl::URL -------------------------------------------------------------

{
    my $u = Wurl->parse('HTTP://User:Pw@EXAMPLE.com:80/a/../b?q#f');
    isa_ok($u, 'Wurl::URL');
    is($u->scheme, 'HTTP', 'parse keeps the scheme as written');
    is($u->user, 'User', 'user');
    is($u->password, 'Pw', 'password');
    is($u->host, 'EXAMPLE.com', 'host');
    is($u->port, '80', 'port');
    is($u->path, '/a/../b', 'path');
    is($u->query, 'q', 'query');
    is($u->fragment, 'f', 'fragment');
    is($u->component('host'), 'EXAMPLE.com', 'component()');
    ok(!$u->is_invalid, 'valid');
    is($u->invalid_reason, undef, 'no reason when valid');
    my $c = $u->canonicalize;
    is($c->serialize, 'http://User:Pw@example.com/b?q#f',
        'canonicalize + serialize (the path normalized as resolving it again would: CHANGELOG)');
    is($u->serialize, 'HTTP://User:Pw@EXAMPLE.com:80/a/../b?q#f', 'the original is untouched');
    is_deeply($c->components,
        { scheme => 'http', user => 'User', password => 'Pw', host => 'example.com',
          path => '/b', query => 'q', fragment => 'f' }, 'components');
    eval { $u->component('nope') };
    like($@, qr/unknown component/, 'unknown component croaks');
}

{
    my $u = Wurl->parse('http://a/?');
    is($u->query, '', 'present and empty is ""');
    is($u->fragment, undef, 'absent is undef');
    is($u->user, undef, 'absent user');
    my $e = Wurl->parse('http://a/?#');
    is($e->fragment, '', 'empty fragment');
}

{
    my $base = Wurl->parse('http://EXAMPLE.com:80/x/y');
    my $r = $base->resolve('../a/./b');
    is($r->serialize, 'http://EXAMPLE.com:80/a/b', 'resolve (no canonicalization)');
    is($r->canonicalize->serialize, 'http://example.com/a/b', 'resolve + canonicalize');
    is(Wurl->canonicalize('../a/./b', base => 'http://EXAMPLE.com:80/x/y'),
        'http://example.com/a/b', 'one-call with a string base');
    is(Wurl->canonicalize('../a/./b', base => $base), 'http://example.com/a/b',
        'one-call with a Wurl::URL base');
    is(Wurl->canonicalize('http://foo/bar/./baz/..'), 'http://foo/bar/', 'one-call without base');
    is(Wurl->canonicalize('foo'), undef, 'one-call: invalid is undef');
    is(Wurl->canonicalize('hoge', base => 'mailto:foo'), undef, 'relative to mailto: is undef');
}

{
    my $u = Wurl->parse('foo');
    ok($u->is_invalid, 'relative reference alone is invalid');
    like($u->invalid_reason, qr/scheme/, 'invalid_reason');
    is($u->serialize, undef, 'invalid serializes to undef');
    is($u->path, 'foo', 'components of an invalid URL stay readable');
    ok(Wurl->parse('http://a b/')->canonicalize->is_invalid || 1, 'no crash on odd hosts');
}

# host_kind
{
    my %k = (
        'mailto:x'            => 'none',
        'file:///x'           => 'empty',
        'http://example.com/' => 'domain',
        'http://1.2.3.4/'     => 'ipv4',
        'http://0x7f.1/'      => 'ipv4',
        'http://[::1]/'       => 'ipv6',
    );
    for my $in (sort keys %k) {
        is(Wurl->parse($in)->canonicalize->host_kind, $k{$in}, "host_kind $in");
    }
    is(Wurl->parse('http://0x7f.1/')->host_kind, 'domain', 'raw parsed 0x7f.1 is a domain');
}

# charset and strict
{
    my $u = Wurl->parse('http://hoge')->resolve("?\x{5050}");
    is($u->canonicalize->serialize, 'http://hoge/?%E5%81%90', 'UTF-8 query by default');
    is($u->canonicalize(charset => 'euc-jp')->serialize, 'http://hoge/?%D0%F4', 'euc-jp');
    is($u->canonicalize(charset => 'iso-8859-1')->serialize, 'http://hoge/??', 'iso-8859-1');
    ok(defined $u->canonicalize(strict => 1), 'strict flag accepted');
    is(Wurl->canonicalize("?\x{5050}", base => 'http://hoge', charset => 'euc-jp'),
        'http://hoge/?%D0%F4', 'one-call charset');
    is(Wurl->canonicalize('http://example.com/', strict => 1), 'http://example.com/',
        'one-call strict');
}

# A charset label that names no encoding croaks with the library's message
# (wurl_charset_message; the library alone would read it as UTF-8);
# Wurl::Compat keeps the 2012 module's rule (UTF-8).
{
    my $u = Wurl->parse('http://hoge')->resolve("?\x{5050}");
    for my $label ('shiftjis', 'no-such-label', 'utf-7', '', 'utf_8', "sj\x{E9}is", 'a"b\\c') {
        my $msg = Wurl->charset_message($label);
        ok(defined $msg && length $msg, "'$label': the library has a message");
        like($msg, qr/\A[\x20-\x7E]+\z/, "'$label': the message is printable ASCII");
        # The croak is the message and croak's " at FILE line N."; the line
        # is this file's (the caller's), not Wurl.pm's.
        my $at = qr/ at \Q${\ __FILE__}\E line \d+\.\n\z/;
        eval { $u->canonicalize(charset => $label) };
        like($@, qr/\A\Q$msg\E$at/, "'$label': URL->canonicalize croaks the message");
        eval { Wurl->canonicalize("?\x{5050}", base => 'http://hoge', charset => $label) };
        like($@, qr/\A\Q$msg\E$at/, "'$label': Wurl->canonicalize croaks the message");
        eval { Wurl->canonicalize('http://a/', rules => 'sort-query', charset => $label) };
        like($@, qr/\A\Q$msg\E$at/, "'$label': with rules too");
        eval { Wurl->canonicalize('http://a/', surt => 1, charset => $label) };
        like($@, qr/\A\Q$msg\E$at/, "'$label': with surt too");
        eval { Wurl->canonicalize('http://a/', model => 'url-standard', charset => $label) };
        like($@, qr/\A\Q$msg\E$at/, "'$label': with the URL Standard model too");
        eval { Wurl->canonicalize('a', base => $u, model => 'url-standard', charset => $label) };
        like($@, qr/\A\Q$msg\E$at/, "'$label': URL Standard, object base");
        is(Wurl->charset_known($label), 0, "'$label' is not known");
    }
    # The last charset option given is the one used, and the one named.
    eval { Wurl->canonicalize('http://a/', charset => 'sjis', charset => 'nope') };
    like($@, qr/\A\Q${\ Wurl->charset_message('nope')}\E at /, 'the last charset option is named');
    is(Wurl->canonicalize('http://a/', charset => 'nope', charset => 'sjis'), 'http://a/',
        'the last charset option is used');
    for my $label ('Shift_JIS', ' sjis ', 'EUC-JP', 'latin1', 'utf-16le') {
        is(Wurl->charset_known($label), 1, "'$label' is known");
        is(Wurl->charset_message($label), undef, "'$label' has no message");
    }
    is(Wurl->canonicalize("?\x{3042}", base => 'http://hoge', charset => ' Shift_JIS '),
        'http://hoge/?%82%A0', 'a WHATWG label, case and spaces aside');
    my $long = 'x' x 10_000;
    eval { $u->canonicalize(charset => $long) };
    my $msg = Wurl->charset_message($long);
    like($@, qr/\A\Q$msg\E at /, 'a long label: the library\'s message');
    ok(length($msg) <= Wurl::WURL_CHARSET_MESSAGE_MAX, 'a long label is quoted in part');
    # A label over WURL_MAX_INPUT_LEN bytes is a failed call, not a message.
    my $huge = 'x' x (Wurl::WURL_MAX_INPUT_LEN + 1);
    eval { Wurl->charset_message($huge) };
    like($@, qr/\(status ${\ Wurl::WURL_E_TOO_LONG}\)/, 'charset_message: a label too long croaks');
    eval { $u->canonicalize(charset => $huge) };
    like($@, qr/\(status ${\ Wurl::WURL_E_TOO_LONG}\)/, 'canonicalize: a label too long croaks');
    undef $huge;
    eval { Wurl->charset_message(undef) };
    like($@, qr/input is undef/, 'charset_message(undef) croaks');
    require Wurl::Compat;
    is(Wurl::Compat::url_to_canon_url("?\x{5050}", 'http://hoge', 'shiftjis'), 'http://hoge/?%E5%81%90',
        'Wurl::Compat: an unknown label is UTF-8, as in the 2012 module');
}

# Output buffers are sized once by wurl_output_bound (no call again on
# WURL_E_BUFFER_TOO_SMALL): results that expand the most (an invalid UTF-8
# byte is 9 bytes), below and above the 64 KiB scratch buffer, come whole
# through every one-call path, as the handle path gives them.
{
    for my $n (10, 7_200, 7_400, 30_000) {
        my $in = 'http://a/' . ("\xFF" x $n);
        my $want = 'http://a/' . ('%EF%BF%BD' x $n);
        is(Wurl->canonicalize($in, bytes => 1), $want, "$n invalid bytes: canonicalize");
        is(Wurl->parse_bytes($in)->canonicalize->serialize, $want, "$n invalid bytes: the handle path");
        is(Wurl->canonicalize('?q', base => Wurl->parse_bytes($in), bytes => 1),
            "$want?q", "$n invalid bytes: a handle base");
        is(Wurl->canonicalize($in, bytes => 1, rules => 'sort-query'), $want, "$n: with rules");
        is(Wurl->canonicalize($in, bytes => 1, surt => 1), 'a)/' . ('%EF%BF%BD' x $n), "$n: SURT");
        is(Wurl->canonicalize($in, bytes => 1, model => 'url-standard'), $want, "$n: URL Standard");
        is(Wurl->canonicalize('/x', base => $in, bytes => 1, model => 'url-standard'), 'http://a/x',
            "$n: URL Standard, a string base");
        is(Wurl->parse_bytes($in)->key, $want, "$n: key of a handle");
        is(Wurl->parse_bytes($in)->key(surt => 1), 'a)/' . ('%EF%BF%BD' x $n), "$n: SURT key of a handle");
    }
}

# Strings: characters in, characters out; bytes on request.
{
    my $latin1 = "http://a/?\xE9";      # no UTF8 flag: the character U+00E9
    my $wide   = "http://a/?\x{E9}";
    utf8::upgrade($wide);
    is(Wurl->canonicalize($latin1), 'http://a/?%C3%A9', 'byte string is Latin-1 characters');
    is(Wurl->canonicalize($wide),   'http://a/?%C3%A9', 'same as the upgraded string');
    is(Wurl->canonicalize("http://a/?\xC3\xA9", bytes => 1), 'http://a/?%C3%A9', 'bytes => 1');
    is(Wurl->canonicalize("http://a/?\xE9", bytes => 1), 'http://a/?%EF%BF%BD',
        'invalid UTF-8 bytes become U+FFFD');
    my $p = Wurl->parse("http://a/\x{20AC}");
    is($p->path, "/\x{20AC}", 'outputs are character strings');
    ok(utf8::is_utf8($p->path), 'with the UTF8 flag when non-ASCII');
    is(Wurl::URL->parse_bytes("http://a/\xE2\x82\xAC")->path, "/\x{20AC}", 'parse_bytes');
    is(Wurl->parse('http://a/')->resolve_bytes("x\xFF")->path, "/x\x{FFFD}", 'resolve_bytes');
    eval { Wurl::URL->parse_bytes("\x{100}") };
    like($@, qr/byte string/, 'parse_bytes refuses wide characters');
    eval { Wurl->parse(undef) };
    like($@, qr/undef/, 'undef input croaks');
    {
        no warnings;
        is(Wurl->parse("http://a/\x{D800}")->path, "/\x{FFFD}",
            'a surrogate is one U+FFFD');
        is(Wurl->parse("http://a/\x{110000}")->path, "/\x{FFFD}",
            'above U+10FFFF: one U+FFFD');
    }
}

# NUL bytes pass through, both ways.
{
    my $u = Wurl->parse("http://a/\0b?\0#\0");
    is($u->path, "/\0b", 'NUL in a component');
    is($u->query, "\0", 'NUL query');
    is($u->serialize, "http://a/\0b?\0#\0", 'NUL in the serialization');
    is(Wurl->canonicalize("http://a/\0b"), 'http://a/%00b', 'NUL canonicalized');
    is(Wurl->canonicalize("\0http://test"), undef, 'leading NUL is a relative path');
    is(Wurl->canonicalize(''), undef, 'empty input');
}

# The one-call buffer grows and is reused.
{
    my $long = 'http://a/' . ("\x{20AC}" x 300);
    my $want = 'http://a/' . ('%E2%82%AC' x 300);
    is(Wurl->canonicalize($long), $want, 'result longer than the initial buffer');
    is(Wurl->canonicalize('http://B/'), 'http://b/', 'short result after a long one');
    is(Wurl->canonicalize($long . 'x'), $want . 'x', 'long again');
    my $huge = 'http://a/' . ('b' x 100_000);
    is(length(Wurl->canonicalize($huge)), length($huge), '100 kB');
}

# Too long: a status error croaks.
{
    my $s = 'x' x (Wurl::WURL_MAX_INPUT_LEN + 1);
    eval { Wurl->parse($s) };
    like($@, qr/wurl_parse: input longer than WURL_MAX_INPUT_LEN/, 'too long croaks');
    eval { Wurl->canonicalize($s) };
    like($@, qr/wurl_canon_into/, 'too long croaks in the one-call path');
}

# Many handles come and go (DESTROY frees each).
{
    for (1 .. 20_000) {
        my $u = Wurl->parse("http://a/$_")->canonicalize;
        die unless $u->path eq "/$_";
    }
    pass('20000 handles created and freed');
}

# --- Wurl::Compat ------------------------------------------------------------

{
    my $p = parse_url('http://Example.com/a?b#c');
    is_deeply($p,
        { scheme => 'http', scheme_normalized => 'http', host => 'Example.com',
          path => '/a', query => 'b', fragment => 'c', is_hierarchical => 1 },
        'parse_url: the hash has the documented keys only');
    is_deeply(parse_url('HTTP:foo'),
        { scheme => 'HTTP', scheme_normalized => 'http', path => 'foo' },
        'scheme_normalized; not hierarchical without a slash');
    is_deeply(parse_url('foo'), { path => 'foo', invalid => 1, is_hierarchical => 1 },
        'a relative reference: invalid, hierarchical');
    is_deeply(parse_url('mailto:a@b?c'),
        { scheme => 'mailto', scheme_normalized => 'mailto', path => 'a@b', query => 'c' },
        'mailto');
    is_deeply(parse_url('data:/a?b#c'),
        { scheme => 'data', scheme_normalized => 'data', path => '/a?b#c' },
        'data: is never hierarchical');
    ok(parse_url('x-y:/z')->{is_hierarchical}, 'unknown scheme with a slash is hierarchical');
    ok(parse_url('x-y:\\z')->{is_hierarchical}, 'a backslash counts as a slash');
    ok(parse_url('file:z')->{is_hierarchical}, 'file: always is');
    ok(parse_url('c:z')->{is_hierarchical}, 'a drive letter is file:');
    ok(parse_url('\\\\host\\share')->{is_hierarchical}, 'UNC');
    ok(parse_url("\t javascript://x")->{scheme} eq 'javascript'
          && !parse_url("\t javascript://x")->{is_hierarchical}, 'javascript:// is not');

    my $base = parse_url('http://EXAMPLE.com:80/x/y');
    my $r = resolve_url('../a/./b', $base);
    is_deeply($r,
        { scheme => 'http', scheme_normalized => 'http', host => 'EXAMPLE.com', port => '80',
          path => '/a/b', is_hierarchical => 1 }, 'resolve_url');
    is($base->{path}, '/x/y', 'the base is untouched');
    my $c = canonicalize_parsed_url($r);
    is($c, $r, 'canonicalize_parsed_url returns the same hash');
    is_deeply($r,
        { scheme => 'http', scheme_normalized => 'http', host => 'example.com',
          path => '/a/b', is_hierarchical => 1 }, 'canonicalized in place');
    is(serialize_parsed_url($r), 'http://example.com/a/b', 'serialize_parsed_url');

    my $m = resolve_url('hoge', parse_url('mailto:foo'));
    ok($m->{invalid}, 'relative against mailto: is invalid');
    ok(!$m->{is_hierarchical}, '... and not hierarchical');
    is(serialize_parsed_url($m), undef, 'an invalid hash serializes to undef');
    ok(!resolve_url('xy:z', parse_url('http://a/'))->{is_hierarchical}, 'xy:z is not hierarchical');
    ok(resolve_url('x:y', parse_url('http://a/'))->{is_hierarchical}, 'x:y is a drive');
    ok(resolve_url('http:y', parse_url('http://a/b'))->{is_hierarchical},
        'same scheme against a hierarchical base is relative');
    is(resolve_url('http:y', parse_url('http://a/b'))->{path}, '/y', '... and resolves');
    ok(resolve_url('', parse_url('http://a/b#c'))->{is_hierarchical}, 'empty spec is the base');
    ok(!resolve_url('', parse_url('data:x'))->{is_hierarchical}, '... the base flag');
    ok(resolve_url('x', parse_url('foo'))->{invalid}, 'invalid base gives invalid');
    is(url_to_canon_url('#', undef, undef), undef, 'url_to_canon_url #');
    is(url_to_canon_url('../a/./b', 'http://EXAMPLE.com:80/x/y'), 'http://example.com/a/b',
        'url_to_canon_url');
    is_deeply(url_to_canon_parsed_url('?x', 'http://A/b', 'euc-jp'),
        { scheme => 'http', scheme_normalized => 'http', host => 'a', path => '/b',
          query => 'x', is_hierarchical => 1 }, 'url_to_canon_parsed_url');
}

# Hashes built or changed by hand are rebuilt from their components.
{
    my $h = { scheme => 'http', scheme_normalized => 'http', host => 'EXAMPLE.com', path => '/x/y',
        is_hierarchical => 1 };
    is(serialize_parsed_url($h), 'http://EXAMPLE.com/x/y', 'serialize a hand-built hash');
    is(serialize_parsed_url(resolve_url('z', $h)), 'http://EXAMPLE.com/x/z',
        'resolve against a hand-built hash');
    # Without is_hierarchical it is not hierarchical, as for the module.
    my %flat = %$h;
    delete $flat{is_hierarchical};
    is_deeply(resolve_url('z', \%flat), { invalid => 1 }, '... without is_hierarchical: invalid');
    my $c = canonicalize_parsed_url({ %$h });
    is(serialize_parsed_url($c), 'http://example.com/x/y', 'canonicalize a hand-built hash');

    my $p = parse_url('http://a/b');
    $p->{host} = 'C';
    is(serialize_parsed_url($p), 'http://C/b', 'a changed component is seen by serialize');
    is(serialize_parsed_url(canonicalize_parsed_url($p)), 'http://c/b', 'and by canonicalize');
    my $q = parse_url('http://a/b');
    $q->{invalid} = 1;
    is(serialize_parsed_url($q), undef, 'invalid set by hand');
    ok(canonicalize_parsed_url($q)->{invalid}, 'canonicalize keeps it invalid');
    my $d = parse_url('http://a/b');
    delete $d->{path};
    is(serialize_parsed_url($d), 'http://a', 'a deleted component is absent');
    eval { resolve_url('x', 'http://a/') };
    like($@, qr/not a hash reference/, 'a string base croaks');
}

# Exports.
{
    package Other;
    use Wurl::Compat;
    ::ok(defined &Other::url_to_canon_url, 'url_to_canon_url exported by default');
    ::ok(!defined &Other::parse_url, 'parse_url only on request');
}

# Subprocesses: global destruction, the one-liner, library selection.
{
    local $ENV{PERL5OPT};    # -w there would show FFI::Platypus's own warnings
    my $perl = $^X;
    my $out = `"$perl" -I"$LIBDIR" -MWurl -MWurl::Compat=parse_url -e 'use warnings; our \$g = Wurl->parse(q<http://a/>); our \$h = parse_url(q<http://b/>); my \$c = \$g; print "ok\\n"' 2>&1`;
    is($out, "ok\n", 'global destruction: no warning, no crash');
    is($?, 0, 'exit status 0');
    $out = `"$perl" -I"$LIBDIR" -MWurl::Compat -e 'print url_to_canon_url(q<../a/./b>, q<http://EXAMPLE.com:80/x/y>)' 2>&1`;
    is($out, 'http://example.com/a/b', 'the one-liner of the README');
    local $ENV{WURL_LIB} = '/nonexistent/libwurl.so';
    $out = `"$perl" -I"$LIBDIR" -MWurl -e 1 2>&1`;
    like($out, qr{WURL_LIB=/nonexistent/libwurl\.so is not a readable file}, 'a bad WURL_LIB croaks');
}

# Threads: an inherited object gets its own handle in the thread (imported
# from its state); hashes keep working; the parent's handles are untouched.
SKIP: {
    skip 'perl without ithreads', 4 unless $Config{useithreads};
    require threads;
    require Scalar::Util;
    my $u = Wurl->parse('http://A/x');
    my $h = parse_url('http://A/y');
    my $parent_handle = $u->[0];
    my $t = threads->create(sub {
        my @r;
        push @r, Scalar::Util::blessed($u) // 'not an object';
        push @r, $u->[0] != $parent_handle ? 'own-handle' : 'parent-handle';
        push @r, $u->canonicalize->serialize;
        push @r, serialize_parsed_url(canonicalize_parsed_url($h));
        push @r, Wurl->canonicalize('http://T/z');
        push @r, Wurl->parse('http://B/')->canonicalize->serialize;
        return join ' ', @r;
    });
    my $r = $t->join;
    is($r, 'Wurl::URL own-handle http://a/x http://a/y http://t/z http://b/',
        'a thread uses inherited objects and hashes');
    is($u->serialize, 'http://A/x', 'the parent object is intact');
    is($h->{host}, 'A', 'the parent hash is intact');
    is(Wurl->canonicalize('http://P/'), 'http://p/', 'the parent still works');
}

# The key version (wurl_key_version) and its pin.
{
    my $v = Wurl->key_version;
    like($v, qr/\A[1-9][0-9]*\z/, 'key_version is a positive integer');
    ok(Wurl->require_key_version($v), 'require_key_version of the library\'s own version');
    my $other = $v + 998;
    ok(!eval { Wurl->require_key_version($other); 1 }, 'another version croaks');
    like($@, qr/this wurl makes keys of version $v; its keys would not be those of version $other/,
        'the message names both versions');
    ok(!eval { Wurl->require_key_version('1x'); 1 }, 'a non-number croaks');
    like($@, qr/a version number/, 'and says so');
}

done_testing();
