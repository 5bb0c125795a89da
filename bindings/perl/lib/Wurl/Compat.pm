package Wurl::Compat;

# A drop-in replacement for Web::URL::Canonicalize on top of libwurl: the
# same functions, arguments, undef results and hash shape.

use strict;
use warnings;

use Carp ();
use Exporter 'import';
use Hash::Util::FieldHash ();
use Scalar::Util ();

use Wurl;

our $VERSION = $Wurl::VERSION;

our @EXPORT    = qw(url_to_canon_url);
our @EXPORT_OK = qw(
  url_to_canon_url url_to_canon_parsed_url parse_url resolve_url
  canonicalize_parsed_url serialize_parsed_url
);
our %EXPORT_TAGS = (all => \@EXPORT_OK);

my @COMPONENTS = Wurl::components();
# Everything the snapshot of a hash covers: what a user could change.
my @SNAPSHOT_KEYS = (@COMPONENTS, 'invalid');
# Every key this module writes into a hash.
my @OWN_KEYS = (@COMPONENTS, qw(scheme_normalized invalid is_hierarchical));

# The module's package variables, with the values of the library's scheme
# table (t/11-module-api.t checks them against the library). Changing them
# changes nothing in the library.
our $DefaultPort = {
    ftp    => 21,
    gopher => 70,
    http   => 80,
    https  => 443,
    telnet => 23,
    tn3270 => 23,
    rlogin => 513,
    ws     => 80,
    wss    => 443,
};
our $IsHierarchicalScheme = { map { $_ => 1 } qw(ftp gopher http https) };
our $IsNonHierarchicalScheme = { map { $_ => 1 } qw(about data javascript mailto vbscript) };

my %NOT_HIERARCHICAL = %$IsNonHierarchicalScheme;

# The handle behind each hash this module returned, kept outside the hash
# (an inside-out field: the entry goes away with the hash, and a new thread
# gets it with the handle undef), so users see exactly the documented keys.
# Each entry: [Wurl::URL, hierarchical flag, snapshot of the hash].
Hash::Util::FieldHash::fieldhash(my %HANDLE);

sub _snapshot {
    my ($h) = @_;
    my $s = '';
    for my $k (@COMPONENTS, 'scheme_normalized') {
        my $v = $h->{$k};
        $s .= defined $v ? 'D' . length($v) . ':' . $v : 'U';
    }
    $s .= $h->{invalid} ? 'I' : 'V';
    $s .= $h->{is_hierarchical} ? 'H' : 'N';
    return $s;
}

# "Steps to preprocess a string", as far as the structure of a URL depends
# on it: TAB, LF, CR removed; VT, FF, SPACE trimmed at both ends.
sub _preprocess {
    my $s = defined $_[0] ? "$_[0]" : '';
    $s =~ tr/\t\n\r//d;
    $s =~ s/\A[\x0B\x0C\x20]+//;
    $s =~ s/[\x0B\x0C\x20]+\z//;
    return $s;
}

# The scheme that parsing a preprocessed string gives (undef for none; a
# UNC path or a drive letter gives "file"), and whether the result is
# hierarchical (spec section "Hierarchicalness"; NOTES.md).
sub _parse_info {
    my ($s) = @_;
    return ('file', 1) if $s =~ /\A\\\\/;
    return (undef, 1) unless $s =~ /\A([A-Za-z0-9+.\-]+):/;
    my $scheme = $1;
    my $rest   = substr($s, length($scheme) + 1);
    (my $lc = $scheme) =~ tr/A-Z/a-z/;
    return ('file', 1) if length($scheme) == 1 && $scheme =~ /\A[A-Za-z]\z/;
    return ($scheme, 1) if $lc eq 'file';
    return ($scheme, 0) if $lc eq 'mailto';
    return ($scheme, ($rest =~ m{\A[/\\]} && !$NOT_HIERARCHICAL{$lc}) ? 1 : 0);
}

