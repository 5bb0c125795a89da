//! What the steps need to know of a scheme, in one place: its characters
//! ("steps to find the scheme"), its kind (section "Hierarchicalness", and
//! the schemes parsing treats apart), its default port (section "Port
//! numbers") and the port rules of canonicalization.

use crate::invalid::InvalidReason;

/// A *valid scheme character*: `A-Z a-z 0-9 + - .` (NOTES.md: no `_`, and a
/// scheme may start with a digit).
pub(crate) const fn is_scheme_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
}

/// [`is_scheme_char`] as a table: one lookup per octet.
static SCHEME_CHAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = is_scheme_char(i as u8);
        i += 1;
    }
    t
};

/// "Steps to find the scheme": the length of the scheme that `b` starts
/// with (one or more valid scheme characters followed by `:`), if any.
pub(crate) fn scheme_len(b: &[u8]) -> Option<usize> {
    let n = b.iter().position(|&c| !SCHEME_CHAR[usize::from(c)])?;
    (n > 0 && b[n] == b':').then_some(n)
}

/// The kinds of scheme the steps treat apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum SchemeKind {
    /// One letter: a Windows drive ("steps to parse a drive URL").
    Drive,
    File,
    Mailto,
    /// Another scheme of the non-hierarchical list (section
    /// "Hierarchicalness"; `mailto` is the list's fifth).
    NonHierarchical,
    Other,
}

/// A scheme's kind and default port.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Scheme {
    pub(crate) kind: SchemeKind,
    pub(crate) default_port: Option<u32>,
}

impl Default for Scheme {
    /// The class of no scheme (`Scheme::of(b"")`).
    fn default() -> Scheme {
        Scheme::NONE
    }
}

impl Scheme {
    /// No scheme, or one with no rule of its own.
    pub(crate) const NONE: Scheme = Scheme {
        kind: SchemeKind::Other,
        default_port: None,
    };
    /// `file`.
    pub(crate) const FILE: Scheme = Scheme {
        kind: SchemeKind::File,
        default_port: None,
    };

    /// `http`, or `https` when `secure`.
    pub(crate) const fn http(secure: bool) -> Scheme {
        Scheme {
            kind: SchemeKind::Other,
            default_port: Some(if secure { 443 } else { 80 }),
        }
    }

    /// The scheme `b`, compared ASCII case-insensitively (one match on its length).
    #[inline(always)]
    pub(crate) fn of(b: &[u8]) -> Scheme {
        // First the schemes of most URLs, already lowercase: `http`, `https`, then `file`.
        if let Some(&head) = b.first_chunk::<4>()
            && head == *b"http"
        {
            let s = b.len() == 5 && b[4] == b's';
            if b.len() == 4 || s {
                return Scheme::http(s);
            }
        }
        if b == b"file" {
            return Scheme {
                kind: SchemeKind::File,
                default_port: None,
            };
        }
        let is = |name: &[u8]| b.eq_ignore_ascii_case(name);
        let (kind, port) = match b.len() {
            1 if b[0].is_ascii_alphabetic() => (SchemeKind::Drive, None),
            2 if is(b"ws") => (SchemeKind::Other, Some(80)),
            3 if is(b"wss") => (SchemeKind::Other, Some(443)),
            3 if is(b"ftp") => (SchemeKind::Other, Some(21)),
            4 if is(b"http") => (SchemeKind::Other, Some(80)),
            4 if is(b"file") => (SchemeKind::File, None),
            4 if is(b"data") => (SchemeKind::NonHierarchical, None),
            5 if is(b"https") => (SchemeKind::Other, Some(443)),
            5 if is(b"about") => (SchemeKind::NonHierarchical, None),
            6 if is(b"gopher") => (SchemeKind::Other, Some(70)),
            6 if is(b"telnet") || is(b"tn3270") => (SchemeKind::Other, Some(23)),
            6 if is(b"rlogin") => (SchemeKind::Other, Some(513)),
            6 if is(b"mailto") => (SchemeKind::Mailto, None),
            8 if is(b"vbscript") => (SchemeKind::NonHierarchical, None),
            10 if is(b"javascript") => (SchemeKind::NonHierarchical, None),
            _ => (SchemeKind::Other, None),
        };
        Scheme {
            kind,
            default_port: port,
        }
    }

    pub(crate) fn is_file(self) -> bool {
        self.kind == SchemeKind::File
    }

