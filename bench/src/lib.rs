//! Shared code of the `wurl-bench` and `wurl-profile` binaries: loading the
//! datasets and running each library once over a dataset.
//!
//! Every runner takes the whole dataset, handles each URL the way a caller
//! of that library would (parse, canonicalize/normalize, get the resulting
//! string) and returns how many URLs the library accepted (gave a result
//! for). The runners are `#[inline(never)]` so that each one is compiled on
//! its own and shows up by name in a profile.

use std::ffi::c_char;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::ptr;

/// The datasets shipped in `bench/data/`, in the order they are run.
pub const DATASETS: &[&str] = &["kasztp", "node_files", "idn_synth"];

/// Where the shipped datasets are.
pub fn default_data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// A dataset loaded into memory: one URL per line of the file.
pub struct Dataset {
    /// The name (file stem) shown in the report.
    pub name: String,
    /// The URLs. Each slice points into one buffer and is followed there by
    /// a NUL byte (not part of the slice), so `url.as_ptr()` is also a C
    /// string for the libraries that want one (curl). Private so that this
    /// holds: read them with [`Dataset::urls`].
    urls: Vec<&'static str>,
    /// The total length of the URLs in bytes (what MB/s is computed on).
    pub bytes: usize,
}

impl Dataset {
    /// The URLs, in file order.
    pub fn urls(&self) -> &[&'static str] {
        &self.urls
    }

    /// Loads `spec`: a name from [`DATASETS`] (read from `data_dir`) or the
    /// path of any file with one URL per line. A leading UTF-8 BOM, `\r`
    /// before `\n` and empty lines are dropped; invalid UTF-8 is replaced
    /// with U+FFFD.
    pub fn load(spec: &str, data_dir: &Path) -> Result<Dataset, String> {
        let path = if DATASETS.contains(&spec) {
            data_dir.join(format!("{spec}.txt"))
        } else {
            PathBuf::from(spec)
        };
        let raw = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path
            .file_stem()
            .map_or_else(|| spec.to_owned(), |s| s.to_string_lossy().into_owned());
        Ok(Dataset::from_text(name, &String::from_utf8_lossy(&raw)))
    }

    /// Builds a dataset from text with one URL per line (see [`Dataset::load`]).
    pub fn from_text(name: String, text: &str) -> Dataset {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let lines: Vec<&str> = text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .filter(|l| !l.is_empty())
            .collect();
        // One buffer, every URL followed by a NUL. It lives as long as the
        // process: a benchmark loads each dataset once.
        let mut buf = String::with_capacity(text.len() + lines.len());
        let mut spans = Vec::with_capacity(lines.len());
        for l in &lines {
            spans.push((buf.len(), l.len()));
            buf.push_str(l);
            buf.push('\0');
        }
        let buf: &'static str = Box::leak(buf.into_boxed_str());
        let urls: Vec<&'static str> = spans.iter().map(|&(s, n)| &buf[s..s + n]).collect();
        let bytes = urls.iter().map(|u| u.len()).sum();
        Dataset { name, urls, bytes }
    }
}

/// The libraries (and ways of calling wurl) that the benchmark compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lib {
    /// Not a library: one pass summing every byte of each URL.
    Floor,
    /// `wurl_canon_into` through the C ABI, into a reused buffer.
    WurlInto,
    /// `wurl_parse` + `wurl_resolve` (against its own parse) +
    /// `wurl_canonicalize` + `wurl_serialize` + 3 `wurl_free` through the C
    /// ABI: the same work as `wurl_canon_into` with handles.
    WurlHandle,
    /// `wurl::canon_into` (the Rust API) into a reused `String`.
    WurlRust,
    /// The `ada-url` crate: `Url::parse` + `href`.
    Ada,
    /// The `url` crate (rust-url): `Url::parse` + `as_str`.
    RustUrl,
    /// libcurl's URL API: `curl_url` + `curl_url_set` + `curl_url_get` +
    /// `curl_free` + `curl_url_cleanup`.
    #[cfg(wurl_bench_curl)]
    Curl,
    /// uriparser: `uriParseSingleUriExA` + `uriNormalizeSyntaxA` +
    /// `uriToStringA` + `uriFreeUriMembersA`.
    #[cfg(wurl_bench_uriparser)]
    Uriparser,
}

