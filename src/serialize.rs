//! "Steps to serialize a parsed URL" (spec section "Serialization").
//!
//! Every record keeps its serialization in its buffer (see [`Url`]),
//! written once when the record is built (by `serialize_parts`); the public
//! functions here read it.

use crate::record::{Parts, Span, Url};

/// The length [`serialize_parts`] will append, for a valid record: exact,
/// so that a record's buffer is allocated once at its final size.
pub(crate) fn serialized_len(u: &Parts) -> usize {
    let len = |c: Option<&str>| c.map_or(0, str::len);
    let sep = |c: Option<&str>| c.map_or(0, |s| s.len() + 1);
    let mut n = len(u.scheme) + 1 + len(u.path) + sep(u.query) + sep(u.fragment);
    if u.user.is_some() || u.password.is_some() || u.host.is_some() || u.port.is_some() {
        n += 2 + len(u.host) + sep(u.port);
        if u.user.is_some() || u.password.is_some() {
            n += len(u.user) + sep(u.password) + 1;
        }
    }
    n
}

/// Appends the serialization of the valid record `u` to `s`, and where each
/// component went (in `wurl_component` order) to `at`.
pub(crate) fn serialize_parts(u: &Parts, s: &mut String, at: &mut [Span; 8]) {
    let mut put = |s: &mut String, i: usize, v: &str| {
        let start = s.len();
        s.push_str(v);
        at[i] = Span::new(start, s.len());
    };
    if let Some(scheme) = u.scheme {
        put(s, 0, scheme);
    }
    s.push(':');
    // Step 6: an authority is written when any of its parts is present,
    // even if empty.
    if u.user.is_some() || u.password.is_some() || u.host.is_some() || u.port.is_some() {
        s.push_str("//");
        if u.user.is_some() || u.password.is_some() {
            if let Some(user) = u.user {
                put(s, 1, user);
            }
            if let Some(pw) = u.password {
                s.push(':');
                put(s, 2, pw);
            }
            s.push('@');
        }
        if let Some(h) = u.host {
            put(s, 3, h);
        }
        if let Some(p) = u.port {
            s.push(':');
            put(s, 4, p);
        }
    }
    if let Some(p) = u.path {
        put(s, 5, p);
    }
    if let Some(q) = u.query {
        s.push('?');
        put(s, 6, q);
    }
    if let Some(f) = u.fragment {
        s.push('#');
        put(s, 7, f);
    }
}

/// Serializes `u`; `None` when it is invalid (step 2: an invalid URL cannot
/// be serialized).
pub fn serialize(u: &Url) -> Option<String> {
    u.serialize()
}

/// Appends the serialization of `u` to `s`; false (nothing appended) when
/// `u` is invalid.
pub fn serialize_into(u: &Url, s: &mut String) -> bool {
    match u.as_str() {
        Some(v) => {
            s.push_str(v);
            true
        }
        None => false,
    }
}
