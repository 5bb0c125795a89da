//! Helpers shared by the integration tests: running the built `wurl`.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The kasztp benchmark dataset, relative to `cli/`.
pub const KASZTP: &str = "../bench/data/kasztp.txt";

pub fn data_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The kasztp dataset, or `None` (with a note) when the checkout lacks it.
pub fn kasztp() -> Option<PathBuf> {
    let p = data_path(KASZTP);
    if p.is_file() {
        Some(p)
    } else {
        eprintln!("skipped: {} not found", p.display());
        None
    }
}

pub struct Run {
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub code: i32,
}

impl Run {
    pub fn out(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("UTF-8 output")
    }

    pub fn lines(&self) -> Vec<String> {
        self.out().lines().map(str::to_owned).collect()
    }
}

/// Runs `wurl ARGS` with `stdin` as standard input (`None`: an empty one).
pub fn wurl<S: AsRef<std::ffi::OsStr>>(args: &[S], stdin: Option<&[u8]>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wurl"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run wurl");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.unwrap_or_default().to_vec();
    // Write from another thread so that a large input cannot deadlock
    // against a full output pipe.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for wurl");
    writer.join().expect("stdin writer");
    Run {
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// Runs `wurl ARGS` with a file as standard input.
pub fn wurl_file<S: AsRef<std::ffi::OsStr>>(args: &[S], stdin: &std::path::Path) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_wurl"))
        .args(args)
        .stdin(std::fs::File::open(stdin).expect("open input"))
        .output()
        .expect("run wurl");
    Run {
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// What the library gives for `input` (the bulk path): the canonical URL,
/// or the empty string when it is invalid.
pub fn lib_canon(base: Option<&str>, input: &str, charset: Option<&str>, strict: bool) -> String {
    let base = base.map(wurl::parse);
    let opts = wurl::CanonOptions {
        charset,
        network_strict: strict,
    };
    let mut s = String::new();
    match wurl::canon_into(base.as_ref(), input, &opts, &mut s) {
        Ok(()) => s,
        Err(_) => String::new(),
    }
}
