//! `wurl-gen-pagewritten`: writes `bench/data/pagewritten.txt`, 20,000 URLs
//! as HTML pages write them, made from the real URLs of `kasztp.txt`.
//!
//! ```sh
//! cargo run --release -p wurl-bench --bin wurl-gen-pagewritten -- \
//!     bench/data/kasztp.txt > bench/data/pagewritten.txt
//! ```
//!
//! The output depends only on the input file and the constants below (a
//! fixed seed, splitmix64, no hashing with a random key): the command above
//! regenerates the committed file byte for byte. wurl is not consulted while
//! a URL is made; then it is canonicalized with `wurl::canon_into`, and
//! dropped if it is already canonical or invalid (see "None of the lines is
//! canonical" below); the summary on standard error says how many were.
//!
//! # Source URLs
//!
//! The lines of the input (a leading BOM dropped) that are `http://` or
//! `https://`, then a host of `a-z 0-9 . -` with at least one letter (no
//! user information, no port), then only printable ASCII other than `\`;
//! each URL once (first occurrence). They are shuffled (Fisher–Yates with
//! the generator below) and taken in that order, one source URL per output
//! line. One in four (drawn per URL) has its scheme set to `http` (kasztp is
//! almost all `https`; pages link both), which leaves it canonical.
//!
//! # Kinds
//!
//! Each of the kinds below, applied alone to a canonical URL, makes it
//! non-canonical (the 2012 algorithm changes it). Every line gets one
//! **primary** kind: the kind, among those that apply to its source URL,
//! used least often so far (the first in the list on a tie), so the kinds
//! get equal shares up to the URLs a kind cannot apply to. One line in four
//! (drawn per URL) gets a **second** kind, chosen the same way among the
//! other kinds that apply and combine with the first (`no-path` combines
//! only with `scheme-case`, `host-case`, `default-port`, `whitespace`). The
//! second is applied after the first and must not undo it: as a second
//! kind, `non-ascii` only accents letters; a second kind that finds nothing
//! left to change (the first took the path's last letters) is left out and
//! not counted.
//!
//! | kind | what is written | applies when |
//! |---|---|---|
//! | `scheme-case` | `HTTP://`, `Https://` (half each) | always |
//! | `host-case` | `WWW.EXAMPLE.COM`, `Www.Example.Com`, `www.Example.com` (a third each) | always (the host has a letter) |
//! | `default-port` | `:80` after an `http` host, `:443` after an `https` one | always |
//! | `dot-segment` | a `./` segment after one of the path's `/` | always |
//! | `dotdot-segment` | `x/../` after one of the path's `/`, `x` the first path segment of another source URL | always |
//! | `escaped-unreserved` | 1–3 letters, digits, `-`, `_` or `~` of the path as `%XX`, upper-case hex | the path has one |
//! | `lowercase-hex` | 1–3 of them as `%xx`, lower-case hex; the URL's other escapes put in lower case too | the path has one |
//! | `raw-space` | a space for a `-`, `_`, `+` or `%20` of the path or the query (half each when both can take it), or inserted in a word | the path has a letter or there is a query |
//! | `non-ascii` | 1–2 letters of the path or the query accented (`é`, `ü`, `ñ`, `ç`, ...), or, one time in four, the last path segment replaced by a non-Latin word (`東京`, `Москва`, ...) | the path or the query has a vowel, `n` or `c` |
//! | `whitespace` | spaces before, after, or before and after the URL (a third each) | always |
//! | `no-path` | `scheme://host` alone: no path, query or fragment | always |
//!
//! On top of that, one line in eight (drawn per URL; not a `no-path` one) gets
//! a **fragment with spaces**: its fragment's `-` and `_` become spaces, or a
//! fragment of two or three words from another source URL's path is
//! appended (`#feature driven development`); one in four of those fragments
//! also gets an accented letter. The canonical form keeps a fragment's
//! spaces and non-ASCII characters as they are, so this kind rides on a
//! primary kind and does not count towards making a line non-canonical.
//!
//! The standard error output lists how many lines got each kind. With
//! `--kinds FILE`, FILE gets one line per output line: its kinds, primary
//! first, comma-separated (`fragment` for the fragment with spaces), to
//! split the dataset by kind.
//!
//! # `--hard`: `pagehard.txt`
//!
//! ```sh
//! cargo run --release -p wurl-bench --bin wurl-gen-pagewritten -- \
//!     bench/data/kasztp.txt --hard > bench/data/pagehard.txt
//! ```
//!
//! The same source URLs and rules with another seed and a harder mix:
//! every line gets a primary and a second kind, one line in two a third
//! (combining with both), and one line in two a fragment with spaces, half
//! of them accented. The kinds are `host-case`, `idn-host`, `ipv4-host`,
//! `lowercase-hex`, `non-ascii`, `raw-space`, `default-port`,
//! `dot-segment` and `dotdot-segment`; the two new ones:
//!
//! | kind | what is written | applies when |
//! |---|---|---|
//! | `idn-host` | the label before the last one replaced by a word with non-ASCII letters (`münchen`, `東京`, `пример`, ...), or, one time in three, one of its letters accented | always |
//! | `ipv4-host` | the host replaced by an IPv4 address in a form the algorithm rewrites: hex or octal parts, one 32-bit number, or two or three parts (a quarter each) | always |
//!
//! The three host kinds do not combine with each other, except `host-case`
//! after `idn-host` (a mixed-case IDN).
//!
//! # `--all-classes`: `hrefs.esc.txt`
//!
//! ```sh
//! cargo run --release -p wurl-bench --bin wurl-gen-pagewritten -- \
//!     bench/data/kasztp.txt --all-classes > bench/data/hrefs.esc.txt
//! ```
//!
//! URLs as `href` attributes hold them, every class of the first list
//! above and the white space a page's source adds: the kinds of
//! `pagewritten.txt` except `no-path`, plus `control-inside`; one line in two a
//! second kind, one line in four a fragment with spaces (half of them
//! accented). Another seed. Two kinds write differently here:
//!
//! | kind | what is written | applies when |
//! |---|---|---|
//! | `whitespace` | before the URL, after it, or both (a third each), one of: spaces, an LF or CRLF and indentation (an attribute value on its own line), a TAB; after it also an LF or CRLF (the line end before the closing quote) | always |
//! | `control-inside` | one or two of TAB, LF, CR, CRLF, each between two characters of the URL, anywhere from the scheme to the fragment (a URL broken across lines of the source) | always |
//!
//! A line may then hold a TAB, LF or CR, which a file of one URL per line
//! cannot hold as they are: this mode writes an escaped URL list
//! (`bench/src/data_file.rs`: `\t`, `\n`, `\r`, `\\`), which the benchmark
//! decodes, so that the library gets the real bytes.
//!
//! # None of the lines is canonical
//!
//! In every mode each line made is canonicalized with `wurl::canon_into`
//! before it is kept: a line whose canonical form is the line itself, or
//! that the library rejects, is dropped (its kinds not counted) and the
//! next source URL taken instead, until there are 20,000 lines. The summary
//! says how many were dropped (none, for the committed files). The output
//! hence depends on the library only through its canonical forms, which
//! the golden keys keep.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

