//! Near-canonical input: canonical URLs with one or two short pieces
//! inserted at pseudo-random places, absolute and as references against
//! canonical bases. The fast exits for canonical input (`canonical_form`)
//! decide at the edge of what they accept on exactly such input, so it is
//! what their differential against the stages and the golden keys use.
//!
//! Deterministic: the same seeds, bases, count and seed number give the
//! same cases on every machine (xorshift64, no library randomness). Pure:
//! the caller supplies the canonical URLs (this file is shared by the
//! library's unit tests and the integration tests, which reach the library
//! by different paths).

/// The pieces inserted: escapes (of a drive suffix, a dot, an unreserved
/// letter, the separators, `%` itself, broken ones), dot segments, slash
/// characters, ports, user information, IDN and IP hosts, drive letters,
/// quotes, brackets, a space, non-ASCII letters, delimiters.
pub const PIECES: &[&str] = &[
    "%3A",
    "%3a",
    "%7C",
    "%7c",
    "%2e",
    "%2E",
    "%41",
    "%61",
    "%2F",
    "%2f",
    "%5C",
    "%5c",
    "%25",
    "%",
    "%4",
    "%zz",
    ".",
    "..",
    "./",
    "../",
    "/.",
    "/..",
    "\\",
    "\\..\\",
    "/",
    "//",
    ":80",
    ":0",
    ":443",
    ":21",
    ":",
    "@",
    "u:p@",
    "xn--",
    "xn--nxasmq6b",
    "[::1]",
    "1.2.3.4",
    "0x7f.1",
    "c:",
    "c|",
    "C:/",
    "\"",
    "'",
    "<",
    ">",
    "[",
    "]",
    "{",
    "}",
    "|",
    "^",
    "`",
    " ",
    "\t",
    "é",
    "ß",
    "日本",
    "\u{FF21}",
    "?",
    "#",
    "&",
    ";",
    "=",
    "+",
    "%00",
    "%FF",
    "%C3%A9",
    "localhost",
    "%2e%2e",
    ".%2E",
];

/// The references whose resolution copies or merges a base's parts in each
/// way the steps to resolve a relative URL know (steps 2 to 6), and the
/// `file:` drive and network-path forms.
pub const REFERENCES: &[&str] = &[
    "", "?q", "#f", "x", "../x", "./x", "//h/x", "/c:/x", "/x/y", "x/../y", "?", "#", "..", ".",
    "/", "x?y#z", "%2e%2e/x", "c|/x", "//h", "/",
];

/// Canonical bases of each scheme the fast exits accept (and a few they
/// do not, whose records the stages make), beside those taken from the
/// seeds.
pub const BASES: &[&str] = &[
    "http://a/b/c/d",
    "http://a/b/c/d?q#f",
    "https://example.com/",
    "https://example.com:8443/dir/page.html?x=1",
    "http://a/",
    "ftp://h/d/",
    "ftp://h:2121/d/e",
    "foo://h/a/b",
    "ws://h/chat",
    "file:///c:/dir/file",
    "file://host/share/x",
    "file:///",
    "file://h/c:/x",
];

/// A xorshift64 generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let x = &mut self.0;
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, pool: &[&'a str]) -> &'a str {
        pool[self.below(pool.len())]
    }
}

/// Canonical URLs added to the caller's seeds: short paths of one or two
/// octets after a host, where a piece makes a drive (`file://h/c%3A`), a
/// port, a dot segment or user information.
pub const EXTRA_SEEDS: &[&str] = &[
    "file://h/c/x",
    "file://host2/s",
    "file://h/Z",
    "file://h/ab/",
    "http://a/b",
    "http://a/b/c?d#e",
    "https://h/c/",
    "ftp://h/c/d",
    "foo://h/c",
];

/// `s` with one or two pieces inserted at character boundaries: half of
/// them just after a `/` (where segments, drives and authorities start),
/// the others anywhere.
pub fn insert_pieces(rng: &mut Rng, s: &str) -> String {
    let mut out = s.to_owned();
    for _ in 0..1 + rng.below(2) {
        let slashes: Vec<usize> = out.match_indices('/').map(|(i, _)| i + 1).collect();
        let mut at = if !slashes.is_empty() && rng.below(2) == 0 {
            slashes[rng.below(slashes.len())]
        } else {
            rng.below(out.len() + 1)
        };
        if rng.below(4) == 0 {
            // Or one octet further: after a drive letter or a dot.
            at = (at + 1).min(out.len());
        }
        while !out.is_char_boundary(at) {
            at -= 1;
        }
        out.insert_str(at, rng.pick(PIECES));
    }
    out
}

/// One case: an input and the base it is resolved against (`None`: its
/// own base).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub input: String,
    pub base: Option<String>,
}

/// `n` cases made from `seeds` (canonical URLs) and [`EXTRA_SEEDS`] and
/// [`BASES`], numbered by `seed`: about
/// half absolute URLs (a seed with pieces inserted, its own base or against
/// another base), half references against a canonical base (a base of
/// [`BASES`] or a seed) — a reference of [`REFERENCES`] or a seed's part
/// after its host, with pieces inserted or not.
pub fn cases(seeds: &[String], n: usize, seed: u64) -> Vec<Case> {
    assert!(!seeds.is_empty());
    let extra: Vec<&str> = EXTRA_SEEDS.iter().chain(BASES).copied().collect();
    let mut rng = Rng(seed | 1);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        // A quarter from the short canonical URLs above, where each piece
        // lands near a host, a drive or a segment's start.
        let s = if rng.below(4) == 0 {
            rng.pick(&extra)
        } else {
            seeds[rng.below(seeds.len())].as_str()
        };
        let pick_base = |rng: &mut Rng| -> String {
            if rng.below(3) == 0 {
                seeds[rng.below(seeds.len())].clone()
            } else {
                rng.pick(BASES).to_owned()
            }
        };
        let case = match rng.below(4) {
            0 | 1 => Case {
                input: insert_pieces(&mut rng, s),
                base: None,
            },
            2 => {
                let r = if rng.below(2) == 0 {
                    rng.pick(REFERENCES).to_owned()
                } else {
                    after_host(s).to_owned()
                };
                let input = if rng.below(4) == 0 {
                    r
                } else {
                    insert_pieces(&mut rng, &r)
                };
                Case {
                    input,
                    base: Some(pick_base(&mut rng)),
                }
            }
            _ => {
                // An absolute URL against another base, or a canonical
                // reference against a base with a piece inserted (a base
                // the fast exits reject, as pages are fetched).
                if rng.below(2) == 0 {
                    Case {
                        input: insert_pieces(&mut rng, s),
                        base: Some(pick_base(&mut rng)),
                    }
                } else {
                    let b = pick_base(&mut rng);
                    Case {
                        input: rng.pick(REFERENCES).to_owned(),
                        base: Some(insert_pieces(&mut rng, &b)),
                    }
                }
            }
        };
        out.push(case);
    }
    out
}

/// The part of a URL after `scheme://host[:port]` (its path, query and
/// fragment), or all of it when it has no `//`.
pub fn after_host(s: &str) -> &str {
    let Some(i) = s.find("://") else { return s };
    let rest = &s[i + 3..];
    match rest.find(['/', '?', '#']) {
        Some(j) => &rest[j..],
        None => "",
    }
}
