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

# The three packages of this file call each other: a croak names the
# caller's line, not one of this file's.
our @CARP_NOT = qw(Wurl::URL Wurl::Rules);

# The C ABI's constants (include/wurl.h; t/15-header.t compares every
# WURL_* constant here, and the orders of @COMPONENTS and @HOST_KINDS, with
# the header).
use constant {
    WURL_OK                  => 0,
    WURL_E_NULL_ARG          => 1,
    WURL_E_BAD_ARG           => 2,
    WURL_E_TOO_LONG          => 3,
    WURL_E_PANIC             => 4,
    WURL_E_BUFFER_TOO_SMALL  => 5,
    WURL_INVALID_URL         => 6,
    WURL_E_BAD_RULES         => 7,
    WURL_E_UNKNOWN_CHARSET   => 8,
    WURL_E_BAD_STATE         => 9,
    WURL_KEY_SURT            => 1,
    WURL_KEY_SURT_SCHEME     => 2,
    WURL_FLAG_NETWORK_STRICT => 1,
    WURL_FLAG_URL_STANDARD   => 2,
    WURL_FLAG_CHARSET_STRICT => 4,
    WURL_MAX_INPUT_LEN       => 16 * 1024 * 1024,
    WURL_CHARSET_MESSAGE_MAX => 400,
    WURL_RULES_MESSAGE_MAX   => 400,
};

