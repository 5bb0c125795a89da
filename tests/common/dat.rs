//! A reader for the conformance suite's `.dat` format, as described in
//! `tests/data/README.md` (from the suite's README).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One test: its fields by name (after `NAME8` replacement), and the line
/// where it starts, for messages.
#[derive(Debug, Clone)]
pub struct DatTest {
    pub line: usize,
    pub fields: HashMap<String, String>,
}

impl DatTest {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }
}

pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Replaces `\uXXXX` and `\UXXXXXXXX` by their code points. A surrogate
/// becomes U+FFFD: a lone surrogate cannot be in a Rust string, and the
/// suite's `NAME8` fields give the results for exactly that replacement.
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            let n = match b[i + 1] {
                b'u' => 4,
                b'U' => 8,
                _ => 0,
            };
            if n > 0
                && i + 2 + n <= b.len()
                && let Ok(cp) = u32::from_str_radix(&s[i + 2..i + 2 + n], 16)
            {
                out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                i += 2 + n;
                continue;
            }
        }
        let ch = s[i..].chars().next().unwrap();
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

struct Field {
    name: String,
    options: Vec<String>,
    lines: Vec<String>,
}

fn finish_field(f: Field, fields: &mut Vec<(String, String)>) {
    let mut options = f.options;
    let escaped = options.last().is_some_and(|o| o == "escaped");
    if escaped {
        options.pop();
    }
    let strip_bar = f.name == "data" || f.name == "path" || f.name == "path8";
    let lines: Vec<&str> = f
        .lines
        .iter()
        .map(|l| {
            if strip_bar {
                l.strip_prefix("| ").unwrap_or(l)
            } else {
                l.as_str()
            }
        })
        .collect();
    let mut value = if lines.is_empty() {
        options.first().cloned().unwrap_or_default()
    } else {
        lines.join("\n")
    };
    if escaped {
        value = unescape(&value);
    }
    fields.push((f.name, value));
}

fn finish_test(line: usize, raw: Vec<(String, String)>, out: &mut Vec<DatTest>) {
    if raw.is_empty() {
        return;
    }
    let mut fields: HashMap<String, String> = HashMap::new();
    for (k, v) in &raw {
        fields.insert(k.clone(), v.clone());
    }
    // `NAME8` replaces `NAME`.
    for (k, v) in &raw {
        if let Some(base) = k.strip_suffix('8') {
            fields.insert(base.to_owned(), v.clone());
        }
    }
    out.push(DatTest { line, fields });
}

/// Parses the text of a `.dat` file.
pub fn parse_dat(text: &str) -> Vec<DatTest> {
    let mut tests = Vec::new();
    let mut raw: Vec<(String, String)> = Vec::new();
    let mut field: Option<Field> = None;
    let mut test_line = 0;
    let mut prev_blank = true;
    let mut pending_blank = 0usize;
    for (n, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(body) = line.strip_prefix('#') {
            if let Some(f) = field.take() {
                finish_field(f, &mut raw);
            }
            if prev_blank {
                finish_test(test_line, std::mem::take(&mut raw), &mut tests);
                test_line = n + 1;
            }
            // The name is the leading word characters (one test says
            // `#data:`); the rest are space-separated options.
            let end = body
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .unwrap_or(body.len());
            let name = body[..end].to_owned();
            let options = body[end..]
                .split(' ')
                .filter(|w| !w.is_empty() && *w != ":")
                .map(str::to_owned)
                .collect();
            field = Some(Field {
                name,
                options,
                lines: Vec::new(),
            });
            pending_blank = 0;
            prev_blank = false;
        } else if line.is_empty() {
            pending_blank += 1;
            prev_blank = true;
        } else {
            if let Some(f) = field.as_mut() {
                for _ in 0..pending_blank {
                    f.lines.push(String::new());
                }
                f.lines.push(line.to_owned());
            }
            pending_blank = 0;
            prev_blank = false;
        }
    }
    if let Some(f) = field.take() {
        finish_field(f, &mut raw);
    }
    finish_test(test_line, raw, &mut tests);
    tests
}

pub fn load(rel: &str) -> Vec<DatTest> {
    let path = data_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_dat(&text)
}

/// Every `.dat` file of the canonicalization kind (`decomps*.dat` and
/// `generated/*.dat`), as paths relative to the data directory.
pub fn canon_files() -> Vec<String> {
    let mut v = Vec::new();
    for dir in ["", "generated/"] {
        let mut names: Vec<String> = std::fs::read_dir(data_dir().join(dir))
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".dat") && (n.starts_with("decomps") || !dir.is_empty()))
            .map(|n| format!("{dir}{n}"))
            .collect();
        names.sort();
        v.extend(names);
    }
    v
}
