//! Input: URLs from the arguments or from a byte stream, one per line, cut
//! into chunks of lines so that memory stays bounded and chunks can be
//! processed on several threads.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// At most this many lines in a chunk...
const CHUNK_LINES: usize = 2048;
/// ...and a chunk stops growing after this many bytes (a single longer line
/// is still read whole).
const CHUNK_BYTES: usize = 256 * 1024;
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

/// A run of consecutive input lines.
#[derive(Debug, Default)]
pub struct Chunk {
    /// The number of the first line (or argument), from 1.
    pub first_line: u64,
    /// The lines' bytes, line ends included.
    pub data: Vec<u8>,
    /// Each line's range in `data`, without its line end.
    pub spans: Vec<(usize, usize)>,
    /// Input bytes this chunk stands for (for the progress bar).
    pub bytes: u64,
    /// The chunk ended because no more input was buffered: the output
    /// should be flushed after it, for interactive use and coprocesses.
    pub flush: bool,
}

impl Chunk {
    pub fn clear(&mut self) {
        self.data.clear();
        self.spans.clear();
        self.bytes = 0;
        self.flush = false;
    }

    pub fn lines(&self) -> impl Iterator<Item = &[u8]> {
        self.spans.iter().map(|&(s, e)| &self.data[s..e])
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
    },
}

impl Source {
    pub fn args(args: Vec<OsString>) -> Source {
        Source::Args {
            args: args.into_iter(),
            next_number: 1,
        }
    }

    pub fn file(path: &Path) -> io::Result<Source> {
        let f = File::open(path)?;
        Ok(Self::from_file(f))
    }

    fn from_file(f: File) -> Source {
        let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        Self::reader(Box::new(f), size)
    }

    fn reader(r: Box<dyn Read + Send>, size: Option<u64>) -> Source {
        Source::Lines {
            reader: BufReader::with_capacity(READ_BUFFER, r),
            size,
            next_number: 1,
        }
    }

    /// Standard input. On Unix it is read through a duplicate of its file
    /// descriptor, so that its size is known when it is a regular file
    /// (`wurl canon < file`).
    pub fn stdin() -> io::Result<Source> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let fd = io::stdin().as_fd().try_clone_to_owned()?;
            Ok(Self::from_file(File::from(fd)))
        }
        #[cfg(not(unix))]
        {
            Ok(Self::reader(Box::new(io::stdin()), None))
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
                    c.data.extend_from_slice(&os_bytes(&a));
                    c.spans.push((start, c.data.len()));
                    *next_number += 1;
                    if c.spans.len() >= CHUNK_LINES || c.data.len() >= CHUNK_BYTES {
                        break;
                    }
                }
            }
            Source::Lines {
                reader,
                next_number,
                ..
            } => {
                c.first_line = *next_number;
                loop {
                    let start = c.data.len();
                    let n = reader.read_until(b'\n', &mut c.data)?;
                    if n == 0 {
                        break;
                    }
                    c.bytes += n as u64;
                    let mut s = start;
                    let mut e = c.data.len();
                    if c.data[e - 1] == b'\n' {
                        e -= 1;
                    }
                    if e > s && c.data[e - 1] == b'\r' {
                        e -= 1;
                    }
                    if *next_number == 1 && c.data[s..e].starts_with(b"\xEF\xBB\xBF") {
                        s += 3;
                    }
                    c.spans.push((s, e));
                    *next_number += 1;
                    if reader.buffer().is_empty() {
                        c.flush = true;
                        break;
                    }
                    if c.spans.len() >= CHUNK_LINES || c.data.len() >= CHUNK_BYTES {
                        break;
                    }
                }
            }
        }
        Ok(!c.spans.is_empty())
    }
}