# A hash of the original's shape from a Wurl::URL.
sub _to_hash {
    my ($url, $hier, $into) = @_;
    my $h = $into || {};
    delete @{$h}{@OWN_KEYS};
    for my $k (@COMPONENTS) {
        my $v = $url->$k;
        $h->{$k} = $v if defined $v;
    }
    if (defined $h->{scheme}) {
        ($h->{scheme_normalized} = $h->{scheme}) =~ tr/A-Z/a-z/;
    }
    $h->{invalid}         = 1 if $url->is_invalid;
    $h->{is_hierarchical} = 1 if $hier;
    $HANDLE{$h} = [ $url, $hier ? 1 : 0, _snapshot($h) ];
    return $h;
}

# The handle and hierarchical flag for a hash: the one this module made it
# from while the hash is unchanged; otherwise one rebuilt by parsing the
# serialization of its components (an invalid hash gives an invalid handle).
sub _handle_of {
    my ($h, $what) = @_;
    Carp::croak("Wurl::Compat::$what: not a hash reference")
      unless ref $h && Scalar::Util::reftype($h) eq 'HASH';
    my $e = $HANDLE{$h};
    if ($e && Scalar::Util::blessed($e->[0]) && $e->[2] eq _snapshot($h)) {
        return ($e->[0], $e->[1]);
    }
    my ($url, $hier, $restore);
    if ($h->{invalid}) {
        ($url, $hier) = (Wurl::URL->parse(''), 0);
    } else {
        # Canonicalization takes the scheme from scheme_normalized, as the
        # module's "$parsed_url->{scheme} = $parsed_url->{scheme_normalized}".
        my $canon = $what eq 'canonicalize_parsed_url';
        my $scheme = $canon ? $h->{scheme_normalized} : undef;
        my $parts = $h;
        ($parts, $restore) = _carry_delimiters($h) if $canon;
        my $s = _serialize_components($parts, $scheme, $canon && $h->{is_hierarchical}, 1);
        (undef, $url) = Wurl::URL->_parse_status($s);
        if (!$url) {
            ($url, $hier) = (Wurl::URL->parse(''), 0);    # too long
        } elsif (!_parses_back($h, $scheme, $url)) {
            ($url, $hier) = (Wurl::URL->parse(''), 0);
        } else {
            (undef, $hier) = _parse_info(_preprocess($s));
        }
    }
    $HANDLE{$h} = [ $url, $hier, _snapshot($h) ];
    return ($url, $hier, $restore);
}

# A "#" or "?" in the path and a "#" in the query of a hand-made hash stay
# there in the module's canonical hash (it canonicalized each component by
# itself, and leaves them raw: its serialization then reads differently,
# but the host is the hash's). To canonicalize them where they are, they go
# into the string as %23 and %3F, which canonicalization keeps, and come
# back raw afterwards (_restore_delimiters). Only when the component holds
# no %23 (or %3F) of its own, which would come back raw too; otherwise the
# string is parsed as it reads, which moves the rest of the component into
# the query or fragment (the serialization is the module's either way).
# (hash to serialize, {component => [[escape, character], ...]} or undef).
sub _carry_delimiters {
    my ($h) = @_;
    my %carry = (path => [ '#', '?' ], query => ['#']);
    my ($copy, %restore);
    for my $k (sort keys %carry) {
        my $v = $h->{$k};
        next unless defined $v;
        for my $c (@{ $carry{$k} }) {
            my $esc = sprintf('%%%02X', ord $c);
            next unless index($v, $c) >= 0 && $v !~ /\Q$esc\E/i;
            $v =~ s/\Q$c\E/$esc/g;
            push @{ $restore{$k} }, [ $esc, $c ];
        }
        next unless $restore{$k};
        $copy ||= {%$h};
        $copy->{$k} = $v;
    }
    return $copy ? ($copy, \%restore) : ($h, undef);
}

sub _restore_delimiters {
    my ($h, $restore) = @_;
    for my $k (keys %$restore) {
        next unless defined $h->{$k};
        for my $r (@{ $restore->{$k} }) {
            my ($esc, $c) = @$r;
            $h->{$k} =~ s/\Q$esc\E/$c/gi;
        }
    }
    return;
}

