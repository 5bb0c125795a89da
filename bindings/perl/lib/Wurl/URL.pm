package Wurl::URL;

# Wurl::URL is defined in Wurl.pm; this file lets `use Wurl::URL` work.

use strict;
use warnings;

use Wurl;

1;
