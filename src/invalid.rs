//! Why a URL is invalid: one reason per rule of the spec that can fail, shared by every stage.

use std::fmt;

/// Why a URL is invalid: the rule of the spec that failed (a state of a URL, not a call's error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum InvalidReason {
    /// "Steps to find the scheme": no valid scheme before a `:`.
    NoScheme,
    /// Resolution step 4: the base URL is itself invalid.
    InvalidBase,
    /// "Steps to resolve a relative URL" step 1.
    RelativeToNonHierarchicalBase,
    /// CanonicalizeHost step 5: the host begins with `%5B`.
    HostPercentEncodedBracket,
    /// CanonicalizeHost step 11 / Nameprep step 10: a prohibited character.
    HostProhibitedCharacter,
    /// Nameprep step 11: the bidi check (RFC 3454 section 6) failed.
    HostBidi,
    /// CanonicalizeHost step 20: a label starting `xn--` that holds non-ASCII.
    HostAceWithNonAscii,
    /// CanonicalizeHost step 20: Punycode encoding failed.
    HostPunycode,
    /// CanonicalizeHost step 20: a label longer than 63 characters.
    HostLabelTooLong,
    /// CanonicalizeHost step 20: an empty label in an internationalized host.
    HostEmptyLabel,
    /// CanonicalizeHost step 25: `[...]` that is not an IPv6 address.
    HostInvalidIpv6,
    /// CanonicalizeHost step 26: a `:` in the host of a non-`file:` URL.
    HostColon,
    /// CanonicalizeHost step 28: NUL, `/`, `%` or `\` in the host.
    HostForbiddenCharacter,
    /// Port rules: a port that is not a sequence of digits.
    PortNotNumeric,
    /// Port rules: a port above 65535.
    PortOutOfRange,
    /// `WURL_FLAG_NETWORK_STRICT`: an empty host for a network scheme.
    StrictEmptyHost,
    /// `WURL_FLAG_NETWORK_STRICT`: a domain a WHATWG parser or curl reads as an IPv4 address.
    StrictIpv4Ambiguous,
    /// `WURL_FLAG_NETWORK_STRICT`: UTS-46 processing gives another host.
    StrictUts46Mismatch,
    /// `WURL_FLAG_NETWORK_STRICT`: brackets that are not an IPv6 literal.
    StrictBracketHost,
}

impl InvalidReason {
    /// A static, specific English description, for logs.
    pub fn as_str(self) -> &'static str {
        let t = self.text_nul();
        &t[..t.len() - 1]
    }

    /// The same description as a NUL-terminated C string.
    pub fn as_cstr(self) -> &'static std::ffi::CStr {
        std::ffi::CStr::from_bytes_with_nul(self.text_nul().as_bytes()).unwrap_or(c"invalid URL")
    }

    fn text_nul(self) -> &'static str {
        match self {
            InvalidReason::NoScheme => "no scheme (relative reference without a base)\0",
            InvalidReason::InvalidBase => "base URL is invalid\0",
            InvalidReason::RelativeToNonHierarchicalBase => {
                "relative reference against a non-hierarchical base\0"
            }
            InvalidReason::HostPercentEncodedBracket => "host begins with percent-encoded '['\0",
            InvalidReason::HostProhibitedCharacter => "prohibited character in host\0",
            InvalidReason::HostBidi => "host label fails the bidi rule\0",
            InvalidReason::HostAceWithNonAscii => "host label begins with xn-- but is not ASCII\0",
            InvalidReason::HostPunycode => "host label cannot be Punycode-encoded\0",
            InvalidReason::HostLabelTooLong => "host label longer than 63 characters\0",
            InvalidReason::HostEmptyLabel => "empty label in internationalized host\0",
            InvalidReason::HostInvalidIpv6 => "invalid IPv6 address in host\0",
            InvalidReason::HostColon => "colon in host\0",
            InvalidReason::HostForbiddenCharacter => {
                "forbidden character in host (NUL, '/', '%' or '\\')\0"
            }
            InvalidReason::PortNotNumeric => "port is not a number\0",
            InvalidReason::PortOutOfRange => "port out of range\0",
            InvalidReason::StrictEmptyHost => "network-strict: empty host\0",
            InvalidReason::StrictIpv4Ambiguous => {
                "network-strict: domain that other parsers read as an IPv4 address\0"
            }
            InvalidReason::StrictUts46Mismatch => {
                "network-strict: host differs under UTS-46 processing\0"
            }
            InvalidReason::StrictBracketHost => "network-strict: brackets in a non-IPv6 host\0",
        }
    }
}

impl fmt::Display for InvalidReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