/// Output lines.
const LINES: usize = 20_000;
/// The generator's seed.
const SEED: u64 = 20_261_126;
/// The seed of `--hard`.
const SEED_HARD: u64 = 20_261_128;
/// The seed of `--all-classes`.
const SEED_ALL_CLASSES: u64 = 20_261_202;

/// splitmix64 (Steele, Lea, Flood 2014): a fixed sequence for a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0; the modulo bias is irrelevant here).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True one time in `n`.
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    SchemeCase,
    HostCase,
    DefaultPort,
    DotSegment,
    DotDotSegment,
    EscapedUnreserved,
    LowercaseHex,
    RawSpace,
    NonAscii,
    Whitespace,
    NoPath,
    IdnHost,
    Ipv4Host,
    ControlInside,
}

const KINDS: [Kind; 11] = [
    Kind::SchemeCase,
    Kind::HostCase,
    Kind::DefaultPort,
    Kind::DotSegment,
    Kind::DotDotSegment,
    Kind::EscapedUnreserved,
    Kind::LowercaseHex,
    Kind::RawSpace,
    Kind::NonAscii,
    Kind::Whitespace,
    Kind::NoPath,
];

/// The kinds of `--all-classes`: every class of white space and case a
/// page's `href` shows, TAB, LF and CR inside the URL among them.
const ALL_CLASS_KINDS: [Kind; 11] = [
    Kind::SchemeCase,
    Kind::HostCase,
    Kind::DefaultPort,
    Kind::DotSegment,
    Kind::DotDotSegment,
    Kind::EscapedUnreserved,
    Kind::LowercaseHex,
    Kind::RawSpace,
    Kind::NonAscii,
    Kind::Whitespace,
    Kind::ControlInside,
];

