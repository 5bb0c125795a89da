//! The C ABI: checks arguments, converts between C views and Rust values, catches panics and calls
//! the entry layer (`api`); no URL logic. Its conventions are the header comment's (cbindgen.toml).

#![allow(non_camel_case_types)]
// The exported functions check each raw pointer from C; they cannot be `unsafe fn` in C.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

use std::borrow::Cow;
use std::ffi::c_char;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::api;
use crate::canonicalize::{self, ResolvedOptions};
use crate::charset::Charset;
use crate::host::{self, HostKind};
use std::mem::ManuallyDrop;
use std::sync::Arc;
use std::sync::atomic::{Ordering, fence};

use crate::record::{Component, InvalidReason, Record, Url};

/// A parsed, resolved or canonicalized URL. Opaque; immutable once returned. Free every handle a
/// constructor returns once, with `wurl_free`, even when it shares memory with another (a stage
/// that changes nothing returns its input's data); views live until their own handle is freed.
// `Arc::into_raw` of a `Record`, whose one buffer holds the serialization and every component,
// each followed by a NUL, for the views (at most two allocations; none when a stage returns its
// input's record, see `Url`). No value of this type exists: it names the pointer for C.
pub struct wurl_url {
    _opaque: [u8; 0],
}

/// The result of a call: `WURL_OK` or a reason the call itself failed.
pub type wurl_status = i32;
/// Which component `wurl_get` reads: one of the `WURL_COMPONENT_*` values.
pub type wurl_component = u32;

/// The call succeeded (the URL it made may still be invalid).
pub const WURL_OK: wurl_status = 0;
/// A required pointer argument was NULL (a handle, `out`, `out_len`, or
/// `buf` with `buf_cap > 0`), or an input was `(NULL, n > 0)`.
pub const WURL_E_NULL_ARG: wurl_status = 1;
/// An argument was out of range: a `flags` or `key_flags` bit the function does not take (see
/// each function), or `WURL_FLAG_NETWORK_STRICT` together with `WURL_FLAG_URL_STANDARD`.
pub const WURL_E_BAD_ARG: wurl_status = 2;
/// The input is longer than `WURL_MAX_INPUT_LEN` bytes.
pub const WURL_E_TOO_LONG: wurl_status = 3;
/// wurl panicked internally: a bug. Nothing was written to the outputs.
pub const WURL_E_PANIC: wurl_status = 4;
/// `wurl_canon_into`: the buffer is too small; `*out_len` holds the size
/// needed (without the NUL) and nothing else was written.
pub const WURL_E_BUFFER_TOO_SMALL: wurl_status = 5;
/// `wurl_canon_into` and the other bulk calls: the URL is invalid. Not an error of the call: the
/// input was read and found invalid; nothing was written to `buf`.
pub const WURL_INVALID_URL: wurl_status = 6;

/// `wurl_get`: the scheme, without its `:` (as written until canonicalization lowercases it).
/// Absent for a reference without one (`foo`, `//a/b`).
pub const WURL_COMPONENT_SCHEME: wurl_component = 0;
/// `wurl_get`: the user name, before `:` or `@` in the authority. Absent
/// when there is no `@`; empty for `http://@a/` and `http://:p@a/`.
pub const WURL_COMPONENT_USER: wurl_component = 1;
/// `wurl_get`: the password, after the first `:` of the user information.
/// Absent without that `:` (`http://u@a/`); empty for `http://u:@a/`.
pub const WURL_COMPONENT_PASSWORD: wurl_component = 2;
/// `wurl_get`: the host, an IPv6 address with its brackets. Absent when the
/// URL has no authority (`mailto:x`); empty for `http:///x` and `file:///x`.
pub const WURL_COMPONENT_HOST: wurl_component = 3;
/// `wurl_get`: the port, without its `:`. Absent without a `:` after the host; empty for
/// `http://a:/`. Canonicalization removes a scheme's default port (then absent).
pub const WURL_COMPONENT_PORT: wurl_component = 4;
/// `wurl_get`: the path, with its leading `/` when it has one; empty for
/// `http://a` before canonicalization (which writes `/`) and for `http://a?q`.
pub const WURL_COMPONENT_PATH: wurl_component = 5;
/// `wurl_get`: the query, without its `?`. Absent without a `?`; empty for `http://a/?`.
pub const WURL_COMPONENT_QUERY: wurl_component = 6;
/// `wurl_get`: the fragment, without its `#`. Absent without a `#`; empty for `http://a/#`.
pub const WURL_COMPONENT_FRAGMENT: wurl_component = 7;

/// `wurl_canonicalize` / `wurl_canon_into` flag (network-strict mode): mark the result invalid
/// when another parser (a WHATWG URL parser, curl) would read another host from it. Applies only
/// to a URL whose canonical scheme is `http`, `https`, `ws`, `wss` or `ftp`, and only to one that
/// is valid without the flag; the first rule that holds gives the `wurl_invalid_reason` shown:
///
/// 1. The host is empty or absent (`http:///evil.com/x`, `http:/x`):
///    "network-strict: empty host".
/// 2. The host holds `[` or `]` but is not an IPv6 literal (`http://[]/`, `http://a［b］/`):
///    "network-strict: brackets in a non-IPv6 host".
/// 3. The host is a domain whose last label, after one trailing dot is dropped, is a number to
///    the WHATWG "ends in a number" check (ASCII digits, `0x` and hex digits, or `0` and octal
///    digits: `10.0.0.1.`, `4294967296`, `256.0.0.0`, `example.123`), or whose WHATWG reading is
///    another IPv4 address: "network-strict: domain that other parsers read as an IPv4 address".
/// 4. The host as written, processed by UTS #46 non-transitional processing as WHATWG parsers
///    do, succeeds but differs from the IDNA 2003 result (`faß.de`: `fass.de` here,
///    `xn--fa-hia.de` there; `σς.gr`): "network-strict: host differs under UTS-46 processing".
///    When UTS #46 fails, the other parser refuses the URL, so it is not rejected.
///
/// Never rejected: IPv4 and IPv6 addresses as canonicalization writes them, and every URL of
/// another scheme.
pub const WURL_FLAG_NETWORK_STRICT: u32 = 1;

/// `wurl_canon_into` / `wurl_canon_key_into` flag (URL Standard model): resolve, canonicalize
/// and serialize as the WHATWG URL Standard does ("basic URL parser", then "URL serializer"; the
/// `url` crate) instead of the 2012 algorithm: `faß.de` gives `xn--fa-hia.de`, `\` is `/` in
/// special URLs, and so on. The base is the `base` handle's serialization (for a `wurl_parse`
/// result, the preprocessed input) parsed by the same model: if that fails, or the URL does not
/// parse, the result is `WURL_INVALID_URL` (`wurl_canon_standard_into` takes the base as a
/// string). `charset`: the standard's "encoding" of a special URL's query (unknown labels: UTF-8).
/// Rules and key flags apply as to a 2012 result. Allocates per call. `WURL_E_BAD_ARG` together
/// with `WURL_FLAG_NETWORK_STRICT` (which tests the 2012 result) and in `wurl_canonicalize`.
pub const WURL_FLAG_URL_STANDARD: u32 = 2;

/// `wurl_canonicalize` / `wurl_canon_into` / `wurl_canon_key_into` flag (strict charset): a
/// `charset` label that names no encoding gives `WURL_E_UNKNOWN_CHARSET` (nothing written)
/// instead of meaning UTF-8, so that a misspelt label (`"shiftjis"`) is refused rather than
/// silently ignored; `wurl_charset_message` writes the message to show. With this flag a NULL
/// `charset` (length 0) is no label (UTF-8), while a non-NULL one of length 0 is the empty label,
/// which names no encoding. A known label whose encoding is not ASCII-compatible (UTF-16,
/// replacement) still means UTF-8, as without the flag. Without this flag an unknown label means
/// UTF-8 (the 2012 module's rule).
pub const WURL_FLAG_CHARSET_STRICT: u32 = 4;