# The authority components of a hand-made hash as they go into the string
# that is parsed again: the delimiters that would end the component there
# are percent-encoded, so that each value stays in its own component. The
# module canonicalized each component by itself, so a "@" in the host gave
# the host "good.com%40evil.com", never the host "evil.com"; the library's
# canonicalization of the escaped string gives the same ("%40" in a user,
# password or host is kept; in a port, as a ":" or "/" in a host, it is
# invalid, as in the module). A ":" stays in a bracketed IPv6 literal.
my %AUTHORITY_ESCAPE = (
    user     => qr{[\@:/\\?\#]},
    password => qr{[\@:/\\?\#]},
    host     => qr{[\@:/\\?\#]},
    port     => qr{[\@:/\\?\#\[\]]},
);

sub _escape_authority {
    my ($name, $v) = @_;
    return $v unless defined $v;
    my $re = $AUTHORITY_ESCAPE{$name};
    if ($name eq 'host' && $v =~ /\A\[[^\[\]\@\/\\?\#]*\]\z/) {
        return $v;    # an IPv6 literal: its colons are its own
    }
    $v =~ s/($re)/sprintf('%%%02X', ord $1)/ge;
    return $v;
}

# Whether the handle parsed from a hand-made hash's string has the hash's
# scheme and authority: a scheme that is not one (it holds a delimiter or
# another character a scheme cannot have) makes the string another URL,
# with another host or none, so the hash gives an invalid URL instead.
sub _parses_back {
    my ($h, $scheme, $url) = @_;
    $scheme = $h->{scheme} unless defined $scheme;
    return 0 unless defined $scheme && defined $url->scheme && $url->scheme eq $scheme;
    for my $k (qw(user password host port)) {
        # Absent and empty are one here: the string cannot always tell them
        # apart (":p@h" has an empty user), and a moved delimiter shows as
        # other text.
        my $want = _escape_authority($k, $h->{$k}) // '';
        my $got  = $url->$k // '';
        return 0 unless $got eq $want;
    }
    return 1;
}

# "Steps to serialize a parsed URL" over the hash's components.
#
# With $slash, a path that does not start with a slash character after an
# authority gets a "/": canonicalization gives a hierarchical path one
# anyway, and without it the path would run into the host. With $escape,
# the authority's components are escaped (_escape_authority).
sub _serialize_components {
    my ($h, $scheme, $slash, $escape) = @_;
    $scheme = $h->{scheme} unless defined $scheme;
    my %a = map { ($_ => $escape ? _escape_authority($_, $h->{$_}) : $h->{$_}) }
      qw(user password host port);
    my $s = defined $scheme ? "$scheme:" : ':';
    if (defined $a{user} || defined $a{password} || defined $a{host} || defined $a{port}) {
        $s .= '//';
        if (defined $a{user} || defined $a{password}) {
            $s .= $a{user} if defined $a{user};
            $s .= ":$a{password}" if defined $a{password};
            $s .= '@';
        }
        $s .= $a{host}      if defined $a{host};
        $s .= ":$a{port}"   if defined $a{port};
    }
    if (defined $h->{path}) {
        $s .= '/'
          if $slash && length $h->{path} && $h->{path} !~ m{\A[/\\]}
          && (defined $h->{user} || defined $h->{password} || defined $h->{host}
            || defined $h->{port});
        $s .= $h->{path};
    }
    $s .= "?$h->{query}"      if defined $h->{query};
    $s .= "#$h->{fragment}"   if defined $h->{fragment};
    return $s;
}

# The hash of a call that failed (an input longer than WURL_MAX_INPUT_LEN,
# which the 2012 module had no limit for): an invalid URL with no
# components, backed by an invalid handle.
sub _failed_hash {
    my ($into) = @_;
    my $h = $into || {};
    delete @{$h}{@OWN_KEYS};
    $h->{invalid} = 1;
    $HANDLE{$h} = [ Wurl::URL->parse(''), 0, _snapshot($h) ];
    return $h;
}

# The raw |authority| of a string that has no scheme ("steps to find the
# authority, path, query and fragment"): the module keeps it in the hash of
# such a string, which is invalid. undef when the string has none.
sub _schemeless_authority {
    my ($s) = @_;
    return '' if $s =~ m{\A[/\\]{3}(?![/\\])};
    return undef unless $s =~ m{\A[/\\]{2}};
    $s =~ s{\A[/\\]+}{};
    return $s =~ m{\A([^/\\?\#]*)(?=[/\\?\#])} ? $1 : $s;
}

# The hash of an invalid result: { invalid => 1 } and nothing else, as the
# module returns when resolution or canonicalization makes a URL invalid.
sub _invalid_hash {
    my ($into) = @_;
    my $h = $into || {};
    %$h = (invalid => 1);
    $HANDLE{$h} = [ Wurl::URL->parse(''), 0, _snapshot($h) ];
    return $h;
}

sub parse_url ($) {
    my ($input) = @_;
    $input = '' unless defined $input;
    my ($st, $url) = Wurl::URL->_parse_status($input);
    return _failed_hash() unless $url;
    my $pre = _preprocess($input);
    my (undef, $hier) = _parse_info($pre);
    my $h = _to_hash($url, $hier);
    if ($h->{invalid}) {
        my $authority = _schemeless_authority($pre);
        $h->{authority} = $authority if defined $authority;
    }
    return $h;
}

# Whether a relative path of a `file:` URL begins with a drive
# specification (percent-encoded letters and suffixes included).
sub _starts_with_drive {
    my ($p) = @_;
    $p =~ s{%2[Ff]}{/}g;
    $p =~ s{%5[Cc]}{\\}g;
    return $p =~ m{\A(?:[A-Za-z]|%[46][1-9A-Fa-f]|%[57][0-9Aa])(?:[:|]|%3[Aa]|%7[Cc])(?=\z|[/\\])};
}

# The module merges a path-relative reference with an empty base path (or
# a `file:` drive letter, which empties it) as "/" and the reference even
# when the base has no authority, where RFC 3986 (and the library) give
# the reference alone: "file:c:/a/../b" against "file:///" is "/c:/b".
# The canonical URL is the same either way (canonicalization adds the
# "/"); this puts it in the resolved hash too.
sub _module_merge_slash {
    my ($h, $spec, $base, $base_hier) = @_;
    return unless $base_hier && defined $h->{path} && $h->{path} !~ m{\A[/\\]};
    my (undef, $ps) = Wurl::URL->_parse_status($spec);
    return unless $ps;
    my $same_scheme = defined $ps->scheme;
    if ($same_scheme) {
        my $bs = $base->scheme;
        return unless defined $bs && lc_ascii($ps->scheme) eq lc_ascii($bs);
    }
    return if defined $ps->host;
    my $r_path = $ps->path;
    $r_path = '' unless defined $r_path;
    return if $r_path =~ m{\A[/\\]};
    return if $r_path eq '' && (defined $ps->query || defined $ps->fragment || $same_scheme);
    my $b_path = $base->path;
    $b_path = '' unless defined $b_path;
    my $bs = $base->scheme;
    $b_path = '' if defined $bs && lc_ascii($bs) eq 'file' && _starts_with_drive($r_path);
    return unless $b_path eq '';
    $h->{path} = "/$h->{path}";
    $HANDLE{$h}[2] = _snapshot($h);
    return;
}

sub resolve_url ($$) {
    my ($spec, $parsed_base) = @_;
    Carp::croak('Wurl::Compat::resolve_url: not a hash reference')
      unless ref $parsed_base && Scalar::Util::reftype($parsed_base) eq 'HASH';
    return _invalid_hash() if !defined $spec || $parsed_base->{invalid};
    my ($base, $base_hier) = _handle_of($parsed_base, 'resolve_url');
    my $s = _preprocess($spec);
    # The module reads the base's flag from the hash. A hash that says "not
    # hierarchical" where its components are: a relative reference is
    # invalid against it, and an absolute one is resolved as against any
    # base of another scheme.
    if (!$parsed_base->{is_hierarchical} && $base_hier) {
        $base_hier = 0;
        if ($s ne '') {
            my ($scheme) = _parse_info($s);
            return _invalid_hash() unless defined $scheme;
            my $other = lc_ascii($scheme) eq 'x-wurl-a' ? 'x-wurl-b:' : 'x-wurl-a:';
            $base = Wurl::URL->parse($other);
        }
    }
    # An empty reference copies the base, its flag included.
    $base_hier = 1 if $s eq '' && $parsed_base->{is_hierarchical};
    my ($st, $url) = $base->_resolve_status($spec);
    return _failed_hash() unless $url;
    return _invalid_hash() if $url->is_invalid;
    # The hierarchical flag of the result, as "steps to resolve a URL" set it.
    my $hier;
    if ($s eq '') {
        $hier = $base_hier;
    } else {
        my ($scheme, $spec_hier) = _parse_info($s);
        my $base_scheme = $base->scheme;
        if (!defined $scheme) {
            $hier = $base_hier;    # relative: invalid against a non-hierarchical base
        } elsif ($base_hier && defined $base_scheme && lc_ascii($scheme) eq lc_ascii($base_scheme)) {
            $hier = 1;
        } else {
            $hier = $spec_hier;
        }
    }
    my $h = _to_hash($url, $hier);
    _module_merge_slash($h, $s, $base, $base_hier) if $s ne '';
    return $h;
}

sub lc_ascii { (my $s = $_[0]) =~ tr/A-Z/a-z/; $s }

# The encoding the module gave to Encode for the query, or undef for
# UTF-8. The rule of the 2012 module (and of Web::Encoding's
# is_ascii_compat_charset_name, which it called): the query of a
# hierarchical URL is in the label given (UTF-8 when none, or a false
# one), that of any other URL in UTF-8; a label that is not one of these
# names is UTF-8. The pattern's alternatives were not grouped, so `^`
# anchors only the first and `$` only the last: "utf-8x" and
# "x-windows-949" match (and go to Encode, which dies on a name it does
# not know, as the module did), "latin1" and "sjis" do not.
my $ASCII_COMPAT_LABEL = qr{^utf-8|iso-8859-[0-9]+|us-ascii|shift_jis|euc-jp|windows-[0-9]+
                             |iso-2022-[0-9a-zA-Z-]+|hz-gb-2312$}xi;

sub _query_encoding {
    my ($charset, $hier) = @_;
    my $label = $hier ? ($charset || 'utf-8') : 'utf-8';
    return undef unless $label =~ $ASCII_COMPAT_LABEL;
    return undef if $label =~ /\Autf-8\z/i;    # the library's own UTF-8
    return $label;
}

# Canonicalizes the hash in place and returns it, as the original does: an
# invalid hash is returned as it is; one that canonicalization makes invalid
# becomes { invalid => 1 }; the canonical port is a number. The query is
# encoded by Encode when the module did so (_query_encoding), and
# percent-encoded by the library.
sub canonicalize_parsed_url ($;$) {
    my ($parsed_url, $charset) = @_;
    Carp::croak('Wurl::Compat::canonicalize_parsed_url: not a hash reference')
      unless ref $parsed_url && Scalar::Util::reftype($parsed_url) eq 'HASH';
    return $parsed_url if $parsed_url->{invalid};
    my ($url, $hier, $restore) = _handle_of($parsed_url, 'canonicalize_parsed_url');
    # The module reads the flag from the hash, which its caller may have
    # made or edited.
    my $want_hier = $parsed_url->{is_hierarchical} ? 1 : 0;
    my $as = $want_hier == $hier ? undef : $want_hier;
    my ($st, $c) = $url->_canonicalize_as_status($as, undef);
    return _failed_hash($parsed_url) unless $c;
    return _invalid_hash($parsed_url) if $c->is_invalid;
    my $encoding = _query_encoding($charset, $want_hier);
    my $query;
    if (defined $encoding && defined($query = $url->query)) {
        # As the module: Encode::encode with its default check, which
        # writes the encoding's substitution character for a character
        # it cannot represent, and dies for an encoding it does not know.
        require Encode;
        ($st, $c) = $url->_canonicalize_as_status($as, Encode::encode($encoding, $query));
        return _failed_hash($parsed_url) unless $c;
    }
    my $h = _to_hash($c, $want_hier, $parsed_url);
    $h->{port} += 0 if defined $h->{port};
    # The hash then differs from its handle's components (its snapshot is
    # the handle's): serialize_parsed_url writes the components as they are.
    _restore_delimiters($h, $restore) if $restore;
    return $h;
}

sub serialize_parsed_url ($) {
    my ($parsed_url) = @_;
    Carp::croak('Wurl::Compat::serialize_parsed_url: not a hash reference')
      unless ref $parsed_url && Scalar::Util::reftype($parsed_url) eq 'HASH';
    return undef if $parsed_url->{invalid};
    my $e = $HANDLE{$parsed_url};
    if ($e && Scalar::Util::blessed($e->[0]) && $e->[2] eq _snapshot($parsed_url)) {
        return $e->[0]->serialize;
    }
    return _serialize_components($parsed_url);
}

sub url_to_canon_parsed_url ($;$$) {
    my ($url, $base_url, $charset) = @_;
    return _invalid_hash() unless defined $url;
    my $base = parse_url(defined $base_url ? $base_url : $url);
    my $r = resolve_url($url, $base);
    return canonicalize_parsed_url($r, $charset);
}

# The one-call path: wurl_canon_into, no hash, no handle for the result.
# undef for an invalid URL and for a call the library refuses (an input or
# base longer than WURL_MAX_INPUT_LEN bytes): never dies on strings.
# (The arguments are read from @_, not copied: a lexical copy of a large
# string would keep its buffer after the call.)
sub url_to_canon_url ($;$$) {
    return undef unless defined $_[0];
    # A label that goes to Encode: through the hash functions.
    return serialize_parsed_url(url_to_canon_parsed_url($_[0], $_[1], $_[2]))
      if defined _query_encoding($_[2], 1);
    my @r = Wurl::_canonicalize_status(
        $_[0],
        (defined $_[1] ? (base => $_[1]) : ()),
    );
    return $r[0] == Wurl::WURL_OK ? $r[1] : undef;
}

1;

__END__

=head1 NAME

Wurl::Compat - a drop-in replacement for Web::URL::Canonicalize, on libwurl

=head1 SYNOPSIS

  use Wurl::Compat;     # exports url_to_canon_url
  print url_to_canon_url('../a/./b', 'http://EXAMPLE.com:80/x/y');
  # http://example.com/a/b

  use Wurl::Compat qw(parse_url resolve_url canonicalize_parsed_url
                      serialize_parsed_url url_to_canon_parsed_url);
  my $p = parse_url('http://Example.com/a?b#c');
  # { scheme => 'http', scheme_normalized => 'http', host => 'Example.com',
  #   path => '/a', query => 'b', fragment => 'c', is_hierarchical => 1 }

=head1 FUNCTIONS

Each has the 2012 module's prototype.

=over

=item url_to_canon_url($url, $base_url, $charset)

The canonical string, or undef for an invalid URL (and for an undef
C<$url>). Without C<$base_url>, C<$url> is its own base. C<$charset> is the
encoding of the query (see L</CHARSETS>). It never dies on string
arguments, except for the label of an encoding Encode does not know (as
the module): an input or base that the library refuses (longer than 16 MiB
of UTF-8, C<WURL_MAX_INPUT_LEN>) gives undef as well.

=item url_to_canon_parsed_url($url, $base_url, $charset)

The same, as a hash reference.

=item parse_url($url), resolve_url($spec, $parsed_base_url)

Hash references. A missing key is an absent component; C<''> is a present
empty one. C<invalid> is 1 for an invalid URL, C<scheme_normalized> is the
lowercased scheme, and C<is_hierarchical> is 1 for a hierarchical URL (spec
section "Hierarchicalness", as parsing and resolution set the flag). The
hash of a string without a scheme (invalid) also has its raw C<authority>
when it has one (C<//foo/bar>), as the module's. C<resolve_url> gives
C<< { invalid => 1 } >> for an undef C<$spec>, an invalid base and a
relative reference against a base that is not hierarchical.

=item canonicalize_parsed_url($parsed_url, $charset)

Canonicalizes the hash B<in place> and returns it. A hash that is invalid
already is returned as it is; one that canonicalization makes invalid (a
bad host or port) becomes C<< { invalid => 1 } >>. The canonical C<port>
is a number.

=item serialize_parsed_url($parsed_url)

The string, or undef for an invalid URL.

=back

The functions that return a hash return C<< { invalid => 1 } >> (no
components) for an input the library refuses (longer than 16 MiB); the
2012 module had no such limit.

=head1 VARIABLES

C<$Wurl::Compat::DefaultPort>, C<$IsHierarchicalScheme> and
C<$IsNonHierarchicalScheme> (also under C<Web::URL::Canonicalize::>) are
the module's hashes of scheme names, with the library's values. The
library does not read them: changing them changes nothing.

=head1 CHARSETS

As the 2012 module: the query of a hierarchical URL is encoded in
C<$charset> (UTF-8 when it is undef or false), the query of any other URL
in UTF-8. A label is given to Perl's L<Encode> when it matches the module's
pattern of ASCII-compatible names (C<utf-8>, C<iso-8859-N>, C<us-ascii>,
C<shift_jis>, C<euc-jp>, C<windows-N>, C<iso-2022-*>, C<hz-gb-2312>; the
pattern is anchored at the start of its first name and at the end of its
last one only, so C<utf-8x> and C<x-windows-949> match too); any other
label (C<latin1>, C<sjis>, C<gbk>, ...) means UTF-8. C<Encode::encode> is
called as the module called it: a character the encoding cannot represent
becomes the encoding's substitution character (C<?> for C<iso-8859-1>),
and an encoding Encode does not know (C<iso-8859-12>, C<iso-2022-cn>,
C<utf-8x>) dies, when the URL is hierarchical, valid up to its query, and
has a query. The library percent-encodes the octets Encode gives
(C<wurl_canonicalize_as>). This is not L<Wurl>'s rule, which reads labels
as the WHATWG Encoding Standard does.

=head1 STRINGS

Strings follow the rule of L<Wurl/STRINGS>: a string is its characters,
whatever its UTF8 flag (a byte string is Latin-1 characters), and a
surrogate or a code point above U+10FFFF is one U+FFFD, as the module read
them. The module's functions take characters only: for bytes read from a
file or socket that must give the keys C, the CLI, Ruby and Python give,
use L<Wurl> with C<< bytes => 1 >> (see L<Wurl/STRINGS>).

=head1 HAND-MADE HASHES

Hashes returned by this module remember the library handle they were made
from (outside the hash, so the hash has only the documented keys). If you
build a hash yourself, or change one of its components, C<invalid>,
C<scheme_normalized> or C<is_hierarchical>, the functions that take a hash
rebuild a handle by serializing its components and parsing that string.
C<canonicalize_parsed_url> then takes the scheme from C<scheme_normalized>
and canonicalizes as C<is_hierarchical> says, and C<resolve_url> treats a
base without C<is_hierarchical> as not hierarchical, as the module did.
A delimiter in a component stays in that component: C<@ : / ? #> in a
user, password, host or port are percent-encoded there, so a host set to
C<good.com@evil.com> canonicalizes to the host C<good.com%40evil.com>, as
in the module (and a C<:> or C</> in a host, or anything but digits in a
port, is invalid, as in the module). A C<#> or C<?> in the path and a C<#>
in the query stay raw in the canonical hash, as in the module, whose
serialization then reads them as delimiters. Where the module's own string
would have another host than the hash (a scheme holding a delimiter,
C<http:x>; a path without C</> right after the host of a hash that is not
hierarchical, C<http://ax>), the result is C<< { invalid => 1 } >>
instead: never another host. C<resolve_url> resolves against a base made
hierarchical by hand whose components are not (C<mailto:>) as its
components say. See the table of differences in wurl's docs/DIFFERENCES.md.

=head1 SEE ALSO

L<Wurl>; C<Web::URL::Canonicalize> in the distribution's F<compat/>
directory, the same functions under the original name.

=head1 LICENSE

MIT. Copyright (c) the wurl authors; see the file LICENSE.

=cut
