//! CanonicalizeHost.
use crate::record::Url;

/// What a host is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostKind { None, Empty, Domain, Ipv4, Ipv6 }

pub fn host_kind(u: &Url) -> HostKind {
    match u.host() { None => HostKind::None, Some("") => HostKind::Empty, Some(h) if h.starts_with('[') => HostKind::Ipv6, Some(_) => HostKind::Domain }
}