/// `wurl_host_kind`: the URL has no host component.
pub const WURL_HOST_NONE: u32 = 0;
/// `wurl_host_kind`: the host is present and empty (`http:///x`, `file:///x`).
pub const WURL_HOST_EMPTY: u32 = 1;
/// `wurl_host_kind`: a domain name (or any host that is not an address).
pub const WURL_HOST_DOMAIN: u32 = 2;
/// `wurl_host_kind`: a dotted-decimal IPv4 address, as canonicalization writes it.
pub const WURL_HOST_IPV4: u32 = 3;
/// `wurl_host_kind`: a bracketed IPv6 address.
pub const WURL_HOST_IPV6: u32 = 4;

/// Inputs (URLs, charset labels) longer than this many bytes give `WURL_E_TOO_LONG`, unread.
pub const WURL_MAX_INPUT_LEN: usize = 16 * 1024 * 1024;

/// `wurl_output_bound`'s octets per octet of input (base and input together): above every
/// expansion of the steps (invalid UTF-8 is 9, IDNA at most 12; see `wurl_output_bound`).
pub const WURL_OUTPUT_BOUND_FACTOR: usize = 12;
/// `wurl_output_bound`'s octets whatever the input, the NUL included.
pub const WURL_OUTPUT_BOUND_EXTRA: usize = 64;
const _: () = assert!(
    WURL_OUTPUT_BOUND_FACTOR == crate::bound::FACTOR
        && WURL_OUTPUT_BOUND_EXTRA == crate::bound::EXTRA
);

/// The longest message `wurl_rules_compile` writes, in bytes (without its NUL), whatever the
/// specification: a `msg` of `WURL_RULES_MESSAGE_MAX + 1` bytes always holds it whole.
pub const WURL_RULES_MESSAGE_MAX: usize = 400;
const _: () = assert!(WURL_RULES_MESSAGE_MAX == crate::rules::MESSAGE_MAX);

/// Major version of the header (the `MAJOR` of `WURL_VERSION`). Programs
/// can test it with the preprocessor; the SONAME is `libwurl.so.<major>`.
pub const WURL_VERSION_MAJOR: u32 = 0;
/// Minor version of the header (the `MINOR` of `WURL_VERSION`).
pub const WURL_VERSION_MINOR: u32 = 1;
/// Patch version of the header (the `PATCH` of `WURL_VERSION`).
pub const WURL_VERSION_PATCH: u32 = 0;

/// A decimal version number at compile time (for the assertion below only).
#[allow(dead_code)]
const fn version_number(s: &str) -> u32 {
    let b = s.as_bytes();
    let mut i = 0;
    let mut v = 0u32;
    while i < b.len() {
        assert!(b[i].is_ascii_digit(), "version number");
        v = v * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    v
}

// cbindgen needs literals; these keep them equal to Cargo.toml's version.
const _: () = assert!(
    WURL_VERSION_MAJOR == version_number(env!("CARGO_PKG_VERSION_MAJOR"))
        && WURL_VERSION_MINOR == version_number(env!("CARGO_PKG_VERSION_MINOR"))
        && WURL_VERSION_PATCH == version_number(env!("CARGO_PKG_VERSION_PATCH")),
    "WURL_VERSION_MAJOR/_MINOR/_PATCH in src/ffi.rs must equal the version in Cargo.toml"
);

/// The flags of `wurl_canonicalize`.
const CANON_FLAGS: u32 = WURL_FLAG_NETWORK_STRICT | WURL_FLAG_CHARSET_STRICT;
/// The flags of the bulk calls (`wurl_canon_into`, `wurl_canon_key_into`).
const BULK_FLAGS: u32 =
    WURL_FLAG_NETWORK_STRICT | WURL_FLAG_URL_STANDARD | WURL_FLAG_CHARSET_STRICT;
/// Network-strict mode tests a 2012 result: it cannot go with the URL Standard model.
const EXCLUSIVE_FLAGS: u32 = WURL_FLAG_NETWORK_STRICT | WURL_FLAG_URL_STANDARD;

/// Reads a `(ptr, len)` input as text (see [`decode_utf8`]); `Err` carries the status to return.
fn input_str<'a>(ptr: *const c_char, len: usize) -> Result<Cow<'a, str>, wurl_status> {
    input_bytes(ptr, len).map(decode_utf8)
}

/// UTF-8 decoding as the header documents it (U+FFFD for each maximal invalid subpart): valid
/// input is borrowed after one validation pass (ARCHITECTURE.md, speed mechanisms, row 12).
#[inline]
fn decode_utf8(bytes: &[u8]) -> Cow<'_, str> {
    match ascii_str(bytes) {
        Some(s) => Cow::Borrowed(s),
        None => decode_non_ascii(bytes),
    }
}

/// `bytes` as text when every octet is ASCII (`scan::is_ascii`, row 14).
#[inline]
fn ascii_str(bytes: &[u8]) -> Option<&str> {
    if crate::scan::is_ascii(bytes) {
        // SAFETY: every octet is below 0x80, so `bytes` is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        None
    }
}

/// [`decode_utf8`] of input that is not all ASCII: `utf8`'s automaton, then the lossy decoder.
#[inline(never)]
fn decode_non_ascii(bytes: &[u8]) -> Cow<'_, str> {
    if crate::utf8::is_valid(bytes) {
        // SAFETY: `utf8::is_valid` accepts exactly well-formed UTF-8 (its tests compare it with
        // `str::from_utf8` exhaustively up to three octets, and on four-octet sequences).
        return Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    String::from_utf8_lossy(bytes)
}

/// A `(ptr, len)` input for the entry layer, decoded only when the stages need text.
#[derive(Clone, Copy)]
struct CInput<'a>(&'a [u8]);

impl<'a> api::Input<'a> for CInput<'a> {
    #[inline]
    fn bytes(self) -> &'a [u8] {
        self.0
    }
    #[inline(always)]
    fn ascii(self) -> Option<&'a str> {
        ascii_str(self.0)
    }
    #[inline]
    fn non_ascii(self) -> Cow<'a, str> {
        decode_non_ascii(self.0)
    }
    #[inline(always)]
    fn text(self) -> Cow<'a, str> {
        decode_utf8(self.0)
    }
    #[inline]
    fn tail(self, from: usize) -> Self {
        CInput(&self.0[from..])
    }
}

/// The bytes of a `(ptr, len)` input, not yet decoded; `Err` carries the status to return.
fn input_bytes<'a>(ptr: *const c_char, len: usize) -> Result<&'a [u8], wurl_status> {
    slice_arg(ptr.cast::<u8>(), len, WURL_MAX_INPUT_LEN)
}

/// The bytes of a `(ptr, len)` argument of at most `max` (at most `isize::MAX`) bytes:
/// `WURL_E_NULL_ARG` for `(NULL, n > 0)`, then `WURL_E_TOO_LONG` above `max`.
#[inline(always)]
fn slice_arg<'a>(ptr: *const u8, len: usize, max: usize) -> Result<&'a [u8], wurl_status> {
    // The common argument first, in one test: 1 to `max` bytes at a non-NULL pointer.
    if len.wrapping_sub(1) < max && !ptr.is_null() {
        // SAFETY: `ptr` is non-NULL and the caller promises `len` readable bytes there for the
        // call (the documented contract); `len` <= `max` <= isize::MAX, as a slice needs.
        return Ok(unsafe { std::slice::from_raw_parts(ptr, len) });
    }
    if len == 0 {
        // `(NULL, 0)` and `(p, 0)` are the empty string: no slice from a NULL pointer.
        return Ok(&[]);
    }
    Err(if ptr.is_null() {
        WURL_E_NULL_ARG
    } else {
        WURL_E_TOO_LONG
    })
}

/// A charset argument, read and resolved once, at the call's entry.
#[derive(Clone, Copy)]
struct Label<'a> {
    /// Its octets; `None`: no label (length 0), which means UTF-8.
    octets: Option<&'a [u8]>,
    /// The encoding they name; `None` for no label or one that names none (UTF-8, or refused by
    /// [`check_charset`]). The label is read as octets: one of invalid UTF-8 names none, as it
    /// would once decoded (no label holds U+FFFD).
    charset: Option<Charset>,
}

