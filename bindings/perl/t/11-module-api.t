# The drop-in Web::URL::Canonicalize has the 2012 module's interface:
# prototypes, $VERSION, the package variables (with the library's scheme
# table), and the module's hash rules (the authority of a schemeless
# string, an invalid result, a hand-made or edited hash, a numeric port).
# Every expected value here is what the 2012 module gives.

use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/../compat";

use Test::More;
use JSON::PP ();
use Web::URL::Canonicalize qw(url_to_canon_url url_to_canon_parsed_url parse_url resolve_url
  canonicalize_parsed_url serialize_parsed_url);
use Wurl;

# --- version and prototypes ------------------------------------------------------

ok(eval 'use Web::URL::Canonicalize 1.0; 1', 'use Web::URL::Canonicalize 1.0; loads') or diag($@);
is(Web::URL::Canonicalize->VERSION, '1.0', "the interface's version is the module's");
is($Wurl::VERSION, $Wurl::Compat::VERSION, "Wurl::Compat has wurl's own version");
isnt($Wurl::VERSION, '1.0', "... which is not the interface's");

my %PROTO = (parse_url => '$', resolve_url => '$$', canonicalize_parsed_url => '$;$',
    serialize_parsed_url => '$', url_to_canon_url => '$;$$', url_to_canon_parsed_url => '$;$$');
for my $f (sort keys %PROTO) {
    is(prototype("Web::URL::Canonicalize::$f"), $PROTO{$f}, "$f has the prototype ($PROTO{$f})");
}
{
    my @a = ('http://a/', 'x');
    is_deeply(parse_url(@a), { invalid => 1, is_hierarchical => 1, path => '2' },
        'parse_url @args takes the array in scalar context, as the module');
}
ok(!eval 'url_to_canon_url(); 1', 'url_to_canon_url() does not compile');
like($@, qr/Not enough arguments/, '... not enough arguments');

# --- package variables: the library's tables --------------------------------------

is_deeply($Web::URL::Canonicalize::DefaultPort,
    { ftp => 21, gopher => 70, http => 80, https => 443, rlogin => 513, telnet => 23,
      tn3270 => 23, ws => 80, wss => 443 }, '$DefaultPort');
is_deeply($Web::URL::Canonicalize::IsHierarchicalScheme,
    { ftp => 1, gopher => 1, http => 1, https => 1 }, '$IsHierarchicalScheme');
is_deeply($Web::URL::Canonicalize::IsNonHierarchicalScheme,
    { about => 1, data => 1, javascript => 1, mailto => 1, vbscript => 1 }, '$IsNonHierarchicalScheme');
# ... and the library agrees with them.
for my $scheme (sort keys %$Web::URL::Canonicalize::DefaultPort) {
    my $port = $Web::URL::Canonicalize::DefaultPort->{$scheme};
    is(Wurl->canonicalize("$scheme://h:$port/"), "$scheme://h/", "the library drops $scheme\'s port $port");
    is(Wurl->canonicalize("$scheme://h:" . ($port + 1) . '/'), "$scheme://h:" . ($port + 1) . '/',
        "... and keeps " . ($port + 1));
}
is(Wurl->canonicalize('foo://h:80/'), 'foo://h:80/', 'no default port for another scheme');
for my $scheme (sort keys %$Web::URL::Canonicalize::IsNonHierarchicalScheme) {
    ok(!parse_url("$scheme:/x")->{is_hierarchical}, "$scheme:/x is not hierarchical");
}
for my $scheme (sort keys %$Web::URL::Canonicalize::IsHierarchicalScheme, 'foo') {
    ok(parse_url("$scheme:/x")->{is_hierarchical}, "$scheme:/x is hierarchical");
}

# --- hashes --------------------------------------------------------------------

is_deeply(parse_url('//foo/bar'),
    { authority => 'foo', host => 'foo', invalid => 1, is_hierarchical => 1, path => '/bar' },
    'parse_url of a schemeless string keeps its authority');
is_deeply(parse_url('///foo/bar'),
    { authority => '', host => '', invalid => 1, is_hierarchical => 1, path => '/foo/bar' },
    '... an empty one');