impl Lib {
    /// Every library this build has, in report order.
    pub const ALL: &'static [Lib] = &[
        Lib::Floor,
        Lib::WurlInto,
        Lib::WurlHandle,
        Lib::WurlRust,
        Lib::Ada,
        Lib::RustUrl,
        #[cfg(wurl_bench_curl)]
        Lib::Curl,
        #[cfg(wurl_bench_uriparser)]
        Lib::Uriparser,
    ];

    /// The short name used on the command line and in the report.
    pub fn name(self) -> &'static str {
        match self {
            Lib::Floor => "floor",
            Lib::WurlInto => "wurl-into",
            Lib::WurlHandle => "wurl-handle",
            Lib::WurlRust => "wurl-rust",
            Lib::Ada => "ada",
            Lib::RustUrl => "url",
            #[cfg(wurl_bench_curl)]
            Lib::Curl => "curl",
            #[cfg(wurl_bench_uriparser)]
            Lib::Uriparser => "uriparser",
        }
    }

    /// What the row measures, for `--list`.
    pub fn describe(self) -> &'static str {
        match self {
            Lib::Floor => "sum every byte of each URL (memory-traffic floor)",
            Lib::WurlInto => {
                "wurl C ABI: wurl_canon_into(NULL base, UTF-8, flags 0) into a reused buffer"
            }
            Lib::WurlHandle => {
                "wurl C ABI: wurl_parse + wurl_resolve(self) + wurl_canonicalize + wurl_serialize + 3x wurl_free"
            }
            Lib::WurlRust => "wurl Rust API: wurl::canon_into(None, ..) into a reused String",
            Lib::Ada => "ada-url crate v4: ada_url::Url::parse(input, None) + href()",
            Lib::RustUrl => "url crate v2.5: url::Url::parse + as_str()",
            #[cfg(wurl_bench_curl)]
            Lib::Curl => {
                "libcurl URL API: curl_url + curl_url_set(URL) + curl_url_get(URL) + cleanup"
            }
            #[cfg(wurl_bench_uriparser)]
            Lib::Uriparser => {
                "uriparser: uriParseSingleUriExA + uriNormalizeSyntaxA + uriToStringA + free"
            }
        }
    }

    /// Looks a library up by [`Lib::name`].
    pub fn from_name(name: &str) -> Option<Lib> {
        Lib::ALL.iter().copied().find(|l| l.name() == name)
    }
}

/// Buffers reused across calls, as a bulk caller would reuse them.
pub struct Scratch {
    buf: Vec<u8>,
    string: String,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            buf: vec![0; 64 * 1024],
            string: String::with_capacity(64 * 1024),
        }
    }
}

/// Runs `lib` once over the URLs of `ds`; returns the number of URLs it
/// accepted.
pub fn run(lib: Lib, ds: &Dataset, scratch: &mut Scratch) -> usize {
    let urls = ds.urls();
    match lib {
        Lib::Floor => run_floor(urls),
        Lib::WurlInto => run_wurl_into(urls, &mut scratch.buf),
        Lib::WurlHandle => run_wurl_handle(urls),
        Lib::WurlRust => run_wurl_rust(urls, &mut scratch.string),
        Lib::Ada => run_ada(urls),
        Lib::RustUrl => run_rust_url(urls),
        #[cfg(wurl_bench_curl)]
        Lib::Curl => curl::run(urls),
        #[cfg(wurl_bench_uriparser)]
        Lib::Uriparser => uriparser::run(urls, &mut scratch.buf),
    }
}