impl<'a> Label<'a> {
    /// The label as text, as the URL Standard model reads it (it resolves the label itself).
    fn text(self) -> Option<Cow<'a, str>> {
        self.octets.map(decode_utf8)
    }
}

/// Reads an optional charset label and resolves it.
#[inline]
fn charset_label<'a>(ptr: *const c_char, len: usize) -> Result<Label<'a>, wurl_status> {
    if len == 0 {
        return Ok(Label {
            octets: None,
            charset: None,
        });
    }
    let octets = input_bytes(ptr, len)?;
    Ok(Label {
        octets: Some(octets),
        charset: crate::charset::lookup_memo(octets),
    })
}

/// Whether a call with `flags` (none but `WURL_FLAG_CHARSET_STRICT`) and this charset argument
/// is the default call without resolving a label: no label, or `utf-8` in any case (what nearly
/// every page declares). Every other label is resolved on the general road, whose UTF-8 ones
/// take the same roads (`api::canon`).
#[inline(always)]
fn default_charset(ptr: *const c_char, len: usize, flags: u32) -> bool {
    match len {
        0 => flags & WURL_FLAG_CHARSET_STRICT == 0 || ptr.is_null(),
        5 if !ptr.is_null() => {
            // SAFETY: `ptr` is non-NULL and the caller promises `len` (5) readable bytes there.
            let octets = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), 5) };
            crate::charset::is_utf8_label(octets)
        }
        _ => false,
    }
}

/// `WURL_FLAG_CHARSET_STRICT`'s test, after the label was read: `WURL_E_UNKNOWN_CHARSET` when
/// the flag is set and the label, the empty one of a non-NULL `ptr` included, names no encoding.
#[inline]
fn check_charset(ptr: *const c_char, label: Label<'_>, flags: u32) -> Result<(), wurl_status> {
    if flags & WURL_FLAG_CHARSET_STRICT == 0 {
        return Ok(());
    }
    match label {
        Label { octets: None, .. } if ptr.is_null() => Ok(()),
        Label {
            charset: Some(_), ..
        } => Ok(()),
        _ => Err(WURL_E_UNKNOWN_CHARSET),
    }
}

/// Writes `m` and a NUL into `msg` when `msg_cap > 0`, cut to fit at a character boundary.
fn write_message(m: &str, msg: *mut c_char, msg_cap: usize) {
    if msg_cap == 0 {
        return;
    }
    let mut n = m.len().min(msg_cap - 1);
    while !m.is_char_boundary(n) {
        n -= 1;
    }
    // SAFETY: the caller checked `msg` non-NULL for `msg_cap > 0`, with `msg_cap` writable
    // bytes; we write `n + 1 <= msg_cap` from wurl's own memory, which cannot overlap `msg`.
    unsafe {
        std::ptr::copy_nonoverlapping(m.as_ptr(), msg.cast::<u8>(), n);
        msg.add(n).write(0);
    }
}

/// Writes a view of span `i` of `h`, or `(NULL, 0)`; returns presence.
fn write_view(h: Option<&Url>, i: usize, out_ptr: *mut *const c_char, out_len: *mut usize) -> bool {
    let span = h
        .and_then(|h| {
            if i == 8 {
                h.serialization_nul()
            } else {
                h.get_nul(i)
            }
        })
        .map(|v| (v.as_ptr(), v.len() - 1));
    let (p, l) = span.unwrap_or((std::ptr::null(), 0));
    if !out_ptr.is_null() {
        // SAFETY: non-NULL, and the caller passes writable storage for one `const char *`.
        unsafe { out_ptr.write(p.cast::<c_char>()) };
    }
    if !out_len.is_null() {
        // SAFETY: non-NULL, and the caller passes a pointer to a `size_t`.
        unsafe { out_len.write(l) };
    }
    span.is_some()
}

/// Borrows a handle from C as a [`Url`], or `None` for NULL; `ManuallyDrop` keeps the count.
fn handle(url: *const wurl_url) -> Option<ManuallyDrop<Url>> {
    if url.is_null() {
        return None;
    }
    // SAFETY: a non-NULL `url` is `Arc::into_raw` of an `Arc<Record>` (see `emit`), not yet freed
    // (the documented contract). `from_raw` takes one count, which `ManuallyDrop` never gives
    // back, so the caller's handle stays valid; records are never mutated, so sharing is sound.
    let arc = unsafe { Arc::from_raw(url.cast::<Record>()) };
    Some(ManuallyDrop::new(Url::from_arc(arc)))
}

/// The panic boundary: runs `f` and gives `on_panic` if it panics, so no unwind crosses into C
/// (undefined behaviour there). Every export's body runs inside [`ffi_boundary!`], which calls it.
fn guard<T>(on_panic: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(on_panic)
}

// The argument checks, one line per argument, in the order each export documents. Each macro
// `return`s its status from the enclosing closure, which is the body `ffi_boundary!` wraps: use
// them only at the top level of that body, never inside a nested closure.

/// Wraps an export's body in the panic boundary: `ffi_boundary!(on_panic, { body })` evaluates
/// `body` and gives `on_panic` (the export's documented `WURL_E_PANIC`, false, NULL or 0) if it
/// panics. Inside `body`, the `try_*!` macros return their status early.
macro_rules! ffi_boundary {
    ($on_panic:expr, $body:block) => {
        guard($on_panic, move || $body)
    };
}

/// A handle argument borrowed as a [`Url`] (see [`handle`]), or return `WURL_E_NULL_ARG`.
macro_rules! try_handle {
    ($url:expr) => {
        match handle($url) {
            Some(h) => h,
            None => return WURL_E_NULL_ARG,
        }
    };
}

/// An out-pointer argument checked non-NULL (then given back), or return `WURL_E_NULL_ARG`.
macro_rules! try_out {
    ($out:expr) => {{
        let out = $out;
        if out.is_null() {
            return WURL_E_NULL_ARG;
        }
        out
    }};
}

/// A `(buf, cap)` output buffer: `buf` may be NULL only when `cap` is 0, or return
/// `WURL_E_NULL_ARG`.
macro_rules! try_buf {
    ($buf:expr, $cap:expr) => {
        if $buf.is_null() && $cap > 0 {
            return WURL_E_NULL_ARG;
        }
    };
}

/// The bytes of a `(ptr, len)` input (see [`input_bytes`]): `(NULL, 0)` is empty, or return
/// `WURL_E_NULL_ARG` for `(NULL, n > 0)` and `WURL_E_TOO_LONG` above `WURL_MAX_INPUT_LEN`.
macro_rules! try_bytes {
    ($ptr:expr, $len:expr) => {
        try_ok!(input_bytes($ptr, $len))
    };
}

/// `flags` holding only bits of `allowed`, or return `WURL_E_BAD_ARG`.
macro_rules! try_flags {
    ($flags:expr, $allowed:expr) => {
        if $flags & !$allowed != 0 {
            return WURL_E_BAD_ARG;
        }
    };
}

/// The value of a `Result<T, wurl_status>`, or return its status (`?` for a body that returns a
/// bare status).
macro_rules! try_ok {
    ($r:expr) => {
        match $r {
            Ok(v) => v,
            Err(e) => return e,
        }
    };
}

/// Stores a new handle in `*out`.
fn emit(out: *mut *mut wurl_url, url: Url) -> wurl_status {
    let h = Arc::into_raw(url.into_arc()).cast_mut().cast::<wurl_url>();
    // SAFETY: the caller of `emit` checked `out` non-NULL; it points to storage for one pointer.
    unsafe { out.write(h) };
    WURL_OK
}

/// Parses `input` ("steps to parse a URL"), without resolution or canonicalization. `flags` must
/// be 0. On `WURL_OK`, `*out` is a new handle the caller frees with `wurl_free`; otherwise `*out`
/// is untouched. `input` is read only during the call. Input without a scheme (`foo`) gives
/// `WURL_OK` and an invalid URL.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_parse(
    input: *const c_char,
    input_len: usize,
    flags: u32,
    out: *mut *mut wurl_url,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        let out = try_out!(out);
        let bytes = try_bytes!(input, input_len);
        try_flags!(flags, 0);
        emit(out, api::parse_input(CInput(bytes)))
    })
}

