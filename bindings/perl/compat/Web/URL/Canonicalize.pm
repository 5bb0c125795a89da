package Web::URL::Canonicalize;

# Code written for the 2012 Web::URL::Canonicalize module runs unchanged on
# libwurl by adding one directory to @INC:
#
#   perl -I/path/to/wurl/bindings/perl/compat your-crawler.pl
#
# This module is Wurl::Compat under the original name. It lives in a
# directory of its own (not lib/) so that installing the Wurl distribution
# does not take over the name unless asked (perl Makefile.PL --with-compat).

use strict;
use warnings;

use Cwd ();
use File::Basename ();
use File::Spec ();

# From a checkout or an unpacked distribution (compat/Web/URL/ here, lib/
# beside compat/), the Wurl modules of the same tree, so that the one -I is
# enough. An installed copy uses the installed Wurl::Compat.
BEGIN {
    my $here = File::Basename::dirname(File::Spec->rel2abs(__FILE__));
    my $compat = File::Spec->catdir($here, File::Spec->updir, File::Spec->updir);
    $compat = Cwd::abs_path($compat) // $compat;
    my $lib = File::Spec->catdir(File::Basename::dirname($compat), 'lib');
    if (!$INC{'Wurl/Compat.pm'}
        && File::Basename::basename($compat) eq 'compat'
        && -f File::Spec->catfile($lib, 'Wurl', 'Compat.pm'))
    {
        unshift @INC, $lib;
    }
}

use Exporter 'import';
use Wurl::Compat ();

# The interface's version, the 2012 module's, so that
# `use Web::URL::Canonicalize 1.0;` loads; wurl's own is $Wurl::VERSION.
our $VERSION = '1.0';

# The module's package variables (wurl's scheme table).
our $DefaultPort             = $Wurl::Compat::DefaultPort;
our $IsHierarchicalScheme    = $Wurl::Compat::IsHierarchicalScheme;
our $IsNonHierarchicalScheme = $Wurl::Compat::IsNonHierarchicalScheme;

our @EXPORT      = @Wurl::Compat::EXPORT;
our @EXPORT_OK   = @Wurl::Compat::EXPORT_OK;
our %EXPORT_TAGS = (all => [@EXPORT_OK]);

{
    no strict 'refs';
    *{$_} = \&{"Wurl::Compat::$_"} for @EXPORT_OK;
}

1;

__END__

=head1 NAME

Web::URL::Canonicalize - the 2012 module's interface, on libwurl (Wurl::Compat)

=head1 SYNOPSIS

  perl -I/path/to/wurl/bindings/perl/compat -MWeb::URL::Canonicalize \
    -e 'print url_to_canon_url(q<../a/./b>, q<http://EXAMPLE.com:80/x/y>), "\n"'
  # http://example.com/a/b

  use Web::URL::Canonicalize qw(parse_url resolve_url canonicalize_parsed_url
                                serialize_parsed_url url_to_canon_parsed_url);

=head1 DESCRIPTION

The functions, prototypes, arguments, exports, package variables
(C<$DefaultPort>, C<$IsHierarchicalScheme>, C<$IsNonHierarchicalScheme>)
and results of Web::URL::Canonicalize (2012), implemented by
L<Wurl::Compat>: C<url_to_canon_url> is exported by default, the others on
request (or C<:all>). C<$VERSION> is the module's, 1.0, so that
C<use Web::URL::Canonicalize 1.0;> loads; wurl's own version is
C<$Wurl::VERSION>. See L<Wurl::Compat> for what each returns, the
charsets (Perl's Encode, as the module), and how hashes map to library
handles; docs/DIFFERENCES.md in wurl's sources lists where it differs from the module.

This file is not installed by C<make install> unless the distribution was
configured with C<perl Makefile.PL --with-compat>. From a checkout or an
unpacked distribution it loads the Wurl modules of the same tree
(C<../lib> beside C<compat/>), so one C<-I> is enough.

=head1 LICENSE

MIT; see the file LICENSE of the distribution.

=cut
