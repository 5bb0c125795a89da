//! Input: URLs from the arguments or from a byte stream, one per line (or
//! NUL-terminated with `-z`), cut into chunks of lines so that memory stays
//! bounded and chunks can be processed on several threads.
//!
//! A line longer than [`MAX_INPUT_LEN`] is not read into memory whole: at
//! most `MAX_INPUT_LEN + 1` bytes of it are kept while it is read (to tell
//! whether it is too long), the rest is read and discarded, and only its
//! first [`QUOTE_MAX`] bytes stay in the chunk, for the message.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// At most this many lines in a chunk...
const CHUNK_LINES: usize = 2048;
/// ...and a chunk stops growing after this many bytes (a single longer line
/// is still read, up to the limit below).
const CHUNK_BYTES: usize = 256 * 1024;
/// The longest input accepted, in bytes (the C ABI's `WURL_MAX_INPUT_LEN`,
/// 16 MiB); a longer line is refused as invalid.
pub const MAX_INPUT_LEN: usize = wurl::ffi::WURL_MAX_INPUT_LEN;
/// Messages quote at most this many bytes of an input.
pub const QUOTE_MAX: usize = 200;
/// Read buffer size.
const READ_BUFFER: usize = 128 * 1024;

/// The bytes of an argument (on Unix, exactly the bytes the program was
/// given).
pub fn os_bytes(s: &OsStr) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(s.as_bytes())
    }
    #[cfg(not(unix))]
    {
        match s.to_string_lossy() {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_bytes()),
        }
    }
}

/// Input bytes as text: invalid UTF-8 becomes U+FFFD, as in the C ABI.
pub fn bytes_to_string(b: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(b)
}

/// How much of `bytes` a message (or a `compare` example) shows: its first
/// [`QUOTE_MAX`] bytes at most, cut at a character boundary. Every value a
/// message quotes, inputs and option values alike, is cut here, so that one
/// huge value cannot make a message huge.
pub fn shown_len(bytes: &[u8]) -> usize {
    let mut cut = bytes.len().min(QUOTE_MAX);
    if cut < bytes.len() {
        // Do not split a UTF-8 sequence: back up over continuation bytes
        // (at most 3: more is not UTF-8, and then the cut stays).
        let mut back = 0;
        while back < 3 && cut > 0 && bytes[cut] & 0xC0 == 0x80 {
            cut -= 1;
            back += 1;
        }
        if back == 3 && bytes[cut] & 0xC0 == 0x80 {
            cut += back;
        }
    }
    cut
}

/// An input as messages quote it: its first bytes as [`shown_len`] cuts
/// them, as a Rust string literal; when cut, followed by `…` and the
/// input's length in bytes (`len`: a chunk holds only the first bytes of a
/// line too long to be read).
pub fn quote(bytes: &[u8], len: u64) -> String {
    let cut = shown_len(bytes);
    let shown = format!("{:?}", bytes_to_string(&bytes[..cut]));
    if (cut as u64) < len {
        format!("{shown}… ({len} bytes)")
    } else {
        shown
    }
}

/// An option's value as messages quote it (see [`quote`]).
pub fn quote_value(v: impl AsRef<[u8]>) -> String {
    let v = v.as_ref();
    quote(v, v.len() as u64)
}

/// A value for a message that quotes it itself (clap's): `v` unchanged
/// when [`shown_len`] keeps it whole, else its first bytes, `…` and its
/// length.
pub fn cut_value(v: &str) -> Cow<'_, str> {
    let cut = shown_len(v.as_bytes());
    if cut < v.len() {
        Cow::Owned(format!(
            "{}… ({} bytes)",
            bytes_to_string(&v.as_bytes()[..cut]),
            v.len()
        ))
    } else {
        Cow::Borrowed(v)
    }
}

/// One input of a chunk.
#[derive(Clone, Copy, Debug)]
pub struct Line {
    /// Its range in the chunk's data, without the line end. For a line that
    /// is too long, only its first bytes (for the message).
    pub start: usize,
    pub end: usize,
    /// Its length in bytes (without the line end).
    pub len: u64,
    /// Longer than [`MAX_INPUT_LEN`].
    pub too_long: bool,
}

/// A run of consecutive input lines.
#[derive(Debug, Default)]
pub struct Chunk {
    /// The number of the first line (or argument), from 1.
    pub first_line: u64,
    /// The lines' bytes.
    pub data: Vec<u8>,
    pub lines: Vec<Line>,
    /// Input bytes this chunk stands for (for the progress bar).
    pub bytes: u64,
    /// The chunk ended because no more input was buffered: the output
    /// should be flushed after it, for interactive use and coprocesses.
    pub flush: bool,
}

impl Chunk {
    pub fn clear(&mut self) {
        self.data.clear();
        self.lines.clear();
        self.bytes = 0;
        self.flush = false;
    }

    pub fn bytes_of(&self, l: &Line) -> &[u8] {
        &self.data[l.start..l.end]
    }