/// Resolves `input` against `base` ("steps to resolve a URL"), without canonicalization. `flags`
/// must be 0. On `WURL_OK`, `*out` is a new handle the caller frees with `wurl_free`; otherwise
/// `*out` is untouched. `base` is only read, and may be freed before or after the result (they
/// may share memory, reference counted). An invalid base gives an invalid result.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_resolve(
    base: *const wurl_url,
    input: *const c_char,
    input_len: usize,
    flags: u32,
    out: *mut *mut wurl_url,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        let base = try_handle!(base);
        let out = try_out!(out);
        let bytes = try_bytes!(input, input_len);
        try_flags!(flags, 0);
        emit(out, api::resolve_input(&base, CInput(bytes)))
    })
}

/// Canonicalizes `url` ("steps to canonicalize a URL") into a new handle; `url` is untouched and
/// may be freed before or after the result. `charset` is the query's encoding label (the
/// document's); `(NULL, 0)`, an unknown label, UTF-16 and replacement mean UTF-8
/// (`wurl_charset_known` tells an unknown label). `flags` is 0, `WURL_FLAG_NETWORK_STRICT`
/// and/or `WURL_FLAG_CHARSET_STRICT` (then an unknown label gives `WURL_E_UNKNOWN_CHARSET`). On
/// `WURL_OK`, `*out` is a new handle the caller frees with `wurl_free`; otherwise `*out` is
/// untouched. An invalid result is `WURL_OK` with `wurl_is_invalid` true and `url`'s components.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_canonicalize(
    url: *const wurl_url,
    charset: *const c_char,
    charset_len: usize,
    flags: u32,
    out: *mut *mut wurl_url,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        let url = try_handle!(url);
        let out = try_out!(out);
        let label = try_ok!(charset_label(charset, charset_len));
        try_flags!(flags, CANON_FLAGS);
        try_ok!(check_charset(charset, label, flags));
        let opts = canon_options(label, flags);
        emit(out, api::canonicalize_resolved(&url, &opts))
    })
}

/// `wurl_canonicalize` with no charset, with two of its inputs given by the caller (for the 2012
/// module's Perl drop-in, which read them from a hash its caller may have edited):
///
/// - `hierarchical`: negative for the handle's own /hierarchical/ flag, 0 to canonicalize as not
///   hierarchical, positive as hierarchical (the result has that flag);
/// - `query`/`query_len`: NULL for the query in UTF-8; otherwise the query's characters already
///   encoded in the document's encoding, percent-encoded as the query's octets are (`query_len`
///   0: none). Read only when the URL is hierarchical and has a query.
///
/// `flags` and `*out` as for `wurl_canonicalize`.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_canonicalize_as(
    url: *const wurl_url,
    hierarchical: i32,
    query: *const c_char,
    query_len: usize,
    flags: u32,
    out: *mut *mut wurl_url,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        let url = try_handle!(url);
        let out = try_out!(out);
        let octets = match query.is_null() {
            true => None,
            false => Some(try_bytes!(query, query_len)),
        };
        try_flags!(flags, CANON_FLAGS);
        let hierarchical = (hierarchical >= 0).then_some(hierarchical > 0);
        let opts = canonicalize::CanonOptions {
            charset: None,
            network_strict: flags & WURL_FLAG_NETWORK_STRICT != 0,
        };
        emit(
            out,
            canonicalize::canonicalize_as(&url, hierarchical, octets, &opts),
        )
    })
}

/// Writes a bulk result and its NUL into `buf` when they fit, its length into `*out_len` always.
fn deliver(bytes: &[u8], buf: *mut c_char, buf_cap: usize, out_len: *mut usize) -> wurl_status {
    deliver_raw(&[], bytes.as_ptr(), bytes.len(), buf, buf_cap, out_len)
}

/// [`deliver`] of `prefix` (wurl's memory) then the `len` bytes at `src`, perhaps the caller's
/// input: a raw pointer and [`copy_overlapping`], so an input overlapping `buf` (canonicalizing in
/// place) is copied exactly; `src` goes first, so writing the prefix cannot overwrite unread input.
#[inline(always)]
fn deliver_raw(
    prefix: &[u8],
    src: *const u8,
    len: usize,
    buf: *mut c_char,
    buf_cap: usize,
    out_len: *mut usize,
) -> wurl_status {
    // No overflow: both are lengths of objects in memory.
    let total = prefix.len() + len;
    // SAFETY: the caller checked `out_len` non-NULL; it points to a `size_t`.
    unsafe { out_len.write(total) };
    if total >= buf_cap {
        return WURL_E_BUFFER_TOO_SMALL;
    }
    // SAFETY: `src` has `len` readable bytes; `buf` is non-NULL (buf_cap > total) with `buf_cap`
    // writable bytes, of which we write `total + 1`. `copy_overlapping` allows `src` to overlap
    // `buf`; `prefix` (a record's buffer) cannot overlap the caller's `buf`, and is written after
    // `src`.
    unsafe {
        let dst = buf.cast::<u8>();
        copy_overlapping(src, dst.add(prefix.len()), len);
        if !prefix.is_empty() {
            std::ptr::copy_nonoverlapping(prefix.as_ptr(), dst, prefix.len());
        }
        dst.add(total).write(0);
    }
    WURL_OK
}

/// `std::ptr::copy(src, dst, len)`: the regions may overlap. Up to 64 bytes (nearly every URL)
/// by at most four 16-byte loads, all of them before the first store, each store writing the bytes
/// its load read back at the same offset: the result is a `memmove`'s for any overlap, without
/// the cost of a call into libc for a few dozen bytes. Longer copies call `ptr::copy`.
///
/// # Safety
///
/// As `ptr::copy`: `src` readable and `dst` writable for `len` bytes.
#[inline(always)]
unsafe fn copy_overlapping(src: *const u8, dst: *mut u8, len: usize) {
    use std::ptr::{read_unaligned as load, write_unaligned as store};
    // A vector type, so that a block stays in a register between its load and its store (an
    // array of bytes is spilled to the stack and copied twice).
    #[cfg(target_arch = "x86_64")]
    type V = std::arch::x86_64::__m128i;
    #[cfg(not(target_arch = "x86_64"))]
    type V = u128;
    // SAFETY: every load reads `size_of` bytes at an offset `o` with `o + size_of <= len` (the
    // branch's bounds on `len`), and its store writes at the same offset of `dst`; the caller
    // gives `len` readable bytes at `src` and writable ones at `dst`.
    unsafe {
        if len > 32 {
            if len > 64 {
                std::ptr::copy(src, dst, len);
                return;
            }
            let (a, b) = (load(src.cast::<V>()), load(src.add(16).cast::<V>()));
            let (c, d) = (
                load(src.add(len - 32).cast::<V>()),
                load(src.add(len - 16).cast::<V>()),
            );
            store(dst.cast::<V>(), a);
            store(dst.add(16).cast::<V>(), b);
            store(dst.add(len - 32).cast::<V>(), c);
            store(dst.add(len - 16).cast::<V>(), d);
        } else if len >= 16 {
            let (a, b) = (load(src.cast::<V>()), load(src.add(len - 16).cast::<V>()));
            store(dst.cast::<V>(), a);
            store(dst.add(len - 16).cast::<V>(), b);
        } else if len >= 8 {
            let (a, b) = (
                load(src.cast::<u64>()),
                load(src.add(len - 8).cast::<u64>()),
            );
            store(dst.cast::<u64>(), a);
            store(dst.add(len - 8).cast::<u64>(), b);
        } else if len >= 4 {
            let (a, b) = (
                load(src.cast::<u32>()),
                load(src.add(len - 4).cast::<u32>()),
            );
            store(dst.cast::<u32>(), a);
            store(dst.add(len - 4).cast::<u32>(), b);
        } else if len > 0 {
            // 1 to 3 bytes: the first, the middle one and the last (some the same).
            let (a, b, c) = (*src, *src.add(len / 2), *src.add(len - 1));
            *dst = a;
            *dst.add(len / 2) = b;
            *dst.add(len - 1) = c;
        }
    }
}

