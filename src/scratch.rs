//! Per-thread buffers the stages write into, reused between calls so that
//! a call allocates nothing in steady state (issue 11). A stage never
//! keeps a buffer beyond a call: the records it returns are built by
//! copying out of them ([`Url::build`](crate::Url)).

use std::cell::RefCell;

/// The buffers of one call.
#[derive(Default)]
pub(crate) struct Scratch {
    /// A preprocessed input, when preprocessing changed it.
    pub(crate) pre: String,
    /// A path parsing had to write (drive URLs, `file:\\\x`).
    pub(crate) side: String,
    /// Resolution's merged path and its dot-segment removal.
    pub(crate) path: String,
    pub(crate) path2: String,
    /// The canonical serialization.
    pub(crate) canon: String,
    /// The bulk path's output for the C ABI.
    pub(crate) out: String,
    /// Canonicalization's working buffers.
    pub(crate) work: crate::canonicalize::Work,
}

/// Buffers that grew beyond this are freed after the call, so that one
/// huge URL does not pin its memory in every thread that saw it.
pub(crate) const KEEP: usize = 64 * 1024;

impl Scratch {
    fn trim(&mut self) {
        let [a, b, c, d] = self.work.bufs();
        for s in [
            &mut self.pre,
            &mut self.side,
            &mut self.path,
            &mut self.path2,
            &mut self.canon,
            &mut self.out,
            a,
            b,
            c,
            d,
        ] {
            s.clear();
            if s.capacity() > KEEP {
                *s = String::new();
            }
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's buffers, or with fresh ones when they are
/// in use (a call made from inside `f`) or the thread is exiting.
pub(crate) fn with<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut f = Some(f);
    let r = SCRATCH.try_with(|cell| match cell.try_borrow_mut() {
        Ok(mut sc) => {
            let r = (f.take().expect("called once"))(&mut sc);
            sc.trim();
            Some(r)
        }
        Err(_) => None,
    });
    match r {
        Ok(Some(r)) => r,
        _ => (f.take().expect("not called yet"))(&mut Scratch::default()),
    }
}