    /// Adds an input whose bytes are `data[start..]`, of length `len`.
    fn push_line(&mut self, start: usize, len: u64) {
        let too_long = len > MAX_INPUT_LEN as u64;
        if too_long {
            // Keep its first bytes for the message, and give back the
            // memory it took while being read.
            self.data
                .truncate(start + QUOTE_MAX.min(self.data.len() - start));
            self.data.shrink_to(2 * CHUNK_BYTES);
        }
        self.lines.push(Line {
            start,
            end: self.data.len(),
            len,
            too_long,
        });
    }
}

/// Where URLs come from.
pub enum Source {
    Args {
        args: std::vec::IntoIter<OsString>,
        next_number: u64,
    },
    Lines {
        reader: BufReader<Box<dyn Read + Send>>,
        /// The input size when known (a regular file).
        size: Option<u64>,
        next_number: u64,
        /// The terminator: `\n` (CR before it dropped too) or NUL (`-z`).
        sep: u8,
    },
}

impl Source {
    pub fn args(args: Vec<OsString>) -> Source {
        Source::Args {
            args: args.into_iter(),
            next_number: 1,
        }
    }

    pub fn file(path: &Path, sep: u8) -> io::Result<Source> {
        let f = File::open(path)?;
        Ok(Self::from_file(f, sep))
    }

    fn from_file(f: File, sep: u8) -> Source {
        let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        Self::reader(Box::new(f), size, sep)
    }

    fn reader(r: Box<dyn Read + Send>, size: Option<u64>, sep: u8) -> Source {
        Source::Lines {
            reader: BufReader::with_capacity(READ_BUFFER, r),
            size,
            next_number: 1,
            sep,
        }
    }

    /// Standard input. On Unix it is read through a duplicate of its file
    /// descriptor, so that its size is known when it is a regular file
    /// (`wurl canon < file`).
    pub fn stdin(sep: u8) -> io::Result<Source> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let fd = io::stdin().as_fd().try_clone_to_owned()?;
            Ok(Self::from_file(File::from(fd), sep))
        }
        #[cfg(not(unix))]
        {
            Ok(Self::reader(Box::new(io::stdin()), None, sep))
        }
    }

    pub fn is_args(&self) -> bool {
        matches!(self, Source::Args { .. })
    }

    /// The input size in bytes, when known.
    pub fn size(&self) -> Option<u64> {
        match self {
            Source::Args { .. } => None,
            Source::Lines { size, .. } => size.filter(|&s| s > 0),
        }
    }

    /// Reads the input chunk by chunk into `f`, `bar` (when given) advanced after each chunk and
    /// cleared at the end, also after an error; a read error is the message `reading input: …`.
    pub fn each_chunk(
        &mut self,
        bar: Option<indicatif::ProgressBar>,
        mut f: impl FnMut(&Chunk) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut chunk = Chunk::default();
        let r = (|| {
            while self
                .next_chunk(&mut chunk)
                .map_err(|e| format!("reading input: {e}"))?
            {
                f(&chunk)?;
                if let Some(bar) = &bar {
                    bar.inc(chunk.bytes);
                }
            }
            Ok(())
        })();
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        r
    }

    /// Fills `c` (cleared first) with the next lines; false at the end of
    /// the input.
    pub fn next_chunk(&mut self, c: &mut Chunk) -> io::Result<bool> {
        c.clear();
        match self {
            Source::Args { args, next_number } => {
                c.first_line = *next_number;
                for a in args.by_ref() {
                    // An argument is one input as it is: no line splitting,
                    // no CR stripping.
                    let start = c.data.len();
                    let b = os_bytes(&a);
                    c.data.extend_from_slice(&b);
                    c.push_line(start, b.len() as u64);
                    *next_number += 1;
                    if c.lines.len() >= CHUNK_LINES || c.data.len() >= CHUNK_BYTES {
                        break;
                    }
                }
            }
            Source::Lines {
                reader,
                next_number,
                sep,
                ..
            } => {
                c.first_line = *next_number;
                loop {
                    let start = c.data.len();
                    let r = read_record(reader, *sep, MAX_INPUT_LEN + 1, &mut c.data)?;
                    if r.consumed == 0 {
                        break;
                    }
                    c.bytes += r.consumed;
                    let mut s = start;
                    let mut len = r.len;
                    // CR before LF: only when the whole line was kept (a
                    // longer one is too long either way).
                    if *sep == b'\n'
                        && r.found
                        && len as usize == c.data.len() - start
                        && c.data.last() == Some(&b'\r')
                    {
                        c.data.pop();
                        len -= 1;
                    }
                    if *next_number == 1 && c.data[s..].starts_with(b"\xEF\xBB\xBF") {
                        s += 3;
                        len -= 3;
                    }
                    c.push_line(s, len);
                    *next_number += 1;
                    if reader.buffer().is_empty() {
                        c.flush = true;
                        break;
                    }
                    if c.lines.len() >= CHUNK_LINES || c.data.len() >= CHUNK_BYTES {
                        break;
                    }
                }
            }
        }
        Ok(!c.lines.is_empty())
    }
}