/// The kinds of `--hard`.
const HARD_KINDS: [Kind; 9] = [
    Kind::HostCase,
    Kind::IdnHost,
    Kind::Ipv4Host,
    Kind::LowercaseHex,
    Kind::NonAscii,
    Kind::RawSpace,
    Kind::DefaultPort,
    Kind::DotSegment,
    Kind::DotDotSegment,
];

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::SchemeCase => "scheme-case",
            Kind::HostCase => "host-case",
            Kind::DefaultPort => "default-port",
            Kind::DotSegment => "dot-segment",
            Kind::DotDotSegment => "dotdot-segment",
            Kind::EscapedUnreserved => "escaped-unreserved",
            Kind::LowercaseHex => "lowercase-hex",
            Kind::RawSpace => "raw-space",
            Kind::NonAscii => "non-ascii",
            Kind::Whitespace => "whitespace",
            Kind::NoPath => "no-path",
            Kind::IdnHost => "idn-host",
            Kind::Ipv4Host => "ipv4-host",
            Kind::ControlInside => "control-inside",
        }
    }

    /// Whether the kind can be applied to `u`.
    fn applies(self, u: &Parts) -> bool {
        match self {
            Kind::EscapedUnreserved | Kind::LowercaseHex => !escapable(&u.path).is_empty(),
            Kind::RawSpace => u.path.bytes().any(|b| b.is_ascii_alphabetic()) || u.query.is_some(),
            Kind::NonAscii => {
                u.path.chars().any(|c| accent(c).is_some())
                    || u.query
                        .as_deref()
                        .is_some_and(|q| q.chars().any(|c| accent(c).is_some()))
            }
            _ => true,
        }
    }

    /// Whether a URL can have both kinds.
    fn combines(self, other: Kind) -> bool {
        let with_no_path = |k| {
            matches!(
                k,
                Kind::SchemeCase | Kind::HostCase | Kind::DefaultPort | Kind::Whitespace
            )
        };
        let host = |k| matches!(k, Kind::HostCase | Kind::IdnHost | Kind::Ipv4Host);
        self != other
            && (!host(self) || !host(other) || (self == Kind::IdnHost && other == Kind::HostCase))
            && (self != Kind::NoPath || with_no_path(other))
            && (other != Kind::NoPath || with_no_path(self))
    }
}

/// A source URL taken apart. `path` is empty or starts with `/`.
#[derive(Clone)]
struct Parts {
    scheme: String,
    host: String,
    port: String,
    path: String,
    query: Option<String>,
    fragment: Option<String>,
}

impl Parts {
    /// A source URL as described in the module comment, or `None`.
    fn of(line: &str) -> Option<Parts> {
        if !line
            .bytes()
            .all(|b| (0x21..0x7f).contains(&b) && b != b'\\')
        {
            return None;
        }
        let (scheme, rest) = line.split_once("://")?;
        if scheme != "http" && scheme != "https" {
            return None;
        }
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (host, rest) = rest.split_at(end);
        if !host
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
            || !host.bytes().any(|b| b.is_ascii_lowercase())
            || host.starts_with('.')
            || host.ends_with('.')
        {
            return None;
        }
        let (rest, fragment) = match rest.split_once('#') {
            Some((r, f)) => (r, Some(f.to_owned())),
            None => (rest, None),
        };
        let (path, query) = match rest.split_once('?') {
            Some((p, q)) => (p, Some(q.to_owned())),
            None => (rest, None),
        };
        Some(Parts {
            scheme: scheme.to_owned(),
            host: host.to_owned(),
            port: String::new(),
            path: path.to_owned(),
            query,
            fragment,
        })
    }

    fn write(&self, out: &mut String) {
        out.push_str(&self.scheme);
        out.push_str("://");
        out.push_str(&self.host);
        out.push_str(&self.port);
        out.push_str(&self.path);
        if let Some(q) = &self.query {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = &self.fragment {
            out.push('#');
            out.push_str(f);
        }
    }
}

/// The byte offsets of the path's octets that `escaped-unreserved` and
/// `lowercase-hex` may write as `%XX`: letters, digits, `-`, `_`, `~`, not
/// inside an existing escape. (`.` is left out: `%2E` segments are dot
/// segments.)
fn escapable(path: &str) -> Vec<usize> {
    let b = path.as_bytes();
    let mut v = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            i += 3;
            continue;
        }
        if b[i].is_ascii_alphanumeric() || matches!(b[i], b'-' | b'_' | b'~') {
            v.push(i);
        }
        i += 1;
    }
    v
}

/// The accented letter written for `c`, if any.
fn accent(c: char) -> Option<char> {
    Some(match c {
        'a' => 'ä',
        'e' => 'é',
        'i' => 'í',
        'o' => 'ö',
        'u' => 'ü',
        'n' => 'ñ',
        'c' => 'ç',
        'A' => 'Å',
        'E' => 'É',
        'O' => 'Ø',
        'U' => 'Ü',
        _ => return None,
    })
}

/// Words written in place of a last path segment by `non-ascii`.
const NON_LATIN: [&str; 8] = [
    "東京",
    "Москва",
    "日本語",
    "Ελλάδα",
    "עברית",
    "العربية",
    "한국어",
    "Straße",
];

/// Words written in place of a host label by `idn-host`.
const IDN_LABELS: [&str; 10] = [
    "münchen",
    "bücher",
    "straße",
    "東京",
    "пример",
    "español",
    "café",
    "日本語",
    "ελληνικά",
    "zürich",
];

