package Wurl;

# Perl binding of wurl (the 2012 Web::URL::Canonicalize algorithm) over its
# C ABI, with FFI::Platypus. See bindings/README.md and the POD below.

use strict;
use warnings;

use Carp ();
use Cwd ();
use Scalar::Util ();
use File::Basename ();
use File::Spec ();
use FFI::Platypus;
use FFI::Platypus::Buffer qw(scalar_to_buffer buffer_to_scalar grow);

our $VERSION = '0.1.0';

# The C ABI's constants (include/wurl.h).
use constant {
    WURL_OK                  => 0,
    WURL_E_NULL_ARG          => 1,
    WURL_E_BAD_ARG           => 2,
    WURL_E_TOO_LONG          => 3,
    WURL_E_PANIC             => 4,
    WURL_E_BUFFER_TOO_SMALL  => 5,
    WURL_INVALID_URL         => 6,
    WURL_FLAG_NETWORK_STRICT => 1,
    WURL_MAX_INPUT_LEN       => 16 * 1024 * 1024,
};

my @COMPONENTS = qw(scheme user password host port path query fragment);
my %COMPONENT_INDEX;
@COMPONENT_INDEX{@COMPONENTS} = (0 .. $#COMPONENTS);
my @HOST_KINDS = qw(none empty domain ipv4 ipv6);

sub components { @COMPONENTS }

# ---------------------------------------------------------------------------
# Finding the library

# The repository root, seen from this file (bindings/perl/lib/Wurl.pm).
sub _repo_root {
    my $lib = File::Basename::dirname(File::Spec->rel2abs(__FILE__));
    my $root = File::Spec->catdir($lib, File::Spec->updir, File::Spec->updir,
        File::Spec->updir);
    return Cwd::abs_path($root) // $root;
}

# Where the library is looked for after $ENV{WURL_LIB}, in order: the usual
# build outputs of this checkout, then $CARGO_TARGET_DIR.
sub library_candidates {
    my $root = _repo_root();
    my @c;
    # cargo at the root; then the CMake build in build/ (its staged copy in
    # build/lib, and cargo's output in build/cargo).
    for my $rel (qw(target/release target/debug build/lib build/cargo/release build/cargo/debug)) {
        push @c, File::Spec->catfile($root, split(m{/}, $rel), 'libwurl.so');
    }
    if (defined $ENV{CARGO_TARGET_DIR} && length $ENV{CARGO_TARGET_DIR}) {
        push @c, map { File::Spec->catfile($ENV{CARGO_TARGET_DIR}, $_, 'libwurl.so') }
          qw(release debug);
    }
    return @c;
}

sub _find_library {
    if (defined $ENV{WURL_LIB} && length $ENV{WURL_LIB}) {
        Carp::croak("Wurl: WURL_LIB=$ENV{WURL_LIB} is not a readable file")
          unless -f $ENV{WURL_LIB} && -r _;
        return $ENV{WURL_LIB};
    }
    for my $c (library_candidates()) {
        return Cwd::abs_path($c) // $c if -f $c;
    }
    # The system loader: the versioned SONAME first, then the dev symlink.
    require FFI::Platypus::DL;
    for my $name ('libwurl.so.0', 'libwurl.so') {
        my $h = FFI::Platypus::DL::dlopen($name, FFI::Platypus::DL::RTLD_PLATYPUS_DEFAULT());
        if ($h) {
            FFI::Platypus::DL::dlclose($h);
            return $name;
        }
    }
    Carp::croak(
        "Wurl: cannot find libwurl.so; build it (cargo build --release) or set WURL_LIB "
          . "to its path. Looked in: "
          . join(', ', library_candidates(), 'libwurl.so.0', 'libwurl.so'));
}

our $LIBRARY = _find_library();

sub library_path { $LIBRARY }

# ---------------------------------------------------------------------------
# The functions of the C ABI

my $API = eval { FFI::Platypus->VERSION('2.00'); 1 } ? 2 : 1;
my $ffi = FFI::Platypus->new(api => $API, lib => [$LIBRARY]);

# C `bool` is one byte (the upper bits of a returned register are not
# defined), so it is read as uint8.
$ffi->attach([wurl_parse => '_parse'] =>
      ['string', 'size_t', 'uint32', 'opaque*'] => 'sint32');
$ffi->attach([wurl_resolve => '_resolve'] =>
      ['opaque', 'string', 'size_t', 'uint32', 'opaque*'] => 'sint32');
$ffi->attach([wurl_canonicalize => '_canonicalize'] =>
      ['opaque', 'string', 'size_t', 'uint32', 'opaque*'] => 'sint32');
$ffi->attach([wurl_canon_into => '_canon_into'] => [
        'opaque', 'string', 'size_t', 'string', 'size_t', 'uint32',
        'opaque', 'size_t', 'size_t*'
    ] => 'sint32'
);
$ffi->attach([wurl_serialize => '_serialize'] => ['opaque', 'opaque*', 'size_t*'] => 'uint8');
$ffi->attach([wurl_get => '_get'] => ['opaque', 'uint32', 'opaque*', 'size_t*'] => 'uint8');
$ffi->attach([wurl_is_invalid => '_is_invalid']         => ['opaque'] => 'uint8');
$ffi->attach([wurl_invalid_reason => '_invalid_reason'] => ['opaque'] => 'string');
$ffi->attach([wurl_host_kind => '_host_kind']           => ['opaque'] => 'uint32');
$ffi->attach([wurl_free => '_free']                     => ['opaque'] => 'void');
$ffi->attach([wurl_status_str => '_status_str']         => ['sint32'] => 'string');
$ffi->attach([wurl_version => '_version']               => []         => 'string');

sub library_version { _version() }

# ---------------------------------------------------------------------------
# Strings in and out

# A Perl string as the UTF-8 bytes the C ABI takes. The string is read as
# characters (Perl's own semantics): a string without the UTF8 flag is
# Latin-1, so "\xE9" is U+00E9 and goes out as C3 A9. A surrogate or a code
# point above U+10FFFF goes out in Perl's (lax) encoding and the library
# replaces it: "\x{D800}" is ED A0 80, three U+FFFD.
sub _to_utf8 {
    my $s = "$_[0]";
    utf8::encode($s);
    return $s;
}

# A byte string, passed on as it is (invalid UTF-8 included).
sub _to_bytes {
    my $s = "$_[0]";
    utf8::downgrade($s, 1)
      or Carp::croak('Wurl: a byte string cannot hold characters above U+00FF');
    return $s;
}

# A view (pointer, length) into a handle, as a Perl character string.
sub _view {
    my ($ptr, $len) = @_;
    my $s = $len ? buffer_to_scalar($ptr, $len) : '';
    utf8::decode($s);    # the library writes valid UTF-8 only
    return $s;
}

sub _check {
    my ($status, $what) = @_;
    return if $status == WURL_OK;
    Carp::croak("Wurl: $what: " . _status_str($status) . " (status $status)");
}

sub status_string { _status_str($_[-1]) }

# ---------------------------------------------------------------------------
# The class interface

sub parse {
    my (undef, $input) = @_;
    return Wurl::URL->parse($input);
}

sub parse_bytes {
    my (undef, $input) = @_;
    return Wurl::URL->parse_bytes($input);
}

# The per-interpreter output buffer of canonicalize(); only ever written by
# the library and read with buffer_to_scalar, so it is never shared
# copy-on-write with another scalar. (Each thread has its own copy.) Its
# length is its capacity (grow sets it).
my $CANON_BUF;

# Wurl->canonicalize($input, base => $base, charset => $label, strict => 1,
# bytes => 1): the one-call path (wurl_canon_into). $base is a string or a
# Wurl::URL; without it, $input is its own base. Returns the serialization,
# or undef for an invalid URL.
sub canonicalize {
    my (undef, $input, %opt) = @_;
    Carp::croak('Wurl->canonicalize: input is undef') unless defined $input;
    my $bytes = $opt{bytes} ? _to_bytes($input) : _to_utf8($input);
    my $base = $opt{base};
    my $base_ptr;
    if (defined $base) {
        $base = ($opt{bytes} ? Wurl::URL->parse_bytes($base) : Wurl::URL->parse($base))
          unless Scalar::Util::blessed($base) && $base->isa('Wurl::URL');
        $base_ptr = $$base;
    }
    my $cs = defined $opt{charset} ? _to_utf8($opt{charset}) : undef;
    my $flags = $opt{strict} ? WURL_FLAG_NETWORK_STRICT : 0;
    return _canon_into_bytes($base_ptr, $bytes, $cs, $flags);
}

# wurl_canon_into with bytes in; growing the buffer when it is too small.
sub _canon_into_bytes {
    my ($base_ptr, $bytes, $cs, $flags) = @_;
    grow($CANON_BUF, 256) unless defined $CANON_BUF && length($CANON_BUF) >= 256;
    for (1 .. 2) {
        my ($buf_ptr, $cap) = scalar_to_buffer($CANON_BUF);
        my $len = 0;
        my $st = _canon_into($base_ptr, $bytes, length($bytes), $cs,
            defined $cs ? length($cs) : 0,
            $flags, $buf_ptr, $cap, \$len);
        return _view($buf_ptr, $len) if $st == WURL_OK;
        return undef if $st == WURL_INVALID_URL;
        if ($st == WURL_E_BUFFER_TOO_SMALL) {
            grow($CANON_BUF, $len + 1);
            next;
        }
        _check($st, 'wurl_canon_into');
    }
    Carp::croak('Wurl: wurl_canon_into: buffer still too small after growing');
}

# ---------------------------------------------------------------------------
package Wurl::URL;

use strict;
use warnings;

# A Wurl::URL is a blessed scalar holding the handle's address. Handles are
# immutable; every operation returns a new object.

sub _wrap {
    my ($class, $ptr) = @_;
    return bless \$ptr, ref($class) || $class;
}

sub parse {
    my ($class, $input) = @_;
    Carp::croak('Wurl::URL->parse: input is undef') unless defined $input;
    return $class->_parse_raw(Wurl::_to_utf8($input));
}

sub parse_bytes {
    my ($class, $input) = @_;
    Carp::croak('Wurl::URL->parse_bytes: input is undef') unless defined $input;
    return $class->_parse_raw(Wurl::_to_bytes($input));
}

sub _parse_raw {
    my ($class, $bytes) = @_;
    my $out;
    Wurl::_check(Wurl::_parse($bytes, length($bytes), 0, \$out), 'wurl_parse');
    return __PACKAGE__->_wrap($out);
}

sub resolve {
    my ($self, $input) = @_;
    Carp::croak('Wurl::URL->resolve: input is undef') unless defined $input;
    return $self->_resolve_raw(Wurl::_to_utf8($input));
}

sub resolve_bytes {
    my ($self, $input) = @_;
    Carp::croak('Wurl::URL->resolve_bytes: input is undef') unless defined $input;
    return $self->_resolve_raw(Wurl::_to_bytes($input));
}

sub _resolve_raw {
    my ($self, $bytes) = @_;
    my $out;
    Wurl::_check(Wurl::_resolve($$self, $bytes, length($bytes), 0, \$out), 'wurl_resolve');
    return __PACKAGE__->_wrap($out);
}

# $url->canonicalize(charset => $label, strict => 1)
sub canonicalize {
    my ($self, %opt) = @_;
    my $cs = defined $opt{charset} ? Wurl::_to_utf8($opt{charset}) : undef;
    my $flags = $opt{strict} ? Wurl::WURL_FLAG_NETWORK_STRICT : 0;
    my $out;
    Wurl::_check(Wurl::_canonicalize($$self, $cs, defined $cs ? length($cs) : 0, $flags, \$out),
        'wurl_canonicalize');
    return __PACKAGE__->_wrap($out);
}

# The serialization, or undef for an invalid URL.
sub serialize {
    my ($self) = @_;
    my ($ptr, $len);
    return undef unless Wurl::_serialize($$self, \$ptr, \$len);
    return Wurl::_view($ptr, $len);
}

# A component: undef when absent, '' when present and empty.
sub component {
    my ($self, $name) = @_;
    my $i = $COMPONENT_INDEX{$name};
    Carp::croak("Wurl::URL: unknown component '$name'") unless defined $i;
    my ($ptr, $len);
    return undef unless Wurl::_get($$self, $i, \$ptr, \$len);
    return Wurl::_view($ptr, $len);
}

for my $name (@COMPONENTS) {
    my $i = $COMPONENT_INDEX{$name};
    no strict 'refs';
    *{$name} = sub {
        my ($ptr, $len);
        return undef unless Wurl::_get(${ $_[0] }, $i, \$ptr, \$len);
        return Wurl::_view($ptr, $len);
    };
}

# Every present component, as a hash reference.
sub components {
    my ($self) = @_;
    my %h;
    for my $name (@COMPONENTS) {
        my $v = $self->$name;
        $h{$name} = $v if defined $v;
    }
    return \%h;
}

sub is_invalid { Wurl::_is_invalid(${ $_[0] }) ? 1 : 0 }

# Why the URL is invalid (a static English phrase), or undef when it is valid.
sub invalid_reason { Wurl::_invalid_reason(${ $_[0] }) }

# 'none', 'empty', 'domain', 'ipv4' or 'ipv6'.
sub host_kind { $HOST_KINDS[ Wurl::_host_kind(${ $_[0] }) ] // 'none' }

# Threads: a new thread gets a reference to an unblessed undef instead of a
# copy of a Wurl::URL, so a handle is never freed twice.
sub CLONE_SKIP { 1 }

sub DESTROY {
    my ($self) = @_;
    # At global destruction the attached functions may already be gone; the
    # process is ending, so the handle is left to it.
    return if ${^GLOBAL_PHASE} eq 'DESTRUCT';
    my $ptr = $$self;
    return unless $ptr;
    $$self = undef;
    Wurl::_free($ptr);
}

package Wurl;

1;

__END__

=head1 NAME

Wurl - URL parsing, resolution and canonicalization (the 2012
Web::URL::Canonicalize algorithm) through libwurl

=head1 SYNOPSIS

  use Wurl;
  my $base = Wurl->parse('http://EXAMPLE.com:80/x/y');
  my $url  = $base->resolve('../a/./b')->canonicalize;
  print $url->serialize, "\n";            # http://example.com/a/b
  print Wurl->canonicalize('?\x{5050}', base => 'http://hoge', charset => 'euc-jp');

=head1 DESCRIPTION

C<< Wurl->parse($string) >> (and C<< Wurl::URL->parse >>) parses a string
into a L<Wurl::URL>. C<< $url->resolve($string) >> resolves a string against
it, C<< $url->canonicalize(charset => $label, strict => 1) >> canonicalizes
(C<strict> is C<WURL_FLAG_NETWORK_STRICT>), C<< $url->serialize >> gives the
string, or undef for an invalid URL. Every operation returns a new object;
handles are immutable and freed when the object goes away.

Component readers C<scheme user password host port path query fragment>
return undef for an absent component and C<''> for a present empty one.
C<is_invalid>, C<invalid_reason> (undef when valid) and C<host_kind>
(C<none empty domain ipv4 ipv6>) report on the URL.

C<< Wurl->canonicalize($input, base => $base, charset => $label,
strict => 1) >> is the one-call path (C<wurl_canon_into>): C<$base> is a
string or a Wurl::URL; without it the input is its own base.

Strings are characters: they are encoded to UTF-8 before the call, and
results are decoded from UTF-8. A string without the UTF8 flag is taken as
Latin-1 characters, as Perl does. To pass raw bytes (invalid UTF-8
included), use C<parse_bytes>, C<resolve_bytes> or C<< bytes => 1 >>.
A surrogate such as C<"\x{D800}"> is sent in Perl's encoding (ED A0 80) and
becomes three U+FFFD, exactly as those bytes do from C.

The library is found through C<$ENV{WURL_LIB}>, then the build outputs of
the checkout (C<target/release>, C<target/debug>, C<build/lib>,
C<build/cargo/release>, C<build/cargo/debug>), then
C<$ENV{CARGO_TARGET_DIR}>, then the system loader (C<libwurl.so.0>).
C<Wurl::library_path()> says which was loaded.

=head1 SEE ALSO

L<Wurl::Compat>, a drop-in replacement for Web::URL::Canonicalize.

=cut
