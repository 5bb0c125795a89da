//! The benchmark datasets of `bench/data/`, read by the benchmark's own
//! rules (`bench/src/data_file.rs`, included here: the bench crate is not a
//! dependency of the library's tests), so that a test sees the lines the
//! benchmark measures. Adjacent lines of a links file with the same page
//! form one group, as in the benchmark.
#![allow(dead_code)]

use std::ops::Range;
use std::path::PathBuf;

#[path = "../../bench/src/data_file.rs"]
mod data_file;

/// The URL lists (`<name>.txt`), in the benchmark's order.
pub const URL_LISTS: [&str; 6] = [
    "kasztp",
    "node_files",
    "idn_synth",
    "pagewritten",
    "pagehard",
    "hrefs",
];
/// The links files (`<name>.tsv`).
pub const LINK_FILES: [&str; 1] = ["links_synth"];

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

impl Links {
    /// Every `(page, link)` row, in file order.
    pub fn rows(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pages.iter().flat_map(|p| {
            self.links[p.links.clone()]
                .iter()
                .map(|l| (p.url.as_str(), l.as_str()))
        })
    }
}

fn read(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("bench/data")
        .join(file);
    data_file::read(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// A URL list (`<name>.txt`, or `<name>.esc.txt` with its escapes
/// decoded): every URL, in file order.
pub fn urls(name: &str) -> Vec<String> {
    let escaped = format!("{name}{}", data_file::ESCAPED_SUFFIX);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench/data");
    if dir.join(&escaped).exists() {
        return data_file::escaped_lines(&read(&escaped))
            .unwrap_or_else(|e| panic!("{escaped}: {e}"));
    }
    let text = read(&format!("{name}.txt"));
    data_file::lines(&text)
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// A links file (`<name>.tsv`).
pub fn links(name: &str) -> Links {
    let text = read(&format!("{name}.tsv"));
    let rows = data_file::link_rows(&text).unwrap_or_else(|e| panic!("{name}.tsv: {e}"));
    let mut links = Vec::new();
    let mut pages: Vec<Page> = Vec::new();
    for (page, link) in rows {
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

/// Every line of every dataset as `(dataset, input, base)`: each URL of a
/// URL list without a base, each link of a links file against its page.
pub fn all_rows() -> Vec<(&'static str, String, Option<String>)> {
    let mut out = Vec::new();
    for name in URL_LISTS {
        out.extend(urls(name).into_iter().map(|u| (name, u, None)));
    }
    for name in LINK_FILES {
        let l = links(name);
        out.extend(
            l.rows()
                .map(|(p, k)| (name, k.to_owned(), Some(p.to_owned()))),
        );
    }
    out
}