/// Replaces the `n`-th (modulo the count) match of `pick` in `s` by `with`;
/// false when nothing matches.
fn replace_nth(
    s: &mut String,
    n: usize,
    pick: impl Fn(char) -> bool,
    with: impl Fn(char) -> String,
) -> bool {
    let hits: Vec<(usize, char)> = s.char_indices().filter(|&(_, c)| pick(c)).collect();
    if hits.is_empty() {
        return false;
    }
    let (i, c) = hits[n % hits.len()];
    s.replace_range(i..i + c.len_utf8(), &with(c));
    true
}

/// The offsets of the path's `/` that a segment can be inserted after.
fn slashes(path: &str) -> Vec<usize> {
    path.match_indices('/').map(|(i, _)| i).collect()
}

/// Inserts `seg` after one of the path's `/` (an empty path becomes `/seg`).
fn insert_segment(u: &mut Parts, rng: &mut Rng, seg: &str) {
    if u.path.is_empty() {
        u.path = format!("/{seg}");
        return;
    }
    let s = slashes(&u.path);
    let at = s[rng.below(s.len())] + 1;
    u.path.insert_str(at, seg);
}

/// Words of a URL's path for a fragment: runs of ASCII letters of 3 or more.
fn words(path: &str) -> Vec<&str> {
    path.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 3 && !matches!(*w, "html" | "htm" | "php" | "asp" | "aspx" | "www"))
        .collect()
}

struct Gen<'a> {
    rng: Rng,
    /// The source URLs, for the parts borrowed from another URL.
    sources: &'a [Parts],
    /// `raw-space` applied: in the path, in the query.
    spaces: [usize; 2],
    /// `non-ascii` applied: accents in the path, in the query, a non-Latin
    /// last segment.
    non_ascii: [usize; 3],
}

