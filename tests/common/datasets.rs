//! The benchmark datasets of `bench/data/`, loaded exactly as
//! `bench/src/lib.rs` (`Dataset::load`) loads them, so that a test sees the
//! same lines the benchmark measures. The bench crate is not a dependency of
//! the library's tests, hence this copy of its rules: invalid UTF-8 replaced
//! with U+FFFD, a leading BOM dropped, `\r` before `\n` dropped, empty lines
//! dropped; a `.tsv` line is `page<TAB>link` split at the first TAB, and
//! adjacent lines with the same page form one group.
#![allow(dead_code)]

use std::ops::Range;
use std::path::PathBuf;

/// One page of a links dataset and the range of its links.
pub struct Page {
    pub url: String,
    pub links: Range<usize>,
}

/// A links dataset: the links in file order and their pages.
pub struct Links {
    pub links: Vec<String>,
    pub pages: Vec<Page>,
}

fn read(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("bench/data")
        .join(file);
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8_lossy(&raw).into_owned()
}

/// The non-empty lines of `text`, without a leading BOM or `\r` line ends
/// (the bench's `lines`).
fn lines(text: &str) -> Vec<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.is_empty())
        .collect()
}

/// A URL list (`<name>.txt`): every URL, in file order.
pub fn urls(name: &str) -> Vec<String> {
    let text = read(&format!("{name}.txt"));
    lines(&text).into_iter().map(str::to_owned).collect()
}

/// A links file (`<name>.tsv`).
pub fn links(name: &str) -> Links {
    let text = read(&format!("{name}.tsv"));
    let mut links = Vec::new();
    let mut pages: Vec<Page> = Vec::new();
    for (i, l) in lines(&text).into_iter().enumerate() {
        let (page, link) = l
            .split_once('\t')
            .unwrap_or_else(|| panic!("{name}.tsv line {} has no TAB", i + 1));
        if pages.last().is_none_or(|p| p.url != page) {
            pages.push(Page {
                url: page.to_owned(),
                links: links.len()..links.len(),
            });
        }
        links.push(link.to_owned());
        if let Some(p) = pages.last_mut() {
            p.links.end = links.len();
        }
    }
    Links { links, pages }
}