/// The output of `lib` for one URL (`None` when it rejects it), for the
/// `--check` mode. Not timed.
pub fn output(lib: Lib, url: &str, scratch: &mut Scratch) -> Option<String> {
    match lib {
        Lib::Floor => Some(url.to_owned()),
        Lib::WurlInto => wurl_into_one(url, &mut scratch.buf).map(lossy),
        Lib::WurlHandle => wurl_handle_one(url, lossy),
        Lib::WurlRust => {
            let mut s = String::new();
            wurl::canon_into(None, url, &wurl::CanonOptions::default(), &mut s).ok()?;
            Some(s)
        }
        Lib::Ada => ada_url::Url::parse(url, None)
            .ok()
            .map(|u| u.href().to_owned()),
        Lib::RustUrl => url::Url::parse(url).ok().map(String::from),
        #[cfg(wurl_bench_curl)]
        Lib::Curl => curl::one(url, lossy),
        #[cfg(wurl_bench_uriparser)]
        Lib::Uriparser => uriparser::one(url, &mut scratch.buf).map(lossy),
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[inline(never)]
fn run_floor(urls: &[&str]) -> usize {
    let mut n = 0;
    for &u in urls {
        let u = black_box(u);
        let sum = u.bytes().fold(0u32, |a, b| a.wrapping_add(u32::from(b)));
        black_box(sum);
        n += 1;
    }
    n
}

/// One `wurl_canon_into` call; grows `buf` when it is too small.
#[inline(always)]
fn wurl_into_one<'b>(u: &str, buf: &'b mut Vec<u8>) -> Option<&'b [u8]> {
    use wurl::ffi::{WURL_E_BUFFER_TOO_SMALL, WURL_OK, wurl_canon_into};
    loop {
        let mut len = 0usize;
        let st = wurl_canon_into(
            ptr::null(),
            u.as_ptr().cast::<c_char>(),
            u.len(),
            ptr::null(),
            0,
            0,
            buf.as_mut_ptr().cast::<c_char>(),
            buf.len(),
            &mut len,
        );
        match st {
            WURL_OK => return Some(&buf[..len]),
            WURL_E_BUFFER_TOO_SMALL => buf.resize(len + 1, 0),
            _ => return None,
        }
    }
}

#[inline(never)]
fn run_wurl_into(urls: &[&str], buf: &mut Vec<u8>) -> usize {
    let mut n = 0;
    for &u in urls {
        if let Some(out) = wurl_into_one(black_box(u), buf) {
            black_box(out);
            n += 1;
        }
    }
    n
}

/// The handle path through the C ABI, doing what `wurl_canon_into` (and
/// `url_to_canon_url`) does: `wurl_parse` the input, `wurl_resolve` it
/// against its own parse, `wurl_canonicalize`, `wurl_serialize`, and
/// `wurl_free` the three handles. `f` sees the serialization while its
/// handle is alive.
#[inline(always)]
fn wurl_handle_one<R>(u: &str, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
    use wurl::ffi::{
        WURL_OK, wurl_canonicalize, wurl_free, wurl_parse, wurl_resolve, wurl_serialize, wurl_url,
    };
    let (p, n) = (u.as_ptr().cast::<c_char>(), u.len());
    let mut parsed: *mut wurl_url = ptr::null_mut();
    if wurl_parse(p, n, 0, &mut parsed) != WURL_OK {
        return None;
    }
    let mut resolved: *mut wurl_url = ptr::null_mut();
    let st = wurl_resolve(parsed, p, n, 0, &mut resolved);
    wurl_free(parsed);
    if st != WURL_OK {
        return None;
    }
    let mut canon: *mut wurl_url = ptr::null_mut();
    let st = wurl_canonicalize(resolved, ptr::null(), 0, 0, &mut canon);
    wurl_free(resolved);
    if st != WURL_OK {
        return None;
    }
    let mut out: *const c_char = ptr::null();
    let mut len = 0usize;
    let r = if wurl_serialize(canon, &mut out, &mut len) {
        // SAFETY: wurl_serialize returned true, so (out, len) is a view into
        // `canon`, which is alive until the wurl_free below.
        Some(f(unsafe {
            std::slice::from_raw_parts(out.cast::<u8>(), len)
        }))
    } else {
        None
    };
    wurl_free(canon);
    r
}

#[inline(never)]
fn run_wurl_handle(urls: &[&str]) -> usize {
    let mut n = 0;
    for &u in urls {
        if wurl_handle_one(black_box(u), |b| {
            black_box(b);
        })
        .is_some()
        {
            n += 1;
        }
    }
    n
}

