//! The "parsed URL" record of the spec (section "Parsed URL").
//!
//! Every component may be missing, which is different from the empty string,
//! so each is an `Option<String>`. The record also carries the two flags of
//! the spec, /invalid/ (with the rule that set it) and /hierarchical/, and the
//! raw |authority| component, which resolution needs (a `file:` URL's host is
//! its whole authority).

use std::fmt;

/// A parsed, resolved or canonicalized URL. Immutable once built; the
/// functions of this crate return new records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Url {
    pub(crate) scheme: Option<String>,
    pub(crate) authority: Option<String>,
    pub(crate) user: Option<String>,
    pub(crate) password: Option<String>,
    pub(crate) host: Option<String>,
    pub(crate) port: Option<String>,
    pub(crate) path: Option<String>,
    pub(crate) query: Option<String>,
    pub(crate) fragment: Option<String>,
    pub(crate) invalid: Option<InvalidReason>,
    pub(crate) hierarchical: bool,
    /// CanonicalizeHost of `host` under `scheme`, computed once: a page's
    /// URL is resolved against hundreds of times, and every resolution that
    /// copies its authority (relative steps 3 to 6) would otherwise run
    /// CanonicalizeHost on the same host again. Not part of the URL's
    /// value (ignored by `==`).
    pub(crate) host_cache: HostCache,
}

/// CanonicalizeHost of a record's own `host` under its own `scheme` (see
/// [`Url`]'s `host_cache`), in one of two forms. `lock` is filled at most
/// once, lazily, on a record used as a base (`OnceLock`, so a base shared
/// between threads stays safe and its value never changes). `known` is set
/// by resolution on the record it builds, when it copies the base's host and
/// scheme together with the base's result (a plain field: no atomic
/// initialization per resolved link). Canonicalization takes `known` when it
/// replaces the host, so a result never describes another host.
#[derive(Clone, Debug, Default)]
pub(crate) struct HostCache {
    pub(crate) lock: std::sync::OnceLock<Result<String, InvalidReason>>,
    pub(crate) known: Option<Result<String, InvalidReason>>,
}

impl PartialEq for HostCache {
    fn eq(&self, _: &HostCache) -> bool {
        true
    }
}

impl Eq for HostCache {}

/// The components a caller can read, in the order of the C ABI's
/// `wurl_component` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    Scheme = 0,
    User = 1,
    Password = 2,
    Host = 3,
    Port = 4,
    Path = 5,
    Query = 6,
    Fragment = 7,
}

impl Component {
    /// All components, in `wurl_component` order.
    pub const ALL: [Component; 8] = [
        Component::Scheme,
        Component::User,
        Component::Password,
        Component::Host,
        Component::Port,
        Component::Path,
        Component::Query,
        Component::Fragment,
    ];

    /// The component with the given `wurl_component` value.
    pub fn from_index(i: u32) -> Option<Component> {
        Self::ALL.get(i as usize).copied()
    }

    /// The lowercase name used by the conformance data (`scheme`, `user`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Component::Scheme => "scheme",
            Component::User => "user",
            Component::Password => "password",
            Component::Host => "host",
            Component::Port => "port",
            Component::Path => "path",
            Component::Query => "query",
            Component::Fragment => "fragment",
        }
    }
}

/// Why a URL is invalid: the rule of the spec that failed. "Invalid" is a
/// state of a URL, not an error of a call.
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
    /// `WURL_FLAG_NETWORK_STRICT`: a domain that a WHATWG parser or curl would
    /// read as an IPv4 address.
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

impl Url {
    /// The component `which`: `None` when absent, `Some("")` when present
    /// and empty.
    pub fn get(&self, which: Component) -> Option<&str> {
        match which {
            Component::Scheme => self.scheme.as_deref(),
            Component::User => self.user.as_deref(),
            Component::Password => self.password.as_deref(),
            Component::Host => self.host.as_deref(),
            Component::Port => self.port.as_deref(),
            Component::Path => self.path.as_deref(),
            Component::Query => self.query.as_deref(),
            Component::Fragment => self.fragment.as_deref(),
        }
    }

    pub fn scheme(&self) -> Option<&str> {
        self.scheme.as_deref()
    }
    pub fn user(&self) -> Option<&str> {
        self.user.as_deref()
    }
    pub fn password(&self) -> Option<&str> {
        self.password.as_deref()
    }
    pub fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }
    pub fn port(&self) -> Option<&str> {
        self.port.as_deref()
    }
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }
    pub fn query(&self) -> Option<&str> {
        self.query.as_deref()
    }
    pub fn fragment(&self) -> Option<&str> {
        self.fragment.as_deref()
    }
    /// The raw |authority| component found by parsing (`None` when the URL had
    /// no `//` authority).
    pub fn authority(&self) -> Option<&str> {
        self.authority.as_deref()
    }

    /// Whether the URL is invalid. An invalid URL still exposes the
    /// components the algorithm found, but cannot be serialized.
    pub fn is_invalid(&self) -> bool {
        self.invalid.is_some()
    }

    /// Why the URL is invalid, or `None` for a valid URL.
    pub fn invalid_reason(&self) -> Option<InvalidReason> {
        self.invalid
    }

    /// The spec's /hierarchical/ flag (section "Hierarchicalness").
    pub fn is_hierarchical(&self) -> bool {
        self.hierarchical
    }

    pub(crate) fn set_invalid(&mut self, why: InvalidReason) {
        if self.invalid.is_none() {
            self.invalid = Some(why);
        }
    }

    /// "Steps to serialize a parsed URL": `None` for an invalid URL.
    pub fn serialize(&self) -> Option<String> {
        crate::serialize::serialize(self)
    }
}

/// Schemes that are /not/ hierarchical (section "Hierarchicalness"),
/// compared ASCII case-insensitively.
pub(crate) fn is_non_hierarchical_scheme(scheme: &str) -> bool {
    ["about", "data", "javascript", "mailto", "vbscript"]
        .iter()
        .any(|s| scheme.eq_ignore_ascii_case(s))
}

pub(crate) fn is_slash(c: char) -> bool {
    c == '/' || c == '\\'
}
