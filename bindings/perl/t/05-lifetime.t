# Wurl::URL objects copied the ways Perl copies data: Storable (freeze/thaw
# in one process and across processes, dclone), ithreads and fork, all
# through the state pair (state/from_state); malformed states; and a
# destroyed object used again. Each of these crashed the interpreter (double
# free, segfault) or gave a silently wrong result when an object was a
# blessed scalar holding the handle's address.

use strict;
use warnings;

use Config;
use File::Spec;
use File::Temp ();
use FindBin;
use Storable ();
use Test::More;

use Wurl;
use Wurl::Compat qw(parse_url serialize_parsed_url canonicalize_parsed_url);

binmode $_, ':encoding(UTF-8)' for Test::More->builder->output,
  Test::More->builder->failure_output, Test::More->builder->todo_output;

my $LIBDIR = File::Spec->catdir($FindBin::Bin, File::Spec->updir, 'lib');
# The directory Wurl.pm was loaded from (blib/lib under `make test`).
(my $INCDIR = $INC{'Wurl.pm'}) =~ s{/?Wurl\.pm\z}{};
$INCDIR = '.' if $INCDIR eq '';

# Everything a URL object says about itself, as one string.
sub describe {
    my ($u) = @_;
    return join '|', map({ defined $_ ? "<$_>" : 'U' } map { $u->$_ } Wurl::components()),
      $u->is_invalid, $u->invalid_reason // 'U', $u->host_kind, $u->serialize // 'U';
}

# A few objects of every kind: parsed, resolved, canonicalized with a charset
# and with the strict flag, invalid ones.
sub samples {
    my $base = Wurl->parse('http://User@EXAMPLE.com:80/a/b?q#f');
    return (
        $base,
        $base->resolve('../c/./d?x=%41'),
        $base->resolve("?\x{5050}")->canonicalize(charset => 'euc-jp'),
        Wurl->parse('http:///evil.com/')->canonicalize(strict => 1),
        Wurl->parse('foo'),                                   # invalid: no scheme
        Wurl->parse('mailto:x')->resolve('hoge'),             # invalid: relative against mailto:
        Wurl->parse('http://a:99999/')->canonicalize,         # invalid: port
        Wurl->parse_bytes("http://a/\xFF\0"),
        # Absent and empty: password, query and fragment present and empty;
        # then absent.
        Wurl->parse('http://user:@host/p?#'),
        Wurl->parse('http://user:@host/p?#')->canonicalize,
        Wurl->parse('http://host/p'),
        Wurl->parse('http://a/')->resolve('//@/'),
    );
}

# --- Storable ---------------------------------------------------------------

{
    my @u = samples();
    my @want = map { describe($_) } @u;
    my $frozen = Storable::freeze(\@u);
    my $thawed = Storable::thaw($frozen);
    is_deeply([ map { describe($_) } @$thawed ], \@want, 'freeze/thaw keeps every kind of URL, invalid ones too');
    isnt($thawed->[0][0], $u[0][0], 'a thawed object has a handle of its own');
    undef $thawed;
    is_deeply([ map { describe($_) } @u ], \@want, 'the originals are intact after the copies are gone');
    is($u[1]->canonicalize->serialize, 'http://User@example.com/c/d?x=%41', 'and still work');
}

{
    # The issue's case: dclone of a structure holding an object, then free the
    # copy; the original must survive (it was a double free).
    my $u = Wurl->parse('http://a/b');
    my $c = Storable::dclone({ u => $u, list => [ $u, $u ] });
    is($c->{u}->serialize, 'http://a/b', 'dclone: the copy works');
    is($c->{list}[0], $c->{list}[1], 'dclone keeps sharing within the copy');
    isnt($c->{u}, $u, 'dclone makes a new object');
    undef $c;
    is($u->serialize, 'http://a/b', 'dclone: the original survives the copy');
    my @many = map { Storable::dclone($u) } 1 .. 1000;
    undef @many;
    is($u->resolve('c')->serialize, 'http://a/c', 'a thousand clones freed, the original works');
}

