//! "Steps to canonicalize a URL" (spec section "Canonicalization").

use crate::charset::{encode_query_into, query_encoding};
use crate::host::canonicalize_host;
use crate::percent::{
    self, FRAGMENT, OPAQUE_PATH, PATH, QUERY, USERINFO, decode_unreserved, encode_utf8, escape_at,
};
use crate::record::{InvalidReason, Url, is_non_hierarchical_scheme, is_slash};
use crate::resolve::drive_spec_len;

/// Options of canonicalization.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanonOptions<'a> {
    /// Encoding label for the query (the document's encoding); `None` = UTF-8.
    pub charset: Option<&'a str>,
    /// `WURL_FLAG_NETWORK_STRICT`.
    pub network_strict: bool,
}

/// Canonicalizes `url` with the query encoding `charset` (`None` = UTF-8).
pub fn canonicalize(url: &Url, charset: Option<&str>) -> Url {
    canonicalize_with(
        url,
        &CanonOptions {
            charset,
            network_strict: false,
        },
    )
}

/// The default port of a scheme (section "Port numbers").
pub fn default_port(scheme: &str) -> Option<u32> {
    Some(match scheme {
        "ftp" => 21,
        "gopher" => 70,
        "http" | "ws" => 80,
        "https" | "wss" => 443,
        "telnet" | "tn3270" => 23,
        "rlogin" => 513,
        _ => return None,
    })
}

fn replace(slot: &mut Option<String>, f: impl FnOnce(&str) -> Option<String>) {
    if let Some(v) = slot.as_deref()
        && let Some(n) = f(v)
    {
        *slot = Some(n);
    }
}

/// Whether a `file:` host is a "drive specification". The conformance data
/// reads a lone letter (`file://c/foo`) or `%41` as a host name, so the drive
/// suffix is required here.
fn is_drive_spec(s: &str) -> bool {
    drive_spec_len(s) == Some(s.len())
}

/// The `file:` host and path steps from HOSTPATH up to CanonicalizeHost.
fn file_host_path(u: &mut Url) {
    if u.host.as_deref().is_some_and(is_drive_spec) {
        let host = u.host.take().unwrap_or_default();
        let orig = u.path.take();
        let mut p = String::with_capacity(host.len() + 2 + orig.as_ref().map_or(0, String::len));
        p.push('/');
        p.push_str(&host);
        if orig.as_deref().is_none_or(|o| !o.starts_with(is_slash)) {
            p.push('/');
        }
        if let Some(o) = &orig {
            p.push_str(o);
        }
        u.path = Some(p);
        u.host = Some(String::new());
        return;
    }
    if u.host.as_deref().is_none_or(|h| h == "localhost") {
        u.host = Some(String::new());
    }
    let Some(path) = u.path.as_deref() else {
        return;
    };
    let mut path = path.to_owned();
    let slashes = path
        .bytes()
        .take_while(|&c| c == b'/' || c == b'\\')
        .count();
    if u.host.as_deref() == Some("") && slashes >= 3 {
        let rest = &path[slashes..];
        let h = rest.find(['/', '\\']).unwrap_or(rest.len());
        u.host = Some(rest[..h].to_owned());
        path = rest[h..].to_owned();
    }
    // An optional slash, a drive specification, then a slash or the end.
    let off = usize::from(path.starts_with(is_slash));
    if let Some(n) = drive_spec_len(&path[off..]) {
        let after = off + n;
        if after == path.len() || path[after..].starts_with(is_slash) {
            let b = path.as_bytes();
            let letter = if b[off] == b'%' {
                escape_at(b, off).unwrap_or(b'?')
            } else {
                b[off]
            } as char;
            let end = (after + 1).min(path.len());
            let mut p = String::with_capacity(path.len() + 2);
            p.push('/');
            p.push(letter);
            p.push_str(":/");
            p.push_str(&path[end..]);
            path = p;
            if u.host.as_deref() == Some("%3F") {
                u.host = Some(String::new());
            }
        }
    }
    u.path = Some(path);
}

/// Canonicalizes `url` with `opts`; the input is untouched.
pub fn canonicalize_with(url: &Url, opts: &CanonOptions) -> Url {
    canonicalize_owned(url.clone(), opts)
}

/// [`canonicalize_with`] on a record the caller gives away (the staged bulk
/// path), which saves copying every component.
pub(crate) fn canonicalize_owned(mut u: Url, opts: &CanonOptions) -> Url {
    if u.is_invalid() {
        return u;
    }
    if let Err(why) = canonicalize_in_place(&mut u, opts) {
        u.set_invalid(why);
    }
    u
}