impl Gen<'_> {
    /// Another source URL, drawn.
    fn other(&mut self) -> &Parts {
        let i = self.rng.below(self.sources.len());
        &self.sources[i]
    }

    /// Applies `k` to `u`; false when it could not. `second`: `u` already
    /// has its primary kind, which this must not undo.
    fn apply(&mut self, k: Kind, u: &mut Parts, second: bool) -> bool {
        let rng = &mut self.rng;
        match k {
            Kind::SchemeCase => {
                u.scheme = if rng.one_in(2) {
                    u.scheme.to_ascii_uppercase()
                } else {
                    let mut s = u.scheme.clone();
                    s[..1].make_ascii_uppercase();
                    s
                };
                true
            }
            Kind::HostCase => {
                let before = u.host.clone();
                match rng.below(3) {
                    0 => u.host.make_ascii_uppercase(),
                    1 => {
                        u.host = u
                            .host
                            .split('.')
                            .map(|l| {
                                let mut l = l.to_owned();
                                if !l.is_empty() {
                                    l[..1].make_ascii_uppercase();
                                }
                                l
                            })
                            .collect::<Vec<_>>()
                            .join(".");
                    }
                    _ => {
                        // The label before the last one (`example` of
                        // `www.example.com`), capitalized.
                        let mut labels: Vec<String> =
                            u.host.split('.').map(str::to_owned).collect();
                        let n = labels.len();
                        let l = &mut labels[n.saturating_sub(2)];
                        if !l.is_empty() {
                            l[..1].make_ascii_uppercase();
                        }
                        u.host = labels.join(".");
                    }
                }
                if u.host == before {
                    u.host.make_ascii_uppercase();
                }
                true
            }
            Kind::DefaultPort => {
                u.port = if u.scheme.eq_ignore_ascii_case("http") {
                    ":80".to_owned()
                } else {
                    ":443".to_owned()
                };
                true
            }
            Kind::DotSegment => {
                insert_segment(u, rng, "./");
                true
            }
            Kind::DotDotSegment => {
                let seg = {
                    let o = self.other();
                    o.path
                        .split('/')
                        .find(|s| !s.is_empty() && *s != "." && *s != "..")
                        .unwrap_or("x")
                        .to_owned()
                };
                insert_segment(u, &mut self.rng, &format!("{seg}/../"));
                true
            }
            Kind::EscapedUnreserved | Kind::LowercaseHex => {
                let lower = k == Kind::LowercaseHex;
                let n = 1 + rng.below(3);
                let mut done = false;
                for _ in 0..n {
                    let at = escapable(&u.path);
                    if at.is_empty() {
                        break;
                    }
                    let i = at[rng.below(at.len())];
                    let b = u.path.as_bytes()[i];
                    let esc = if lower {
                        format!("%{b:02x}")
                    } else {
                        format!("%{b:02X}")
                    };
                    u.path.replace_range(i..=i, &esc);
                    done = true;
                }
                if lower {
                    lowercase_escapes(&mut u.path);
                    if let Some(q) = &mut u.query {
                        lowercase_escapes(q);
                    }
                }
                done
            }
            Kind::RawSpace => {
                let path_ok = u.path.bytes().any(|b| b.is_ascii_alphabetic());
                let in_query = match (&u.query, path_ok) {
                    (Some(_), true) => rng.one_in(2),
                    (Some(_), false) => true,
                    (None, _) => false,
                };
                if !path_ok && !in_query {
                    return false;
                }
                let n = rng.below(1 << 16);
                self.spaces[usize::from(in_query)] += 1;
                let s = if in_query {
                    u.query.as_mut().expect("a query")
                } else {
                    &mut u.path
                };
                if let Some(i) = s.find("%20") {
                    s.replace_range(i..i + 3, " ");
                    return true;
                }
                if replace_nth(s, n, |c| matches!(c, '-' | '_' | '+'), |_| " ".to_owned()) {
                    return true;
                }
                // Between two letters, or after the last letter.
                let b = s.as_bytes();
                let at = (1..b.len())
                    .filter(|&i| b[i - 1].is_ascii_alphabetic() && b[i].is_ascii_alphabetic())
                    .collect::<Vec<_>>();
                let i = if at.is_empty() {
                    match b.iter().rposition(u8::is_ascii_alphabetic) {
                        Some(i) => i + 1,
                        None => b.len(),
                    }
                } else {
                    at[n % at.len()]
                };
                s.insert(i, ' ');
                true
            }
            Kind::NonAscii => {
                let path_ok = u.path.chars().any(|c| accent(c).is_some());
                let query_ok = u
                    .query
                    .as_deref()
                    .is_some_and(|q| q.chars().any(|c| accent(c).is_some()));
                let in_query = query_ok && (!path_ok || rng.one_in(2));
                if !in_query && !path_ok {
                    return false;
                }
                if !in_query && rng.one_in(4) && !second {
                    // The last non-empty segment becomes a non-Latin word.
                    let word = NON_LATIN[rng.below(NON_LATIN.len())];
                    let p = &u.path;
                    let end = p.trim_end_matches('/').len();
                    let start = p[..end].rfind('/').map_or(0, |i| i + 1);
                    if start < end {
                        u.path.replace_range(start..end, word);
                        self.non_ascii[2] += 1;
                        return true;
                    }
                }
                let n = 1 + rng.below(2);
                let s = if in_query {
                    u.query.as_mut().expect("a query")
                } else {
                    &mut u.path
                };
                let mut done = false;
                for _ in 0..n {
                    let r = rng.below(1 << 16);
                    done |= replace_nth(
                        s,
                        r,
                        |c| accent(c).is_some(),
                        |c| accent(c).map(String::from).unwrap_or_default(),
                    );
                }
                self.non_ascii[usize::from(in_query)] += usize::from(done);
                done
            }
            Kind::IdnHost => {
                let mut labels: Vec<String> = u.host.split('.').map(str::to_owned).collect();
                let n = labels.len();
                let l = &mut labels[n.saturating_sub(2)];
                let r = rng.below(1 << 16);
                if !(rng.one_in(3)
                    && replace_nth(
                        l,
                        r,
                        |c| accent(c).is_some(),
                        |c| accent(c).map(String::from).unwrap_or_default(),
                    ))
                {
                    *l = IDN_LABELS[rng.below(IDN_LABELS.len())].to_owned();
                }
                u.host = labels.join(".");
                true
            }
            Kind::Ipv4Host => {
                // A public-looking address (first octet 1..=223, not 127).
                let mut a = [0u32; 4];
                a[0] = 1 + rng.below(222) as u32;
                if a[0] == 127 {
                    a[0] = 128;
                }
                for x in &mut a[1..] {
                    *x = rng.below(256) as u32;
                }
                let n = a.iter().fold(0u32, |n, &x| n << 8 | x);
                u.host = match rng.below(4) {
                    0 => a
                        .iter()
                        .map(|x| format!("0x{x:x}"))
                        .collect::<Vec<_>>()
                        .join("."),
                    1 => a
                        .iter()
                        .map(|x| format!("0{x:o}"))
                        .collect::<Vec<_>>()
                        .join("."),
                    2 => n.to_string(),
                    _ if rng.one_in(2) => format!("{}.{}", a[0], n & 0x00ff_ffff),
                    _ => format!("{}.{}.{}", a[0], a[1], n & 0xffff),
                };
                true
            }
            // Written around the URL, or into it, when it is written out.
            Kind::Whitespace | Kind::ControlInside => true,
            Kind::NoPath => {
                u.path.clear();
                u.query = None;
                u.fragment = None;
                true
            }
        }
    }

    /// The fragment with spaces (see the module comment).
    fn fragment(&mut self, u: &mut Parts, mode: Mode) {
        let accented = self.rng.one_in(match mode {
            Mode::Written => 4,
            Mode::Hard | Mode::AllClasses => 2,
        });
        let mut f = match u.fragment.take() {
            Some(f) if f.contains(['-', '_']) => f.replace(['-', '_'], " "),
            _ => {
                let mut w: Vec<String> = Vec::new();
                while w.len() < 2 {
                    let o = self.other();
                    w = words(&o.path)
                        .iter()
                        .map(|s| s.to_ascii_lowercase())
                        .collect();
                }
                let n = 2 + self.rng.below(2);
                w.truncate(n);
                w.join(" ")
            }
        };
        if accented {
            let r = self.rng.below(1 << 16);
            replace_nth(
                &mut f,
                r,
                |c| accent(c).is_some(),
                |c| accent(c).map(String::from).unwrap_or_default(),
            );
        }
        u.fragment = Some(f);
    }
}

