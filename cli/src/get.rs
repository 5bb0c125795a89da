//! `wurl canon --get TEMPLATE`: one line per input, made of the template's
//! text and the values of the names in braces.
//!
//! - `{scheme}` `{user}` `{password}` `{host}` `{port}` `{path}` `{query}`
//!   `{fragment}`: the components of the canonical URL, split as the 2012
//!   parser splits a URL (a canonical URL parses to its own components).
//! - `{url}`: the canonical URL; `{key}`: it after `--rules` (the same
//!   without them); `{surt}`: the SURT form of the key (`--surt-scheme`
//!   keeps the scheme).
//! - An absent component and an empty one both print nothing (`-f json`
//!   tells them apart).
//! - `{{` and `}}` are a literal `{` and `}`; any other text is written as
//!   it is. A lone `{` or `}`, an unknown name, or a line end in the
//!   template is a usage error.
//! - A value's TAB, LF, CR and NUL are written `%09`, `%0A`, `%0D`, `%00`
//!   (the URL syntax's own escapes), so that one input gives one output line
//!   and a TAB in the template still separates columns. Canonical URLs
//!   hold none of these octets (the algorithm removes TAB, LF and CR, and
//!   escapes the other controls), so this never changes a value in
//!   practice; it is the guarantee for the format.

use wurl::{Component, Url};

use crate::input::quote_value;

/// A name of the template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Component(Component),
    Url,
    Key,
    Surt,
}

/// The names, in the order `--help` lists them.
pub const NAMES: &str = "scheme, user, password, host, port, path, query, fragment, url, key, surt";

impl Field {
    fn from_name(name: &str) -> Option<Field> {
        match name {
            "url" => Some(Field::Url),
            "key" => Some(Field::Key),
            "surt" => Some(Field::Surt),
            _ => Component::ALL
                .into_iter()
                .find(|c| c.name() == name)
                .map(Field::Component),
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Part {
    Text(String),
    Field(Field),
}

/// A parsed `--get` template.
#[derive(Debug)]
pub struct Template {
    parts: Vec<Part>,
}

/// The values of one input.
pub struct Values<'a> {
    /// The canonical URL.
    pub url: &'a str,
    /// Its components (parsed only when the template names one).
    pub parsed: Option<&'a Url>,
    /// The key (`--rules` applied).
    pub key: &'a str,
    /// The SURT form of the key.
    pub surt: &'a str,
}

impl Template {
    /// Parses `t`, or says (as a whole message line) what is wrong with it.
    pub fn parse(t: &str) -> Result<Template, String> {
        let err = |what: String| Err(format!("wurl: --get {}: {what}\n", quote_value(t)));
        if t.contains(['\n', '\r']) {
            return err(
                "a line end (LF or CR) in the template would split an output line: one input gives one line"
                    .to_owned(),
            );
        }
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut rest = t;
        while let Some(i) = rest.find(['{', '}']) {
            text.push_str(&rest[..i]);
            let brace = rest.as_bytes()[i];
            let after = &rest[i + 1..];
            if after.as_bytes().first() == Some(&brace) {
                // `{{` or `}}`: the brace itself.
                text.push(char::from(brace));
                rest = &after[1..];
                continue;
            }
            if brace == b'}' {
                return err("a lone } (write }} for a literal one)".to_owned());
            }
            let Some(end) = after.find('}') else {
                return err("a { without its } (write {{ for a literal one)".to_owned());
            };
            let name = &after[..end];
            let Some(field) = Field::from_name(name) else {
                return err(format!(
                    "unknown name {} (the names are {NAMES}; {{{{ and }}}} are literal braces)",
                    quote_value(name)
                ));
            };
            if !text.is_empty() {
                parts.push(Part::Text(std::mem::take(&mut text)));
            }
            parts.push(Part::Field(field));
            rest = &after[end + 1..];
        }
        text.push_str(rest);
        if !text.is_empty() {
            parts.push(Part::Text(text));
        }
        Ok(Template { parts })
    }

    fn uses(&self, f: impl Fn(Field) -> bool) -> bool {
        self.parts
            .iter()
            .any(|p| matches!(p, Part::Field(x) if f(*x)))
    }

    /// The template names a component (the URL must be parsed).
    pub fn needs_components(&self) -> bool {
        self.uses(|f| matches!(f, Field::Component(_)))
    }

    /// The template names `{key}`.
    pub fn needs_key(&self) -> bool {
        self.uses(|f| f == Field::Key)
    }

    /// The template names `{surt}`.
    pub fn needs_surt(&self) -> bool {
        self.uses(|f| f == Field::Surt)
    }

    /// Appends the line of `v` (without its terminator) to `out`.
    pub fn render(&self, out: &mut String, v: &Values) {
        for p in &self.parts {
            match p {
                Part::Text(t) => out.push_str(t),
                Part::Field(f) => push_escaped(
                    out,
                    match f {
                        Field::Url => v.url,
                        Field::Key => v.key,
                        Field::Surt => v.surt,
                        Field::Component(c) => v.parsed.and_then(|u| u.get(*c)).unwrap_or(""),
                    },
                ),
            }
        }
    }
}

/// `v` with TAB, LF, CR and NUL percent-encoded (see the module
/// documentation).
fn push_escaped(out: &mut String, v: &str) {
    let mut rest = v;
    while let Some(i) = rest.find(['\t', '\n', '\r', '\0']) {
        out.push_str(&rest[..i]);
        out.push_str(match rest.as_bytes()[i] {
            b'\t' => "%09",
            b'\n' => "%0A",
            b'\r' => "%0D",
            _ => "%00",
        });
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(t: &str, url: &str) -> String {
        let t = Template::parse(t).unwrap();
        let parsed = wurl::parse(url);
        let mut s = String::new();
        t.render(
            &mut s,
            &Values {
                url,
                parsed: Some(&parsed),
                key: "K",
                surt: "S",
            },
        );
        s
    }

    #[test]
    fn names_braces_and_text() {
        assert_eq!(render("{host} {path}", "http://a/b"), "a /b");
        assert_eq!(render("{{{scheme}}}", "http://a/b"), "{http}");
        assert_eq!(render("x}}y{{z", "http://a/"), "x}y{z");
        assert_eq!(
            render("{url}\t{key}\t{surt}", "http://a/"),
            "http://a/\tK\tS"
        );
        // Absent (no port, no query) and empty (`?`) both print nothing.
        assert_eq!(render("[{port}][{query}]", "http://a/?"), "[][]");
        assert_eq!(render("", "http://a/"), "");
    }

    #[test]
    fn bad_templates() {
        for t in [
            "{hots}", "{host", "}", "a}b", "{ host }", "{}", "a\nb", "a\rb",
        ] {
            let e = Template::parse(t).unwrap_err();
            assert!(e.starts_with("wurl: --get "), "{t:?}: {e}");
        }
        let e = Template::parse("{hots}").unwrap_err();
        assert!(e.contains("unknown name \"hots\""), "{e}");
        let long = format!("{{{}}}", "x".repeat(100_000));
        assert!(Template::parse(&long).unwrap_err().len() < 1024);
    }

    #[test]
    fn values_escaped() {
        let mut s = String::new();
        push_escaped(&mut s, "a\tb\nc\rd\0e%");
        assert_eq!(s, "a%09b%0Ac%0Dd%00e%");
    }
}