fn canonicalize_in_place(u: &mut Url, opts: &CanonOptions) -> Result<(), InvalidReason> {
    // Scheme.
    if let Some(s) = u.scheme.as_mut() {
        s.make_ascii_lowercase();
    }
    // User and password.
    if u.user.is_some() || u.password.is_some() {
        if u.password.as_deref() == Some("") {
            u.password = None;
        }
        if u.user.as_deref() == Some("") && u.password.is_none() {
            u.user = None;
        }
        replace(&mut u.user, |s| encode_utf8(s, &USERINFO));
        replace(&mut u.password, |s| encode_utf8(s, &USERINFO));
    }
    let scheme = u.scheme.clone().unwrap_or_default();
    hostpath(u, &scheme)?;
    // The "/." prefix (NOTES.md: for schemes not in the non-hierarchical
    // list, when there is no user, password, port or non-empty host).
    if !is_non_hierarchical_scheme(&scheme)
        && u.path.as_deref().is_some_and(|p| p.starts_with("//"))
        && u.user.is_none()
        && u.password.is_none()
        && u.port.is_none()
        && u.host.as_deref().is_none_or(str::is_empty)
    {
        let p = u.path.take().unwrap_or_default();
        u.path = Some(format!("/.{p}"));
    }
    // Query.
    if let Some(q) = u.query.as_deref() {
        let enc = if u.hierarchical {
            query_encoding(opts.charset)
        } else {
            encoding_rs::UTF_8
        };
        let mut out = String::with_capacity(q.len() + 8);
        encode_query_into(q, enc, &QUERY, &mut out);
        u.query = Some(out);
    }
    // Fragment: C1 controls as UTF-8 escapes, then C0 and DEL.
    replace(&mut u.fragment, |f| {
        let has_c1 = f.chars().any(|c| ('\u{80}'..='\u{9F}').contains(&c));
        if !has_c1 {
            return encode_utf8(f, &FRAGMENT);
        }
        let mut out = String::with_capacity(f.len() + 8);
        for c in f.chars() {
            if ('\u{80}'..='\u{9F}').contains(&c) {
                percent::push_char_escaped(&mut out, c);
            } else if (c as u32) < 0x20 || c == '\u{7F}' {
                percent::push_escape(&mut out, c as u8);
            } else {
                out.push(c);
            }
        }
        Some(out)
    });
    if opts.network_strict
        && let Some(why) = crate::strict::check(u)
    {
        return Err(why);
    }
    Ok(())
}

/// The steps from HOSTPATH to the path rules, repeated for `file:` URLs
/// until host and path stop changing. Each round only normalizes, and the
/// canonical form is reached in a few rounds (the unit test below checks
/// inputs built to need several, and that one more round changes nothing);
/// the bound makes termination certain whatever the input. Returns the
/// rounds run.
pub(crate) fn hostpath(u: &mut Url, scheme: &str) -> Result<u32, InvalidReason> {
    let is_file = scheme == "file";
    let mut rounds = 0;
    loop {
        rounds += 1;
        // Only `file:` URLs loop, so only they keep the originals to
        // compare with (other schemes pay no copy of host and path).
        let original = is_file.then(|| (u.host.clone(), u.path.clone()));
        if is_file {
            file_host_path(u);
        }
        if let Some(h) = u.host.as_deref() {
            // A host copied from a base whose canonical host is known (never
            // a `file:` host: see `resolve::copy_authority`).
            // Taking the whole cache also empties a base's `lock`: once the
            // host is replaced, no cached result may describe the old one.
            let cached = std::mem::take(&mut u.host_cache).known;
            u.host = Some(match cached {
                Some(c) if rounds == 1 => c?,
                _ => canonicalize_host(h, scheme)?,
            });
        }
        canonicalize_port(u, scheme)?;
        canonicalize_path(u, scheme);
        let changed = original.is_some_and(|(h, p)| u.host != h || u.path != p);
        if !changed || rounds >= MAX_HOSTPATH_ROUNDS {
            return Ok(rounds);
        }
    }
}

/// The bound on HOSTPATH rounds for `file:` URLs.
pub(crate) const MAX_HOSTPATH_ROUNDS: u32 = 8;

fn canonicalize_port(u: &mut Url, scheme: &str) -> Result<(), InvalidReason> {
    let Some(port) = u.port.as_deref() else {
        return Ok(());
    };
    if port.is_empty() {
        u.port = None;
        return Ok(());
    }
    if !port.bytes().all(|c| c.is_ascii_digit()) {
        return Err(InvalidReason::PortNotNumeric);
    }
    // Saturate: a port of a million digits is simply out of range.
    let p = port.bytes().fold(0u32, |v, c| {
        v.saturating_mul(10).saturating_add(u32::from(c - b'0'))
    });
    if default_port(scheme) == Some(p) {
        u.port = None;
    } else if p <= 65535 {
        u.port = Some(p.to_string());
    } else {
        return Err(InvalidReason::PortOutOfRange);
    }
    Ok(())
}

