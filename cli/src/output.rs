//! Checked writes to standard output and standard error.
//!
//! Nothing here panics. Standard output is written in whole records (lines,
//! or NUL-terminated records with `-z`): the buffer handed to `write(2)`
//! always ends at a record end, and the number of complete records written
//! is counted, so a failure can say how far the output got. Standard error
//! is written message by message; a message that cannot be written is
//! counted, and processing goes on.

use std::fs::File;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Output is handed to `write(2)` once this much is buffered (and whenever
/// the input has nothing more buffered).
const OUT_BUFFER: usize = 64 * 1024;

/// Why writing standard output stopped.
#[derive(Debug)]
pub struct OutputError {
    pub error: io::Error,
    /// Complete records written before the failure.
    pub records: u64,
    /// Part of one more record was written (it has no terminator).
    pub partial: bool,
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.error.kind() == io::ErrorKind::BrokenPipe {
            "standard output was closed by its reader (broken pipe)".to_owned()
        } else {
            format!("writing standard output: {}", self.error)
        };
        write!(f, "{what} after {} complete records", self.records)?;
        if self.partial {
            write!(f, " and part of one more (it has no terminator)")?;
        }
        Ok(())
    }
}

/// Standard output, buffered by whole records.
pub struct Output {
    w: Box<dyn Write + Send>,
    buf: Vec<u8>,
    /// The record terminator (`\n`, or NUL with `-z`).
    sep: u8,
    records: u64,
    /// Bytes written after the last terminator.
    tail: u64,
    failed: bool,
}

impl Output {
    /// Standard output, written through a duplicate of its descriptor so
    /// that each buffer goes to `write(2)` as it is (no line buffering in
    /// between).
    pub fn stdout(sep: u8) -> Output {
        #[cfg(unix)]
        let w: Box<dyn Write + Send> = {
            use std::os::fd::AsFd;
            match io::stdout().as_fd().try_clone_to_owned() {
                Ok(fd) => Box::new(File::from(fd)),
                Err(_) => Box::new(io::stdout()),
            }
        };
        #[cfg(not(unix))]
        let w: Box<dyn Write + Send> = Box::new(io::stdout());
        Output {
            w,
            buf: Vec::with_capacity(OUT_BUFFER),
            sep,
            records: 0,
            tail: 0,
            failed: false,
        }
    }

    /// Complete records written so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Appends whole records (`s` ends with a terminator, or is empty);
    /// writes the buffer once it is large enough.
    pub fn push(&mut self, s: &[u8]) -> Result<(), OutputError> {
        self.buf.extend_from_slice(s);
        if self.buf.len() >= OUT_BUFFER {
            self.flush()
        } else {
            Ok(())
        }
    }

    /// Writes everything buffered.
    pub fn flush(&mut self) -> Result<(), OutputError> {
        if self.failed {
            self.buf.clear();
            return Ok(());
        }
        let mut pos = 0;
        let result = loop {
            if pos == self.buf.len() {
                break Ok(());
            }
            match self.w.write(&self.buf[pos..]) {
                Ok(0) => break Err(io::Error::from(io::ErrorKind::WriteZero)),
                Ok(n) => {
                    self.count(pos, pos + n);
                    pos += n;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => break Err(e),
            }
        };
        self.buf.clear();
        result.map_err(|error| {
            self.failed = true;
            OutputError {
                error,
                records: self.records,
                partial: self.tail > 0,
            }
        })
    }

    fn count(&mut self, from: usize, to: usize) {
        let written = &self.buf[from..to];
        let n = memchr::memchr_iter(self.sep, written).count();
        self.records += n as u64;
        match memchr::memrchr(self.sep, written) {
            Some(i) => self.tail = (written.len() - i - 1) as u64,
            None => self.tail += written.len() as u64,
        }
    }
}

/// Standard error: messages that cannot be written are counted.
#[derive(Debug)]
pub struct Diag {
    /// Standard error was closed at start: nothing can be reported.
    closed: bool,
    /// Messages (lines) not written.
    lost: AtomicU64,
    /// Some write to standard error failed (a message or the progress bar).
    failed: AtomicBool,
}

impl Diag {
    pub fn new(closed: bool) -> Arc<Diag> {
        Arc::new(Diag {
            closed,
            lost: AtomicU64::new(0),
            failed: AtomicBool::new(false),
        })
    }