{
    eval { Wurl::URL::STORABLE_thaw(bless([], 'Wurl::URL'), 0, 'something else', []) };
    like($@, qr/cannot thaw 'something else'/, 'a foreign frozen form croaks clearly');
    # What earlier development versions froze: a tag and a recipe.
    eval { Wurl::URL::STORABLE_thaw(bless([], 'Wurl::URL'), 0, 'Wurl::URL/1', [ 'p', 'http://a/' ]) };
    like($@, qr{cannot thaw 'Wurl::URL/1': not a frozen Wurl::URL of this version},
        'a recipe of an earlier version croaks clearly');
    eval { Wurl::URL::STORABLE_thaw(bless([], 'Wurl::URL'), 0, 'wurl junk') };
    like($@, qr/\(status ${\ Wurl::WURL_E_BAD_STATE}\)/, 'thawing a malformed state croaks');
}

# --- the state pair -------------------------------------------------------------

{
    my @u = samples();
    for my $u (@u) {
        my $state = $u->state;
        my $what = $u->serialize // ('invalid: ' . $u->invalid_reason);
        ok(!utf8::is_utf8($state) && length($state) > 4, "state of $what: bytes");
        my $back = Wurl::URL->from_state($state);
        is(describe($back), describe($u), "state of $what: the same URL again");
        is($back->state, $state, "state of $what: one encoding");
        isnt($back->[0], $u->[0], "state of $what: a handle of its own");
        is(describe($back->canonicalize), describe($u->canonicalize), "state of $what: canonicalizes alike");
    }
    my ($empty, $absent) = map { Wurl::URL->from_state($_->state) } @u[ 8, 10 ];
    is_deeply([ map { $empty->$_ } qw(password query fragment) ], [ '', '', '' ],
        'present and empty components stay present and empty');
    is_deeply([ map { $absent->$_ } qw(user password query fragment) ], [ undef, undef, undef, undef ],
        'absent components stay absent');

    # Malformed states croak with WURL_E_BAD_STATE, never crash: bytes that
    # are no state, every truncation of one, every octet changed.
    my $bad = qr/\(status ${\ Wurl::WURL_E_BAD_STATE}\)/;
    for my $junk ('', 'wurl', 'junk', "wurl\x02", "\0" x 64, 'x' x 1000) {
        my $r = eval { Wurl::URL->from_state($junk); 1 };
        ok(!$r && $@ =~ $bad, 'no state: ' . unpack('H*', substr($junk, 0, 16)) . ' croaks');
    }
    my $state = $u[8]->state;
    my $cut = 0;
    for my $n (0 .. length($state) - 1) {
        $cut++ if !eval { Wurl::URL->from_state(substr($state, 0, $n)); 1 } && $@ =~ $bad;
    }
    is($cut, length $state, 'every truncation of a state croaks');
    $state .= 'x';
    ok(!eval { Wurl::URL->from_state($state); 1 } && $@ =~ $bad, 'a state with more bytes croaks');
    chop $state;
    my ($refused, $made) = (0, 0);
    for my $i (0 .. length($state) - 1) {
        for my $x (0x01, 0x80, 0xFF) {
            my $s = $state;
            substr($s, $i, 1) = chr(ord(substr($s, $i, 1)) ^ $x);
            my $v = eval { Wurl::URL->from_state($s) };
            if ($v) {
                # Another value: a whole URL whose state is that state.
                $made++ if $v->state eq $s && defined describe($v);
            } else {
                $refused++ if $@ =~ $bad;
            }
        }
    }
    is($refused + $made, 3 * length $state, 'every changed octet gives WURL_E_BAD_STATE or a whole URL');
    cmp_ok($refused, '>', length $state, 'most changes are refused');
    eval { Wurl::URL->from_state(undef) };
    like($@, qr/the state is undef/, 'from_state(undef) croaks');
    eval { Wurl::URL->from_state("\x{100}") };
    like($@, qr/a state is bytes/, 'from_state of characters above U+00FF croaks');
}