/// The bulk call's input and charset label, checked in this order, then `flags`; `Err`: status.
#[inline]
fn canon_args<'a>(
    input: *const c_char,
    input_len: usize,
    charset: *const c_char,
    charset_len: usize,
    flags: u32,
) -> Result<(&'a [u8], Label<'a>), wurl_status> {
    let bytes = input_bytes(input, input_len)?;
    let label = charset_label(charset, charset_len)?;
    if flags & !BULK_FLAGS != 0 || flags & EXCLUSIVE_FLAGS == EXCLUSIVE_FLAGS {
        return Err(WURL_E_BAD_ARG);
    }
    check_charset(charset, label, flags)?;
    Ok((bytes, label))
}

/// The canonicalization options of a resolved charset label and checked `flags`.
#[inline]
fn canon_options(label: Label<'_>, flags: u32) -> ResolvedOptions {
    ResolvedOptions::new(label.charset, flags & WURL_FLAG_NETWORK_STRICT != 0)
}

/// The bulk call's sink: the caller's `buf` and `*out_len` (see [`deliver_raw`]).
struct Deliver {
    buf: *mut c_char,
    buf_cap: usize,
    out_len: *mut usize,
}

impl api::Sink<CInput<'_>> for Deliver {
    type Out = wurl_status;
    #[inline(always)]
    fn pieces(self, prefix: &str, rest: CInput<'_>) -> wurl_status {
        let r = rest.0;
        deliver_raw(
            prefix.as_bytes(),
            r.as_ptr(),
            r.len(),
            self.buf,
            self.buf_cap,
            self.out_len,
        )
    }
    #[inline(always)]
    fn stages(
        self,
        sc: &mut crate::scratch::Scratch,
        run: impl FnOnce(&mut String, &mut crate::scratch::Scratch) -> Result<(), InvalidReason>,
    ) -> wurl_status {
        api::through_buffer(sc, run, |res| match res {
            Ok(bytes) => deliver(bytes, self.buf, self.buf_cap, self.out_len),
            Err(_) => WURL_INVALID_URL,
        })
    }
}

/// The bulk path: resolves `input` against `base` (or, when `base` is NULL, against itself),
/// canonicalizes with `charset` and `flags`, and writes the serialization and a NUL into `buf`,
/// its length (without the NUL) into `*out_len`. `flags` is 0, `WURL_FLAG_NETWORK_STRICT` or
/// `WURL_FLAG_URL_STANDARD` (see that flag), either with `WURL_FLAG_CHARSET_STRICT` or not (an
/// unknown label then gives `WURL_E_UNKNOWN_CHARSET`). Returns `WURL_OK`; `WURL_INVALID_URL` for an invalid
/// URL (nothing written to `buf` or `*out_len`); `WURL_E_BUFFER_TOO_SMALL` when `buf_cap` cannot
/// hold the result and its NUL (only `*out_len`, the length needed without the NUL, is written).
/// `buf` may be NULL when `buf_cap` is 0. Makes no handle: nothing to free. Allocates nothing
/// per call in steady state for URLs of up to 64 KiB (valid UTF-8). The result is exactly
/// `wurl_resolve` + `wurl_canonicalize` + `wurl_serialize`.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_canon_into(
    base: *const wurl_url,
    input: *const c_char,
    input_len: usize,
    charset: *const c_char,
    charset_len: usize,
    flags: u32,
    buf: *mut c_char,
    buf_cap: usize,
    out_len: *mut usize,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        // Default options (no label, or `utf-8`) and arguments that need no status: straight to
        // their roads (ARCHITECTURE.md, speed mechanisms, row 15). Only a filter: any other call,
        // one with an argument to refuse included, takes `canon_general`, which checks every
        // argument in the documented order. A NULL `buf` goes there too (its `buf_cap` decides).
        if !out_len.is_null()
            && !buf.is_null()
            && flags & !WURL_FLAG_CHARSET_STRICT == 0
            && default_charset(charset, charset_len, flags)
            && let Ok(bytes) = input_bytes(input, input_len)
        {
            let sink = Deliver {
                buf,
                buf_cap,
                out_len,
            };
            if !base.is_null() {
                return canon_based(base, bytes, sink);
            }
            return api::canon_own(CInput(bytes), sink);
        }
        canon_general(
            base,
            input,
            input_len,
            charset,
            charset_len,
            flags,
            buf,
            buf_cap,
            out_len,
        )
    })
}

/// [`wurl_canon_into`] with default options against the handle `base` (non-NULL): the merge or
/// the stages. A call of its own, so that the call without a base keeps a small frame.
#[inline(never)]
fn canon_based(base: *const wurl_url, bytes: &[u8], sink: Deliver) -> wurl_status {
    let base = handle(base);
    api::canon_other(
        base.as_deref(),
        CInput(bytes),
        &ResolvedOptions::DEFAULT,
        sink,
    )
}

/// [`wurl_canon_into`] with another charset label, flags, or an argument that is refused, each
/// checked here in the documented order. The label is resolved once, here; [`api::canon`] gives
/// the fast exits to a UTF-8 query encoding and to ASCII input under another ASCII-compatible one.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn canon_general(
    base: *const wurl_url,
    input: *const c_char,
    input_len: usize,
    charset: *const c_char,
    charset_len: usize,
    flags: u32,
    buf: *mut c_char,
    buf_cap: usize,
    out_len: *mut usize,
) -> wurl_status {
    let out_len = try_out!(out_len);
    try_buf!(buf, buf_cap);
    let sink = Deliver {
        buf,
        buf_cap,
        out_len,
    };
    let (bytes, label) = try_ok!(canon_args(input, input_len, charset, charset_len, flags));
    let base = handle(base);
    if flags & WURL_FLAG_URL_STANDARD != 0 {
        return crate::scratch::with_side(crate::scratch::Side::FfiOut, |out| {
            let res = match standard_base(base.as_deref()) {
                Ok(b) => api::canon_standard(b, CInput(bytes), label.text().as_deref(), out),
                Err(why) => Err(why),
            };
            match res {
                Ok(()) => deliver(out.as_bytes(), sink.buf, sink.buf_cap, sink.out_len),
                Err(_) => WURL_INVALID_URL,
            }
        });
    }
    let opts = canon_options(label, flags);
    api::canon(base.as_deref(), CInput(bytes), &opts, sink)
}

/// The URL Standard model's base: the handle's serialization, or why there is none.
fn standard_base(base: Option<&Url>) -> Result<Option<&str>, crate::standard::Invalid> {
    match base {
        None => Ok(None),
        Some(b) => b
            .as_str()
            .map(Some)
            .ok_or(crate::standard::Invalid::INVALID_BASE),
    }
}

/// Serializes `url` ("steps to serialize a parsed URL"): true and a view for a valid URL; false
/// and `(NULL, 0)` for an invalid URL (which cannot be serialized) or a NULL handle. The view
/// belongs to the handle, lives until `wurl_free(url)` and is followed by a NUL not counted in
/// `*out_len`. Either out pointer may be NULL when its value is not wanted.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_serialize(
    url: *const wurl_url,
    out_ptr: *mut *const c_char,
    out_len: *mut usize,
) -> bool {
    ffi_boundary!(false, {
        write_view(handle(url).as_deref(), 8, out_ptr, out_len)
    })
}

/// Reads one component (`which`: a `WURL_COMPONENT_*` value): true and a view for a present
/// component (length 0 when empty); false and `(NULL, 0)` for an absent one, a NULL handle or an
/// unknown `which`. The view belongs to the handle, lives until `wurl_free(url)` and is followed by
/// a NUL not counted in `*out_len`. Either out pointer may be NULL. The first call on a handle may
/// allocate its NUL-terminated component copies, once; any number of threads may call it at once.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_get(
    url: *const wurl_url,
    which: wurl_component,
    out_ptr: *mut *const c_char,
    out_len: *mut usize,
) -> bool {
    ffi_boundary!(false, {
        let h = if Component::from_index(which).is_some() {
            handle(url)
        } else {
            None
        };
        write_view(h.as_deref(), which as usize, out_ptr, out_len)
    })
}