/// Whether "remove dot-segments" (as amended by the spec) would change a
/// path: it has a `\` (read as `/`) or a `.` / `..` segment, `%2E` counting
/// as `.`. A byte scan, so that the common path costs no allocation.
fn needs_dot_removal(p: &[u8]) -> bool {
    if p.contains(&b'\\') {
        return true;
    }
    p.split(|&c| c == b'/')
        .any(|seg| crate::resolve::is_dot(seg) || crate::resolve::is_dot_dot(seg))
}

/// Whether a path has `%2F` or `%5C` (any case), which `file:` resolution
/// decodes into separators.
fn has_slash_escape(p: &[u8]) -> bool {
    (0..p.len()).any(|i| matches!(escape_at(p, i), Some(b'/' | b'\\')))
}

/// The bound on the rounds of [`hierarchical_path`]. Each round after the
/// first only runs when the escape decoding of the previous one made a new
/// `%2F`/`%5C` (in `file:`) or a new dot segment; neither step can make a
/// new escape of an unreserved character (removing segments never joins
/// two segments' bytes, and a decoded separator is not a hex digit), so the
/// third round never changes anything. The bound makes that certain.
const MAX_PATH_ROUNDS: usize = 4;

/// The path of a hierarchical URL in its canonical form: the fixed point of
/// what resolving the serialization again would do to it (spec "steps to
/// resolve a relative URL" step 2 to 6: in `file:` URLs `%2F` and `%5C`
/// decoded into separators, then "remove dot-segments") followed by the
/// canonicalization steps (escapes of unreserved characters decoded, the
/// path percent-encode set).
///
/// Why the resolution steps run here again: a path can reach
/// canonicalization without them, or with them applied to part of it only.
/// An empty, `?…` or `#…` reference copies the base's path as it is (spec
/// resolution step 6, relative steps 4 and 5), and "merge paths" decodes
/// `%2F`/`%5C` in the reference's half only (relative step 6.5.1), so the
/// 2012 module gives `file:///a%2fb/a/b/c` for `file:a%2fb/c` against itself
/// and `http://a/b/../c` for `""` against `http://a/b/../c`. Escape decoding
/// can also make them (`%2%65` is `%2e` after one decoding, `%5%63` is
/// `%5c`). Canonicalizing the serialization again would then remove or
/// decode them: the output would not be a fixed point. Running the steps
/// here gives what the 2012 module itself gives once run again on its own
/// output (its fixed point), for every path, whatever its history; on a
/// path that resolution has already normalized they change nothing. The
/// README's table "Where wurl differs from the 2012 module" lists this.
///
/// Returns `None` when the path is already canonical.
fn hierarchical_path(p: &str, file: bool) -> Option<String> {
    let mut cur: Option<String> = None;
    for _ in 0..MAX_PATH_ROUNDS {
        let s = cur.as_deref().unwrap_or(p);
        let mut next: Option<String> = None;
        if file && has_slash_escape(s.as_bytes()) {
            next = Some(crate::resolve::decode_file_slashes(s.to_owned()));
        }
        let n = next.as_deref().unwrap_or(s);
        if needs_dot_removal(n.as_bytes()) {
            next = Some(crate::resolve::remove_dot_segments(n));
        }
        let n = next.as_deref().unwrap_or(s);
        match decode_unreserved(n) {
            Some(d) => cur = Some(d),
            None => {
                if next.is_some() {
                    cur = next;
                }
                break;
            }
        }
    }
    let s = cur.as_deref().unwrap_or(p);
    encode_utf8(s, &PATH).or(cur)
}

fn canonicalize_path(u: &mut Url, scheme: &str) {
    if u.hierarchical {
        match u.path.as_deref() {
            None | Some("") => u.path = Some("/".to_owned()),
            Some(p) if !p.starts_with('/') => u.path = Some(format!("/{p}")),
            _ => {}
        }
        let file = scheme == "file";
        replace(&mut u.path, |p| hierarchical_path(p, file));
    } else if scheme == "mailto" {
        // Not hierarchical, so resolution never touches its path again:
        // only the escape decoding (to a fixed point) and encoding.
        replace(&mut u.path, |p| {
            let decoded = decode_unreserved(p);
            encode_utf8(decoded.as_deref().unwrap_or(p), &PATH).or(decoded)
        });
    } else {
        replace(&mut u.path, |p| encode_utf8(p, &OPAQUE_PATH));
    }
}