#[inline(never)]
fn run_wurl_rust(urls: &[&str], out: &mut String) -> usize {
    let opts = wurl::CanonOptions::default();
    let mut n = 0;
    for &u in urls {
        out.clear();
        if wurl::canon_into(None, black_box(u), &opts, out).is_ok() {
            black_box(out.as_str());
            n += 1;
        }
    }
    n
}

#[inline(never)]
fn run_ada(urls: &[&str]) -> usize {
    let mut n = 0;
    for &u in urls {
        if let Ok(p) = ada_url::Url::parse(black_box(u), None) {
            black_box(p.href());
            n += 1;
        }
    }
    n
}

#[inline(never)]
fn run_rust_url(urls: &[&str]) -> usize {
    let mut n = 0;
    for &u in urls {
        if let Ok(p) = url::Url::parse(black_box(u)) {
            black_box(p.as_str());
            n += 1;
        }
    }
    n
}

/// libcurl's URL API (`curl/urlapi.h`), declared by hand: only linked when
/// the build script found libcurl.
#[cfg(wurl_bench_curl)]
mod curl {
    use std::ffi::{c_char, c_int, c_uint, c_void};
    use std::hint::black_box;
    use std::ptr;

    #[repr(C)]
    struct Curlu {
        _opaque: [u8; 0],
    }

    const CURLUPART_URL: c_int = 0;
    const CURLUE_OK: c_int = 0;
    /// Accept any scheme, as the other libraries do (`file:` and `http(s):`
    /// are supported anyway).
    const CURLU_NON_SUPPORT_SCHEME: c_uint = 1 << 3;
    /// Write an internationalized host in punycode, like the others.
    #[cfg(wurl_bench_curl_punycode)]
    const CURLU_PUNYCODE: c_uint = 1 << 12;
    #[cfg(not(wurl_bench_curl_punycode))]
    const CURLU_PUNYCODE: c_uint = 0;

    unsafe extern "C" {
        fn setlocale(category: c_int, locale: *const c_char) -> *mut c_char;
        fn curl_url() -> *mut Curlu;
        fn curl_url_cleanup(handle: *mut Curlu);
        fn curl_url_set(
            handle: *mut Curlu,
            part: c_int,
            content: *const c_char,
            flags: c_uint,
        ) -> c_int;
        fn curl_url_get(
            handle: *const Curlu,
            part: c_int,
            content: *mut *mut c_char,
            flags: c_uint,
        ) -> c_int;
        fn curl_free(p: *mut c_void);
    }

    /// libcurl converts hosts to punycode with libidn2's `idn2_lookup_ul`,
    /// which reads the host in the locale's charset: without a UTF-8
    /// `LC_CTYPE` (a C program would have called `setlocale`) every non-ASCII
    /// host fails. Set it once, as the curl tool does.
    fn init() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            /// glibc's `LC_CTYPE`.
            const LC_CTYPE: c_int = 0;
            // SAFETY: NUL-terminated literals; called once, before any
            // other thread of this program uses the locale.
            unsafe {
                if setlocale(LC_CTYPE, c"C.UTF-8".as_ptr()).is_null() {
                    setlocale(LC_CTYPE, c"".as_ptr());
                }
            }
        });
    }

    /// `u` must be followed by a NUL byte in memory (see `Dataset::urls`):
    /// curl reads a C string. Elsewhere (`--check`) a copy is made.
    #[inline(always)]
    unsafe fn one_cstr<R>(u: *const c_char, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        // SAFETY (whole block): `u` is a NUL-terminated string (caller's
        // promise); the handle is created, used and freed here; the string
        // curl_url_get returns is NUL-terminated and freed with curl_free.
        unsafe {
            let h = curl_url();
            if h.is_null() {
                return None;
            }
            let mut r = None;
            if curl_url_set(h, CURLUPART_URL, u, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK {
                let mut out: *mut c_char = ptr::null_mut();
                if curl_url_get(h, CURLUPART_URL, &mut out, CURLU_PUNYCODE) == CURLUE_OK {
                    r = Some(f(std::ffi::CStr::from_ptr(out).to_bytes()));
                    curl_free(out.cast());
                }
            }
            curl_url_cleanup(h);
            r
        }
    }

    pub fn one<R>(u: &str, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        init();
        let c = std::ffi::CString::new(u).ok()?;
        // SAFETY: `c` is NUL-terminated.
        unsafe { one_cstr(c.as_ptr(), f) }
    }

    /// Every URL of `urls` must be followed by a NUL byte in memory, as
    /// those of a `Dataset` are.
    #[inline(never)]
    pub fn run(urls: &[&str]) -> usize {
        init();
        let mut n = 0;
        for &u in urls {
            let u = black_box(u);
            // SAFETY: every URL of a `Dataset` is followed by a NUL byte
            // (the only caller passes `Dataset::urls`).
            let ok = unsafe {
                one_cstr(u.as_ptr().cast(), |b| {
                    black_box(b);
                })
            };
            if ok.is_some() {
                n += 1;
            }
        }
        n
    }
}

