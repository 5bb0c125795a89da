//! The C ABI as the integration tests call it: a handle from a string, the
//! bulk call into a buffer sized by `wurl_output_bound`, and the
//! handle path with its invalid reason.

use wurl::ffi::*;

/// `wurl_parse(s)`, which always gives a handle.
pub fn parse(s: &str) -> *mut wurl_url {
    let mut h = std::ptr::null_mut();
    assert_eq!(wurl_parse(s.as_ptr().cast(), s.len(), 0, &mut h), WURL_OK);
    h
}

/// `wurl_canon_into` against `base` (NULL: the input is its own base):
/// the key, or `None` for an invalid URL. Checks the NUL after the key.
pub fn canon_into(base: *const wurl_url, input: &str, charset: Option<&str>) -> Option<String> {
    let cs = charset.unwrap_or("");
    let mut base_len = 0;
    if !base.is_null() {
        let _ = wurl_serialize(base, std::ptr::null_mut(), &mut base_len);
    }
    // Sized once: a buffer of the bound holds every result.
    let mut buf = vec![0u8; wurl_output_bound(base_len, input.len(), 0)];
    let mut len = 0usize;
    let st = wurl_canon_into(
        base,
        input.as_ptr().cast(),
        input.len(),
        cs.as_ptr().cast(),
        cs.len(),
        0,
        buf.as_mut_ptr().cast(),
        buf.len(),
        &mut len,
    );
    match st {
        WURL_OK => {
            assert_eq!(buf[len], 0, "NUL-terminated");
            Some(String::from_utf8(buf[..len].to_vec()).expect("UTF-8"))
        }
        WURL_INVALID_URL => None,
        other => panic!("{input:?}: status {other}"),
    }
}

/// The handle path: `wurl_parse` of the base (or of the input),
/// `wurl_resolve`, `wurl_canonicalize`, then the serialization or
/// `wurl_invalid_reason`; every handle freed.
pub fn handle_path(
    input: &str,
    base: Option<&str>,
    charset: Option<&str>,
) -> Result<String, String> {
    let b = parse(base.unwrap_or(input));
    let cs = charset.unwrap_or("");
    let (mut r, mut c) = (std::ptr::null_mut(), std::ptr::null_mut());
    assert_eq!(
        wurl_resolve(b, input.as_ptr().cast(), input.len(), 0, &mut r),
        WURL_OK
    );
    assert_eq!(
        wurl_canonicalize(r, cs.as_ptr().cast(), cs.len(), 0, &mut c),
        WURL_OK
    );
    let (mut p, mut n) = (std::ptr::null(), 0usize);
    let out = if wurl_serialize(c, &mut p, &mut n) {
        // SAFETY: a view of `n` octets, alive until `wurl_free(c)`.
        let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) };
        Ok(String::from_utf8(bytes.to_vec()).expect("UTF-8"))
    } else {
        // SAFETY: an invalid handle's reason is a static C string.
        let why = unsafe { std::ffi::CStr::from_ptr(wurl_invalid_reason(c)) };
        Err(why.to_str().expect("ASCII").to_owned())
    };
    wurl_free(c);
    wurl_free(r);
    wurl_free(b);
    out
}