thread_local! {
    /// The output buffer of the bulk path, reused so that it allocates
    /// nothing per call in steady state.
    static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Buffers larger than this are not kept between calls.
const SCRATCH_KEEP: usize = 64 * 1024;

/// Whether the single-pass fast path of [`crate::bulk`] may be tried.
fn fast_path_applies(base: Option<&Url>, opts: &CanonOptions) -> bool {
    !opts.network_strict && base.is_none_or(|b| !b.is_invalid())
}

/// The stages one by one: parse the base (or the input), resolve,
/// canonicalize, serialize.
fn canon_staged(
    base: Option<&Url>,
    input: &str,
    opts: &CanonOptions,
    out: &mut String,
) -> Result<(), InvalidReason> {
    let own;
    let base = match base {
        Some(b) => b,
        None => {
            own = crate::parse::parse(input);
            // The input is its own base: report why it is invalid rather
            // than "base URL is invalid".
            if let Some(why) = own.invalid_reason() {
                return Err(why);
            }
            &own
        }
    };
    let r = canonicalize_owned(crate::resolve::resolve(base, input), opts);
    if let Some(why) = r.invalid_reason() {
        return Err(why);
    }
    crate::serialize::serialize_into(&r, out);
    Ok(())
}

/// Runs `f` with the thread's scratch buffer (or a fresh one when it is in
/// use), cleared.
fn with_scratch<R>(f: impl FnOnce(&mut String) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut s) => {
            s.clear();
            let r = f(&mut s);
            if s.capacity() > SCRATCH_KEEP {
                *s = String::new();
            }
            r
        }
        Err(_) => f(&mut String::new()),
    })
}

/// The bulk path of the Rust API: resolves `input` against `base` (or, when
/// `base` is `None`, against `input` itself, like `url_to_canon_url`),
/// canonicalizes it and appends the serialization to `out`. Returns the
/// reason when the result is invalid (then nothing is appended). Common
/// ASCII URLs take a single-pass path that allocates nothing beyond `out`.
pub fn canon_into(
    base: Option<&Url>,
    input: &str,
    opts: &CanonOptions,
    out: &mut String,
) -> Result<(), InvalidReason> {
    let start = out.len();
    let mut sink = crate::bulk::StrSink {
        out: &mut *out,
        src: input,
    };
    if canon_with_sink(base, input.as_bytes(), false, opts, &mut sink).is_some() {
        return Ok(());
    }
    out.truncate(start);
    canon_staged(base, input, opts, out)
}

/// The fast path of [`crate::bulk`] into any sink over `input`. With
/// `ascii_only` it runs on raw bytes before any UTF-8 validation: it gives
/// up on any non-ASCII byte, so what it accepts is ASCII (valid UTF-8) and
/// its result is the stages' result. Without, `input` must be the bytes of
/// a `str`. `None` when it does not apply or gives up (the sink then holds
/// nothing meaningful and the caller must use [`with_canon_buffer`]). The
/// C ABI uses it with a stack buffer.
pub fn canon_with_sink<O: crate::bulk::Sink>(
    base: Option<&Url>,
    input: &[u8],
    ascii_only: bool,
    opts: &CanonOptions,
    sink: &mut O,
) -> Option<()> {
    if !fast_path_applies(base, opts) {
        return None;
    }
    let utf8_query = query_encoding(opts.charset) == encoding_rs::UTF_8;
    crate::bulk::try_canon(input, ascii_only, utf8_query, sink)
}

/// Runs the bulk path and hands the serialization (or `None` for an invalid
/// URL) to `f`, for the C ABI's `wurl_canon_into`.
pub fn with_canon_buffer<R>(
    base: Option<&Url>,
    input: &str,
    opts: &CanonOptions,
    f: impl FnOnce(Option<&[u8]>) -> R,
) -> R {
    with_scratch(|s| match canon_into(base, input, opts, s) {
        Ok(()) => f(Some(s.as_bytes())),
        Err(_) => f(None),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The HOSTPATH loop ends by reaching its fixed point, not its bound,
    /// on file: URLs built to need several rounds.
    #[test]
    fn hostpath_reaches_a_fixed_point() {
        let inputs = [
            "file://c:/foo",
            "file:///c|/foo",
            "file://localhost///c:/x",
            "file://LOCALHOST/c:",
            "file:////////host/c:/a",
            "file://%3F/%43%3A/a",
            "file://c%3A/d:/e|/f",
            "\\\\server\\share\\x",
            "file:///C%7C/a/../b",
        ];
        for input in inputs {
            let base = crate::parse(input);
            let mut u = crate::resolve(&base, input);
            if u.is_invalid() {
                continue;
            }
            u.scheme = u.scheme.map(|s| s.to_ascii_lowercase());
            let scheme = u.scheme.clone().unwrap_or_default();
            let rounds = hostpath(&mut u, &scheme).unwrap_or(0);
            assert!(rounds < MAX_HOSTPATH_ROUNDS, "{input}: {rounds} rounds");
            // And the result is canonical: one more round changes nothing.
            let before = u.clone();
            assert_eq!(hostpath(&mut u, &scheme).ok(), Some(1), "{input}");
            assert_eq!(u, before, "{input}");
        }
    }
}