    /// Writes `text` (one or more whole lines); false when it could not be
    /// written, and then its lines are counted as lost.
    pub fn write(&self, text: &str) -> bool {
        if text.is_empty() {
            return true;
        }
        let ok = !self.closed && io::stderr().lock().write_all(text.as_bytes()).is_ok();
        if !ok {
            let lines = text.bytes().filter(|&b| b == b'\n').count().max(1);
            self.lost.fetch_add(lines as u64, Ordering::Relaxed);
            self.failed.store(true, Ordering::Relaxed);
        }
        ok
    }

    /// Messages that could not be written.
    pub fn lost(&self) -> u64 {
        self.lost.load(Ordering::Relaxed)
    }

    /// Some write to standard error failed (or was not attempted: it was
    /// closed at start).
    pub fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    fn note<T>(&self, r: io::Result<T>) -> io::Result<T> {
        if r.is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        r
    }
}

/// The terminal the progress bar draws on: standard error, with every write
/// error recorded in the [`Diag`].
#[derive(Debug)]
pub struct CheckedTerm {
    term: console::Term,
    diag: Arc<Diag>,
}

impl CheckedTerm {
    pub fn stderr(diag: Arc<Diag>) -> CheckedTerm {
        CheckedTerm {
            term: console::Term::stderr(),
            diag,
        }
    }
}

impl indicatif::TermLike for CheckedTerm {
    fn width(&self) -> u16 {
        self.term.size().1
    }

    fn height(&self) -> u16 {
        self.term.size().0
    }

    fn move_cursor_up(&self, n: usize) -> io::Result<()> {
        self.diag.note(self.term.move_cursor_up(n))
    }

    fn move_cursor_down(&self, n: usize) -> io::Result<()> {
        self.diag.note(self.term.move_cursor_down(n))
    }

    fn move_cursor_right(&self, n: usize) -> io::Result<()> {
        self.diag.note(self.term.move_cursor_right(n))
    }

    fn move_cursor_left(&self, n: usize) -> io::Result<()> {
        self.diag.note(self.term.move_cursor_left(n))
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.diag.note(self.term.write_line(s))
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        self.diag.note(self.term.write_str(s))
    }

    fn clear_line(&self) -> io::Result<()> {
        self.diag.note(self.term.clear_line())
    }

    fn flush(&self) -> io::Result<()> {
        self.diag.note(self.term.flush())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fails {
        accept: usize,
    }

    impl Write for Fails {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if self.accept == 0 {
                return Err(io::Error::from(io::ErrorKind::StorageFull));
            }
            let n = b.len().min(self.accept);
            self.accept -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn counts_complete_records_before_a_failure() {
        let mut o = Output::stdout(b'\n');
        o.w = Box::new(Fails { accept: 8 });
        o.push(b"abc\nde\nfgh\n").unwrap();
        let e = o.flush().unwrap_err();
        assert_eq!(e.records, 2);
        assert!(e.partial);
        assert!(e.to_string().contains("after 2 complete records and part"));
        // After a failure nothing more is attempted.
        o.push(b"x\n").unwrap();
        o.flush().unwrap();
        assert_eq!(o.records(), 2);
    }

    #[test]
    fn whole_buffer_written() {
        let mut o = Output::stdout(0);
        o.w = Box::new(Fails { accept: 100 });
        o.push(b"a\0b\0").unwrap();
        o.flush().unwrap();
        assert_eq!(o.records(), 2);
    }
}