/// Puts the hex digits of the `%XX` escapes of `s` in lower case.
fn lowercase_escapes(s: &mut String) {
    let mut b = std::mem::take(s).into_bytes();
    let mut i = 0;
    while i + 2 < b.len() {
        if b[i] == b'%' && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() {
            b[i + 1].make_ascii_lowercase();
            b[i + 2].make_ascii_lowercase();
            i += 3;
        } else {
            i += 1;
        }
    }
    *s = String::from_utf8(b).expect("ASCII case changes keep UTF-8");
}

/// Which dataset is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `pagewritten.txt`.
    Written,
    /// `--hard`: `pagehard.txt`.
    Hard,
    /// `--all-classes`: `hrefs.esc.txt`.
    AllClasses,
}

/// White space written before a URL by `whitespace` under `--all-classes`:
/// spaces, and the line break and indentation of an attribute value that
/// starts on its own line.
const BEFORE: [&str; 6] = [" ", "  ", "\n    ", "\r\n  ", "\t", "\n\t\t"];
/// White space written after it: spaces, and the line end before the
/// closing quote.
const AFTER: [&str; 6] = [" ", "  ", "\n", "\r\n", "\t", " \n  "];
/// What `control-inside` writes into a URL: a URL broken across lines (or
/// with a TAB) in the page's source.
const INSIDE: [&str; 4] = ["\t", "\n", "\r", "\r\n"];

