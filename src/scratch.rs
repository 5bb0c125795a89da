//! Per-thread buffers the stages write into, reused between calls (ARCHITECTURE.md, speed
//! mechanisms, row 8). No stage keeps one beyond a call: records copy out (`serialize::build`).

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
    pub(crate) work: Work,
}

/// Canonicalization's: the `file:` HOSTPATH loop's host and path; `a`, `b`: the full path steps.
#[derive(Default)]
pub(crate) struct Work {
    pub(crate) host: String,
    pub(crate) path: String,
    pub(crate) a: String,
    pub(crate) b: String,
}

impl Work {
    pub(crate) fn bufs(&mut self) -> [&mut String; 4] {
        [&mut self.host, &mut self.path, &mut self.a, &mut self.b]
    }
}

/// Buffers grown past this are freed after the call: one huge URL must not pin memory per thread.
pub(crate) const KEEP: usize = 64 * 1024;

/// Which [`Scratch`] buffers a call may write, so its trim looks at those only (constant per site).
#[derive(Clone, Copy)]
pub(crate) struct Used(u16);

impl Used {
    const PRE: u16 = 1;
    const SIDE: u16 = 1 << 1;
    const PATH: u16 = 1 << 2;
    const PATH2: u16 = 1 << 3;
    const CANON: u16 = 1 << 4;
    const OUT: u16 = 1 << 5;
    const WORK_FILE: u16 = 1 << 6;
    const WORK_STEPS: u16 = 1 << 7;
    /// Parsing: the preprocessed input and a path it writes.
    pub(crate) const PARSE: Used = Used(Used::PRE | Used::SIDE);
    /// Resolution: parsing's, the merged path and its dot-segment removal.
    pub(crate) const RESOLVE: Used = Used(Used::PRE | Used::SIDE | Used::PATH | Used::PATH2);
    /// Canonicalization of a record: the serialization and its working buffers.
    pub(crate) const CANONICALIZE: Used = Used(Used::CANON | Used::WORK_FILE | Used::WORK_STEPS);
    /// The bulk path's resume road (src/fast/resume.rs): its output and the full path steps.
    pub(crate) const RESUME: Used = Used(Used::OUT | Used::WORK_STEPS);
    /// The bulk path: every stage, and its output.
    pub(crate) const ALL: Used = Used(u16::MAX);

    fn has(self, bit: u16) -> bool {
        self.0 & bit != 0
    }
}