/// Whether `url` is invalid. False for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_is_invalid(url: *const wurl_url) -> bool {
    ffi_boundary!(false, { handle(url).is_some_and(|h| h.is_invalid()) })
}

/// Why `url` is invalid: NULL for a valid URL (or a NULL handle), otherwise a static
/// NUL-terminated English string naming the rule that failed ("port out of range", ...). Never
/// freed.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_invalid_reason(url: *const wurl_url) -> *const c_char {
    ffi_boundary!(std::ptr::null(), {
        match handle(url).and_then(|h| h.invalid_reason()) {
            Some(r) => r.as_cstr().as_ptr(),
            None => std::ptr::null(),
        }
    })
}

/// What the host of `url` is: a `WURL_HOST_*` value (NONE for a NULL handle). Meant for
/// canonicalized URLs, whose IPv4 hosts are dotted-decimal; parsed, `0x7f.1` is a domain.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_host_kind(url: *const wurl_url) -> u32 {
    ffi_boundary!(WURL_HOST_NONE, {
        match handle(url).map(|h| host::host_kind(&h)) {
            None | Some(HostKind::None) => WURL_HOST_NONE,
            Some(HostKind::Empty) => WURL_HOST_EMPTY,
            Some(HostKind::Domain) => WURL_HOST_DOMAIN,
            Some(HostKind::Ipv4) => WURL_HOST_IPV4,
            Some(HostKind::Ipv6) => WURL_HOST_IPV6,
        }
    })
}

/// Frees a handle that a constructor returned; `wurl_free(NULL)` does nothing. Free each handle
/// exactly once, even when it shares memory with another; afterwards it and its views are invalid.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_free(url: *mut wurl_url) {
    ffi_boundary!((), {
        if url.is_null() {
            return;
        }
        let ptr = url.cast::<Record>();
        // SAFETY: a non-NULL `url` is `emit`'s `Arc::into_raw`, freed once (the documented
        // contract).
        let arc = unsafe { Arc::from_raw(ptr.cast_const()) };
        // The last handle keeps its record for reuse (ARCHITECTURE.md, speed mechanisms, row 9),
        // without `Arc::get_mut`'s locked exchange: plain loads, then `Arc` drop's acquire fence.
        if Arc::strong_count(&arc) == 1 && Arc::weak_count(&arc) == 0 {
            fence(Ordering::Acquire);
            // SAFETY: the crate never makes a `Weak` of a record (see `Url`), and `arc` is its
            // only `Arc` (strong count 1, read after every other handle's release decrement,
            // ordered by the fence): no other thread can reach the record, so `ptr` may be
            // borrowed mutably until `arc` is used again (what `Arc::get_mut` gives).
            let r = unsafe { &mut *ptr };
            if Url::empty_spare(r) {
                Url::keep_spare(arc);
            }
            return;
        }
        Url::from_arc(arc).recycle();
    })
}

/// A static, NUL-terminated English description of `status`
/// ("unknown status" for values wurl never returns). Never freed.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_status_str(status: wurl_status) -> *const c_char {
    ffi_boundary!(c"unknown status".as_ptr(), { status_cstr(status).as_ptr() })
}

/// [`wurl_status_str`]'s text.
fn status_cstr(status: wurl_status) -> &'static std::ffi::CStr {
    match status {
        WURL_OK => c"ok",
        WURL_E_NULL_ARG => c"a required pointer argument is NULL",
        WURL_E_BAD_ARG => c"an argument is out of range (unknown flag bits?)",
        WURL_E_TOO_LONG => c"input longer than WURL_MAX_INPUT_LEN",
        WURL_E_PANIC => c"internal error (panic caught in wurl)",
        WURL_E_BUFFER_TOO_SMALL => c"output buffer too small",
        WURL_INVALID_URL => c"the URL is invalid",
        WURL_E_BAD_RULES => c"the rules specification is not valid",
        WURL_E_UNKNOWN_CHARSET => c"the charset label names no encoding",
        WURL_E_BAD_STATE => c"the bytes are not a wurl URL state",
        _ => c"unknown status",
    }
}

/// The size of a buffer that holds every result of the bulk calls (`wurl_canon_into`,
/// `wurl_canon_key_into`, `wurl_canon_standard_into`, `wurl_url_key_into`) and its NUL, for an
/// input of `input_len` bytes and a base of `base_len` bytes: the length of the base handle's
/// serialization (`wurl_serialize`; for `wurl_url_key_into`, of the handle itself) or of the
/// base string, 0 without a base (the input is then its own base). It is
/// `WURL_OUTPUT_BOUND_FACTOR * (max(base_len, input_len) + input_len) + WURL_OUTPUT_BOUND_EXTRA`
/// (saturating at `SIZE_MAX`; `WURL_OUTPUT_BOUND` is the same as a macro), whatever the charset, rules and key flags, for every `flags` value (`flags` is the
/// call's; a later flag that could make longer results would have a larger bound). A buffer of
/// that size never gives `WURL_E_BUFFER_TOO_SMALL`, so a caller sizes it once, for the longest
/// input it passes. Derived from the steps' worst expansions: an invalid UTF-8 byte is 9 bytes
/// (U+FFFD percent-encoded), a query in ISO-2022-JP or GB18030 under 6 a byte, IDNA at most 12
/// (U+FDFA, 3 bytes, becomes 35: `xn--%20%20%20-oze6dh5a3fcaccnvdrg0a`), an IPv4 short form 7
/// (`0` is `0.0.0.0`); resolution writes each base and input byte at most once, and an input
/// resolved against itself is both (`file:a/a…` doubles its path); the steps add
/// at most a few delimiters (`//`, `/.`, `file:///`, SURT's `(` and `,)`). Tested on every
/// conformance case, the code points and random strings, and asserted by the fuzz targets. An
/// `input_len` above `WURL_MAX_INPUT_LEN`, which the calls refuse, gives
/// `WURL_OUTPUT_BOUND_EXTRA` (no result to hold).
#[unsafe(no_mangle)]
pub extern "C" fn wurl_output_bound(base_len: usize, input_len: usize, flags: u32) -> usize {
    // A panic (a bug) gives the largest bound, which no buffer is.
    ffi_boundary!(usize::MAX, {
        // Every flag has the same bound today.
        let _ = flags;
        if input_len > WURL_MAX_INPUT_LEN {
            // Refused unread (`WURL_E_TOO_LONG`): no result to hold.
            return WURL_OUTPUT_BOUND_EXTRA;
        }
        crate::bound::output_bound(base_len, input_len)
    })
}

/// The library version, a static NUL-terminated string equal to the header's
/// `WURL_VERSION` when header and library match. Never freed.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_version() -> *const c_char {
    const V: &std::ffi::CStr = match std::ffi::CStr::from_bytes_with_nul(
        concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
    ) {
        Ok(v) => v,
        Err(_) => panic!("the version holds no NUL"),
    };
    ffi_boundary!(V.as_ptr(), { V.as_ptr() })
}

/// The version of the keys this library makes (canonical URLs, ruled URLs and SURT keys, in both
/// models); bumped by every key change CHANGELOG.md lists, so that a stored key can name the
/// version that made it and a program can refuse to mix keys of two versions.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_key_version() -> u32 {
    ffi_boundary!(crate::KEY_VERSION, { crate::KEY_VERSION })
}

/// Whether `(label, label_len)` names an encoding: a WHATWG Encoding Standard label, ASCII
/// case-insensitive, surrounding ASCII whitespace ignored (`"shift_jis"`, `"latin1"`). The
/// functions that take a charset read an unknown label as UTF-8; call this first to refuse a
/// misspelt one (`"shiftjis"`). False for the empty label (`(NULL, 0)` too), `(NULL, n > 0)` and
/// a label longer than `WURL_MAX_INPUT_LEN`. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_charset_known(label: *const c_char, label_len: usize) -> bool {
    ffi_boundary!(false, {
        input_bytes(label, label_len).is_ok_and(crate::charset::is_known_label)
    })
}

