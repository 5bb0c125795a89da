# Keys (issue 28) through the Perl binding: rules, SURT, bad specifications.

use strict;
use warnings;

use Test::More;
use Storable ();

use Wurl;

my $RULES = 'drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*';
my $URL   = 'http://www.Example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f';

# --- the examples of the issue -----------------------------------------------

is(Wurl->canonicalize($URL, rules => $RULES), 'http://example.com/x?a=1&b=2', 'rules (string)');
my $rules = Wurl::Rules->new($RULES);
is($rules->spec, $RULES, 'spec');
is(Wurl->canonicalize($URL, rules => $rules), 'http://example.com/x?a=1&b=2', 'rules (object)');
is(Wurl->canonicalize($URL, rules => $rules, surt => 1), 'com,example)/x?a=1&b=2', 'rules + surt');
is(Wurl->canonicalize('http://www.Example.com/a/b?z=1&a=2', surt => 1),
    'com,example,www)/a/b?z=1&a=2', 'surt');
is(Wurl->canonicalize('http://www.Example.com/a/b?z=1&a=2', surt_scheme => 1),
    'http://(com,example,www)/a/b?z=1&a=2', 'surt with scheme');
is(Wurl->canonicalize($URL), 'http://www.example.com/x;jsessionid=ABC?b=2&utm_source=x&a=1#f',
    'no rules: the 2012 key');

# --- base, invalid, handle path ---------------------------------------------------

is(Wurl->canonicalize('x?b&a', base => 'http://www2.a.com/dir/', rules => 'strip-www,sort-query',
        surt => 1),
    'com,a)/dir/x?a&b', 'with a base');
is(Wurl->canonicalize('http://a:99999/', rules => $rules, surt => 1), undef, 'invalid: undef');
my $u = Wurl::URL->parse('HTTP://u:p@WWW.A.com/?b&a#f')->canonicalize;
is($u->key(surt => 1), 'com,a,www)/?b&a#f', 'key: surt');
is($u->key(rules => 'drop-userinfo,strip-www,sort-query,drop-fragment'), 'http://a.com/?a&b',
    'key: rules');
is($u->key, 'http://u:p@www.a.com/?b&a#f', 'key: nothing');
is(Wurl::URL->parse('http://a:99999/')->canonicalize->key(surt => 1), undef, 'key: invalid');

# A long result grows the buffer.
my @q = map { sprintf 'p%04d=1', 1999 - $_ } 0 .. 1999;
is(Wurl->canonicalize('http://a/?' . join('&', @q), rules => 'sort-query'),
    'http://a/?' . join('&', sort @q), 'long query sorted');

# --- bad specifications ------------------------------------------------------------

for my $case (
    [ 'sort-querry',              '"sort-querry"' ],
    [ 'drop-fragment,,strip-www', 'empty rule' ],
    [ 'strip-www=1',              '"strip-www=1"' ],
    [ 'drop-params=a||b',         'empty pattern' ],
    [ 'sort-query,sort-query',    'twice' ],
  )
{
    my ($spec, $part) = @$case;
    eval { Wurl::Rules->new($spec) };
    like($@, qr/\AWurl::Rules: .*\Q$part\E/, "bad spec $spec");
    eval { Wurl->canonicalize('http://a/', rules => $spec) };
    like($@, qr/\Q$part\E/, "bad spec $spec in canonicalize");
}

# --- the key of a handle is the key of its canonicalization ----------------------

{
    my $u = Wurl->parse('HTTP://WWW.Example.COM:80/a/../b?b&a');
    is($u->key(rules => 'strip-www,sort-query', surt => 1), 'com,example)/b?a&b',
        'key of a parsed handle: canonicalized first');
    is($u->canonicalize->key(rules => 'strip-www,sort-query', surt => 1), 'com,example)/b?a&b',
        'the same after canonicalize');
    is(Wurl->parse('http://a:99999/')->key(surt => 1), undef, 'invalid canonicalization: undef');
}

# --- copies ----------------------------------------------------------------------

my $copy = Storable::dclone($rules);
is(Wurl->canonicalize($URL, rules => $copy), 'http://example.com/x?a=1&b=2', 'dclone of rules');
undef $copy;
is(Wurl->canonicalize($URL, rules => $rules), 'http://example.com/x?a=1&b=2', 'original still works');

# --- threads: a new thread compiles its own handle from the specification ----------

SKIP: {
    require Config;
    skip 'perl without ithreads', 2 unless $Config::Config{useithreads};
    require threads;
    my @r = map { $_->join } map {
        threads->create(sub { Wurl->canonicalize($URL, rules => $rules, surt => 1) })
    } 1 .. 2;
    is_deeply(\@r, [ ('com,example)/x?a=1&b=2') x 2 ], 'rules used in threads');
    is(Wurl->canonicalize($URL, rules => $rules), 'http://example.com/x?a=1&b=2',
        'and still in the main thread');
}

done_testing;