impl Scratch {
    /// Empties the buffers `used` names and frees those grown past [`KEEP`].
    #[inline(always)]
    fn trim(&mut self, used: Used) {
        let [a, b, c, d] = self.work.bufs();
        for (bit, s) in [
            (Used::PRE, &mut self.pre),
            (Used::SIDE, &mut self.side),
            (Used::PATH, &mut self.path),
            (Used::PATH2, &mut self.path2),
            (Used::CANON, &mut self.canon),
            (Used::OUT, &mut self.out),
            (Used::WORK_FILE, a),
            (Used::WORK_FILE, b),
            (Used::WORK_STEPS, c),
            (Used::WORK_STEPS, d),
        ] {
            if used.has(bit) {
                s.clear();
                free_if_large(s);
            }
            // An undeclared write would leave a buffer unchecked: debug builds (the tests) catch
            // it. A panicking call skips its trim; the next user clears the buffer (every stage
            // clears before writing), so no unwinding guard costs every call.
            debug_assert!(s.is_empty(), "a scratch buffer outside `Used`");
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's buffers, or fresh ones when they are in use (a call from inside
/// `f`) or the thread is exiting. `f` writes only the buffers `used` names.
#[inline]
pub(crate) fn with<R>(used: Used, f: impl FnOnce(&mut Scratch) -> R) -> R {
    with_either(used, used, |sc| (f(sc), true))
}

/// [`with`] for a call that writes the buffers `narrow` names or those `wide` names: `f` returns
/// its result and whether it kept to `narrow`, and the trim looks at those only.
#[inline(always)]
pub(crate) fn with_either<R>(
    narrow: Used,
    wide: Used,
    f: impl FnOnce(&mut Scratch) -> (R, bool),
) -> R {
    let mut f = Some(f);
    let r = SCRATCH.try_with(|cell| match cell.try_borrow_mut() {
        Ok(mut sc) => {
            let (r, kept) = (f.take().expect("called once"))(&mut sc);
            if kept {
                sc.trim(narrow);
            } else {
                sc.trim(wide);
            }
            Some(r)
        }
        Err(_) => None,
    });
    match r {
        Ok(Some(r)) => r,
        _ => (f.take().expect("not called yet"))(&mut Scratch::default()).0,
    }
}

/// The text buffers kept apart from [`Scratch`], one per use: a key or a rule holds one while it
/// runs a [`with`] call (canonicalization) or another of them.
#[derive(Clone, Copy)]
pub(crate) enum Side {
    /// The canonical URL a key is made of.
    KeyCanon,
    /// The URL after the rules, before SURT.
    KeyRuled,
    /// A key or URL Standard result before the C ABI copies it out.
    FfiOut,
    /// A rule's normalized URL.
    RulesNorm,
    /// The canonical form a rule's result is checked against.
    RulesCheck,
}

thread_local! {
    static SIDE: [RefCell<String>; 5] = const { [const { RefCell::new(String::new()) }; 5] };
}

/// Runs `f` with this thread's empty `which` buffer (a fresh one when it is in use or the thread
/// is exiting), freed afterwards when it grew past [`KEEP`].
pub(crate) fn with_side<R>(which: Side, f: impl FnOnce(&mut String) -> R) -> R {
    let mut f = Some(f);
    let r = SIDE.try_with(|cells| {
        cells[which as usize].try_borrow_mut().ok().map(|mut b| {
            b.clear();
            let r = (f.take().expect("called once"))(&mut b);
            free_if_large(&mut b);
            r
        })
    });
    match (r, f) {
        (Ok(Some(r)), _) => r,
        (_, Some(f)) => f(&mut String::new()),
        (_, None) => unreachable!("f ran but gave no result"),
    }
}

/// CanonicalizeHost's intermediate strings (its slow path), each cleared before use.
#[derive(Default)]
pub(crate) struct HostBufs {
    /// Step 2 output.
    pub(crate) no_ctl: String,
    /// Step 6 output.
    pub(crate) decoded: String,
    /// The escaped octets of one run in step 6.
    pub(crate) run: Vec<u8>,
    /// Step 11 output.
    pub(crate) prepped: String,
    /// Step 15 output.
    pub(crate) separated: String,
    /// Steps 17 to 22 output, when steps 25 to 30 may change it (`host::finish_in_place`).
    pub(crate) joined: String,
    pub(crate) nameprep: crate::nameprep::Scratch,
}

/// Frees `b` if it grew past [`KEEP`] (peak memory of a megabyte host).
pub(crate) fn free_if_large(b: &mut String) {
    if b.capacity() > KEEP {
        *b = String::new();
    }
}

impl HostBufs {
    fn release_large(&mut self) {
        for b in [
            &mut self.no_ctl,
            &mut self.decoded,
            &mut self.prepped,
            &mut self.separated,
            &mut self.joined,
        ] {
            free_if_large(b);
        }
        if self.run.capacity() > KEEP {
            self.run = Vec::new();
        }
        self.nameprep.release_above(KEEP);
    }
}

thread_local! {
    static HOST: RefCell<HostBufs> = RefCell::new(HostBufs::default());
}

/// Runs `f` with this thread's [`HostBufs`] (fresh ones when in use or the thread is exiting),
/// freeing those grown past [`KEEP`] afterwards.
pub(crate) fn with_host<R>(mut f: impl FnMut(&mut HostBufs) -> R) -> R {
    let r = HOST.try_with(|cell| {
        let mut s = cell.try_borrow_mut().ok()?;
        let r = f(&mut s);
        s.release_large();
        Some(r)
    });
    match r {
        Ok(Some(r)) => r,
        _ => f(&mut HostBufs::default()),
    }
}

type Ranges = Vec<std::ops::Range<usize>>;

thread_local! {
    static SORT: RefCell<(Ranges, Ranges)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// Runs `f` with this thread's two range buffers (`sort-query`'s parameters and its merge sort's
/// second buffer), freed afterwards when they grew past [`KEEP`].
pub(crate) fn with_sort<R>(f: impl FnOnce(&mut Ranges, &mut Ranges) -> R) -> R {
    let size = |(a, b): &(Ranges, Ranges)| {
        (a.capacity() + b.capacity()) * size_of::<std::ops::Range<usize>>()
    };
    with_local(&SORT, size, |(a, b)| f(a, b))
}

/// Runs `f` with the buffer `cell` (a fresh one when it is in use or the thread is exiting), freed
/// afterwards when `size` says it grew past [`KEEP`].
fn with_local<T: Default + 'static, R>(
    cell: &'static std::thread::LocalKey<RefCell<T>>,
    size: impl Fn(&T) -> usize,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    let mut f = Some(f);
    let r = cell.try_with(|c| {
        c.try_borrow_mut().ok().map(|mut b| {
            let r = (f.take().expect("called once"))(&mut b);
            if size(&b) > KEEP {
                *b = T::default();
            }
            r
        })
    });
    match (r, f) {
        (Ok(Some(r)), _) => r,
        (_, Some(f)) => f(&mut T::default()),
        (_, None) => unreachable!("f ran but gave no result"),
    }
}
