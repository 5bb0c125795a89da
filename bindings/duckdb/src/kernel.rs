//! The row kernel of the SQL functions, apart from DuckDB's vectors so that it is tested in
//! plain Rust: each row's arguments in, the result text or `None` (NULL) out.

use std::borrow::Cow;

use wurl::surt::SurtOptions;
use wurl::{CanonOptions, KeyOptions, ResolvedOptions, Rules, Url};

/// The function kinds, as the `u8` constants the DuckDB callbacks are instantiated with.
pub mod kind {
    pub const CANON: u8 = 0;
    pub const RESOLVE: u8 = 1;
    pub const KEY: u8 = 2;
    pub const SURT: u8 = 3;
    pub const STANDARD: u8 = 4;
    pub const REASON: u8 = 5;
}

/// Which SQL function a call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `wurl_canon(url[, base[, charset]])`
    Canon,
    /// `wurl_resolve(base, url)`
    Resolve,
    /// `wurl_key(url, rules)`
    Key,
    /// `wurl_surt(url)`
    Surt,
    /// `wurl_standard(url[, base])`
    Standard,
    /// `wurl_reason(url[, base])`
    Reason,
}

impl Kind {
    pub fn from_u8(k: u8) -> Kind {
        match k {
            kind::CANON => Kind::Canon,
            kind::RESOLVE => Kind::Resolve,
            kind::KEY => Kind::Key,
            kind::SURT => Kind::Surt,
            kind::STANDARD => Kind::Standard,
            _ => Kind::Reason,
        }
    }
}

/// A bound call: its kind, argument count and constant arguments, read once at bind time.
#[derive(Clone, Debug)]
pub struct Config {
    pub kind: Kind,
    pub args: usize,
    /// `wurl_canon`'s options: its third argument, the query's charset label, checked and resolved
    /// once at bind time (no label: UTF-8), not on every row.
    pub opts: ResolvedOptions,
    /// The compiled rules of `wurl_key`.
    pub rules: Option<Rules>,
    /// A constant argument is NULL: every row is NULL.
    pub all_null: bool,
}

// DuckDB shares a call's bind data among the threads that run it: a Config is
// read from several threads at once, so it must be Sync (and Send: DuckDB
// frees it on any thread).
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<Config>();
};

impl Config {
    pub fn new(kind: Kind, args: usize) -> Config {
        Config {
            kind,
            args,
            opts: ResolvedOptions::default(),
            rules: None,
            all_null: false,
        }
    }
}

/// What a chunk reuses from row to row: the result buffer, and the last base parsed (rows of one
/// page's links share it, and a constant base is the same on every row).
#[derive(Default)]
pub struct State {
    out: String,
    base_text: String,
    base: Option<Url>,
}

/// The bytes of a VARCHAR as text; invalid UTF-8 (which DuckDB does not let into a VARCHAR) would
/// read as one U+FFFD per maximal invalid sequence, as in the other bindings.
fn text(b: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(b)
}

impl State {
    /// The parse of `base`, from the cache when it is the previous row's.
    fn base(&mut self, base: &str) -> &Url {
        if self.base.is_none() || self.base_text != base {
            self.base_text.clear();
            self.base_text.push_str(base);
            self.base = Some(wurl::parse(base));
        }
        self.base.as_ref().expect("set above")
    }

