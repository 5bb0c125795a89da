//! Shared code of the `wurl-bench` and `wurl-profile` binaries: loading the
//! datasets and running each library once over a dataset.
//!
//! A dataset is of one of two kinds ([`Kind`]):
//!
//! - a **URL list** (`.txt`, one URL per line): the operation is *canon*,
//!   each URL handled on its own (parse, canonicalize/normalize, get the
//!   resulting string);
//! - a **links** file (`.tsv`, `page<TAB>link` per line, the links of one
//!   page on adjacent lines): the operation is *links*, each link resolved
//!   against its page and the resulting string produced, the page parsed
//!   once per group of adjacent lines wherever the library's API allows it.
//!
//! Every runner takes the whole dataset and returns how many items (URLs or
//! links) the library accepted (gave a result for). The runners are
//! `#[inline(never)]` so that each one is compiled on its own and shows up by
//! name in a profile.

pub mod data_file;

use std::ffi::c_char;
use std::hint::black_box;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::ptr;

use wurl::ffi::wurl_url;

/// The CPU time this thread has used so far (`clock_gettime` with
/// `CLOCK_THREAD_CPUTIME_ID`), or `None` where that clock is not available.
/// Unlike wall-clock time it does not count the time the thread spends
/// descheduled while other processes run, which on a shared machine is most
/// of the noise (cache and memory-bandwidth contention still show).
pub fn thread_cpu_time() -> Option<std::time::Duration> {
    #[cfg(target_os = "linux")]
    {
        #[repr(C)]
        struct Timespec {
            tv_sec: i64,
            tv_nsec: i64,
        }
        unsafe extern "C" {
            fn clock_gettime(clk: std::ffi::c_int, ts: *mut Timespec) -> std::ffi::c_int;
        }
        /// Linux's `CLOCK_THREAD_CPUTIME_ID`.
        const CLOCK_THREAD_CPUTIME_ID: std::ffi::c_int = 3;
        let mut ts = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable `struct timespec` (two 64-bit
        // fields on the 64-bit Linux targets this cfg is compiled for).
        if cfg!(target_pointer_width = "64")
            && unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0
        {
            let secs = u64::try_from(ts.tv_sec).ok()?;
            let nanos = u32::try_from(ts.tv_nsec).ok()?;
            return Some(std::time::Duration::new(secs, nanos));
        }
        None
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The datasets shipped in `bench/data/`, in the order they are run.
pub const DATASETS: &[&str] = &[
    "kasztp",
    "node_files",
    "idn_synth",
    "pagewritten",
    "pagehard",
    "hrefs",
    "links_synth",
];

/// The shipped datasets that are links files (`<name>.tsv`); the others are
/// URL lists (`<name>.txt`), or escaped URL lists.
const LINK_DATASETS: &[&str] = &["links_synth"];

/// The shipped datasets that are escaped URL lists (`<name>.esc.txt`, see
/// [`data_file::unescape`]): URLs with TAB, LF or CR inside.
const ESCAPED_DATASETS: &[&str] = &["hrefs"];

/// What a dataset holds, hence which operation is timed on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One URL per line; each URL is canonicalized on its own (against
    /// itself, for wurl).
    Urls,
    /// `page<TAB>link` per line; each link is resolved against its page.
    Links,
}

/// One page of a links dataset and the range of its links in
/// [`Dataset::urls`].
#[derive(Clone, Debug)]
pub struct Page {
    /// The page's URL (followed by a NUL in memory, like the links).
    pub url: &'static str,
    /// Its links: `&ds.urls()[links.clone()]`.
    pub links: Range<usize>,
}

/// Where the shipped datasets are.
pub fn default_data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// A dataset loaded into memory.
pub struct Dataset {
    /// The name (file stem) shown in the report.
    pub name: String,
    /// URL list or links file.
    kind: Kind,
    /// The URLs of a URL list, or the links of a links file, in file order.
    /// Each slice points into one buffer and is followed there by a NUL byte
    /// (not part of the slice), so `url.as_ptr()` is also a C string for the
    /// libraries that want one (curl). Private so that this holds: read them
    /// with [`Dataset::urls`].
    urls: Vec<&'static str>,
    /// Links files only: the pages, one per group of adjacent lines with the
    /// same page, covering `urls` in order. Empty for a URL list.
    pages: Vec<Page>,
    /// The input bytes (what MB/s is computed on): the URLs of a URL list;
    /// for a links file, every link plus each page once per group (the
    /// bytes a caller has to hand to the library at least once).
    pub bytes: usize,
}

impl Dataset {
    /// The URLs of a URL list, or the links of a links file, in file order.
    pub fn urls(&self) -> &[&'static str] {
        &self.urls
    }

    /// The pages of a links file (empty for a URL list).
    pub fn pages(&self) -> &[Page] {
        &self.pages
    }

    /// URL list or links file.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Loads `spec`: a name from [`DATASETS`] (read from `data_dir`) or the
    /// path of a file. A file whose name ends in `.tsv` is a links file
    /// (`page<TAB>link` per line, see [`Dataset::from_links_text`]); one
    /// whose name ends in `.esc.txt` an escaped URL list (see
    /// [`Dataset::from_escaped_text`]); any other file is a URL list (one
    /// URL per line, see [`Dataset::from_text`]). Invalid UTF-8 is
    /// replaced with U+FFFD.
    pub fn load(spec: &str, data_dir: &Path) -> Result<Dataset, String> {
        let path = if LINK_DATASETS.contains(&spec) {
            data_dir.join(format!("{spec}.tsv"))
        } else if ESCAPED_DATASETS.contains(&spec) {
            data_dir.join(format!("{spec}{}", data_file::ESCAPED_SUFFIX))
        } else if DATASETS.contains(&spec) {
            data_dir.join(format!("{spec}.txt"))
        } else {
            PathBuf::from(spec)
        };
        let text = data_file::read(&path)?;
        let escaped = data_file::is_escaped(&path);
        // The name shown: the file's name without `.txt`, `.tsv` or `.esc.txt`.
        let stem = match path.file_name().and_then(|n| n.to_str()) {
            Some(n) if escaped => n.strip_suffix(data_file::ESCAPED_SUFFIX).map(str::to_owned),
            _ => path.file_stem().map(|s| s.to_string_lossy().into_owned()),
        };
        let name = stem.unwrap_or_else(|| spec.to_owned());
        if path.extension().is_some_and(|e| e == "tsv") {
            Dataset::from_links_text(name, &text).map_err(|e| format!("{}: {e}", path.display()))
        } else if escaped {
            Dataset::from_escaped_text(name, &text).map_err(|e| format!("{}: {e}", path.display()))
        } else {
            Ok(Dataset::from_text(name, &text))
        }
    }

    /// Builds a URL list from text with one URL per line. A leading UTF-8
    /// BOM, `\r` before `\n` and empty lines are dropped.
    pub fn from_text(name: String, text: &str) -> Dataset {
        Dataset::from_lines(name, &data_file::lines(text))
    }

    /// Builds a URL list from an escaped URL list's text: one URL per line,
    /// `\t`, `\n`, `\r` and `\\` decoded into the bytes they stand for
    /// ([`data_file::unescape`]), which is what the libraries get. Errors
    /// on a line with any other backslash.
    pub fn from_escaped_text(name: String, text: &str) -> Result<Dataset, String> {
        let urls = data_file::escaped_lines(text)?;
        let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
        Ok(Dataset::from_lines(name, &urls))
    }

    /// Builds a URL list of `lines`, each one URL as it is.
    fn from_lines(name: String, lines: &[&str]) -> Dataset {
        let size = lines.iter().map(|l| l.len() + 1).sum();
        let mut store = Store::with_capacity(size);
        let spans: Vec<Range<usize>> = lines.iter().map(|l| store.push(l)).collect();
        let buf = store.leak();
        let urls: Vec<&'static str> = spans.into_iter().map(|r| &buf[r]).collect();
        let bytes = urls.iter().map(|u| u.len()).sum();
        Dataset {
            name,
            kind: Kind::Urls,
            urls,
            pages: Vec::new(),
            bytes,
        }
    }

    /// Builds a links dataset from text with `page<TAB>link` per line (the
    /// first TAB separates them; the link may be empty, which is a valid
    /// reference). A leading UTF-8 BOM, `\r` before `\n` and empty lines
    /// are dropped. Adjacent lines with the same page form one [`Page`]; a
    /// page that comes back after another one starts a new group. Errors on
    /// a line without a TAB.
    pub fn from_links_text(name: String, text: &str) -> Result<Dataset, String> {
        let rows = data_file::link_rows(text)?;
        let mut store = Store::with_capacity(text.len() + rows.len());
        let mut page_spans: Vec<(Range<usize>, Range<usize>)> = Vec::new();
        let mut link_spans: Vec<Range<usize>> = Vec::with_capacity(rows.len());
        let mut last_page: Option<&str> = None;
        for (page, link) in rows {
            if last_page != Some(page) {
                let span = store.push(page);
                let first = link_spans.len();
                page_spans.push((span, first..first));
                last_page = Some(page);
            }
            link_spans.push(store.push(link));
            if let Some((_, links)) = page_spans.last_mut() {
                links.end = link_spans.len();
            }
        }
        let buf = store.leak();
        let urls: Vec<&'static str> = link_spans.into_iter().map(|r| &buf[r]).collect();
        let pages: Vec<Page> = page_spans
            .into_iter()
            .map(|(span, links)| Page {
                url: &buf[span],
                links,
            })
            .collect();
        let bytes = urls.iter().map(|u| u.len()).sum::<usize>()
            + pages.iter().map(|p| p.url.len()).sum::<usize>();
        Ok(Dataset {
            name,
            kind: Kind::Links,
            urls,
            pages,
            bytes,
        })
    }
}

/// One buffer holding every string of a dataset, each followed by a NUL. It
/// is leaked: a benchmark loads each dataset once and keeps it until exit.
struct Store(String);

impl Store {
    fn with_capacity(n: usize) -> Store {
        Store(String::with_capacity(n))
    }

    /// Appends `s` and a NUL; returns where `s` is.
    fn push(&mut self, s: &str) -> Range<usize> {
        let start = self.0.len();
        self.0.push_str(s);
        self.0.push('\0');
        start..start + s.len()
    }

    fn leak(self) -> &'static str {
        Box::leak(self.0.into_boxed_str())
    }
}

/// The libraries (and ways of calling wurl) that the benchmark compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lib {
    /// Not a library: one pass summing every byte of each URL.
    Floor,
    /// `wurl_canon_into` through the C ABI, into a reused buffer.
    WurlInto,
    /// `wurl_canon_into` with the charset label `"utf-8"` (what a crawler
    /// passes for a page that declares it): the same output as
    /// [`Lib::WurlInto`], whose cost it should have.
    WurlIntoUtf8,
    /// `wurl_parse` + `wurl_resolve` (against its own parse) +
    /// `wurl_canonicalize` + `wurl_serialize` + 3 `wurl_free` through the C
    /// ABI: the same work as `wurl_canon_into` with handles. On links: the
    /// page parsed once, then per link everything but the `wurl_parse`.
    WurlHandle,
    /// `wurl::canon_into` (the Rust API) into a reused `String`.
    WurlRust,
    /// `wurl_canon_key_into` with the rules [`BENCH_RULES`] (compiled
    /// once), no SURT: the price of the rules over `wurl-into`.
    WurlRules,
    /// `wurl_canon_key_into` with `WURL_KEY_SURT`, no rules: the price of
    /// SURT over `wurl-into`.
    WurlSurt,
    /// `wurl_canon_into` with `WURL_FLAG_URL_STANDARD` (the URL Standard
    /// model, the `url` crate inside) into a reused buffer.
    WurlStandard,
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
        Lib::WurlIntoUtf8,
        Lib::WurlHandle,
        Lib::WurlRust,
        Lib::WurlRules,
        Lib::WurlSurt,
        Lib::WurlStandard,
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
            Lib::WurlIntoUtf8 => "wurl-into-utf8",
            Lib::WurlHandle => "wurl-handle",
            Lib::WurlRust => "wurl-rust",
            Lib::WurlRules => "wurl-rules",
            Lib::WurlSurt => "wurl-surt",
            Lib::WurlStandard => "wurl-standard",
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
            Lib::WurlIntoUtf8 => {
                "wurl C ABI: wurl_canon_into(NULL base, charset \"utf-8\", flags 0) into a reused buffer"
            }
            Lib::WurlHandle => {
                "wurl C ABI: wurl_parse + wurl_resolve(self) + wurl_canonicalize + wurl_serialize + 3x wurl_free"
            }
            Lib::WurlRust => "wurl Rust API: wurl::canon_into(None, ..) into a reused String",
            Lib::WurlRules => {
                "wurl C ABI: wurl_canon_key_into(NULL base, rules BENCH_RULES compiled once, no SURT) into a reused buffer"
            }
            Lib::WurlSurt => {
                "wurl C ABI: wurl_canon_key_into(NULL base, no rules, WURL_KEY_SURT) into a reused buffer"
            }
            Lib::WurlStandard => {
                "wurl C ABI: wurl_canon_into(NULL base, WURL_FLAG_URL_STANDARD) into a reused buffer"
            }
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

    /// What the row measures on a links dataset, for `--list`.
    pub fn describe_links(self) -> &'static str {
        match self {
            Lib::Floor => "sum every byte of each page (once per page) and of each link",
            Lib::WurlInto => {
                "wurl C ABI: wurl_parse(page) once per page, wurl_canon_into(page, link) into a reused buffer"
            }
            Lib::WurlIntoUtf8 => {
                "wurl C ABI: wurl_parse(page) once per page, wurl_canon_into(page, link, charset \"utf-8\") into a reused buffer"
            }
            Lib::WurlHandle => {
                "wurl C ABI: wurl_parse(page) once per page; wurl_resolve(page, link) + wurl_canonicalize + wurl_serialize + 2x wurl_free"
            }
            Lib::WurlRust => {
                "wurl Rust API: wurl::parse(page) once per page, wurl::canon_into(Some(&page), link) into a reused String"
            }
            Lib::WurlRules => {
                "wurl C ABI: wurl_parse(page) once per page, wurl_canon_key_into(page, link, rules BENCH_RULES, no SURT)"
            }
            Lib::WurlSurt => {
                "wurl C ABI: wurl_parse(page) once per page, wurl_canon_key_into(page, link, no rules, WURL_KEY_SURT)"
            }
            Lib::WurlStandard => {
                "wurl C ABI: wurl_canon_standard_into(page, link) (the URL Standard model: the page parsed again per link)"
            }
            Lib::Ada => {
                "ada-url crate v4: ada_url::Url::parse(link, Some(page)) + href() (ada re-parses the page per link: no parsed-base API)"
            }
            Lib::RustUrl => {
                "url crate v2.5: url::Url::parse(page) once per page, page.join(link) + as_str()"
            }
            #[cfg(wurl_bench_curl)]
            Lib::Curl => {
                "libcurl URL API: curl_url + curl_url_set(page) once per page; curl_url_dup + curl_url_set(link) + curl_url_get + cleanup"
            }
            #[cfg(wurl_bench_uriparser)]
            Lib::Uriparser => {
                "uriparser: parse the page once per page; parse the link + uriAddBaseUriA + uriNormalizeSyntaxA + uriToStringA + free"
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

/// Runs `lib` once over `ds` (every URL of a URL list, or every link of a
/// links file against its page); returns the number of URLs or links it
/// accepted.
pub fn run(lib: Lib, ds: &Dataset, scratch: &mut Scratch) -> usize {
    match ds.kind() {
        Kind::Urls => run_urls(lib, ds.urls(), scratch),
        Kind::Links => run_links(lib, ds, scratch),
    }
}

fn run_urls(lib: Lib, urls: &[&str], scratch: &mut Scratch) -> usize {
    match lib {
        Lib::Floor => run_floor(urls),
        Lib::WurlInto => run_wurl_into(urls, &mut scratch.buf),
        Lib::WurlIntoUtf8 => run_wurl_into_utf8(urls, &mut scratch.buf),
        Lib::WurlHandle => run_wurl_handle(urls),
        Lib::WurlRust => run_wurl_rust(urls, &mut scratch.string),
        Lib::WurlRules | Lib::WurlSurt => run_wurl_key(lib, urls, &mut scratch.buf),
        Lib::WurlStandard => run_wurl_standard(urls, &mut scratch.buf),
        Lib::Ada => run_ada(urls),
        Lib::RustUrl => run_rust_url(urls),
        #[cfg(wurl_bench_curl)]
        Lib::Curl => curl::run(urls),
        #[cfg(wurl_bench_uriparser)]
        Lib::Uriparser => uriparser::run(urls, &mut scratch.buf),
    }
}

fn run_links(lib: Lib, ds: &Dataset, scratch: &mut Scratch) -> usize {
    let (pages, links) = (ds.pages(), ds.urls());
    match lib {
        Lib::Floor => links_floor(pages, links),
        Lib::WurlInto => links_wurl_into(pages, links, &mut scratch.buf),
        Lib::WurlIntoUtf8 => links_wurl_into_utf8(pages, links, &mut scratch.buf),
        Lib::WurlHandle => links_wurl_handle(pages, links),
        Lib::WurlRust => links_wurl_rust(pages, links, &mut scratch.string),
        Lib::WurlRules | Lib::WurlSurt => links_wurl_key(lib, pages, links, &mut scratch.buf),
        Lib::WurlStandard => links_wurl_standard(pages, links, &mut scratch.buf),
        Lib::Ada => links_ada(pages, links),
        Lib::RustUrl => links_rust_url(pages, links),
        #[cfg(wurl_bench_curl)]
        Lib::Curl => curl::links(pages, links),
        #[cfg(wurl_bench_uriparser)]
        Lib::Uriparser => uriparser::links(pages, links, &mut scratch.buf),
    }
}

/// The output of `lib` for one URL of a URL list (`None` when it rejects
/// it), for the `--check` mode. Not timed.
pub fn output(lib: Lib, url: &str, scratch: &mut Scratch) -> Option<String> {
    match lib {
        Lib::Floor => Some(url.to_owned()),
        Lib::WurlInto => wurl_into_one(ptr::null(), 0, url, b"", &mut scratch.buf).map(lossy),
        Lib::WurlIntoUtf8 => {
            wurl_into_one(ptr::null(), 0, url, UTF8_LABEL, &mut scratch.buf).map(lossy)
        }
        Lib::WurlHandle => wurl_handle_one(url, lossy),
        Lib::WurlRust => {
            let mut s = String::new();
            wurl::canon_into(None, url, &wurl::CanonOptions::default(), &mut s).ok()?;
            Some(s)
        }
        Lib::WurlRules | Lib::WurlSurt => {
            let (rules, flags) = key_args(lib);
            wurl_key_one(ptr::null(), 0, url, rules, flags, &mut scratch.buf).map(lossy)
        }
        Lib::WurlStandard => wurl_standard_one("", url, &mut scratch.buf).map(lossy),
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

/// The outputs of `lib` for the links of one page (`None` for a link it
/// rejects), through the same calls as the timed runner (the page parsed
/// once), for the `--check` mode. Not timed.
pub fn link_outputs(
    lib: Lib,
    page: &str,
    links: &[&str],
    scratch: &mut Scratch,
) -> Vec<Option<String>> {
    match lib {
        Lib::Floor => links.iter().map(|l| Some((*l).to_owned())).collect(),
        Lib::WurlInto | Lib::WurlIntoUtf8 => match WurlBase::parse(page) {
            Some(base) => {
                let charset = charset_of(lib);
                links
                    .iter()
                    .map(|l| {
                        wurl_into_one(base.0, page.len(), l, charset, &mut scratch.buf).map(lossy)
                    })
                    .collect()
            }
            None => vec![None; links.len()],
        },
        Lib::WurlHandle => match WurlBase::parse(page) {
            Some(base) => links
                .iter()
                .map(|l| wurl_resolve_one(base.0, l, lossy))
                .collect(),
            None => vec![None; links.len()],
        },
        Lib::WurlRules | Lib::WurlSurt => match WurlBase::parse(page) {
            Some(base) => {
                let (rules, flags) = key_args(lib);
                links
                    .iter()
                    .map(|l| {
                        wurl_key_one(base.0, page.len(), l, rules, flags, &mut scratch.buf)
                            .map(lossy)
                    })
                    .collect()
            }
            None => vec![None; links.len()],
        },
        Lib::WurlRust => {
            let base = wurl::parse(page);
            let opts = wurl::CanonOptions::default();
            links
                .iter()
                .map(|l| {
                    let mut s = String::new();
                    wurl::canon_into(Some(&base), l, &opts, &mut s).ok()?;
                    Some(s)
                })
                .collect()
        }
        Lib::WurlStandard => links
            .iter()
            .map(|l| wurl_standard_one(page, l, &mut scratch.buf).map(lossy))
            .collect(),
        Lib::Ada => links
            .iter()
            .map(|l| {
                ada_url::Url::parse(*l, Some(page))
                    .ok()
                    .map(|u| u.href().to_owned())
            })
            .collect(),
        Lib::RustUrl => match url::Url::parse(page) {
            Ok(base) => links
                .iter()
                .map(|l| base.join(l).ok().map(String::from))
                .collect(),
            Err(_) => vec![None; links.len()],
        },
        #[cfg(wurl_bench_curl)]
        Lib::Curl => curl::link_outputs(page, links),
        #[cfg(wurl_bench_uriparser)]
        Lib::Uriparser => uriparser::link_outputs(page, links, &mut scratch.buf),
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

/// Sizes `buf` once for any result of an input of `input_len` bytes
/// against a base of at most `base_len` (`wurl_output_bound`): it only
/// grows, so a reused buffer stops growing at the dataset's longest line.
#[inline(always)]
fn fit(buf: &mut Vec<u8>, base_len: usize, input_len: usize) {
    let need = wurl::ffi::wurl_output_bound(base_len, input_len, 0);
    if buf.len() < need {
        buf.resize(need, 0);
    }
}

/// The charset label of the `wurl-into-utf8` row, as a caller passes a
/// page's declared encoding.
const UTF8_LABEL: &[u8] = b"utf-8";

/// The charset label a `wurl_canon_into` row passes: none (`charset_len`
/// 0, the default UTF-8), or [`UTF8_LABEL`].
fn charset_of(lib: Lib) -> &'static [u8] {
    match lib {
        Lib::WurlIntoUtf8 => UTF8_LABEL,
        _ => b"",
    }
}

/// One `wurl_canon_into` call against `base` (NULL: the input against
/// itself; `base_len`: at least its serialization's length, the page's),
/// with the charset label `charset` (empty: none, passed as NULL and 0),
/// into `buf` sized by [`fit`].
#[inline(always)]
fn wurl_into_one<'b>(
    base: *const wurl_url,
    base_len: usize,
    u: &str,
    charset: &[u8],
    buf: &'b mut Vec<u8>,
) -> Option<&'b [u8]> {
    use wurl::ffi::{WURL_OK, wurl_canon_into};
    fit(buf, base_len, u.len());
    let charset_ptr = if charset.is_empty() {
        ptr::null()
    } else {
        charset.as_ptr().cast::<c_char>()
    };
    {
        let mut len = 0usize;
        let st = wurl_canon_into(
            base,
            u.as_ptr().cast::<c_char>(),
            u.len(),
            charset_ptr,
            charset.len(),
            0,
            buf.as_mut_ptr().cast::<c_char>(),
            buf.len(),
            &mut len,
        );
        match st {
            WURL_OK => Some(&buf[..len]),
            _ => None,
        }
    }
}

#[inline(never)]
fn run_wurl_into(urls: &[&str], buf: &mut Vec<u8>) -> usize {
    let mut n = 0;
    for &u in urls {
        if let Some(out) = wurl_into_one(ptr::null(), 0, black_box(u), b"", buf) {
            black_box(out);
            n += 1;
        }
    }
    n
}

/// `run_wurl_into` with the charset label `"utf-8"`: a separate function,
/// so that a profile tells the two apart.
#[inline(never)]
fn run_wurl_into_utf8(urls: &[&str], buf: &mut Vec<u8>) -> usize {
    let mut n = 0;
    for &u in urls {
        if let Some(out) = wurl_into_one(ptr::null(), 0, black_box(u), UTF8_LABEL, buf) {
            black_box(out);
            n += 1;
        }
    }
    n
}

/// One `wurl_canon_standard_into` call against the page `base` (`""`: no
/// base), into `buf` sized by [`fit`].
#[inline(always)]
fn wurl_standard_one<'b>(base: &str, u: &str, buf: &'b mut Vec<u8>) -> Option<&'b [u8]> {
    use wurl::ffi::{WURL_OK, wurl_canon_standard_into};
    fit(buf, base.len(), u.len());
    {
        let mut len = 0usize;
        let st = wurl_canon_standard_into(
            base.as_ptr().cast::<c_char>(),
            base.len(),
            u.as_ptr().cast::<c_char>(),
            u.len(),
            ptr::null(),
            0,
            ptr::null(),
            0,
            buf.as_mut_ptr().cast::<c_char>(),
            buf.len(),
            &mut len,
        );
        match st {
            WURL_OK => Some(&buf[..len]),
            _ => None,
        }
    }
}

/// `wurl_canon_into` with `WURL_FLAG_URL_STANDARD`, against no base.
#[inline(never)]
fn run_wurl_standard(urls: &[&str], buf: &mut Vec<u8>) -> usize {
    use wurl::ffi::{WURL_FLAG_URL_STANDARD, WURL_OK, wurl_canon_into};
    let mut n = 0;
    for &u in urls {
        let u = black_box(u);
        fit(buf, 0, u.len());
        {
            let mut len = 0usize;
            let st = wurl_canon_into(
                ptr::null(),
                u.as_ptr().cast::<c_char>(),
                u.len(),
                ptr::null(),
                0,
                WURL_FLAG_URL_STANDARD,
                buf.as_mut_ptr().cast::<c_char>(),
                buf.len(),
                &mut len,
            );
            if st == WURL_OK {
                black_box(&buf[..len]);
                n += 1;
            }
        }
    }
    n
}

/// `wurl_canon_standard_into(page, link)` per link.
#[inline(never)]
fn links_wurl_standard(pages: &[Page], links: &[&str], buf: &mut Vec<u8>) -> usize {
    let mut n = 0;
    for p in pages {
        let page = black_box(p.url);
        for &l in &links[p.links.clone()] {
            if let Some(out) = wurl_standard_one(page, black_box(l), buf) {
                black_box(out);
                n += 1;
            }
        }
    }
    n
}

/// A page parsed once into a wurl handle (`wurl_parse`), freed on drop.
struct WurlBase(*mut wurl_url);

impl WurlBase {
    /// `None` when `wurl_parse` fails (only for an input over
    /// `WURL_MAX_INPUT_LEN`): the page's links are then all rejected.
    #[inline(always)]
    fn parse(page: &str) -> Option<WurlBase> {
        let mut h: *mut wurl_url = ptr::null_mut();
        let st = wurl::ffi::wurl_parse(page.as_ptr().cast::<c_char>(), page.len(), 0, &mut h);
        (st == wurl::ffi::WURL_OK).then_some(WurlBase(h))
    }
}

impl Drop for WurlBase {
    fn drop(&mut self) {
        wurl::ffi::wurl_free(self.0);
    }
}

/// The handle path from a base handle: `wurl_resolve(base, u)`,
/// `wurl_canonicalize` (UTF-8 query), `wurl_serialize`, and `wurl_free` of
/// the resolved and canonical handles. `f` sees the serialization while its
/// handle is alive. `base` must be a live handle.
#[inline(always)]
fn wurl_resolve_one<R>(base: *const wurl_url, u: &str, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
    use wurl::ffi::{WURL_OK, wurl_canonicalize, wurl_free, wurl_resolve, wurl_serialize};
    let mut resolved: *mut wurl_url = ptr::null_mut();
    if wurl_resolve(base, u.as_ptr().cast::<c_char>(), u.len(), 0, &mut resolved) != WURL_OK {
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

/// The handle path through the C ABI, doing what `wurl_canon_into` (and
/// `url_to_canon_url`) does with no base: `wurl_parse` the input,
/// `wurl_resolve` it against its own parse, `wurl_canonicalize`,
/// `wurl_serialize`, and `wurl_free` the three handles.
#[inline(always)]
fn wurl_handle_one<R>(u: &str, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
    let parsed = WurlBase::parse(u)?;
    wurl_resolve_one(parsed.0, u, f)
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

// The links runners. Each goes over the pages in order and, for each page,
// does once what its API lets a caller do once per page (wurl and rust-url:
// parse the page), then resolves each of the page's links against it and
// reads the resulting string. The per-page work is inside the timed sample.

#[inline(never)]
fn links_floor(pages: &[Page], links: &[&str]) -> usize {
    let mut n = 0;
    let sum = |s: &str| s.bytes().fold(0u32, |a, b| a.wrapping_add(u32::from(b)));
    for p in pages {
        black_box(sum(black_box(p.url)));
        for &l in &links[p.links.clone()] {
            black_box(sum(black_box(l)));
            n += 1;
        }
    }
    n
}

#[inline(never)]
fn links_wurl_into(pages: &[Page], links: &[&str], buf: &mut Vec<u8>) -> usize {
    let mut n = 0;
    for p in pages {
        let Some(base) = WurlBase::parse(black_box(p.url)) else {
            continue;
        };
        for &l in &links[p.links.clone()] {
            if let Some(out) = wurl_into_one(base.0, p.url.len(), black_box(l), b"", buf) {
                black_box(out);
                n += 1;
            }
        }
    }
    n
}

/// `links_wurl_into` with the charset label `"utf-8"`.
#[inline(never)]
fn links_wurl_into_utf8(pages: &[Page], links: &[&str], buf: &mut Vec<u8>) -> usize {
    let mut n = 0;
    for p in pages {
        let Some(base) = WurlBase::parse(black_box(p.url)) else {
            continue;
        };
        for &l in &links[p.links.clone()] {
            if let Some(out) = wurl_into_one(base.0, p.url.len(), black_box(l), UTF8_LABEL, buf) {
                black_box(out);
                n += 1;
            }
        }
    }
    n
}

/// The rules of the `wurl-rules` row: what a crawler's dedup step applies.
pub const BENCH_RULES: &str =
    "drop-fragment,strip-www,sort-query,strip-session-ids,drop-params=utm_*|fbclid|gclid";

/// A compiled rules handle shared by every call (the pointer as an
/// integer, for the `OnceLock`: a rules handle may be used from any
/// thread).
fn bench_rules() -> *const wurl::ffi::wurl_rules {
    static RULES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *RULES.get_or_init(|| {
        let mut r = ptr::null_mut();
        let st = wurl::ffi::wurl_rules_compile(
            BENCH_RULES.as_ptr().cast::<c_char>(),
            BENCH_RULES.len(),
            &mut r,
            ptr::null_mut(),
            0,
        );
        assert_eq!(st, wurl::ffi::WURL_OK, "BENCH_RULES");
        r as usize
    }) as *const wurl::ffi::wurl_rules
}

/// The rules and key flags of a key row.
fn key_args(lib: Lib) -> (*const wurl::ffi::wurl_rules, u32) {
    match lib {
        Lib::WurlRules => (bench_rules(), 0),
        _ => (ptr::null(), wurl::ffi::WURL_KEY_SURT),
    }
}

/// One `wurl_canon_key_into` call (`base_len` as for [`wurl_into_one`]),
/// into `buf` sized by [`fit`].
#[inline(always)]
fn wurl_key_one<'b>(
    base: *const wurl_url,
    base_len: usize,
    u: &str,
    rules: *const wurl::ffi::wurl_rules,
    flags: u32,
    buf: &'b mut Vec<u8>,
) -> Option<&'b [u8]> {
    use wurl::ffi::{WURL_OK, wurl_canon_key_into};
    fit(buf, base_len, u.len());
    {
        let mut len = 0usize;
        let st = wurl_canon_key_into(
            base,
            u.as_ptr().cast::<c_char>(),
            u.len(),
            ptr::null(),
            0,
            0,
            rules,
            flags,
            buf.as_mut_ptr().cast::<c_char>(),
            buf.len(),
            &mut len,
        );
        match st {
            WURL_OK => Some(&buf[..len]),
            _ => None,
        }
    }
}

#[inline(never)]
fn run_wurl_key(lib: Lib, urls: &[&str], buf: &mut Vec<u8>) -> usize {
    let (rules, flags) = key_args(lib);
    let mut n = 0;
    for &u in urls {
        if let Some(out) = wurl_key_one(ptr::null(), 0, black_box(u), rules, flags, buf) {
            black_box(out);
            n += 1;
        }
    }
    n
}

#[inline(never)]
fn links_wurl_key(lib: Lib, pages: &[Page], links: &[&str], buf: &mut Vec<u8>) -> usize {
    let (rules, flags) = key_args(lib);
    let mut n = 0;
    for p in pages {
        let Some(base) = WurlBase::parse(black_box(p.url)) else {
            continue;
        };
        for &l in &links[p.links.clone()] {
            if let Some(out) = wurl_key_one(base.0, p.url.len(), black_box(l), rules, flags, buf) {
                black_box(out);
                n += 1;
            }
        }
    }
    n
}

#[inline(never)]
fn links_wurl_handle(pages: &[Page], links: &[&str]) -> usize {
    let mut n = 0;
    for p in pages {
        let Some(base) = WurlBase::parse(black_box(p.url)) else {
            continue;
        };
        for &l in &links[p.links.clone()] {
            if wurl_resolve_one(base.0, black_box(l), |b| {
                black_box(b);
            })
            .is_some()
            {
                n += 1;
            }
        }
    }
    n
}

#[inline(never)]
fn links_wurl_rust(pages: &[Page], links: &[&str], out: &mut String) -> usize {
    let opts = wurl::CanonOptions::default();
    let mut n = 0;
    for p in pages {
        let base = wurl::parse(black_box(p.url));
        for &l in &links[p.links.clone()] {
            out.clear();
            if wurl::canon_into(Some(&base), black_box(l), &opts, out).is_ok() {
                black_box(out.as_str());
                n += 1;
            }
        }
    }
    n
}

/// ada's only way to resolve against a base, in the crate as in its C API
/// (`ada_parse_with_base`), takes the base as a string and parses it on
/// every call: there is nothing to parse once per page.
#[inline(never)]
fn links_ada(pages: &[Page], links: &[&str]) -> usize {
    let mut n = 0;
    for p in pages {
        let page = black_box(p.url);
        for &l in &links[p.links.clone()] {
            if let Ok(u) = ada_url::Url::parse(black_box(l), Some(page)) {
                black_box(u.href());
                n += 1;
            }
        }
    }
    n
}

#[inline(never)]
fn links_rust_url(pages: &[Page], links: &[&str]) -> usize {
    let mut n = 0;
    for p in pages {
        let Ok(base) = url::Url::parse(black_box(p.url)) else {
            continue;
        };
        for &l in &links[p.links.clone()] {
            if let Ok(u) = base.join(black_box(l)) {
                black_box(u.as_str());
                n += 1;
            }
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
        fn curl_url_dup(handle: *const Curlu) -> *mut Curlu;
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

    /// A page's URL set on a curl handle (`curl_url` + `curl_url_set`),
    /// cleaned up on drop. A link is resolved against it on a copy
    /// (`curl_url_dup`): setting a relative URL on a handle that holds one
    /// resolves it, and the copy keeps the page for the next link.
    struct PageHandle(*mut Curlu);

    impl PageHandle {
        /// `page` must be a NUL-terminated string. `None` when curl rejects
        /// the page (its links are then all rejected).
        #[inline(always)]
        unsafe fn new(page: *const c_char) -> Option<PageHandle> {
            // SAFETY: `page` is NUL-terminated (caller's promise); the
            // handle is cleaned up here on failure, by Drop otherwise.
            unsafe {
                let h = curl_url();
                if h.is_null() {
                    return None;
                }
                if curl_url_set(h, CURLUPART_URL, page, CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK {
                    curl_url_cleanup(h);
                    return None;
                }
                Some(PageHandle(h))
            }
        }

        /// Resolves `link` (NUL-terminated) against the page with
        /// `curl_url_dup`, `curl_url_set(URL, link)`, `curl_url_get(URL)`,
        /// `curl_free` and `curl_url_cleanup`.
        #[inline(always)]
        unsafe fn resolve<R>(&self, link: *const c_char, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
            // SAFETY: `self.0` is a live handle; `link` is NUL-terminated
            // (caller's promise); the copy is cleaned up here; the string
            // curl_url_get returns is NUL-terminated and freed with curl_free.
            unsafe {
                let h = curl_url_dup(self.0);
                if h.is_null() {
                    return None;
                }
                let mut r = None;
                if curl_url_set(h, CURLUPART_URL, link, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK {
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
    }

    impl Drop for PageHandle {
        fn drop(&mut self) {
            // SAFETY: a live handle from curl_url, cleaned up once.
            unsafe { curl_url_cleanup(self.0) }
        }
    }

    /// The outputs for the links of one page (copies made for the NULs).
    pub fn link_outputs(page: &str, links: &[&str]) -> Vec<Option<String>> {
        init();
        let cstr = |s: &str| std::ffi::CString::new(s).ok();
        let Some(page) = cstr(page) else {
            return vec![None; links.len()];
        };
        // SAFETY: `page` is NUL-terminated.
        let Some(base) = (unsafe { PageHandle::new(page.as_ptr()) }) else {
            return vec![None; links.len()];
        };
        links
            .iter()
            .map(|l| {
                let l = cstr(l)?;
                // SAFETY: `l` is NUL-terminated.
                unsafe { base.resolve(l.as_ptr(), super::lossy) }
            })
            .collect()
    }

    /// Every page and link must be followed by a NUL byte in memory, as
    /// those of a `Dataset` are.
    #[inline(never)]
    pub fn links(pages: &[super::Page], links: &[&str]) -> usize {
        init();
        let mut n = 0;
        for p in pages {
            let page = black_box(p.url);
            // SAFETY: the pages of a `Dataset` are followed by a NUL byte
            // (the only caller passes `Dataset::pages`).
            let Some(base) = (unsafe { PageHandle::new(page.as_ptr().cast()) }) else {
                continue;
            };
            for &l in &links[p.links.clone()] {
                let l = black_box(l);
                // SAFETY: so are its links (`Dataset::urls`).
                let ok = unsafe {
                    base.resolve(l.as_ptr().cast(), |b| {
                        black_box(b);
                    })
                };
                if ok.is_some() {
                    n += 1;
                }
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
        fn uriAddBaseUriA(
            absolute_dest: *mut UriUriA,
            relative_source: *const UriUriA,
            absolute_base: *const UriUriA,
        ) -> c_int;
        fn uriToStringCharsRequiredA(uri: *const UriUriA, chars_required: *mut c_int) -> c_int;
        fn uriToStringA(
            dest: *mut c_char,
            uri: *const UriUriA,
            max_chars: c_int,
            chars_written: *mut c_int,
        ) -> c_int;
        fn uriFreeUriMembersA(uri: *mut UriUriA);
    }

    fn zeroed() -> UriUriA {
        UriUriA { _opaque: [0; 512] }
    }

    /// Parses `u` into `uri` (`uriParseSingleUriExA`); on success the
    /// caller must `uriFreeUriMembersA` it, and `u` must outlive it (the
    /// parse points into `u`).
    #[inline(always)]
    fn parse(u: &str, uri: &mut UriUriA) -> bool {
        let mut err: *const c_char = ptr::null();
        let first = u.as_ptr().cast::<c_char>();
        // SAFETY: (first, afterLast) is the range of `u`; uriparser frees
        // what it allocated itself when parsing fails.
        unsafe { uriParseSingleUriExA(uri, first, first.add(u.len()), &mut err) == URI_SUCCESS }
    }

    /// `uriNormalizeSyntaxA` + `uriToStringA` of `uri` into `buf` (grown
    /// when too small); the result without its NUL. Does not free `uri`.
    #[inline(always)]
    fn normalize_into<'b>(uri: &mut UriUriA, buf: &'b mut Vec<u8>) -> Option<&'b [u8]> {
        // SAFETY (whole block): `uri` holds a successful parse or
        // resolution; `buf` has `buf.len()` bytes.
        unsafe {
            let mut written: c_int = 0;
            let mut ok = uriNormalizeSyntaxA(uri) == URI_SUCCESS;
            if ok {
                let cap = c_int::try_from(buf.len()).unwrap_or(c_int::MAX);
                ok = uriToStringA(buf.as_mut_ptr().cast(), uri, cap, &mut written) == URI_SUCCESS;
                if !ok {
                    // Too long for the buffer: size it and try again.
                    let mut need: c_int = 0;
                    if uriToStringCharsRequiredA(uri, &mut need) == URI_SUCCESS {
                        let need = usize::try_from(need).unwrap_or(0) + 1;
                        buf.resize(need, 0);
                        let cap = c_int::try_from(buf.len()).unwrap_or(c_int::MAX);
                        ok = uriToStringA(buf.as_mut_ptr().cast(), uri, cap, &mut written)
                            == URI_SUCCESS;
                    }
                }
            }
            // `written` counts the terminating NUL.
            let len = usize::try_from(written).unwrap_or(0).saturating_sub(1);
            ok.then(|| &buf[..len])
        }
    }

    #[inline(always)]
    pub fn one<'b>(u: &str, buf: &'b mut Vec<u8>) -> Option<&'b [u8]> {
        let mut uri = zeroed();
        if !parse(u, &mut uri) {
            return None;
        }
        let r = normalize_into(&mut uri, buf).map(|b| b.len());
        // SAFETY: `uri` holds a successful parse, freed once.
        unsafe { uriFreeUriMembersA(&mut uri) };
        r.map(|n| &buf[..n])
    }

    /// A page parsed once (`uriParseSingleUriExA`), freed on drop. It
    /// points into the page's string, which outlives it.
    struct Base(UriUriA);

    impl Base {
        #[inline(always)]
        fn parse(page: &str) -> Option<Base> {
            let mut uri = zeroed();
            parse(page, &mut uri).then_some(Base(uri))
        }

        /// Parses `link`, resolves it against the page (`uriAddBaseUriA`,
        /// RFC 3986 section 5.2.2; it fails when the page has no scheme),
        /// normalizes and serializes the result into `buf`, frees both.
        #[inline(always)]
        fn resolve<'b>(&self, link: &str, buf: &'b mut Vec<u8>) -> Option<&'b [u8]> {
            let mut rel = zeroed();
            if !parse(link, &mut rel) {
                return None;
            }
            let mut abs = zeroed();
            // SAFETY: `rel` and `self.0` hold successful parses; `abs` is
            // written by uriAddBaseUriA and must be freed only on success.
            let resolved = unsafe { uriAddBaseUriA(&mut abs, &rel, &self.0) } == URI_SUCCESS;
            let r = if resolved {
                let r = normalize_into(&mut abs, buf).map(|b| b.len());
                // SAFETY: a successful resolution, freed once, before `rel`
                // (it may point into `rel`'s parse).
                unsafe { uriFreeUriMembersA(&mut abs) };
                r
            } else {
                None
            };
            // SAFETY: a successful parse, freed once.
            unsafe { uriFreeUriMembersA(&mut rel) };
            r.map(|n| &buf[..n])
        }
    }

    impl Drop for Base {
        fn drop(&mut self) {
            // SAFETY: a successful parse, freed once.
            unsafe { uriFreeUriMembersA(&mut self.0) }
        }
    }

    pub fn link_outputs(page: &str, links: &[&str], buf: &mut Vec<u8>) -> Vec<Option<String>> {
        let Some(base) = Base::parse(page) else {
            return vec![None; links.len()];
        };
        links
            .iter()
            .map(|l| base.resolve(l, buf).map(super::lossy))
            .collect()
    }

    #[inline(never)]
    pub fn links(pages: &[super::Page], links: &[&str], buf: &mut Vec<u8>) -> usize {
        let mut n = 0;
        for p in pages {
            let Some(base) = Base::parse(black_box(p.url)) else {
                continue;
            };
            for &l in &links[p.links.clone()] {
                if let Some(out) = base.resolve(black_box(l), buf) {
                    black_box(out);
                    n += 1;
                }
            }
        }
        n
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_grouped_by_adjacent_page() {
        let text = "\u{feff}http://a/x\tb\r\nhttp://a/x\t\n\nhttp://b/\t#f\nhttp://a/x\t?q\n";
        let ds = Dataset::from_links_text("t".into(), text).unwrap();
        assert_eq!(ds.kind(), Kind::Links);
        // The empty link is kept: it is a valid reference.
        assert_eq!(ds.urls(), ["b", "", "#f", "?q"]);
        let pages: Vec<(&str, Range<usize>)> = ds
            .pages()
            .iter()
            .map(|p| (p.url, p.links.clone()))
            .collect();
        // A page that comes back after another one is a new group.
        assert_eq!(
            pages,
            [
                ("http://a/x", 0..2),
                ("http://b/", 2..3),
                ("http://a/x", 3..4)
            ]
        );
        // Links plus each page once per group.
        assert_eq!(ds.bytes, 1 + 2 + 2 + 10 + 9 + 10);
        // Every string is followed by a NUL in memory (curl reads C strings).
        for s in ds.urls().iter().chain(ds.pages().iter().map(|p| &p.url)) {
            // SAFETY: the store puts a NUL after every string, inside the
            // same leaked allocation.
            assert_eq!(unsafe { *s.as_ptr().add(s.len()) }, 0);
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_thread_cpu_clock_counts_work() {
        let t0 = thread_cpu_time().expect("Linux has CLOCK_THREAD_CPUTIME_ID");
        let mut x = 0u64;
        while thread_cpu_time().unwrap() - t0 < std::time::Duration::from_millis(5) {
            x = black_box(x.wrapping_add(1));
        }
        assert!(x > 0);
    }

    #[test]
    fn an_escaped_list_gives_the_library_the_bytes_the_escapes_stand_for() {
        let text = "\u{feff}http://a/\\tb\\n\r\n\n \\r\\nhttp://a/c\\\\d \nx\\ry\n";
        let ds = Dataset::from_escaped_text("t".into(), text).unwrap();
        assert_eq!(ds.kind(), Kind::Urls);
        assert_eq!(ds.urls(), ["http://a/\tb\n", " \r\nhttp://a/c\\d ", "x\ry"]);
        assert_eq!(ds.bytes, 12 + 16 + 3);
        for u in ds.urls() {
            assert_eq!(data_file::unescape(&data_file::escape(u)).unwrap(), *u);
            // SAFETY: the store puts a NUL after every string, inside the
            // same leaked allocation.
            assert_eq!(unsafe { *u.as_ptr().add(u.len()) }, 0);
        }
        // A backslash that is not one of the four escapes is refused: a file
        // written without them is not misread.
        let err = Dataset::from_escaped_text("t".into(), "http://a/\nhttp://a/\\x\n")
            .err()
            .unwrap();
        assert!(err.contains("line 2") && err.contains("\\x"), "{err}");
        assert!(data_file::unescape("a\\").is_err());
    }

    #[test]
    fn the_escaped_dataset_is_loaded_by_name_and_by_path() {
        let dir = std::env::temp_dir().join(format!("wurl-bench-esc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("hrefs.esc.txt"), "HTTP://A/\\tx\n").unwrap();
        let by_name = Dataset::load("hrefs", &dir).unwrap();
        let path = dir.join("hrefs.esc.txt");
        let by_path = Dataset::load(path.to_str().unwrap(), Path::new("/nonexistent")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        for ds in [by_name, by_path] {
            assert_eq!(ds.name, "hrefs");
            assert_eq!(ds.urls(), ["HTTP://A/\tx"]);
        }
    }

    /// The committed `hrefs` set: every class of change it is for, each on
    /// at least 50 lines (the query's are the fewest: few source URLs have
    /// a query), and no line the library leaves as it is or rejects.
    #[test]
    fn the_hrefs_set_has_every_class_and_no_canonical_line() {
        let ds = Dataset::load("hrefs", &default_data_dir()).unwrap();
        assert_eq!(ds.urls().len(), 20_000);
        let opts = wurl::CanonOptions::default();
        let mut out = String::new();
        let mut classes = std::collections::BTreeMap::<&str, usize>::new();
        for &u in ds.urls() {
            out.clear();
            assert!(wurl::canon_into(None, u, &opts, &mut out).is_ok(), "{u:?}");
            assert_ne!(out, u, "already canonical");
            let white = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
            let inner = u.trim_matches(white);
            let clean: String = inner.chars().filter(|&c| !"\t\n\r".contains(c)).collect();
            let (scheme, rest) = clean.split_once("://").unwrap();
            let cut = rest.find(['/', '?', '#']).unwrap_or(rest.len());
            let (host, rest) = rest.split_at(cut);
            let (rest, fragment) = rest.split_once('#').unwrap_or((rest, ""));
            let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
            let lower_hex = path.as_bytes().windows(3).any(|w| {
                w[0] == b'%'
                    && w[1..].iter().all(u8::is_ascii_hexdigit)
                    && w[1..].iter().any(u8::is_ascii_lowercase)
            });
            let upper_unreserved = path.as_bytes().windows(3).any(|w| {
                w[0] == b'%'
                    && !w[1..].iter().any(u8::is_ascii_lowercase)
                    && std::str::from_utf8(&w[1..])
                        .ok()
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                        .is_some_and(|b| b.is_ascii_alphanumeric() || b"-_~".contains(&b))
            });
            for (class, has) in [
                (
                    "mixed-case scheme",
                    scheme.bytes().any(|b| b.is_ascii_uppercase()),
                ),
                (
                    "mixed-case host",
                    host.bytes().any(|b| b.is_ascii_uppercase()),
                ),
                (
                    "default port",
                    host.ends_with(":80") || host.ends_with(":443"),
                ),
                ("./ segment", path.contains("/./")),
                ("../ segment", path.contains("/../")),
                ("escaped unreserved", upper_unreserved),
                ("lower-case hex", lower_hex),
                ("space in path", path.contains(' ')),
                ("space in query", query.contains(' ')),
                ("space in fragment", fragment.contains(' ')),
                ("non-ASCII in path", !path.is_ascii()),
                ("non-ASCII in query", !query.is_ascii()),
                ("non-ASCII in fragment", !fragment.is_ascii()),
                ("white space around", inner.len() != u.len()),
                ("TAB inside", inner.contains('\t')),
                ("LF inside", inner.contains('\n')),
                ("CR inside", inner.contains('\r')),
            ] {
                *classes.entry(class).or_default() += usize::from(has);
            }
        }
        for (class, n) in &classes {
            assert!(*n >= 50, "{class}: {n} lines");
        }
    }

    #[test]
    fn the_utf8_row_passes_its_label_and_gives_wurl_into_output() {
        let mut scratch = Scratch::default();
        let u = " HTTP://Example.COM:80/a/./b?q=\u{e9}\t#f ";
        let plain = output(Lib::WurlInto, u, &mut scratch);
        assert_eq!(plain.as_deref(), Some("http://example.com/a/b?q=%C3%A9#f"));
        assert_eq!(output(Lib::WurlIntoUtf8, u, &mut scratch), plain);
        assert_eq!(charset_of(Lib::WurlIntoUtf8), b"utf-8");
        assert_eq!(charset_of(Lib::WurlInto), b"");
    }

    #[test]
    fn a_links_line_without_tab_is_an_error() {
        let err = Dataset::from_links_text("t".into(), "http://a/\tb\nhttp://a/ c\n")
            .err()
            .unwrap();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn the_runners_agree_with_the_check_outputs() {
        let ds = Dataset::from_links_text(
            "t".into(),
            "HTTP://Example.COM:80/a/b\t../c/./d?x#y\nHTTP://Example.COM:80/a/b\t//other/\n\
             mailto:x@y\tz\n",
        )
        .unwrap();
        let mut scratch = Scratch::default();
        for &lib in Lib::ALL {
            let mut expect = 0;
            for p in ds.pages() {
                let outs = link_outputs(lib, p.url, &ds.urls()[p.links.clone()], &mut scratch);
                expect += outs.iter().filter(|o| o.is_some()).count();
            }
            assert_eq!(run(lib, &ds, &mut scratch), expect, "{}", lib.name());
        }
        let base = &ds.pages()[0];
        let wurl_out = link_outputs(
            Lib::WurlInto,
            base.url,
            &ds.urls()[base.links.clone()],
            &mut scratch,
        );
        assert_eq!(
            wurl_out,
            [
                Some("http://example.com/c/d?x#y".to_owned()),
                Some("http://other/".to_owned())
            ]
        );
        for lib in [Lib::WurlHandle, Lib::WurlRust] {
            let outs = link_outputs(lib, base.url, &ds.urls()[base.links.clone()], &mut scratch);
            assert_eq!(outs, wurl_out, "{}", lib.name());
        }
    }
}