/// The message for a charset label that names no encoding, the one every wurl front end shows
/// (`unknown charset label "shiftjs" (a WHATWG Encoding Standard label, e.g. "utf-8", ...)`,
/// the label escaped in ASCII and cut after 64 bytes). Returns `WURL_E_UNKNOWN_CHARSET` and,
/// when `msg_cap > 0`, writes the NUL-terminated message into `msg` (cut to fit `msg_cap`; at
/// most `WURL_CHARSET_MESSAGE_MAX` bytes); `WURL_OK` with an empty `msg` for a label that names
/// an encoding and for no label (`(NULL, 0)`; a non-NULL label of length 0 is the empty label,
/// which names none, as with `WURL_FLAG_CHARSET_STRICT`); `WURL_E_NULL_ARG` for `(NULL, n > 0)`
/// or a NULL `msg` with `msg_cap > 0`; `WURL_E_TOO_LONG` for a label longer than
/// `WURL_MAX_INPUT_LEN`. `msg` is written only for `WURL_OK` and `WURL_E_UNKNOWN_CHARSET`.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_charset_message(
    label: *const c_char,
    label_len: usize,
    msg: *mut c_char,
    msg_cap: usize,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        try_buf!(msg, msg_cap);
        let bytes = try_bytes!(label, label_len);
        if label.is_null() {
            write_message("", msg, msg_cap);
            return WURL_OK;
        }
        match crate::charset::resolve_label(bytes) {
            Ok(_) => {
                write_message("", msg, msg_cap);
                WURL_OK
            }
            Err(e) => {
                write_message(&e.to_string(), msg, msg_cap);
                WURL_E_UNKNOWN_CHARSET
            }
        }
    })
}

// Keys: opt-in rules and SURT on the canonical URL, read as a string (see `key`).

/// A compiled rules specification (see `wurl_rules_compile`). Opaque and immutable: any number
/// of threads may use one at once. Free it with `wurl_rules_free`.
// `Box::into_raw` of a `rules::Rules`; this type only names the pointer for C.
pub struct wurl_rules {
    _opaque: [u8; 0],
}

/// `wurl_rules_compile`: the rules specification is not valid; the message
/// buffer says which part of it is wrong, and `*out` is untouched.
pub const WURL_E_BAD_RULES: wurl_status = 7;

/// With `WURL_FLAG_CHARSET_STRICT`: the `charset` label names no encoding; nothing was written
/// (`*out` untouched). `wurl_charset_message` writes the message for the label.
pub const WURL_E_UNKNOWN_CHARSET: wurl_status = 8;

/// `wurl_state_import`: the bytes are not a state wurl writes (another format or version, cut
/// short, altered), or its record would break a record invariant; `*out` is untouched.
pub const WURL_E_BAD_STATE: wurl_status = 9;

/// The longest message `wurl_charset_message` writes, in bytes (without its NUL), whatever the
/// label: a `msg` of `WURL_CHARSET_MESSAGE_MAX + 1` bytes always holds it whole.
pub const WURL_CHARSET_MESSAGE_MAX: usize = 400;
const _: () = assert!(WURL_CHARSET_MESSAGE_MAX == crate::charset::MESSAGE_MAX);

/// Key flag of `wurl_canon_key_into` / `wurl_url_key_into`: write the SURT form of the (ruled)
/// canonical URL, without its scheme (`com,example,www)/a?q`).
pub const WURL_KEY_SURT: u32 = 1;
/// Key flag: write the SURT form keeping the scheme
/// (`http://(com,example,www)/a?q`); implies `WURL_KEY_SURT`.
pub const WURL_KEY_SURT_SCHEME: u32 = 2;

const KEY_FLAGS: u32 = WURL_KEY_SURT | WURL_KEY_SURT_SCHEME;

/// Borrows a rules handle from C, or `None` for NULL.
fn rules_ref<'a>(rules: *const wurl_rules) -> Option<&'a crate::rules::Rules> {
    // SAFETY: a non-NULL `rules` is `Box::into_raw` from `wurl_rules_compile`, not yet freed (the
    // documented contract); `Rules` is never mutated, so shared borrows for the call are sound.
    (!rules.is_null()).then(|| unsafe { &*rules.cast::<crate::rules::Rules>() })
}

/// The key options of `key_flags` and `rules`, or `WURL_E_BAD_ARG`.
fn key_options<'a>(
    rules: *const wurl_rules,
    key_flags: u32,
) -> Result<crate::key::KeyOptions<'a>, wurl_status> {
    if key_flags & !KEY_FLAGS != 0 {
        return Err(WURL_E_BAD_ARG);
    }
    let surt = (key_flags != 0).then_some(crate::surt::SurtOptions {
        with_scheme: key_flags & WURL_KEY_SURT_SCHEME != 0,
    });
    Ok(crate::key::KeyOptions {
        rules: rules_ref(rules),
        surt,
    })
}

/// Makes the key of `canonical` and delivers it as `wurl_canon_into` does.
fn deliver_key(
    canonical: &str,
    key: &crate::key::KeyOptions,
    buf: *mut c_char,
    buf_cap: usize,
    out_len: *mut usize,
) -> wurl_status {
    crate::scratch::with_side(crate::scratch::Side::FfiOut, |out| {
        crate::key::key_of_into(canonical, key, out);
        deliver(out.as_bytes(), buf, buf_cap, out_len)
    })
}

/// Compiles a rules specification: a comma-separated list of the rules `drop-fragment`,
/// `strip-www`, `sort-query`, `drop-params=GLOB|GLOB...`, `strip-session-ids`, `drop-userinfo`
/// and `normalize-escapes`, each at most once (`""`: no rule; docs/keys.md says what each does).
/// On `WURL_OK`, `*out` is a new rules handle the caller frees with `wurl_rules_free`. On
/// `WURL_E_BAD_RULES`, `*out` is untouched and, when `msg_cap > 0`, `msg` receives a
/// NUL-terminated English message quoting the bad part (cut to fit `msg_cap`, at a character
/// boundary); `msg` is written only then, and may be NULL when `msg_cap` is 0. A message is at
/// most `WURL_RULES_MESSAGE_MAX` bytes whatever the specification.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_rules_compile(
    spec: *const c_char,
    spec_len: usize,
    out: *mut *mut wurl_rules,
    msg: *mut c_char,
    msg_cap: usize,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        let out = try_out!(out);
        try_buf!(msg, msg_cap);
        let spec = try_ok!(input_str(spec, spec_len));
        match crate::rules::Rules::parse(&spec) {
            Ok(r) => {
                let p = Box::into_raw(Box::new(r)).cast::<wurl_rules>();
                // SAFETY: `out` is non-NULL (checked above) and points to storage for a pointer.
                unsafe { out.write(p) };
                WURL_OK
            }
            Err(e) => {
                write_message(e.message(), msg, msg_cap);
                WURL_E_BAD_RULES
            }
        }
    })
}

/// Frees a rules handle. `wurl_rules_free(NULL)` does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_rules_free(rules: *mut wurl_rules) {
    ffi_boundary!((), {
        if rules.is_null() {
            return;
        }
        // SAFETY: a non-NULL `rules` is `wurl_rules_compile`'s `Box::into_raw`, freed once
        // (the documented contract).
        drop(unsafe { Box::from_raw(rules.cast::<crate::rules::Rules>()) });
    })
}

