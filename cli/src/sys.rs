//! The process entry and the state of the standard streams at start.
//!
//! On Unix, `wurl` has its own C `main` (the crate is `#![no_main]`) instead
//! of Rust's runtime entry, because that entry silently replaces a closed
//! standard input, output or error by `/dev/null` before `main` runs:
//! `wurl canon >&-` would then "succeed" without writing anything. Here the
//! three descriptors are checked first; a closed one is still replaced by
//! `/dev/null` (so that a file opened later cannot take its number and
//! receive what was meant for it), but the program knows and says so.
//!
//! SIGPIPE is ignored, as Rust's runtime does: a write to a pipe whose
//! reader went away fails with `EPIPE`, which the output code reports (exit
//! status 2 for standard output; for standard error the message is counted
//! as lost and processing goes on).

use std::ffi::OsString;

/// Which standard streams were closed when the process started.
#[derive(Clone, Copy, Debug, Default)]
pub struct Streams {
    pub stdin_closed: bool,
    pub stdout_closed: bool,
    pub stderr_closed: bool,
}

#[cfg(all(unix, not(test)))]
mod entry {
    use std::ffi::{CStr, OsString, c_char, c_int};
    use std::os::unix::ffi::OsStringExt;

    /// The C entry point (see the module documentation).
    // SAFETY: this is the one `main` symbol of the program: the crate is
    // `#![no_main]` on Unix, so Rust's runtime defines none, and the C
    // runtime calls it once with the usual argc/argv.
    #[unsafe(no_mangle)]
    extern "C" fn main(argc: c_int, argv: *const *const c_char) -> c_int {
        let streams = super::prepare();
        let mut args = Vec::new();
        if !argv.is_null() {
            for i in 0..usize::try_from(argc).unwrap_or(0) {
                // SAFETY: the C runtime passes `argc` valid pointers in
                // `argv`, each to a NUL-terminated string that lives for
                // the whole process; `i < argc`.
                let p = unsafe { *argv.add(i) };
                if p.is_null() {
                    break;
                }
                // SAFETY: `p` is one of those NUL-terminated strings.
                let bytes = unsafe { CStr::from_ptr(p) }.to_bytes().to_vec();
                args.push(OsString::from_vec(bytes));
            }
        }
        c_int::from(crate::run(args, streams))
    }
}

/// Checks descriptors 0, 1 and 2, replaces a closed one by `/dev/null`, and
/// ignores SIGPIPE.
#[cfg(unix)]
#[cfg_attr(test, allow(dead_code))]
pub fn prepare() -> Streams {
    use std::os::fd::IntoRawFd;
    let mut closed = [false; 3];
    for (fd, closed) in (0..3).zip(closed.iter_mut()) {
        // SAFETY: fcntl(F_GETFD) only reads the descriptor flags of `fd`;
        // any integer is a valid argument (EBADF when it is not open).
        let r = unsafe { libc::fcntl(fd, libc::F_GETFD) };
        if r == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF) {
            *closed = true;
            // open() returns the lowest free descriptor: this one, as the
            // lower ones are open. Kept open for the life of the process.
            if let Ok(f) = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open("/dev/null")
            {
                let _ = f.into_raw_fd();
            }
        }
    }
    // SAFETY: SIG_IGN installs no handler code; this runs before any other
    // thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    Streams {
        stdin_closed: closed[0],
        stdout_closed: closed[1],
        stderr_closed: closed[2],
    }
}

/// The arguments, for the Rust entry point (tests and non-Unix systems).
#[cfg_attr(all(unix, not(test)), allow(dead_code))]
pub fn args() -> Vec<OsString> {
    std::env::args_os().collect()
}