    pub(crate) fn is_mailto(self) -> bool {
        self.kind == SchemeKind::Mailto
    }

    /// In the non-hierarchical list (section "Hierarchicalness"), `mailto` included.
    pub(crate) fn is_non_hierarchical(self) -> bool {
        matches!(self.kind, SchemeKind::NonHierarchical | SchemeKind::Mailto)
    }
}

/// Whether `scheme` is `file`, ASCII case-insensitively.
#[inline]
pub(crate) fn is_file(scheme: &str) -> bool {
    Scheme::of(scheme.as_bytes()).is_file()
}

/// The default port of a scheme (section "Port numbers"), compared ASCII
/// case-insensitively.
pub fn default_port(scheme: &str) -> Option<u32> {
    Scheme::of(scheme.as_bytes()).default_port
}

/// The port rules of canonicalization: `Ok(None)` when the port is absent,
/// empty or the scheme's default.
pub(crate) fn canonical_port(
    port: Option<&str>,
    default: Option<u32>,
) -> Result<Option<u32>, InvalidReason> {
    canonical_port_octets(port.map(str::as_bytes), default)
}

/// [`canonical_port`] of the octets of a port, for passes over octets.
#[inline]
pub(crate) fn canonical_port_octets(
    port: Option<&[u8]>,
    default: Option<u32>,
) -> Result<Option<u32>, InvalidReason> {
    let Some(port) = port.filter(|p| !p.is_empty()) else {
        return Ok(None);
    };
    // Capped: a port of a million digits is simply out of range (the cap
    // is above every port and keeps `p * 10 + 9` within `u32`).
    let mut p = 0u32;
    for &c in port {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return Err(InvalidReason::PortNotNumeric);
        }
        p = (p * 10 + u32::from(d)).min(1_000_000);
    }
    if default == Some(p) {
        Ok(None)
    } else if p <= 65535 {
        Ok(Some(p))
    } else {
        Err(InvalidReason::PortOutOfRange)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schemes that are not hierarchical (section "Hierarchicalness").
    const NON_HIERARCHICAL: [&str; 5] = ["about", "data", "javascript", "mailto", "vbscript"];

    #[test]
    fn kinds_and_ports() {
        for s in NON_HIERARCHICAL {
            assert!(Scheme::of(s.as_bytes()).is_non_hierarchical(), "{s}");
            assert!(
                Scheme::of(s.to_uppercase().as_bytes()).is_non_hierarchical(),
                "{s}"
            );
        }
        for s in [
            "http",
            "https",
            "file",
            "ftp",
            "",
            "aboutx",
            "dat",
            "c",
            "javascripts",
        ] {
            assert!(!Scheme::of(s.as_bytes()).is_non_hierarchical(), "{s}");
        }
        assert_eq!(Scheme::of(b"C").kind, SchemeKind::Drive);
        assert_eq!(Scheme::of(b"FiLe").kind, SchemeKind::File);
        assert_eq!(default_port("HTTPS"), Some(443));
        assert_eq!(default_port("javascript"), None);
        assert_eq!(default_port("averyveryverylongscheme"), None);
        assert_eq!(scheme_len(b"a+b-c.d:x"), Some(7));
        assert_eq!(scheme_len(b"a_b:x"), None);
        assert_eq!(scheme_len(b":x"), None);
        assert_eq!(scheme_len(b"abc"), None);
    }

    /// `Scheme::of` knows the non-hierarchical schemes in any case, and no
    /// others.
    #[test]
    fn scheme_kinds() {
        for s in NON_HIERARCHICAL {
            let want = if s == "mailto" {
                SchemeKind::Mailto
            } else {
                SchemeKind::NonHierarchical
            };
            assert!(Scheme::of(s.as_bytes()).kind == want, "{s}");
            assert!(
                Scheme::of(s.to_ascii_uppercase().as_bytes()).kind == want,
                "{s}"
            );
        }
        for s in ["http", "datа", "abou", "javascripts", "vbscrip", "mail"] {
            assert!(Scheme::of(s.as_bytes()).kind == SchemeKind::Other, "{s}");
        }
        assert!(Scheme::of(b"FiLe").kind == SchemeKind::File);
        assert!(Scheme::of(b"c").kind == SchemeKind::Drive);
        assert!(Scheme::of(b"1").kind == SchemeKind::Other);
    }
}
