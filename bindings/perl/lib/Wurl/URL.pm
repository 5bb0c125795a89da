package Wurl::URL;

# Wurl::URL is defined in Wurl.pm; this file lets `use Wurl::URL` work.

use strict;
use warnings;

use Wurl;

1;

__END__

=head1 NAME

Wurl::URL - a parsed, resolved or canonicalized URL (see L<Wurl>)

=head1 SYNOPSIS

  use Wurl::URL;
  my $url = Wurl::URL->parse('http://EXAMPLE.com/a')->canonicalize;
  print $url->serialize, "\n";    # http://example.com/a

=head1 DESCRIPTION

The class is defined in F<Wurl.pm>, whose documentation describes its
methods, the string rule, and how objects behave under Storable, threads and
fork. This file lets C<use Wurl::URL> work.

=head1 LICENSE

MIT. Copyright (c) the wurl authors; see the file LICENSE.

=cut
