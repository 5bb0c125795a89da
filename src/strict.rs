//! `WURL_FLAG_NETWORK_STRICT`: hosts that other parsers read differently.
use crate::record::{InvalidReason, Url};

/// Why `u` (canonicalized) would be read differently by a WHATWG parser or
/// curl, or `None`.
pub fn check(_u: &Url) -> Option<InvalidReason> {
    None
}