my @COMPONENTS = qw(scheme user password host port path query fragment);
my %COMPONENT_INDEX;
@COMPONENT_INDEX{@COMPONENTS} = (0 .. $#COMPONENTS);
my @HOST_KINDS = qw(none empty domain ipv4 ipv6);

sub components { @COMPONENTS }

# The names of wurl_host_kind's values, in the order of their numbers.
sub host_kinds { @HOST_KINDS }

# ---------------------------------------------------------------------------
# Finding the library

# The repository root, seen from this file when it is the checkout's
# bindings/perl/lib/Wurl.pm; undef for an installed copy (or a copy of the
# distribution), which must not pick up a libwurl.so that happens to lie
# three directories above it.
sub _repo_root {
    my $lib = File::Basename::dirname(File::Spec->rel2abs(__FILE__));
    my $root = File::Spec->catdir($lib, File::Spec->updir, File::Spec->updir,
        File::Spec->updir);
    $root = Cwd::abs_path($root) // $root;
    return undef
      unless -f File::Spec->catfile($root, 'include', 'wurl.h')
      && -f File::Spec->catfile($root, 'bindings', 'perl', 'lib', 'Wurl.pm');
    return $root;
}

# The directory of the installed libwurl, recorded by `perl Makefile.PL`
# ($WURL_LIBDIR, or `pkg-config --variable=libdir wurl`) in the built copy
# of this file; undef in the source tree or when nothing was found.
our $INSTALLED_LIBDIR = '@WURL_LIBDIR@';
$INSTALLED_LIBDIR = undef
  if $INSTALLED_LIBDIR eq '@' . 'WURL_LIBDIR@' || !length $INSTALLED_LIBDIR;

# Where the library is looked for after $ENV{WURL_LIB}, in order: the usual
# build outputs of this checkout (when this file is in one), the directory
# recorded at build time ($INSTALLED_LIBDIR), then $CARGO_TARGET_DIR.
sub library_candidates {
    my $root = _repo_root();
    my @c;
    # cargo at the root; then the CMake build in build/ (its staged copy in
    # build/lib, and cargo's output in build/cargo).
    for my $rel (defined $root
        ? qw(target/release target/debug build/lib build/cargo/release build/cargo/debug)
        : ())
    {
        push @c, File::Spec->catfile($root, split(m{/}, $rel), 'libwurl.so');
    }
    if (defined $INSTALLED_LIBDIR && !defined $root) {
        push @c, map { File::Spec->catfile($INSTALLED_LIBDIR, $_) } qw(libwurl.so.0 libwurl.so);
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
    # Last, pkg-config's libdir (PKG_CONFIG_PATH of this run).
    my $pc = pkg_config_libdir();
    if (defined $pc && -f File::Spec->catfile($pc, 'libwurl.so.0')) {
        return File::Spec->catfile($pc, 'libwurl.so.0');
    }
    my @places = ('WURL_LIB (not set)', library_candidates(),
        'the system loader (libwurl.so.0, libwurl.so: LD_LIBRARY_PATH, /etc/ld.so.conf)',
        defined $pc ? "pkg-config's libdir $pc" : 'pkg-config (no wurl.pc on PKG_CONFIG_PATH)');
    Carp::croak(
        'Wurl: cannot find libwurl. Looked in: ' . join('; ', @places) . '. '
          . 'Set WURL_LIB to the path of libwurl.so.0 (e.g. PREFIX/lib/libwurl.so.0), or rebuild '
          . 'this module with `PKG_CONFIG_PATH=PREFIX/lib/pkgconfig perl Makefile.PL` (or '
          . 'WURL_LIBDIR=PREFIX/lib) so that it records where libwurl is; from a checkout, '
          . 'build it: cargo build --release');
}

# The libdir that pkg-config gives for wurl now, or undef.
sub pkg_config_libdir {
    my $dir = `pkg-config --variable=libdir wurl 2>/dev/null`;
    return undef if $? != 0 || !defined $dir;
    chomp $dir;
    return length $dir ? $dir : undef;
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
$ffi->attach([wurl_canonicalize_as => '_canonicalize_as'] =>
      ['opaque', 'sint32', 'string', 'size_t', 'uint32', 'opaque*'] => 'sint32');
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
$ffi->attach([wurl_output_bound => '_output_bound'] => ['size_t', 'size_t', 'uint32'] => 'size_t');
# Keys (issue 28): rules and SURT.
$ffi->attach([wurl_rules_compile => '_rules_compile'] =>
      ['string', 'size_t', 'opaque*', 'opaque', 'size_t'] => 'sint32');
$ffi->attach([wurl_rules_free => '_rules_free'] => ['opaque'] => 'void');
$ffi->attach([wurl_canon_key_into => '_canon_key_into'] => [
        'opaque', 'string', 'size_t', 'string', 'size_t', 'uint32',
        'opaque', 'uint32', 'opaque', 'size_t', 'size_t*'
    ] => 'sint32'
);
# The URL Standard model with a string base.
$ffi->attach([wurl_canon_standard_into => '_canon_standard_into'] => [
        'string', 'size_t', 'string', 'size_t', 'string', 'size_t',
        'opaque', 'uint32', 'opaque', 'size_t', 'size_t*'
    ] => 'sint32'
);
$ffi->attach([wurl_url_key_into => '_url_key_into'] =>
      ['opaque', 'opaque', 'uint32', 'opaque', 'size_t', 'size_t*'] => 'sint32');
$ffi->attach([wurl_charset_known => '_charset_known'] => ['string', 'size_t'] => 'uint8');
$ffi->attach([wurl_charset_message => '_charset_message'] =>
      ['string', 'size_t', 'opaque', 'size_t'] => 'sint32');
# The record state pair.
$ffi->attach([wurl_state_export => '_state_export'] =>
      ['opaque', 'opaque', 'size_t', 'size_t*'] => 'sint32');
$ffi->attach([wurl_state_import => '_state_import'] => ['string', 'size_t', 'opaque*'] => 'sint32');

$ffi->attach([wurl_key_version => '_key_version'] => [] => 'uint32');

sub library_version { _version() }

# Wurl->key_version: the version of the keys the library makes
# (wurl_key_version; docs/keys.md, "Key version").
sub key_version { _key_version() }

# Wurl->require_key_version($n): croaks unless the library makes keys of
# version $n, as `wurl canon --key-version N` refuses to run.
sub require_key_version {
    my (undef, $n) = @_;
    Carp::croak('Wurl->require_key_version: a version number, not '
          . (defined $n ? "'$n'" : 'undef'))
      unless defined $n && !ref $n && $n =~ /\A[0-9]+\z/;
    my $v = _key_version();
    Carp::croak("Wurl->require_key_version: this wurl makes keys of version $v; "
          . "its keys would not be those of version $n")
      unless $n == $v;
    return 1;
}

# ---------------------------------------------------------------------------
# Strings in and out

# Scratch buffers larger than this are released when the call returns (the C
# library's own cap for its per-thread buffer is the same).
use constant SCRATCH_CAP => 64 * 1024;

# Turns the string in $_[0] (a private copy: callers pass one) into the UTF-8
# bytes the C ABI takes, in place. A Perl string is its characters, whatever
# its internal UTF8 flag (as the 2012 module reads it), so two strings that
# are equal in Perl give the same result:
#
# - a string without the flag holds characters U+0000..U+00FF (Latin-1):
#   "\xC3\xA9" is two characters, U+00C3 U+00A9;
# - a surrogate (U+D800..U+DFFF) or a code point above U+10FFFF, which
#   UTF-8 cannot carry, becomes one U+FFFD, as the module's "steps to
#   preprocess a string" replace it, one per code point.
#
# Large strings: the caller undefs its copy after the call, so no buffer of
# the size of the input stays in a pad.
sub _utf8_in_place {
    if (utf8::is_utf8($_[0])) {
        no warnings qw(utf8 surrogate non_unicode);
        $_[0] =~ s/[^\x{0}-\x{D7FF}\x{E000}-\x{10FFFF}]/\x{FFFD}/g
          if $_[0] =~ /[^\x{0}-\x{D7FF}\x{E000}-\x{10FFFF}]/;
    }
    utf8::encode($_[0]);
    return;
}

# _input($out, $in, $raw, $what): sets $out to a private copy of the string
# $in as UTF-8 bytes (see _utf8_in_place), or as raw bytes with $raw.
#
# Memory: a lexical keeps its string buffer after its scope ends (and a
# copy-on-write copy keeps the original's), so large strings are never
# copied into a lexical here or in the public functions (they read $_[n]);
# the caller's $out is undef'd after the call.
sub _input {
    Carp::croak("$_[3]: input is undef") unless defined $_[1];
    $_[0] = "$_[1]";
    if ($_[2]) {
        utf8::downgrade($_[0], 1)
          or Carp::croak("$_[3]: a byte string cannot hold characters above U+00FF");
    } else {
        _utf8_in_place($_[0]);
    }
    return;
}

# A view (pointer, length) into a handle or buffer, as a Perl character
# string (the library writes valid UTF-8 only).
sub _view {
    my $s = $_[1] ? buffer_to_scalar($_[0], $_[1]) : '';
    utf8::decode($s);
    return $s;
}

sub _status_error {
    my ($status, $what) = @_;
    return "Wurl: $what: " . _status_str($status) . " (status $status)";
}

sub _check {
    my ($status, $what) = @_;
    return if $status == WURL_OK;
    Carp::croak(_status_error($status, $what));
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

# The per-interpreter output buffer of canonicalize(), at most SCRATCH_CAP
# bytes; a call whose output bound (wurl_output_bound) is larger goes
# through a temporary buffer of that size that is freed before the call
# returns. Only ever written by the library and read with
# buffer_to_scalar, so it is never shared copy-on-write with another
# scalar. (Each thread has its own copy.) Its length is its capacity (grow
# sets it).
my $CANON_BUF;

# Wurl->canonicalize($input, base => $base, charset => $label, strict => 1,
# bytes => 1, rules => $rules, surt => 1, surt_scheme => 1,
# model => 'url-standard'): the one-call
# path (wurl_canon_into; wurl_canon_key_into with rules or SURT, where
# $rules is a Wurl::Rules or a specification string). $base is a string or a
# Wurl::URL; without it, $input is its own base. Returns the serialization,
# or undef for an invalid URL; croaks when the call fails (an input over
# WURL_MAX_INPUT_LEN bytes). model => '2012' (the default) or
# 'url-standard' (the WHATWG URL Standard, WURL_FLAG_URL_STANDARD; a base is
# then read by its serialization, and strict => 1 is refused).
sub canonicalize {
    my @r = _canonicalize_status(@_[ 1 .. $#_ ]);
    return $r[1] if $r[0] == WURL_OK || $r[0] == WURL_INVALID_URL;
    # The label is read in place ($_[n], the last one given, as in the
    # options hash): a large input or base is not copied.
    if ($r[0] == WURL_E_UNKNOWN_CHARSET) {
        for (my $i = $#_ - 1; $i >= 2; $i -= 2) {
            _croak_charset($_[ $i + 1 ]) if $_[$i] eq 'charset';
        }
    }
    Carp::croak(_status_error($r[0], 'wurl_canon_into'));
}

# Wurl->charset_known($label): whether $label names an encoding (a WHATWG
# Encoding Standard label; wurl_charset_known).
sub charset_known {
    _input(my $cs, $_[1], 0, 'Wurl->charset_known');
    return _charset_known($cs, length $cs) ? 1 : 0;
}

# Wurl->charset_message($label): the message wurl gives for a label that
# names no encoding (wurl_charset_message, the text every front end shows),
# or undef when the label names one. Croaks for a failed call (a label over
# WURL_MAX_INPUT_LEN bytes).
sub charset_message {
    _input(my $cs, $_[1], 0, 'Wurl->charset_message');
    my ($st, $msg) = _charset_message_status($cs);
    return undef if $st == WURL_OK;
    return $msg if $st == WURL_E_UNKNOWN_CHARSET;
    Carp::croak(_status_error($st, 'wurl_charset_message'));
}

# wurl_charset_message of a label already in bytes: (status, message).
sub _charset_message_status {
    my $buf;
    grow($buf, WURL_CHARSET_MESSAGE_MAX + 1);
    my ($msg_ptr, $cap) = scalar_to_buffer($buf);
    my $st = _charset_message($_[0], length $_[0], $msg_ptr, $cap);
    return ($st) unless $st == WURL_E_UNKNOWN_CHARSET;
    my $m = buffer_to_scalar($msg_ptr, $cap);
    $m =~ s/\0.*\z//s;
    return ($st, $m);
}

# Croaks with the library's message for the charset label $_[0] (which the
# library refused with WURL_E_UNKNOWN_CHARSET): the library reads a label
# that names no encoding as UTF-8 unless told otherwise (the 2012 rule,
# which Wurl::Compat keeps), so a misspelt label would silently mean UTF-8.
sub _croak_charset {
    _input(my $cs, $_[0], 0, 'charset');
    my ($st, $m) = _charset_message_status($cs);
    Carp::croak(_status_error($st, 'wurl_charset_message')) unless $st == WURL_E_UNKNOWN_CHARSET;
    Carp::croak($m);
}

# canonicalize() without the croak for a failed call: (status, result),
# the result only with WURL_OK. Still croaks on programming errors (undef
# input, a destroyed base object, characters above U+00FF with bytes => 1).
sub _canonicalize_status {
    my (undef, %opt) = @_;
    my $what = 'Wurl->canonicalize';
    _input(my $bytes, $_[0], $opt{bytes}, $what);
    my $cs;
    _input($cs, $opt{charset}, 0, $what) if defined $opt{charset};
    my $flags = $opt{strict} ? WURL_FLAG_NETWORK_STRICT : 0;
    if (defined $opt{model}) {
        if ($opt{model} eq 'url-standard') {
            # As the CLI and Python say it: the flag would otherwise reach the
            # library, which reports only an argument out of range.
            Carp::croak("$what: strict => 1 tests the 2012 result; it cannot be used with "
                  . "model => 'url-standard'")
              if $opt{strict};
            $flags |= WURL_FLAG_URL_STANDARD;
        } elsif ($opt{model} ne '2012') {
            Carp::croak("$what: model must be '2012' or 'url-standard', not '$opt{model}'");
        }
    }
    my @key = Wurl::Rules::_key_args($opt{rules}, $opt{surt}, $opt{surt_scheme});
    my $base = $opt{base};
    if ($flags == WURL_FLAG_URL_STANDARD
        && !(Scalar::Util::blessed($base) && $base->isa('Wurl::URL')))
    {
        # A string base (or none): read by the URL Standard itself
        # (wurl_canon_standard_into), not through a 2012 handle. That call
        # has no flags, so the label is tested first.
        if (defined $cs) {
            my ($st) = _charset_message_status($cs);
            if ($st != WURL_OK) {
                undef $bytes;
                return ($st);
            }
        }
        my $b;
        _input($b, $base, $opt{bytes}, $what) if defined $base;
        my @r = _standard_bytes($b, $bytes, $cs, @key);
        undef $bytes;
        return @r;
    }
    my ($base_ptr, $own_base);
    if (defined $base) {
        if (Scalar::Util::blessed($base) && $base->isa('Wurl::URL')) {
            $base_ptr = $base->_ptr;
        } else {
            _input(my $b, $base, $opt{bytes}, $what);
            my $st = _parse($b, length($b), 0, \$base_ptr);
            undef $b;
            if ($st != WURL_OK) {
                undef $bytes;
                return ($st);
            }
            $own_base = 1;
        }
    }
    # An unknown charset label is WURL_E_UNKNOWN_CHARSET, not UTF-8.
    my @r = _canon_into_bytes($base_ptr, $bytes, $cs, $flags | WURL_FLAG_CHARSET_STRICT, @key);
    undef $bytes;
    undef $cs;
    _free($base_ptr) if $own_base;
    return @r;
}

# The output buffer of a call whose results are at most $_[0] bytes with
# their NUL (wurl_output_bound): the per-interpreter buffer up to
# SCRATCH_CAP, else $_[1], a buffer for this call only (the caller undefs
# it). Returns (pointer, capacity).
sub _out_buffer {
    my $need = $_[0];
    if ($need <= SCRATCH_CAP) {
        grow($CANON_BUF, $need) unless defined $CANON_BUF && length($CANON_BUF) >= $need;
        return scalar_to_buffer($CANON_BUF);
    }
    grow($_[1], $need);
    return scalar_to_buffer($_[1]);
}

# The length wurl_output_bound counts for a base handle: its serialization's
# (0 for none, and for an invalid one, which gives no result).
sub _base_len {
    return 0 unless defined $_[0];
    my ($ptr, $len);
    return _serialize($_[0], \$ptr, \$len) ? $len : 0;
}

# wurl_canon_into with bytes in: (status, string). $_[1] holds the input's
# bytes (not copied: see _input). With a key ($_[4], the rules object or
# undef, and $_[5], the key flags): wurl_canon_key_into. The buffer is sized
# once, by wurl_output_bound.
sub _canon_into_bytes {
    my ($base_ptr, undef, $cs, $flags, $rules, $key_flags) = @_;
    my $big;
    my ($buf_ptr, $cap) =
      _out_buffer(_output_bound(_base_len($base_ptr), length($_[1]), $flags), $big);
    my $len = 0;
    my $st;
    if (defined $rules || $key_flags) {
        $st = _canon_key_into($base_ptr, $_[1], length($_[1]), $cs, defined $cs ? length($cs) : 0,
            $flags, defined $rules ? $rules->_ptr : undef, $key_flags // 0, $buf_ptr, $cap, \$len);
    } else {
        $st = _canon_into($base_ptr, $_[1], length($_[1]), $cs, defined $cs ? length($cs) : 0,
            $flags, $buf_ptr, $cap, \$len);
    }
    my @r = ($st, $st == WURL_OK ? _view($buf_ptr, $len) : ());
    undef $big;
    return @r;
}

# wurl_canon_standard_into: (status, string). $_[0]: the base's bytes or
# undef (no base), $_[1]: the input's bytes. The buffer is sized once, by
# wurl_output_bound.
sub _standard_bytes {
    my (undef, undef, $cs, $rules, $key_flags) = @_;
    my $rules_ptr = defined $rules ? $rules->_ptr : undef;
    my $base_len = defined $_[0] ? length($_[0]) : 0;
    my $big;
    my ($buf_ptr, $cap) = _out_buffer(_output_bound($base_len, length($_[1]), 0), $big);
    my $len = 0;
    my $st = _canon_standard_into($_[0], $base_len, $_[1], length($_[1]), $cs,
        defined $cs ? length($cs) : 0, $rules_ptr, $key_flags // 0, $buf_ptr, $cap, \$len);
    my @r = ($st, $st == WURL_OK ? _view($buf_ptr, $len) : ());
    undef $big;
    return @r;
}

# ---------------------------------------------------------------------------
package Wurl::URL;

use strict;
use warnings;

our @CARP_NOT = qw(Wurl Wurl::Rules);

# A Wurl::URL is a blessed array:
#
#   [0] the handle's address, undef once DESTROY has freed it;
#   [1] the thread (threads->tid) that owns that handle.
#
# Handles are immutable; every operation returns a new object. How to make a
# handle again is its state (wurl_state_export: the record's whole value as
# bytes, invalid URLs included), the one format of every binding: Storable
# freezes it (STORABLE_freeze/STORABLE_thaw), and a new thread imports it
# into a handle of its own for every object it inherits (CLONE), so that the
# parent's handle is never used or freed by another thread. A forked child
# has its own copy of every handle.

# The thread whose handles this interpreter owns (0: the main thread). CLONE
# runs in each new thread.
our $OWNER = 0;

# Every live object of this interpreter by its handle's address, as a weak
# reference: what CLONE gives handles of their own.
my %LIVE;

# A new object owning the handle $_[0].
sub _own {
    my ($ptr) = @_;
    my $self = bless [ $ptr, $OWNER ], __PACKAGE__;
    $LIVE{$ptr} = $self;
    Scalar::Util::weaken($LIVE{$ptr});
    return $self;
}

# The state of the handle $_[0] (wurl_state_export): its length is asked
# first, so the buffer is sized once. Croaks for a failed call.
sub _export {
    my ($ptr) = @_;
    my $len = 0;
    my $st = Wurl::_state_export($ptr, undef, 0, \$len);
    return '' if $st == Wurl::WURL_OK && $len == 0;
    Wurl::_check($st, 'wurl_state_export') unless $st == Wurl::WURL_E_BUFFER_TOO_SMALL;
    my $buf;
    FFI::Platypus::Buffer::grow($buf, $len);
    my ($buf_ptr, $cap) = FFI::Platypus::Buffer::scalar_to_buffer($buf);
    Wurl::_check(Wurl::_state_export($ptr, $buf_ptr, $cap, \$len), 'wurl_state_export');
    return FFI::Platypus::Buffer::buffer_to_scalar($buf_ptr, $len);
}

# (status, handle) of wurl_state_import of the bytes $_[0].
sub _import {
    my $out;
    my $st = Wurl::_state_import($_[0], length $_[0], \$out);
    return ($st, $st == Wurl::WURL_OK ? $out : undef);
}

# Runs in a new thread, while the thread that creates it waits inside
# threads->create: every inherited handle is then alive and, since that
# thread's own CLONE did the same, owned by it. Each object gets a handle of
# its own, imported from the state of the inherited one, which is never
# touched again here.
sub CLONE {
    $OWNER = threads->tid;
    my @objects = grep { defined $_ && defined $_->[0] } values %LIVE;
    %LIVE = ();
    for my $self (@objects) {
        my ($st, $ptr) = _import(_export($self->[0]));
        # Not expected (a state a handle exports always imports); the
        # object then says it has no handle rather than using the parent's.
        $self->[0] = $st == Wurl::WURL_OK ? $ptr : undef;
        $self->[1] = $OWNER;
        next unless defined $ptr;
        $LIVE{$ptr} = $self;
        Scalar::Util::weaken($LIVE{$ptr});
    }
    return;
}

sub CLONE_SKIP { 0 }

# (status, object or undef) of a call's status and the handle it wrote.
sub _result { return ($_[0], $_[0] == Wurl::WURL_OK ? _own($_[1]) : undef) }

# The object of a call's status and the handle it wrote; croaks for a failed
# call ($_[2] names it).
sub _made {
    Wurl::_check($_[0], $_[2]) unless $_[0] == Wurl::WURL_OK;
    return _own($_[1]);
}

# The handle: a destroyed object croaks.
sub _ptr {
    my ($self) = @_;
    Carp::croak('Wurl::URL: not a Wurl::URL object')
      unless Scalar::Util::reftype($self) eq 'ARRAY' && @$self == 2;
    my $ptr = $self->[0];
    Carp::croak('Wurl::URL: the object was destroyed (its handle is freed)')
      unless defined $ptr;
    # Another thread's handle (an object that was not made by this module):
    # never used here.
    Carp::croak("Wurl::URL: the object's handle belongs to another thread")
      unless $self->[1] == $OWNER;
    return $ptr;
}

sub parse {
    Wurl::_input(my $b, $_[1], 0, 'Wurl::URL->parse');
    my $st = Wurl::_parse($b, length($b), 0, \my $out);
    undef $b;
    return _made($st, $out, 'wurl_parse');
}

sub parse_bytes {
    Wurl::_input(my $b, $_[1], 1, 'Wurl::URL->parse_bytes');
    my $st = Wurl::_parse($b, length($b), 0, \my $out);
    undef $b;
    return _made($st, $out, 'wurl_parse');
}

sub resolve {
    Wurl::_input(my $b, $_[1], 0, 'Wurl::URL->resolve');
    my $st = Wurl::_resolve($_[0]->_ptr, $b, length($b), 0, \my $out);
    undef $b;
    return _made($st, $out, 'wurl_resolve');
}

sub resolve_bytes {
    Wurl::_input(my $b, $_[1], 1, 'Wurl::URL->resolve_bytes');
    my $st = Wurl::_resolve($_[0]->_ptr, $b, length($b), 0, \my $out);
    undef $b;
    return _made($st, $out, 'wurl_resolve');
}

# The same without the croak for a failed call (for Wurl::Compat, whose
# contract is an undef or invalid result): (status, object or undef).
sub _parse_status {
    Wurl::_input(my $b, $_[1], 0, 'Wurl::URL->parse');
    my $st = Wurl::_parse($b, length($b), 0, \my $out);
    undef $b;
    return _result($st, $out);
}

sub _resolve_status {
    Wurl::_input(my $b, $_[1], 0, 'Wurl::URL->resolve');
    my $st = Wurl::_resolve($_[0]->_ptr, $b, length($b), 0, \my $out);
    undef $b;
    return _result($st, $out);
}

sub _canonicalize_status {
    my ($self, $charset) = @_;
    my $cs;
    Wurl::_input($cs, $charset, 0, 'Wurl::URL->canonicalize') if defined $charset;
    my $st = Wurl::_canonicalize($self->_ptr, $cs, defined $cs ? length($cs) : 0, 0, \my $out);
    return _result($st, $out);
}

# Canonicalization with the hierarchical flag and the query's octets given
# (wurl_canonicalize_as), for Wurl::Compat: $hier is undef for the handle's
# own flag, else true or false; $octets is undef for the query in UTF-8, else
# a byte string, the query's characters already in the document's encoding
# (what Encode gives). (status, object or undef), as the other _status
# calls.
sub _canonicalize_as_status {
    my ($self, $hier, $octets) = @_;
    my $o;
    if (defined $octets) {
        $o = "$octets";
        utf8::downgrade($o, 1)
          or Carp::croak('Wurl::URL: query octets cannot hold characters above U+00FF');
    }
    my $st = Wurl::_canonicalize_as($self->_ptr, defined $hier ? ($hier ? 1 : 0) : -1, $o,
        defined $o ? length($o) : 0, 0, \my $out);
    return _result($st, $out);
}

# $url->canonicalize(charset => $label, strict => 1)
sub canonicalize {
    my ($self, %opt) = @_;
    my $cs;
    Wurl::_input($cs, $opt{charset}, 0, 'Wurl::URL->canonicalize') if defined $opt{charset};
    # An unknown charset label is WURL_E_UNKNOWN_CHARSET, not UTF-8.
    my $flags = ($opt{strict} ? Wurl::WURL_FLAG_NETWORK_STRICT : 0) | Wurl::WURL_FLAG_CHARSET_STRICT;
    my $st = Wurl::_canonicalize($self->_ptr, $cs, defined $cs ? length($cs) : 0, $flags, \my $out);
    Wurl::_croak_charset($opt{charset}) if $st == Wurl::WURL_E_UNKNOWN_CHARSET;
    return _made($st, $out, 'wurl_canonicalize');
}

# $url->key(rules => $rules, surt => 1, surt_scheme => 1): the key of this
# URL's canonicalization, wurl_url_key_into; undef when that is invalid.
sub key {
    my ($self, %opt) = @_;
    my ($rules, $key_flags) = Wurl::Rules::_key_args($opt{rules}, $opt{surt}, $opt{surt_scheme});
    my $rules_ptr = defined $rules ? $rules->_ptr : undef;
    my $ptr = $self->_ptr;
    # Sized once: wurl_output_bound of the handle's serialization.
    my $big;
    my ($buf_ptr, $cap) = Wurl::_out_buffer(Wurl::_output_bound(Wurl::_base_len($ptr), 0, 0), $big);
    my $len = 0;
    my $st = Wurl::_url_key_into($ptr, $rules_ptr, $key_flags, $buf_ptr, $cap, \$len);
    my $key = $st == Wurl::WURL_OK ? Wurl::_view($buf_ptr, $len) : undef;
    undef $big;
    return undef if $st == Wurl::WURL_INVALID_URL;
    Wurl::_check($st, 'wurl_url_key_into');
    return $key;
}

# The serialization, or undef for an invalid URL.
sub serialize {
    my ($ptr, $len);
    return undef unless Wurl::_serialize($_[0]->_ptr, \$ptr, \$len);
    return Wurl::_view($ptr, $len);
}

# A component: undef when absent, '' when present and empty.
sub component {
    my ($self, $name) = @_;
    my $i = defined $name ? $COMPONENT_INDEX{$name} : undef;
    Carp::croak("Wurl::URL: unknown component '" . ($name // 'undef') . "'") unless defined $i;
    my ($ptr, $len);
    return undef unless Wurl::_get($self->_ptr, $i, \$ptr, \$len);
    return Wurl::_view($ptr, $len);
}

for my $name (@COMPONENTS) {
    my $i = $COMPONENT_INDEX{$name};
    no strict 'refs';
    *{$name} = sub {
        my ($ptr, $len);
        return undef unless Wurl::_get($_[0]->_ptr, $i, \$ptr, \$len);
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

sub is_invalid { Wurl::_is_invalid($_[0]->_ptr) ? 1 : 0 }

# Why the URL is invalid (a static English phrase), or undef when it is valid.
sub invalid_reason { Wurl::_invalid_reason($_[0]->_ptr) }

# 'none', 'empty', 'domain', 'ipv4' or 'ipv6'.
sub host_kind { $HOST_KINDS[ Wurl::_host_kind($_[0]->_ptr) ] // 'none' }

# $url->state: the URL's state (wurl_state_export), a byte string that
# Wurl::URL->from_state (in any process, with this version of wurl or a
# later one) makes the same URL from, invalid URLs included.
sub state { _export($_[0]->_ptr) }

# Wurl::URL->from_state($bytes): the URL of a state; croaks "Wurl:
# Wurl::URL->from_state: ... (status N)" for bytes that are not one
# (WURL_E_BAD_STATE: another format, truncated, altered), and for
# characters above U+00FF (a state is bytes).
sub from_state {
    my $b = $_[1];
    Carp::croak('Wurl::URL->from_state: the state is undef') unless defined $b;
    $b = "$b";
    utf8::downgrade($b, 1) or Carp::croak('Wurl::URL->from_state: a state is bytes, not characters');
    my ($st, $ptr) = _import($b);
    return _made($st, $ptr, 'Wurl::URL->from_state');
}

# Storable (freeze, thaw, dclone): the state, not the handle's address.
# Thawing imports it with the library of the thawing process, in any process
# or thread.
sub STORABLE_freeze {
    my ($self, $cloning) = @_;
    Carp::croak('Wurl::URL: the object was destroyed (its handle is freed); cannot freeze it')
      unless defined $self->[0];
    return ($self->state);
}

sub STORABLE_thaw {
    my ($self, $cloning, $state, @refs) = @_;
    # Earlier development versions froze a recipe: (tag, array reference).
    Carp::croak("Wurl::URL: cannot thaw '"
          . (defined $state ? $state : 'undef')
          . "': not a frozen Wurl::URL of this version")
      if @refs || !defined $state;
    my ($st, $ptr) = _import($state);
    Wurl::_check($st, 'Wurl::URL: thaw');
    @$self = ($ptr, $OWNER);
    $LIVE{$ptr} = $self;
    Scalar::Util::weaken($LIVE{$ptr});
    return;
}

sub DESTROY {
    my ($self) = @_;
    return unless Scalar::Util::reftype($self) eq 'ARRAY';
    my $ptr = $self->[0];
    return unless defined $ptr;
    # Another thread's handle (an object not made by this module).
    return unless $self->[1] == $OWNER;
    $self->[0] = undef;
    delete $LIVE{$ptr};
    # At global destruction the attached functions may already be gone; the
    # process is ending, so the handle is left to it.
    return if ${^GLOBAL_PHASE} eq 'DESTRUCT';
    Wurl::_free($ptr);
}

# ---------------------------------------------------------------------------
package Wurl::Rules;

use strict;
use warnings;

our @CARP_NOT = qw(Wurl Wurl::URL);

# A compiled rules specification (wurl_rules_compile), a blessed array:
#
#   [0] the rules handle's address, undef once DESTROY has freed it;
#   [1] the thread (threads->tid) that owns that handle;
#   [2] the specification, from which another thread (or Storable's thaw)
#       compiles its own handle the first time it uses the object.

# Wurl::Rules->new($spec): croaks "Wurl::Rules: MESSAGE" for a bad
# specification, the message naming the bad part.
sub new {
    my ($class, $spec) = @_;
    Wurl::_input(my $b, $spec, 0, 'Wurl::Rules->new');
    my $self = bless [ _compile($b), $Wurl::URL::OWNER, $b ], $class;
    return $self;
}

sub _compile {
    my ($b) = @_;
    my $msg;
    FFI::Platypus::Buffer::grow($msg, Wurl::WURL_RULES_MESSAGE_MAX + 1);
    my ($msg_ptr, $cap) = FFI::Platypus::Buffer::scalar_to_buffer($msg);
    my $ptr;
    my $st = Wurl::_rules_compile($b, length($b), \$ptr, $msg_ptr, $cap);
    if ($st == Wurl::WURL_E_BAD_RULES) {
        my $m = FFI::Platypus::Buffer::buffer_to_scalar($msg_ptr, $cap);
        $m =~ s/\0.*\z//s;
        utf8::decode($m);
        Carp::croak("Wurl::Rules: $m");
    }
    Wurl::_check($st, 'wurl_rules_compile');
    return $ptr;
}

# The specification, as given (UTF-8 bytes decoded).
sub spec {
    my $s = $_[0]->[2];
    utf8::decode($s);
    return $s;
}

sub _ptr {
    my ($self) = @_;
    return $self->[0] if defined $self->[0] && $self->[1] == $Wurl::URL::OWNER;
    # Another thread's handle (or a thawed object): compile our own.
    $self->[0] = _compile($self->[2]);
    $self->[1] = $Wurl::URL::OWNER;
    return $self->[0];
}

# (rules object or undef, key flags) of the rules/surt options: a
# specification string is compiled for the call.
sub _key_args {
    my ($rules, $surt, $surt_scheme) = @_;
    if (defined $rules && !(Scalar::Util::blessed($rules) && $rules->isa('Wurl::Rules'))) {
        $rules = Wurl::Rules->new($rules);
    }
    my $flags = $surt_scheme ? Wurl::WURL_KEY_SURT_SCHEME : $surt ? Wurl::WURL_KEY_SURT : 0;
    return ($rules, $flags);
}

use constant FROZEN_TAG => 'Wurl::Rules/1';

sub STORABLE_freeze { return (FROZEN_TAG, \"$_[0]->[2]") }

sub STORABLE_thaw {
    my ($self, $cloning, $tag, $spec) = @_;
    Carp::croak("Wurl::Rules: cannot thaw '" . ($tag // 'undef') . "'")
      unless defined $tag && $tag eq FROZEN_TAG && ref $spec eq 'SCALAR';
    @$self = (undef, -1, $$spec);
    return;
}

sub DESTROY {
    my ($self) = @_;
    return unless Scalar::Util::reftype($self) eq 'ARRAY';
    my $ptr = $self->[0];
    return unless defined $ptr && $self->[1] == $Wurl::URL::OWNER;
    $self->[0] = undef;
    return if ${^GLOBAL_PHASE} eq 'DESTRUCT';
    Wurl::_rules_free($ptr);
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
  print $url->host, ' ', $url->host_kind, "\n";   # example.com domain
  print Wurl->canonicalize("?\x{5050}", base => 'http://hoge', charset => 'euc-jp'), "\n";
  # http://hoge/?%D0%F4

=head1 DESCRIPTION

The Perl binding of wurl, a library that implements the 2012
Web::URL::Canonicalize algorithm. It calls the C ABI of F<libwurl.so>
through L<FFI::Platypus>; no compiler is needed. For code written for the
2012 module, see L<Wurl::Compat> (and the C<Web::URL::Canonicalize> module
in the distribution's F<compat/> directory).

=head1 METHODS

=over

=item Wurl->parse($string), Wurl::URL->parse($string)

A L<Wurl::URL>. Parsing never fails for a string: a string that is not a
URL gives an I<invalid> URL (C<is_invalid>, C<invalid_reason>).

=item $url->resolve($string)

The string resolved against C<$url>, a new Wurl::URL.

=item $url->canonicalize(charset => $label, strict => 1)

A new, canonical Wurl::URL. C<charset> is the label of the document's
encoding, used for the query: a WHATWG Encoding Standard label
(C<shift_jis>, C<windows-1252>, ...); a label that names no encoding (a
misspelt C<shiftjis>, which would otherwise mean UTF-8) croaks with the
library's message, C<< Wurl->charset_message($label) >>. C<strict> is C<WURL_FLAG_NETWORK_STRICT> (see the
top-level README).

=item $url->serialize

The string, or undef for an invalid URL.

=item $url->scheme, user, password, host, port, path, query, fragment; $url->component($name)

undef for an absent component, C<''> for a present empty one.
C<< $url->components >> is a hash reference of the present ones.

=item $url->state, Wurl::URL->from_state($bytes)

The URL's state (C<wurl_state_export>): its whole value as a byte string
(each component absent or present, invalid and why), which C<from_state>
makes the same URL from in any process, with this version of wurl or a
later one; what L<Storable> freezes. C<from_state> croaks (status
C<WURL_E_BAD_STATE>) for bytes that are no such state: another format,
truncated or altered. Any bytes are safe to pass.

=item $url->is_invalid, $url->invalid_reason, $url->host_kind

1 or 0; why it is invalid (undef when valid); C<none empty domain ipv4
ipv6>.

=item Wurl->canonicalize($input, base => $base, charset => $label, strict => 1, bytes => 1)

The one-call path (C<wurl_canon_into>): resolve, canonicalize and serialize
at once. C<$base> is a string or a Wurl::URL; without it the input is its
own base. Returns the string, or undef for an invalid URL. C<charset> is
checked as for C<< $url->canonicalize >>.

=item Wurl->charset_known($label)

1 when C<$label> names an encoding (a WHATWG Encoding Standard label, ASCII
case-insensitive, surrounding whitespace ignored: C<wurl_charset_known>),
else 0. (L<Wurl::Compat> keeps the 2012 module's rule instead: there a
label that names no encoding means UTF-8.)

=item Wurl->charset_message($label)

The message wurl gives for a label that names no encoding
(C<wurl_charset_message>: the label quoted in ASCII, cut after 64 bytes;
the same text in every wurl front end), which is what C<canonicalize>
croaks with; undef for a label that names an encoding.

=item Wurl::Rules->new($spec), Wurl->canonicalize($input, rules => $rules, surt => 1, surt_scheme => 1), $url->key(rules => $rules, surt => 1)

Keys for crawlers and web archives (F<docs/keys.md> in the repository):
C<Wurl::Rules-E<gt>new> compiles a rules specification such as
C<drop-fragment,strip-www,sort-query,drop-params=utm_*|fbclid> once, and
croaks C<Wurl::Rules: MESSAGE>, the message naming the bad part, for a bad
one. C<rules> takes such an object or a specification string; C<surt>
returns the SURT form (C<com,example,www)/a?q>), C<surt_scheme> the SURT
form with its scheme. C<key> is the same for any Wurl::URL: the key of its
canonicalization (a parsed or resolved URL is canonicalized first, with
UTF-8; C<wurl_url_key_into>); undef when that is invalid.

=item Wurl->key_version, Wurl->require_key_version($n)

The version of the keys the library makes (C<wurl_key_version>), bumped by
every key change its CHANGELOG lists: store it beside the keys.
C<require_key_version> croaks unless the library makes keys of version
C<$n>, as C<wurl canon --key-version N> refuses to run.

=item parse_bytes, resolve_bytes, C<< bytes => 1 >>

Take raw byte strings: the road for bytes read from a file or socket (see
L</STRINGS>).

=back

A failed call (not an invalid URL: an input longer than
C<WURL_MAX_INPUT_LEN>, 16 MiB of UTF-8) croaks with the text of
C<wurl_status_str>. L<Wurl::Compat> returns undef or an invalid hash instead.

=head1 STRINGS

Results are Perl character strings (decoded from the UTF-8 the library
writes). Arguments follow one rule:

=over

=item *

A string is its characters, whatever its internal UTF8 flag: two strings
that are equal in Perl (C<eq>) give the same result. A string without the
flag holds characters U+0000 to U+00FF, so C<"http://a/\xC3\xA9"> is the two
characters U+00C3 U+00A9 (C<http://a/%C3%83%C2%A9>), as the 2012 module
read it.

=item *

B<Bytes> (text read from a file or socket without an encoding layer, a
URL from an HTTP header): pass them with C<< bytes => 1 >>, C<parse_bytes>
or C<resolve_bytes>. That is the road that gives, for the same bytes, what
C, the CLI, Ruby and Python give: invalid UTF-8 is read with one U+FFFD per
maximal invalid subpart. Do not decode them first with
C<Encode::decode('UTF-8', $s)> or a C<:encoding(UTF-8)> layer: Encode reads
some invalid sequences with fewer U+FFFD (a surrogate's bytes C<ED A0 80>,
which the library reads as three, are one), so a line with such bytes
would get another key than in every other interface
(F<t/04-cross-binding.t>).

=item *

A surrogate such as C<"\x{D800}"> or a code point above U+10FFFF, which
UTF-8 cannot carry, is one U+FFFD per code point, as the 2012 module's
"steps to preprocess a string" made it.

=item *

C<< bytes => 1 >>, C<parse_bytes> and C<resolve_bytes> pass the bytes as
they are, invalid UTF-8 included (the library decodes it with U+FFFD, one
per maximal invalid subpart); they croak on characters above U+00FF.

=back

NUL bytes pass through in both directions.

=head1 LIFETIME, COPIES, THREADS, MEMORY

=over

=item *

A Wurl::URL owns one library handle, freed in C<DESTROY>. Handles are
immutable; every operation returns a new object.

=item *

L<Storable> (C<freeze>/C<thaw>, C<dclone>, files read by another process)
stores an object's state (C<< $url->state >>) and thawing makes a new handle
from it, with the library of the thawing process; invalid URLs survive too.
A malformed state croaks; an object frozen by an earlier development
version (which froze how it was made) croaks too.

=item *

Threads (ithreads): a new thread inherits the objects, each with a handle
of its own made from the state of the parent's when the thread starts; it
never uses or frees the parent's. A forked child has its own copy of every
handle.

=item *

An object that was destroyed (C<DESTROY> called by hand, or an object seen
during global destruction) croaks when it is used, as a base or otherwise.

=item *

C<< Wurl->canonicalize >> and C<< $url->key >> write into a buffer sized
once by C<wurl_output_bound> (never grown and called again): one kept per
interpreter, at most 64 KiB, or, for a call whose bound is larger, a buffer
for that call only. A 16 MiB input leaves nothing behind (F<t/07-memory.t>
measures the resident set size).

=back

=head1 FINDING THE LIBRARY

C<$ENV{WURL_LIB}> (the full path of F<libwurl.so>; if it is set and the file
is not there, loading croaks), then, when this file is the checkout's
F<bindings/perl/lib/Wurl.pm>, the build outputs of that checkout
(F<target/release>, F<target/debug>, F<build/lib>, F<build/cargo/release>,
F<build/cargo/debug>); for an installed copy, the directory that
C<perl Makefile.PL> recorded (C<$ENV{WURL_LIBDIR}>, else
C<pkg-config --variable=libdir wurl>: after C<cmake --install> into
F<PREFIX>, build with C<PKG_CONFIG_PATH=PREFIX/lib/pkgconfig>); then
C<$ENV{CARGO_TARGET_DIR}>, then the system loader (F<libwurl.so.0>,
F<libwurl.so>), then pkg-config's libdir at run time. When none has the
library, loading croaks with the places it looked in and the variables to
set. C<Wurl::library_path()> says which was loaded.

=head1 SEE ALSO

L<Wurl::Compat>, the interface of Web::URL::Canonicalize;
F<bindings/README.md> in the wurl repository.

=head1 LICENSE

MIT. Copyright (c) the wurl authors; see the file LICENSE.

=cut