    /// The result of one row (`args`: the call's arguments, none NULL), `None` for NULL.
    pub fn row(&mut self, cfg: &Config, args: &[&[u8]]) -> Option<&str> {
        self.out.clear();
        let url = text(args[0]);
        let ok = match cfg.kind {
            Kind::Canon => {
                let b = match args.get(1) {
                    Some(base) => {
                        self.base(&text(base));
                        self.base.as_ref()
                    }
                    None => None,
                };
                wurl::canon_into_resolved(b, &url, &cfg.opts, &mut self.out).is_ok()
            }
            Kind::Resolve => {
                // wurl_resolve(base, url): the base comes first, as in `wurl::resolve`.
                let base = url;
                let link = text(args[1]);
                let r = wurl::resolve(self.base(&base), &link);
                wurl::serialize::serialize_into(&r, &mut self.out)
            }
            Kind::Key | Kind::Surt => {
                let key = KeyOptions {
                    rules: cfg.rules.as_ref(),
                    surt: (cfg.kind == Kind::Surt).then(SurtOptions::default),
                };
                wurl::key_into(None, &url, &CanonOptions::default(), &key, &mut self.out).is_ok()
            }
            Kind::Standard => {
                let base = args.get(1).map(|b| text(b));
                wurl::canon_standard_into(base.as_deref(), &url, None, &mut self.out).is_ok()
            }
            Kind::Reason => {
                let mut scratch = std::mem::take(&mut self.out);
                let r = if args.len() >= 2 {
                    let base = text(args[1]);
                    self.base(&base);
                    wurl::canon_into(
                        self.base.as_ref(),
                        &url,
                        &CanonOptions::default(),
                        &mut scratch,
                    )
                } else {
                    wurl::canon_into(None, &url, &CanonOptions::default(), &mut scratch)
                };
                scratch.clear();
                self.out = scratch;
                match r {
                    Ok(()) => false,
                    Err(why) => {
                        self.out.push_str(why.as_str());
                        true
                    }
                }
            }
        };
        ok.then_some(self.out.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(cfg: &Config, args: &[&str]) -> Option<String> {
        let b: Vec<&[u8]> = args.iter().map(|s| s.as_bytes()).collect();
        State::default().row(cfg, &b).map(str::to_owned)
    }

    #[test]
    fn canon_matches_the_library() {
        let c = Config::new(Kind::Canon, 1);
        assert_eq!(
            run(&c, &["HTTP://Example.COM:80/a/./b/../c?q=é#f"]).as_deref(),
            Some("http://example.com/a/c?q=%C3%A9#f")
        );
        assert_eq!(run(&c, &["http://a:99999/"]), None);
        let c2 = Config::new(Kind::Canon, 2);
        assert_eq!(
            run(&c2, &["../a/./b", "http://EXAMPLE.com:80/x/y"]).as_deref(),
            Some("http://example.com/a/b")
        );
        let mut c3 = Config::new(Kind::Canon, 3);
        c3.opts = CanonOptions {
            charset: Some("shift_jis"),
            network_strict: false,
        }
        .resolve();
        assert_eq!(
            run(
                &c3,
                &["../a/./b?q=\u{65e5}", "http://example.jp/dir/index.html"]
            )
            .as_deref(),
            Some("http://example.jp/a/b?q=%93%FA")
        );
    }

    #[test]
    fn the_base_cache_follows_the_rows() {
        let c = Config::new(Kind::Canon, 2);
        let mut st = State::default();
        let a = st.row(&c, &[b"x", b"http://a/p/"]).map(str::to_owned);
        let b = st.row(&c, &[b"x", b"http://b/q/"]).map(str::to_owned);
        let a2 = st.row(&c, &[b"x", b"http://a/p/"]).map(str::to_owned);
        assert_eq!(a.as_deref(), Some("http://a/p/x"));
        assert_eq!(b.as_deref(), Some("http://b/q/x"));
        assert_eq!(a2, a);
    }

    #[test]
    fn resolve_key_surt_standard_reason() {
        let r = Config::new(Kind::Resolve, 2);
        assert_eq!(
            run(&r, &["http://EXAMPLE.com/x/y", "../a/./b"]).as_deref(),
            Some(
                wurl::resolve(&wurl::parse("http://EXAMPLE.com/x/y"), "../a/./b")
                    .serialize()
                    .unwrap()
                    .as_str()
            )
        );
        let mut k = Config::new(Kind::Key, 2);
        k.rules =
            Some(Rules::parse("drop-fragment,strip-www,sort-query,drop-params=utm_*").unwrap());
        assert_eq!(
            run(&k, &["http://www.A.com/?b=1&utm_x=2&a=3#f"]).as_deref(),
            Some("http://a.com/?a=3&b=1")
        );
        let s = Config::new(Kind::Surt, 1);
        assert_eq!(
            run(&s, &["http://www.Example.com/a/b?z=1&a=2"]).as_deref(),
            Some("com,example,www)/a/b?z=1&a=2")
        );
        let st = Config::new(Kind::Standard, 1);
        assert_eq!(
            run(&st, &["http://faß.de/a\\b/../c"]).as_deref(),
            Some("http://xn--fa-hia.de/a/c")
        );
        let why = Config::new(Kind::Reason, 1);
        assert_eq!(run(&why, &["http://a/"]), None);
        let mut scratch = String::new();
        let expect = wurl::canon_into(
            None,
            "http://a:99999/",
            &CanonOptions::default(),
            &mut scratch,
        )
        .unwrap_err();
        assert_eq!(
            run(&why, &["http://a:99999/"]).as_deref(),
            Some(expect.as_str())
        );
    }

    #[test]
    fn nul_and_huge_inputs_do_not_panic() {
        let c = Config::new(Kind::Canon, 1);
        let _ = run(&c, &["http://a/\0b"]);
        let huge = format!("http://a/{}", "x".repeat(4 << 20));
        assert!(run(&c, &[&huge]).is_some_and(|s| s.len() == huge.len()));
        let lossy: &[&[u8]] = &[b"http://a/\xff"];
        assert!(State::default().row(&c, lossy).is_some());
    }
}