is_deeply(parse_url('//u:p@foo:8/bar?q#f'),
    { authority => 'u:p@foo:8', fragment => 'f', host => 'foo', invalid => 1, is_hierarchical => 1,
      password => 'p', path => '/bar', port => '8', query => 'q', user => 'u' },
    '... with user information and port');
is_deeply(parse_url('foo'), { invalid => 1, is_hierarchical => 1, path => 'foo' }, '... none');
is_deeply(resolve_url('file:c:/a/../b', parse_url('file:///')),
    { is_hierarchical => 1, path => '/c:/b', scheme => 'file', scheme_normalized => 'file' },
    'resolve_url of a file: drive letter keeps the leading /');
is_deeply(resolve_url('../x', parse_url('file:')),
    { is_hierarchical => 1, path => '/x', scheme => 'file', scheme_normalized => 'file' },
    '... an empty base path merges as /');
is_deeply(resolve_url('x', parse_url('file:abc')),
    { is_hierarchical => 1, path => 'x', scheme => 'file', scheme_normalized => 'file' },
    '... a base path without a slash does not');
is_deeply(url_to_canon_parsed_url('http://foo.bar:65536/'), { invalid => 1 },
    'a URL canonicalization makes invalid is { invalid => 1 }');
is_deeply(url_to_canon_parsed_url('//x:y@z:l/m?n#o', 'http://a:b@c:d/e?f#g'), { invalid => 1 },
    '... a bad port from the reference');
is_deeply(resolve_url('//x:y@z:l/m?n#o', parse_url('http://a:b@c:d/e?f#g')),
    { fragment => 'o', host => 'z', is_hierarchical => 1, password => 'y', path => '/m', port => 'l',
      query => 'n', scheme => 'http', scheme_normalized => 'http', user => 'x' },
    '... which resolution leaves as it is');
is_deeply(canonicalize_parsed_url({ invalid => 1, host => 'x' }), { invalid => 1, host => 'x' },
    'an invalid hand-made hash is returned as it is');
is_deeply(url_to_canon_parsed_url(undef), { invalid => 1 }, 'url_to_canon_parsed_url(undef)');
is(url_to_canon_url(undef, 'http://a/'), undef, 'url_to_canon_url(undef, $base) is undef');
is_deeply(resolve_url('', parse_url('http://a/b#c')),
    { host => 'a', is_hierarchical => 1, path => '/b', scheme => 'http', scheme_normalized => 'http' },
    'resolve_url of "" is the base without its fragment');

is(JSON::PP->new->canonical->encode(url_to_canon_parsed_url('http://a:81/')),
    '{"host":"a","is_hierarchical":1,"path":"/","port":81,"scheme":"http","scheme_normalized":"http"}',
    'the canonical port is a number');

{
    my $h = parse_url('HTTP://a/x');
    $h->{scheme_normalized} = 'ftp';
    canonicalize_parsed_url($h);
    is_deeply($h, { host => 'a', is_hierarchical => 1, path => '/x', scheme => 'ftp',
        scheme_normalized => 'ftp' }, 'canonicalization takes the scheme from scheme_normalized');
    is(serialize_parsed_url($h), 'ftp://a/x', '... and serializes it');

    $h = parse_url('http://a/x y');
    delete $h->{is_hierarchical};
    canonicalize_parsed_url($h);
    is_deeply($h, { host => 'a', path => '/x y', scheme => 'http', scheme_normalized => 'http' },
        'a hash without is_hierarchical is canonicalized as not hierarchical');

    $h = { scheme => 'foo', scheme_normalized => 'foo', path => 'bar', is_hierarchical => 1 };
    canonicalize_parsed_url($h);
    is_deeply($h, { is_hierarchical => 1, path => '/bar', scheme => 'foo', scheme_normalized => 'foo' },
        'a hand-made hash with is_hierarchical is canonicalized as hierarchical');

    $h = { scheme => 'http', scheme_normalized => 'http', host => 'h', path => '/',
        query => "\x{E9}", is_hierarchical => 1 };
    is(serialize_parsed_url(canonicalize_parsed_url($h, 'iso-8859-1')), 'http://h/?%E9',
        'a hand-made hash with a charset');
    $h = { scheme => 'http', scheme_normalized => 'http', host => 'h', path => '/',
        query => "\x{E9}" };
    is(serialize_parsed_url(canonicalize_parsed_url($h, 'iso-8859-1')), 'http://h/?%C3%A9',
        '... not hierarchical: UTF-8');
}