/// Writes `u` as a line, with what the kinds `kinds` (indices into
/// `kind_list`) add around or inside it.
fn write_line(
    g: &mut Gen<'_>,
    u: &Parts,
    kind_list: &[Kind],
    kinds: &[usize],
    mode: Mode,
) -> String {
    let mut out = String::new();
    u.write(&mut out);
    let has = |k: Kind| kinds.iter().any(|&i| kind_list[i] == k);
    if has(Kind::ControlInside) {
        // One or two, each between two characters of the URL (never at an
        // end: that is `whitespace`'s).
        for _ in 0..1 + g.rng.below(2) {
            let at: Vec<usize> = out
                .char_indices()
                .map(|(i, _)| i)
                .filter(|&i| i > 0)
                .collect();
            let i = at[g.rng.below(at.len())];
            let c = INSIDE[g.rng.below(INSIDE.len())];
            out.insert_str(i, c);
        }
    }
    if has(Kind::Whitespace) {
        let (before, after) = if mode == Mode::AllClasses {
            let which = g.rng.below(3);
            let mut pick = |set: &[&'static str]| set[g.rng.below(set.len())];
            match which {
                0 => (pick(&BEFORE).to_owned(), String::new()),
                1 => (String::new(), pick(&AFTER).to_owned()),
                _ => (pick(&BEFORE).to_owned(), pick(&AFTER).to_owned()),
            }
        } else {
            let (before, after) = match g.rng.below(3) {
                0 => (1 + g.rng.below(2), 0),
                1 => (0, 1 + g.rng.below(2)),
                _ => (1 + g.rng.below(2), 1 + g.rng.below(2)),
            };
            (" ".repeat(before), " ".repeat(after))
        };
        out = format!("{before}{out}{after}");
    }
    out
}

/// What a written line holds, for the composition summary: the line
/// without TAB, LF and CR and without the white space around it, split
/// into its path, query and fragment (the source URLs have no `?` or `#`
/// before the path).
struct Shape {
    around: bool,
    tab: bool,
    lf: bool,
    cr: bool,
    space: [bool; 3],
    non_ascii: [bool; 3],
}

fn shape(line: &str) -> Shape {
    let trimmed = line.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c'));
    let around = trimmed.len() != line.len();
    let inside = |c: char| trimmed.contains(c);
    let (tab, lf, cr) = (inside('\t'), inside('\n'), inside('\r'));
    let clean: String = trimmed
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let rest = clean.split_once("://").map_or("", |(_, r)| r);
    let rest = &rest[rest.find(['/', '?', '#']).unwrap_or(rest.len())..];
    let (rest, fragment) = rest.split_once('#').unwrap_or((rest, ""));
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let parts = [path, query, fragment];
    Shape {
        around,
        tab,
        lf,
        cr,
        space: parts.map(|p| p.contains(' ')),
        non_ascii: parts.map(|p| !p.is_ascii()),
    }
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let hard = args.iter().any(|a| a == "--hard");
    let all = args.iter().any(|a| a == "--all-classes");
    args.retain(|a| a != "--hard" && a != "--all-classes");
    let (input, kinds_file) = match args.as_slice() {
        [input] if !(hard && all) => (input, None),
        [input, flag, file] if flag == "--kinds" && !(hard && all) => (input, Some(file)),
        _ => {
            eprintln!(
                "usage: wurl-gen-pagewritten KASZTP_TXT [--hard | --all-classes] [--kinds FILE] > OUT"
            );
            return ExitCode::FAILURE;
        }
    };
    let mode = match (hard, all) {
        (true, _) => Mode::Hard,
        (_, true) => Mode::AllClasses,
        _ => Mode::Written,
    };
    let (kind_list, seed): (&[Kind], u64) = match mode {
        Mode::Written => (&KINDS, SEED),
        Mode::Hard => (&HARD_KINDS, SEED_HARD),
        Mode::AllClasses => (&ALL_CLASS_KINDS, SEED_ALL_CLASSES),
    };
    let raw = match std::fs::read(input) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("wurl-gen-pagewritten: {input}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = String::from_utf8_lossy(&raw);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut seen = HashSet::new();
    let mut sources: Vec<Parts> = text
        .lines()
        .filter(|l| seen.insert(*l))
        .filter_map(Parts::of)
        .collect();
    let mut rng = Rng(seed);
    for i in (1..sources.len()).rev() {
        let j = rng.below(i + 1);
        sources.swap(i, j);
    }
    if sources.len() < LINES {
        eprintln!("wurl-gen-pagewritten: only {} source URLs", sources.len());
        return ExitCode::FAILURE;
    }

    let mut g = Gen {
        rng,
        sources: &sources,
        spaces: [0; 2],
        non_ascii: [0; 3],
    };
    let mut primary = vec![0usize; kind_list.len()];
    let mut second = vec![0usize; kind_list.len()];
    let mut third = vec![0usize; kind_list.len()];
    let (mut to_http, mut fragments) = (0, 0);
    let mut lines = Vec::with_capacity(LINES);
    let mut labels = String::new();
    // Lines made and dropped because the library found them already
    // canonical, or invalid.
    let (mut dropped_canonical, mut dropped_invalid) = (0, 0);
    let opts = wurl::CanonOptions::default();
    let mut key = String::new();
    let mut used = 0;
    for src in &sources {
        if lines.len() == LINES {
            break;
        }
        used += 1;
        // What a dropped line would have counted, put back.
        let saved = (g.spaces, g.non_ascii);
        let mut u = src.clone();
        let http = g.rng.one_in(4);
        if http {
            u.scheme = "http".to_owned();
        }
        let least = |counts: &[usize], ok: &dyn Fn(Kind) -> bool| {
            (0..kind_list.len())
                .filter(|&i| ok(kind_list[i]))
                .min_by_key(|&i| counts[i])
        };
        let p = least(&primary, &|k| k.applies(&u)).expect("a kind that always applies");
        let with_second = match mode {
            Mode::Written => g.rng.one_in(4),
            Mode::Hard => true,
            Mode::AllClasses => g.rng.one_in(2),
        };
        let s = if with_second {
            least(&second, &|k| k.applies(&u) && k.combines(kind_list[p]))
        } else {
            None
        };
        let t = match s {
            Some(s) if mode == Mode::Hard && g.rng.one_in(2) => least(&third, &|k| {
                k.applies(&u) && k.combines(kind_list[p]) && k.combines(kind_list[s])
            }),
            _ => None,
        };
        let fragment = g.rng.one_in(match mode {
            Mode::Written => 8,
            Mode::Hard => 2,
            Mode::AllClasses => 4,
        }) && kind_list[p] != Kind::NoPath
            && s.is_none_or(|i| kind_list[i] != Kind::NoPath);
        // The primary kind first; then the second, which is left out (and
        // not counted) when the first left nothing it can apply to.
        let mut kinds = vec![p];
        assert!(
            g.apply(kind_list[p], &mut u, false),
            "{} did not apply to {}",
            kind_list[p].name(),
            {
                let mut s = String::new();
                src.write(&mut s);
                s
            }
        );
        let mut extra = Vec::new();
        if let Some(i) = s
            && g.apply(kind_list[i], &mut u, true)
        {
            extra.push((i, 2));
            kinds.push(i);
        }
        if let Some(i) = t
            && g.apply(kind_list[i], &mut u, true)
        {
            extra.push((i, 3));
            kinds.push(i);
        }
        if fragment {
            g.fragment(&mut u, mode);
        }
        let line = write_line(&mut g, &u, kind_list, &kinds, mode);
        // The library decides: a line that is already canonical, or that it
        // rejects, is not a URL as a page writes one that needs the work;
        // it is dropped and the next source URL is taken.
        key.clear();
        match wurl::canon_into(None, &line, &opts, &mut key) {
            Ok(_) if key == line => {
                dropped_canonical += 1;
                (g.spaces, g.non_ascii) = saved;
                continue;
            }
            Ok(_) => {}
            Err(_) => {
                dropped_invalid += 1;
                (g.spaces, g.non_ascii) = saved;
                continue;
            }
        }
        to_http += usize::from(http);
        fragments += usize::from(fragment);
        primary[p] += 1;
        for (i, which) in extra {
            if which == 2 {
                second[i] += 1;
            } else {
                third[i] += 1;
            }
        }
        lines.push(line);
        let names: Vec<&str> = kinds.iter().map(|&i| kind_list[i].name()).collect();
        labels.push_str(&names.join(","));
        if fragment {
            labels.push_str(",fragment");
        }
        labels.push('\n');
    }
    if lines.len() < LINES {
        eprintln!(
            "wurl-gen-pagewritten: only {} lines from {} source URLs",
            lines.len(),
            sources.len()
        );
        return ExitCode::FAILURE;
    }

    // `--all-classes` writes an escaped URL list: a line may hold a TAB, LF
    // or CR, which `\t`, `\n`, `\r` stand for (bench/src/data_file.rs).
    let mut file = String::with_capacity(lines.iter().map(|l| l.len() + 2).sum());
    for l in &lines {
        if mode == Mode::AllClasses {
            file.push_str(&wurl_bench::data_file::escape(l));
        } else {
            file.push_str(l);
        }
        file.push('\n');
    }
    if std::io::stdout().write_all(file.as_bytes()).is_err() {
        eprintln!("wurl-gen-pagewritten: cannot write the output");
        return ExitCode::FAILURE;
    }
    if let Some(k) = kinds_file
        && let Err(e) = std::fs::write(k, &labels)
    {
        eprintln!("wurl-gen-pagewritten: {k}: {e}");
        return ExitCode::FAILURE;
    }

    // The summary: the composition, and what wurl makes of the lines.
    let (mut non_ascii_lines, mut space_lines) = (0, 0);
    let (mut around, mut tab, mut lf, mut cr, mut control) = (0, 0, 0, 0, 0);
    let (mut space_in, mut non_ascii_in) = ([0usize; 3], [0usize; 3]);
    for l in &lines {
        non_ascii_lines += usize::from(!l.is_ascii());
        space_lines += usize::from(l.trim().contains(' '));
        let sh = shape(l);
        around += usize::from(sh.around);
        tab += usize::from(sh.tab);
        lf += usize::from(sh.lf);
        cr += usize::from(sh.cr);
        control += usize::from(sh.tab || sh.lf || sh.cr);
        for c in 0..3 {
            space_in[c] += usize::from(sh.space[c]);
            non_ascii_in[c] += usize::from(sh.non_ascii[c]);
        }
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{LINES} lines, {} bytes (as written), {} bytes (the URLs, without line ends), \
         from {used} of {} source URLs (seed {seed})",
        file.len(),
        lines.iter().map(String::len).sum::<usize>(),
        sources.len()
    );
    let _ = writeln!(s, "| kind | primary | second | third | lines |");
    let _ = writeln!(s, "|---|---:|---:|---:|---:|");
    for (i, k) in kind_list.iter().enumerate() {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} |",
            k.name(),
            primary[i],
            second[i],
            third[i],
            primary[i] + second[i] + third[i]
        );
    }
    let _ = writeln!(s, "| fragment with spaces | | | | {fragments} |");
    let _ = writeln!(
        s,
        "raw-space: {} in the path, {} in the query",
        g.spaces[0], g.spaces[1]
    );
    let _ = writeln!(
        s,
        "non-ascii: {} accents in the path, {} in the query, {} non-Latin last segments",
        g.non_ascii[0], g.non_ascii[1], g.non_ascii[2]
    );
    let _ = writeln!(s, "scheme set to http: {to_http}");
    let _ = writeln!(
        s,
        "lines with a second kind: {}",
        second.iter().sum::<usize>()
    );
    let _ = writeln!(s, "lines with a non-ASCII character: {non_ascii_lines}");
    let _ = writeln!(s, "lines with a space inside: {space_lines}");
    let _ = writeln!(s, "| lines with | path | query | fragment |");
    let _ = writeln!(s, "|---|---:|---:|---:|");
    let _ = writeln!(
        s,
        "| a raw space in | {} | {} | {} |",
        space_in[0], space_in[1], space_in[2]
    );
    let _ = writeln!(
        s,
        "| a non-ASCII character in | {} | {} | {} |",
        non_ascii_in[0], non_ascii_in[1], non_ascii_in[2]
    );
    let _ = writeln!(
        s,
        "white space around: {around}; inside: a TAB {tab}, an LF {lf}, a CR {cr} \
         (lines with any of them inside: {control})"
    );
    let _ = writeln!(
        s,
        "wurl::canon_into: every line changed and valid; dropped and replaced by the next \
         source URL: {dropped_canonical} already canonical (output = input), {dropped_invalid} invalid"
    );
    eprint!("{s}");
    ExitCode::SUCCESS
}