# Freeze in one process, thaw in another (it was a segfault).
{
    my @u = samples();
    my $dir = File::Temp::tempdir(CLEANUP => 1);
    my $file = File::Spec->catfile($dir, 'urls.sto');
    Storable::nstore(\@u, $file);
    local $ENV{PERL5OPT};
    my $code = 'use Storable; use Wurl; my $u = Storable::retrieve($ARGV[0]); '
      . 'binmode STDOUT, ":encoding(UTF-8)"; '
      . 'print join("\n", map { my $x = $_; join("|", map({ defined $_ ? "<$_>" : "U" } '
      . 'map { $x->$_ } Wurl::components()), $x->is_invalid, $x->invalid_reason // "U", '
      . '$x->host_kind, $x->serialize // "U") } @$u), "\n"';
    my $out = `"$^X" -I"$INCDIR" -e '$code' "$file" 2>&1`;
    utf8::decode($out);
    is($?, 0, 'thaw in another process: exit status 0');
    is($out, join("\n", map { describe($_) } @u) . "\n", 'thaw in another process gives the same URLs');
}

# --- destroyed objects --------------------------------------------------------

{
    my $u = Wurl->parse('http://a/b/');
    $u->DESTROY;    # as at global destruction, or a resurrected object
    for my $case (
        [ 'as a base of canonicalize', sub { Wurl->canonicalize('c', base => $u) } ],
        [ 'resolve', sub { $u->resolve('c') } ],
        [ 'canonicalize', sub { $u->canonicalize } ],
        [ 'serialize', sub { $u->serialize } ],
        [ 'a component', sub { $u->host } ],
        [ 'freeze', sub { Storable::freeze([$u]) } ],
      )
    {
        my ($what, $code) = @$case;
        my $r = eval { $code->(); 1 };
        ok(!$r, "a destroyed object: $what croaks");
        like($@, qr/object was destroyed/, "... with a clear message ($what)");
    }
    $u->DESTROY;
    pass('DESTROY twice is harmless');
}

# --- fork ---------------------------------------------------------------------

SKIP: {
    skip 'no fork', 3 unless $Config{d_fork};
    my @u = samples();
    my @want = map { describe($_) } @u;
    pipe(my $r, my $w) or die "pipe: $!";
    my $pid = fork;
    die "fork: $!" unless defined $pid;
    if ($pid == 0) {
        close $r;
        binmode $w, ':encoding(UTF-8)';
        my @got = map { describe($_) } @u;
        my @c = map { Storable::dclone($_) } @u;
        undef @c;
        print $w join("\n", @got, describe($u[0]->resolve('z')->canonicalize)), "\n";
        close $w;
        undef @u;    # the child frees its copies of the handles
        exit 0;
    }
    close $w;
    binmode $r, ':encoding(UTF-8)';
    my $got = do { local $/; <$r> };
    waitpid($pid, 0);
    is($? >> 8, 0, 'fork: the child exits 0');
    is($got, join("\n", @want, describe($u[0]->resolve('z')->canonicalize)) . "\n",
        'fork: the child reads the same URLs');
    is_deeply([ map { describe($_) } @u ], \@want, 'fork: the parent is intact after the child freed its copies');
}

# --- ithreads -----------------------------------------------------------------

SKIP: {
    skip 'perl without ithreads', 5 unless $Config{useithreads};
    require threads;
    my @u = samples();
    my @want = map { describe($_) } @u;
    my $h = parse_url('http://A/y');
    my @t = map {
        my $k = $_;
        threads->create(sub {
            my @got = map { describe($_) } @u;
            # Objects made in the thread, clones, and a nested thread.
            my $mine = $u[0]->resolve("t$k")->canonicalize;
            my $c = Storable::dclone($u[1]);
            my $inner = threads->create(sub { describe($u[2]) . ' ' . $mine->serialize })->join;
            return join("\n", @got, $mine->serialize, describe($c), $inner,
                serialize_parsed_url(canonicalize_parsed_url($h)));
        });
    } 1 .. 4;
    my @r = map { $_->join } @t;
    my $ok = 1;
    for my $k (1 .. 4) {
        my $want = join("\n", @want, "http://User\@example.com/a/t$k", describe($u[1]),
            describe($u[2]) . " http://User\@example.com/a/t$k", 'http://a/y');
        $ok = is($r[ $k - 1 ], $want, "thread $k: inherited objects, its own, clones, a nested thread") && $ok;
    }
    is_deeply([ map { describe($_) } @u ], \@want, 'threads: the parent is intact after they are gone');
}

done_testing();