# A base hash the caller made or edited: resolve_url reads its
# is_hierarchical as the module did ...
{
    my $base = { scheme => 'foo', scheme_normalized => 'foo', host => 'h', path => '/a', fragment => 'z' };
    is_deeply(resolve_url('x', $base), { invalid => 1 },
        'a relative reference against a base hash without is_hierarchical is invalid');
    is_deeply(resolve_url('#f', $base), { invalid => 1 }, '... a fragment too');
    is_deeply(resolve_url('', $base),
        { scheme => 'foo', scheme_normalized => 'foo', host => 'h', path => '/a' },
        '... an empty one copies the base without its fragment');
    is_deeply(resolve_url('FOO:/a/../b', $base),
        { scheme => 'FOO', scheme_normalized => 'foo', path => '/b', is_hierarchical => 1 },
        '... an absolute one of the same scheme is not resolved against it');
    is_deeply(resolve_url('http://a/b/../c', $base),
        { scheme => 'http', scheme_normalized => 'http', host => 'a', path => '/c', is_hierarchical => 1 },
        '... another scheme');
    my $m = parse_url('mailto:a?b');
    $m->{is_hierarchical} = 1;
    is_deeply(resolve_url('', $m),
        { scheme => 'mailto', scheme_normalized => 'mailto', path => 'a', query => 'b', is_hierarchical => 1 },
        'an empty reference copies the flag a base hash was given');
}

# ... except that a base hash that says hierarchical where its components
# are not (docs/DIFFERENCES.md: drop-in rows) is resolved as its
# components say: the module resolved "x" against this one as
# { scheme => 'mailto', path => 'x', is_hierarchical => 1, ... }.
{
    my $m = parse_url('mailto:a?b');
    $m->{is_hierarchical} = 1;
    is_deeply(resolve_url('x', $m), { invalid => 1 },
        'drop-in difference: resolve_url against a base hash made hierarchical by hand');
}

# The package variables are the module's names for the library's table;
# the library does not read them (docs/DIFFERENCES.md: drop-in rows).
{
    local $Web::URL::Canonicalize::DefaultPort->{foo} = 8080;
    is(url_to_canon_url('foo://h:8080/'), 'foo://h:8080/',
        'drop-in difference: a change of $DefaultPort changes nothing');
}

# A hand-made hash: each component stays in its place (t/14-hand-made-hashes.t
# has every component with every delimiter). The module said the host "a/b"
# is invalid, and so does the drop-in.
{
    my $h = { scheme => 'http', scheme_normalized => 'http', host => 'a/b', path => '/x',
        is_hierarchical => 1 };
    ok(canonicalize_parsed_url($h)->{invalid}, 'a hand-made hash with a / in its host: invalid');
    # A path that does not start with / after a host is read as the module
    # read it: canonicalization gives it its / (the module gave http://a/x).
    $h = { scheme => 'http', scheme_normalized => 'http', host => 'a', path => 'x', is_hierarchical => 1 };
    is(serialize_parsed_url(canonicalize_parsed_url($h)), 'http://a/x',
        'a hand-made hierarchical hash with a path without /');
    # Not hierarchical: the module wrote the path after the host, http://ax,
    # a URL whose host is "ax"; the drop-in gives an invalid result instead
    # of another host (docs/DIFFERENCES.md: drop-in rows).
    $h = { scheme => 'http', scheme_normalized => 'http', host => 'a', path => 'x' };
    ok(canonicalize_parsed_url($h)->{invalid},
        'drop-in difference: a hand-made hash whose string has another host is invalid');
}

done_testing();