/// What [`read_record`] read.
struct Record {
    /// Bytes consumed from the reader, terminator included (0: end of input).
    consumed: u64,
    /// Length of the record without its terminator.
    len: u64,
    /// The record ended with the terminator (not at the end of the input).
    found: bool,
}

/// Reads one record ending in `sep` (or at the end of the input), appending
/// at most `keep` of its bytes to `out` (without the terminator) and
/// discarding the rest, so that memory stays bounded whatever its length.
fn read_record<R: BufRead + ?Sized>(
    reader: &mut R,
    sep: u8,
    keep: usize,
    out: &mut Vec<u8>,
) -> io::Result<Record> {
    let mut r = Record {
        consumed: 0,
        len: 0,
        found: false,
    };
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(r);
        }
        let (content, used) = match memchr::memchr(sep, buf) {
            Some(i) => {
                r.found = true;
                (i, i + 1)
            }
            None => (buf.len(), buf.len()),
        };
        let room = keep.saturating_sub(usize::try_from(r.len).unwrap_or(usize::MAX));
        out.extend_from_slice(&buf[..content.min(room)]);
        r.len += content as u64;
        r.consumed += used as u64;
        reader.consume(used);
        if r.found {
            return Ok(r);
        }
    }
}

/// The bases of `audit` and `compare`: with `--pairs`, each record's own (`BASE<TAB>INPUT`),
/// otherwise the one of `--base` or none. Each is also parsed by the 2012 model, a pair's once
/// for a run of records with the same base (as links of one page come together).
pub struct Bases {
    pairs: bool,
    /// `--base`, as given and parsed.
    fixed: Option<(String, wurl::Url)>,
    /// `--pairs`: the last base, as given and parsed.
    last: Option<(String, wurl::Url)>,
}

/// One record of `--pairs` or `--base`: its base, as given and parsed by the 2012 model, and its
/// input.
pub struct BasedInput<'a> {
    pub base: Option<Cow<'a, str>>,
    pub base_2012: Option<&'a wurl::Url>,
    pub input: Cow<'a, str>,
}

impl Bases {
    /// The bases of records that are pairs (`pairs`) or inputs against `base`.
    pub fn new(pairs: bool, base: Option<&str>) -> Bases {
        Bases {
            pairs,
            fixed: base
                .filter(|_| !pairs)
                .map(|b| (b.to_owned(), wurl::parse(b))),
            last: None,
        }
    }

    /// The record of the line `bytes`; `None` for a pair without a TAB, which is invalid in both
    /// models.
    pub fn record<'a>(&'a mut self, bytes: &'a [u8]) -> Option<BasedInput<'a>> {
        if !self.pairs {
            let fixed = self.fixed.as_ref();
            return Some(BasedInput {
                base: fixed.map(|(s, _)| Cow::Borrowed(s.as_str())),
                base_2012: fixed.map(|(_, u)| u),
                input: bytes_to_string(bytes),
            });
        }
        let t = memchr::memchr(b'\t', bytes)?;
        let base = bytes_to_string(&bytes[..t]);
        if self.last.as_ref().is_none_or(|(s, _)| s != base.as_ref()) {
            self.last = Some((base.to_string(), wurl::parse(&base)));
        }
        Some(BasedInput {
            base: Some(base),
            base_2012: self.last.as_ref().map(|(_, u)| u),
            input: bytes_to_string(&bytes[t + 1..]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_record_keeps_at_most_keep_bytes() {
        let mut input: &[u8] = b"abcdefgh\nxy";
        let mut out = Vec::new();
        let r = read_record(&mut input, b'\n', 3, &mut out).unwrap();
        assert_eq!((r.consumed, r.len, r.found), (9, 8, true));
        assert_eq!(out, b"abc");
        out.clear();
        let r = read_record(&mut input, b'\n', 3, &mut out).unwrap();
        assert_eq!((r.consumed, r.len, r.found), (2, 2, false));
        assert_eq!(out, b"xy");
        let r = read_record(&mut input, b'\n', 3, &mut out).unwrap();
        assert_eq!(r.consumed, 0);
    }

    #[test]
    fn quote_cuts_at_200_bytes_and_a_character_boundary() {
        assert_eq!(quote(b"a b", 3), "\"a b\"");
        let long = vec![b'a'; 300];
        let q = quote(&long, 300);
        assert_eq!(q, format!("{:?}… (300 bytes)", "a".repeat(200)));
        // 199 ASCII bytes, then a 3-byte character across the cut.
        let mut s = vec![b'a'; 199];
        s.extend_from_slice("€€".as_bytes());
        let q = quote(&s, s.len() as u64);
        assert_eq!(q, format!("{:?}… (205 bytes)", "a".repeat(199)));
        // A chunk holds only the first bytes of a too-long line.
        assert_eq!(quote(b"abc", 1 << 30), "\"abc\"… (1073741824 bytes)");
    }
}