/// uriparser (`uriparser/Uri.h`), declared by hand: only linked when the
/// build script found it.
#[cfg(wurl_bench_uriparser)]
mod uriparser {
    use std::ffi::{c_char, c_int};
    use std::hint::black_box;
    use std::ptr;

    /// `UriUriA` is 176 bytes on LP64 (uriparser 0.9); it is only ever
    /// handled by pointer, so a larger, suitably aligned block is enough.
    #[repr(C, align(16))]
    struct UriUriA {
        _opaque: [u8; 512],
    }

    const URI_SUCCESS: c_int = 0;

    unsafe extern "C" {
        fn uriParseSingleUriExA(
            uri: *mut UriUriA,
            first: *const c_char,
            after_last: *const c_char,
            error_pos: *mut *const c_char,
        ) -> c_int;
        fn uriNormalizeSyntaxA(uri: *mut UriUriA) -> c_int;
        fn uriToStringCharsRequiredA(uri: *const UriUriA, chars_required: *mut c_int) -> c_int;
        fn uriToStringA(
            dest: *mut c_char,
            uri: *const UriUriA,
            max_chars: c_int,
            chars_written: *mut c_int,
        ) -> c_int;
        fn uriFreeUriMembersA(uri: *mut UriUriA);
    }

    #[inline(always)]
    pub fn one<'b>(u: &str, buf: &'b mut Vec<u8>) -> Option<&'b [u8]> {
        let mut uri = UriUriA { _opaque: [0; 512] };
        let mut err: *const c_char = ptr::null();
        // SAFETY (whole block): (first, afterLast) is the range of `u`;
        // `uri` is freed on every path after a successful parse (uriparser
        // frees it itself when parsing fails); `buf` has `buf.len()` bytes.
        unsafe {
            let first = u.as_ptr().cast::<c_char>();
            if uriParseSingleUriExA(&mut uri, first, first.add(u.len()), &mut err) != URI_SUCCESS {
                return None;
            }
            let mut written: c_int = 0;
            let mut ok = uriNormalizeSyntaxA(&mut uri) == URI_SUCCESS;
            if ok {
                let cap = c_int::try_from(buf.len()).unwrap_or(c_int::MAX);
                ok = uriToStringA(buf.as_mut_ptr().cast(), &uri, cap, &mut written) == URI_SUCCESS;
                if !ok {
                    // Too long for the buffer: size it and try again.
                    let mut need: c_int = 0;
                    if uriToStringCharsRequiredA(&uri, &mut need) == URI_SUCCESS {
                        let need = usize::try_from(need).unwrap_or(0) + 1;
                        buf.resize(need, 0);
                        let cap = c_int::try_from(buf.len()).unwrap_or(c_int::MAX);
                        ok = uriToStringA(buf.as_mut_ptr().cast(), &uri, cap, &mut written)
                            == URI_SUCCESS;
                    }
                }
            }
            uriFreeUriMembersA(&mut uri);
            // `written` counts the terminating NUL.
            let len = usize::try_from(written).unwrap_or(0).saturating_sub(1);
            ok.then(|| &buf[..len])
        }
    }

    #[inline(never)]
    pub fn run(urls: &[&str], buf: &mut Vec<u8>) -> usize {
        let mut n = 0;
        for &u in urls {
            if let Some(out) = one(black_box(u), buf) {
                black_box(out);
                n += 1;
            }
        }
        n
    }
}
