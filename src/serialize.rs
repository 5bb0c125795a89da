//! "Steps to serialize a parsed URL" (spec section "Serialization").

use crate::record::Url;

/// The length [`serialize_into`] will append, for a valid URL.
pub fn serialized_len(u: &Url) -> usize {
    let l = |c: &Option<String>| c.as_ref().map_or(0, |s| s.len() + 1);
    u.scheme.as_ref().map_or(0, String::len)
        + 1
        + 2
        + l(&u.user)
        + l(&u.password)
        + l(&u.host)
        + l(&u.port)
        + l(&u.path)
        + l(&u.query)
        + l(&u.fragment)
}

/// Serializes `u`; `None` when it is invalid (step 2: an invalid URL cannot
/// be serialized).
pub fn serialize(u: &Url) -> Option<String> {
    let mut s = String::with_capacity(serialized_len(u));
    serialize_into(u, &mut s).then_some(s)
}

/// Appends the serialization of `u` to `s`; false (nothing appended) when
/// `u` is invalid.
pub fn serialize_into(u: &Url, s: &mut String) -> bool {
    if u.is_invalid() {
        return false;
    }
    if let Some(scheme) = &u.scheme {
        s.push_str(scheme);
    }
    s.push(':');
    // Step 6: an authority is written when any of its parts is present,
    // even if empty.
    if u.user.is_some() || u.password.is_some() || u.host.is_some() || u.port.is_some() {
        s.push_str("//");
        if u.user.is_some() || u.password.is_some() {
            if let Some(user) = &u.user {
                s.push_str(user);
            }
            if let Some(pw) = &u.password {
                s.push(':');
                s.push_str(pw);
            }
            s.push('@');
        }
        if let Some(h) = &u.host {
            s.push_str(h);
        }
        if let Some(p) = &u.port {
            s.push(':');
            s.push_str(p);
        }
    }
    if let Some(p) = &u.path {
        s.push_str(p);
    }
    if let Some(q) = &u.query {
        s.push('?');
        s.push_str(q);
    }
    if let Some(f) = &u.fragment {
        s.push('#');
        s.push_str(f);
    }
    true
}