/// The bulk path with a key: what `wurl_canon_into` would write for the same `base`, `input`,
/// `charset` and `flags`, then `rules` applied (NULL: none) and, with `WURL_KEY_SURT` or
/// `WURL_KEY_SURT_SCHEME` in `key_flags` (0: neither), the SURT form; written into `buf` and
/// `*out_len` as `wurl_canon_into` writes, with its return values (`WURL_E_BUFFER_TOO_SMALL`
/// gives the key's length), and `WURL_E_BAD_ARG` for unknown `key_flags` bits. `rules` is
/// borrowed for the call. Allocates nothing per call in steady state (2012 model).
#[unsafe(no_mangle)]
pub extern "C" fn wurl_canon_key_into(
    base: *const wurl_url,
    input: *const c_char,
    input_len: usize,
    charset: *const c_char,
    charset_len: usize,
    flags: u32,
    rules: *const wurl_rules,
    key_flags: u32,
    buf: *mut c_char,
    buf_cap: usize,
    out_len: *mut usize,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        let out_len = try_out!(out_len);
        try_buf!(buf, buf_cap);
        let key = try_ok!(key_options(rules, key_flags));
        let (bytes, label) = try_ok!(canon_args(input, input_len, charset, charset_len, flags));
        let opts = canon_options(label, flags);
        let base = handle(base);
        crate::scratch::with_side(crate::scratch::Side::FfiOut, |out| {
            let res = if flags & WURL_FLAG_URL_STANDARD != 0 {
                standard_base(base.as_deref())
                    .and_then(|b| {
                        crate::key::key_standard_input_into(
                            b,
                            CInput(bytes),
                            label.text().as_deref(),
                            &key,
                            out,
                        )
                    })
                    .is_ok()
            } else {
                crate::key::key_input_into(base.as_deref(), CInput(bytes), &opts, &key, out).is_ok()
            };
            if res {
                deliver(out.as_bytes(), buf, buf_cap, out_len)
            } else {
                WURL_INVALID_URL
            }
        })
    })
}

/// The URL Standard model with a base given as a string: `input` parsed against `base`
/// (`base_len` 0: no base; the empty string is no URL) by the URL Standard's parser and
/// serialized, then `rules` and `key_flags` as in `wurl_canon_key_into`; written into `buf` as
/// `wurl_canon_into` writes. Like `wurl_canon_key_into` with `WURL_FLAG_URL_STANDARD`, except that
/// the base is not read through a 2012 handle (whose serialization can differ: `a:` is a drive
/// letter to the 2012 parser). `charset` as for `WURL_FLAG_URL_STANDARD`. Returns `WURL_OK`;
/// `WURL_INVALID_URL` when the URL or the base does not parse (nothing written);
/// `WURL_E_BUFFER_TOO_SMALL` (only `*out_len` written); `WURL_E_NULL_ARG`, `WURL_E_TOO_LONG`, or
/// `WURL_E_BAD_ARG` for unknown `key_flags` bits. Allocates per call. It has no `flags`, so no
/// `WURL_FLAG_CHARSET_STRICT`: to refuse an unknown label, test it with `wurl_charset_message`.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_canon_standard_into(
    base: *const c_char,
    base_len: usize,
    input: *const c_char,
    input_len: usize,
    charset: *const c_char,
    charset_len: usize,
    rules: *const wurl_rules,
    key_flags: u32,
    buf: *mut c_char,
    buf_cap: usize,
    out_len: *mut usize,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        let out_len = try_out!(out_len);
        try_buf!(buf, buf_cap);
        let key = try_ok!(key_options(rules, key_flags));
        let base = match base_len {
            0 => None,
            _ => Some(try_ok!(input_str(base, base_len))),
        };
        let (bytes, label) = try_ok!(canon_args(input, input_len, charset, charset_len, 0));
        let label = label.text();
        crate::scratch::with_side(crate::scratch::Side::FfiOut, |out| {
            let res = crate::key::key_standard_input_into(
                base.as_deref(),
                CInput(bytes),
                label.as_deref(),
                &key,
                out,
            );
            match res {
                Ok(()) => deliver(out.as_bytes(), buf, buf_cap, out_len),
                Err(_) => WURL_INVALID_URL,
            }
        })
    })
}

/// The handle path with a key: the key of `url`'s canonicalization with the default options (as
/// `wurl_canonicalize` with no charset; a canonical handle is its own), then `rules` (NULL: none)
/// and `key_flags` as in `wurl_canon_key_into`, written into `buf` as `wurl_canon_into` writes.
/// Returns `WURL_OK`, `WURL_INVALID_URL` when the canonicalization is invalid (nothing written),
/// `WURL_E_BUFFER_TOO_SMALL` (only `*out_len` written), `WURL_E_NULL_ARG` for a NULL `url` or
/// `out_len`, or `WURL_E_BAD_ARG` for unknown `key_flags` bits. `url` and `rules` are borrowed.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_url_key_into(
    url: *const wurl_url,
    rules: *const wurl_rules,
    key_flags: u32,
    buf: *mut c_char,
    buf_cap: usize,
    out_len: *mut usize,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        let url = try_handle!(url);
        let out_len = try_out!(out_len);
        try_buf!(buf, buf_cap);
        let key = try_ok!(key_options(rules, key_flags));
        let c = crate::canonicalize(&url, None);
        match c.as_str() {
            None => WURL_INVALID_URL,
            Some(s) => deliver_key(s, &key, buf, buf_cap, out_len),
        }
    })
}

// A record's state: its whole value as bytes, and back (see `state`).

/// Writes the state of `url` (its whole value: each component absent or present, the raw
/// authority, whether it is hierarchical, invalid and why; a versioned byte format, not
/// NUL-terminated) into `buf` when it fits, and its length into `*out_len` always. Returns
/// `WURL_OK`; `WURL_E_BUFFER_TOO_SMALL` when `buf_cap` is less than the length (only `*out_len`
/// written: call again with that much room); `WURL_E_NULL_ARG` for a NULL `url` or `out_len`, or
/// a NULL `buf` with `buf_cap > 0`. `wurl_state_import` makes a handle of the same value from
/// it, in this process or another, with this version of wurl or a later one. A state is at most
/// 7 + 9 × 11 bytes plus the lengths of the components and the raw authority.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_state_export(
    url: *const wurl_url,
    buf: *mut u8,
    buf_cap: usize,
    out_len: *mut usize,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        let url = try_handle!(url);
        let out_len = try_out!(out_len);
        try_buf!(buf, buf_cap);
        let state = url.export_state();
        // SAFETY: `out_len` is non-NULL (checked above) and points to a `size_t`.
        unsafe { out_len.write(state.len()) };
        if state.len() > buf_cap {
            return WURL_E_BUFFER_TOO_SMALL;
        }
        // SAFETY: `buf` is non-NULL when `buf_cap >= state.len() > 0` (checked above), with
        // `buf_cap` writable bytes; `state` is wurl's own memory, so they cannot overlap.
        unsafe { std::ptr::copy_nonoverlapping(state.as_ptr(), buf, state.len()) };
        WURL_OK
    })
}

/// Makes a handle from a state `wurl_state_export` wrote: on `WURL_OK`, `*out` is a new handle of
/// the exported value, which the caller frees with `wurl_free`. Returns `WURL_E_BAD_STATE`
/// for bytes that are not such a state (another format or version, truncated, altered, or a
/// record that would break a record invariant); `WURL_E_NULL_ARG` for a NULL `out` or
/// `(NULL, n > 0)`; `*out` is written only on `WURL_OK`. Any bytes are safe to pass: they are
/// read, checked and refused, never trusted. `state` is read only during the call.
#[unsafe(no_mangle)]
pub extern "C" fn wurl_state_import(
    state: *const u8,
    state_len: usize,
    out: *mut *mut wurl_url,
) -> wurl_status {
    ffi_boundary!(WURL_E_PANIC, {
        let out = try_out!(out);
        // A state has no length limit but the one of a slice.
        let bytes = try_ok!(slice_arg(state, state_len, isize::MAX as usize));
        match Url::import_state(bytes) {
            Ok(url) => emit(out, url),
            Err(_) => WURL_E_BAD_STATE,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::copy_overlapping;

    /// `copy_overlapping` writes what `ptr::copy` writes, for every length of its branches and
    /// past them, between regions apart or overlapping either way (canonicalizing in place).
    #[test]
    fn copy_overlapping_is_ptr_copy() {
        let init: Vec<u8> = (0..=255u8).cycle().take(400).collect();
        for len in 0..=140 {
            for from in [100usize, 130] {
                for to in 40..=200 {
                    let (mut got, mut want) = (init.clone(), init.clone());
                    // SAFETY: `from + len` and `to + len` are within the 400 bytes of each copy.
                    unsafe {
                        let g = got.as_mut_ptr();
                        copy_overlapping(g.add(from), g.add(to), len);
                        let w = want.as_mut_ptr();
                        std::ptr::copy(w.add(from), w.add(to), len);
                    }
                    assert!(got == want, "len {len}, from {from} to {to}");
                }
            }
        }
    }
}
