# The URL Standard model (model => 'url-standard', WURL_FLAG_URL_STANDARD)
# through the Perl binding: the Web Platform Tests' urltestdata
# (tests/data/wpt), the issue's example, rules and SURT, refusals.

use strict;
use warnings;
use utf8;

use FindBin;
use lib "$FindBin::Bin/lib";
use File::Spec;
use JSON::PP ();
use Test::More;

use Wurl;
use WurlDat qw(data_dir need_file);

my $data = File::Spec->catfile(data_dir(), 'wpt', 'urltestdata-href.json');
need_file($data, 'the URL Standard test data');
open my $fh, '<:raw', $data or die "$data: $!";
my $rows = JSON::PP->new->utf8->decode(do { local $/; <$fh> });
close $fh;
cmp_ok(scalar @$rows, '>', 700, 'urltestdata rows');

my ($bad, $invalid) = (0, 0);
for my $r (@$rows) {
    my ($input, $base, $href) = @$r;
    my $got = Wurl->canonicalize($input, (defined $base ? (base => $base) : ()),
        model => 'url-standard');
    $invalid++ unless defined $href;
    next if (defined $got ? $got : "\0undef") eq (defined $href ? $href : "\0undef");
    $bad++;
    diag(sprintf('%s against %s: got %s, want %s', map { defined $_ ? $_ : 'undef' }
        $input, $base, $got, $href)) if $bad <= 10;
}
is($bad, 0, 'every urltestdata row');
cmp_ok($invalid, '>', 100, 'failures among them');

my $ex = "http://faß.de/a\\b/../c";
is(Wurl->canonicalize($ex, model => 'url-standard'), 'http://xn--fa-hia.de/a/c', 'url-standard');
is(Wurl->canonicalize($ex), 'http://fass.de/a/c', 'default: 2012');
is(Wurl->canonicalize($ex, model => '2012'), 'http://fass.de/a/c', '2012');
is(Wurl->canonicalize('../c d', base => 'http://ex.com/a/b', model => 'url-standard'),
    'http://ex.com/c%20d', 'base');
is(Wurl->canonicalize('http://www.faß.de/?b&a#f', rules => 'strip-www,sort-query,drop-fragment',
    surt => 1, model => 'url-standard'), 'de,xn--fa-hia)/?a&b', 'rules and SURT');
ok(!defined Wurl->canonicalize('http://a:99999/', model => 'url-standard'), 'invalid');
ok(!eval { Wurl->canonicalize('http://a/', model => 'whatwg'); 1 }, 'unknown model croaks');
ok(!eval { Wurl->canonicalize('http://a/', strict => 1, model => 'url-standard'); 1 },
    'strict with url-standard croaks');
# The message says why, as the CLI's and Python's do (not the library's
# "an argument is out of range").
like($@, qr/strict => 1 tests the 2012 result; it cannot be used with model => 'url-standard'/,
    '... and says why');
unlike($@, qr/out of range/, '... not as a bad argument');
ok(!eval { Wurl->canonicalize('http://a/', strict => 1, model => 'url-standard',
    base => Wurl->parse('http://b/')); 1 }, 'with a Wurl::URL base too');
like($@, qr/cannot be used with model => 'url-standard'/, '... and says why');

done_testing;
