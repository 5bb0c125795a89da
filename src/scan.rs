//! Word-at-a-time byte searches for the short strings URLs are made of (ARCHITECTURE.md, speed
//! mechanisms, row 14): eight octets at once with integer arithmetic, no `unsafe` or SIMD
//! intrinsics, instead of `memchr`'s setup cost or a per-octet loop.

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The high bit of each octet of `w` equal to `c`. Bits above a true match
/// may be set spuriously (a borrow), never bits below the first one, so the
/// lowest set bit is exact: what a forward search needs.
#[inline]
fn eq_mask(w: u64, c: u8) -> u64 {
    let x = w ^ (LO * u64::from(c));
    x.wrapping_sub(LO) & !x & HI
}

/// The high bit of each octet of `w` equal to `c`, exactly: no borrow or carry crosses octets (the
/// low seven bits plus `0x7F` stay below `0x100`), so the highest bit is right too, unlike
/// [`eq_mask`].
#[inline]
pub(crate) fn eq_mask_exact(w: u64, c: u8) -> u64 {
    const LOW7: u64 = !HI;
    let x = w ^ (LO * u64::from(c));
    !(((x & LOW7) + LOW7) | x) & HI
}

/// The eight octets of `b` from `i`, the first one lowest.
#[inline]
pub(crate) fn load(b: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(w)
}

#[inline]
fn load16(b: &[u8], i: usize) -> u128 {
    let mut w = [0u8; 16];
    w.copy_from_slice(&b[i..i + 16]);
    u128::from_le_bytes(w)
}

/// The offset of the first octet of `b` for which `mask` ([`eq_mask`]) sets its high bit.
#[inline]
fn find_by(b: &[u8], mask: impl Fn(u64) -> u64, hit: impl Fn(u8) -> bool) -> Option<usize> {
    let n = b.len();
    if n < 8 {
        return b.iter().position(|&c| hit(c));
    }
    let mut i = 0;
    while i + 8 <= n {
        let m = mask(load(b, i));
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    if i < n {
        // The last eight octets, overlapping octets already searched: they
        // hold no match, so no borrow from them sets a spurious bit.
        let seen = i - (n - 8);
        let m = mask(load(b, n - 8)) & (!0u64 << (seen * 8));
        if m != 0 {
            return Some(n - 8 + (m.trailing_zeros() / 8) as usize);
        }
    }
    None
}

/// The offset of the last octet of `b` for which the exact `mask` ([`eq_mask_exact`]) sets its high
/// bit.
#[inline]
fn rfind_by(b: &[u8], mask: impl Fn(u64) -> u64, hit: impl Fn(u8) -> bool) -> Option<usize> {
    let n = b.len();
    if n < 8 {
        return b.iter().rposition(|&c| hit(c));
    }
    let last = |m: u64| (63 - m.leading_zeros()) as usize / 8;
    let mut end = n;
    while end >= 8 {
        let m = mask(load(b, end - 8));
        if m != 0 {
            return Some(end - 8 + last(m));
        }
        end -= 8;
    }
    if end > 0 {
        // The first eight octets, overlapping octets already searched,
        // which hold no match (and exact masks no spurious bit).
        let m = mask(load(b, 0));
        if m != 0 {
            return Some(last(m));
        }
    }
    None
}

/// The last offset of `x` in `b` (`memchr::memrchr` without its setup).
pub(crate) fn rfind1(b: &[u8], x: u8) -> Option<usize> {
    rfind_by(b, |w| eq_mask_exact(w, x), |c| c == x)
}

/// The last offset of `x` or `y` in `b`.
pub(crate) fn rfind2(b: &[u8], x: u8, y: u8) -> Option<usize> {
    rfind_by(
        b,
        |w| eq_mask_exact(w, x) | eq_mask_exact(w, y),
        |c| c == x || c == y,
    )
}

/// Whether every octet of `b` is ASCII, as `<[u8]>::is_ascii`, without its per-octet tail:
/// overlapping 16-octet blocks from 16 to 128 octets, else words and one overlapping tail word;
/// under eight, two overlapping halves; under four, the first, middle and last octets (all of
/// them).
#[inline(always)]
pub(crate) fn is_ascii(b: &[u8]) -> bool {
    let n = b.len();
    // Blocks at `min(16 k, n - 16)` cover the input exactly with no loop on its length: four up to
    // 64 octets (most URLs), eight up to 128.
    let blocks = |count: usize| {
        let mut acc = 0u128;
        for k in 0..count {
            acc |= load16(b, (16 * k).min(n - 16));
        }
        acc & (u128::from(HI) << 64 | u128::from(HI)) == 0
    };
    if (16..=64).contains(&n) {
        blocks(4)
    } else if (16..=128).contains(&n) {
        blocks(8)
    } else if n >= 8 {
        let mut chunks = b.chunks_exact(8);
        let mut acc = 0u64;
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            acc |= u64::from_le_bytes(w);
        }
        acc |= load(b, n - 8);
        acc & HI == 0
    } else if n >= 4 {
        let half = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        (half(0) | half(n - 4)) & 0x8080_8080 == 0
    } else if n > 0 {
        (b[0] | b[n / 2] | b[n - 1]) < 0x80
    } else {
        true
    }
}

/// Whether every octet is printable ASCII (`!` to `~`): then preprocessing leaves `b` as it is. Per
/// word: an octet below `!` borrows into its top bit when `!` is subtracted (its own top bit
/// clear), and one of `0x80` or more, or DEL (`+ 1` carries), sets it directly.
#[inline]
pub(crate) fn is_printable_ascii(b: &[u8]) -> bool {
    let word_bad = |w: u64| {
        let below = w.wrapping_sub(LO * 0x21) & !w;
        let del_or_high = w.wrapping_add(LO) | w;
        (below | del_or_high) & HI != 0
    };
    let mut chunks = b.chunks_exact(8);
    let mut bad = false;
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        bad |= word_bad(u64::from_le_bytes(w));
    }
    let rest = chunks.remainder();
    if b.len() >= 8 {
        // The tail as the last eight octets, overlapping the last word.
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[b.len() - 8..]);
            bad |= word_bad(u64::from_le_bytes(w));
        }
    } else {
        bad |= rest.iter().any(|&c| !(0x21..=0x7E).contains(&c));
    }
    !bad
}

/// The end of the run of octets of `s` from `from` that `ok` accepts (at most `s.len()`), four
/// octets to a bound check, each octet with its own exit.
#[inline(always)]
pub(crate) fn run_while(s: &[u8], from: usize, ok: impl Fn(u8) -> bool) -> usize {
    let mut i = from;
    while let Some(&[a, b, c, d]) = s.get(i..i + 4).and_then(|w| w.first_chunk::<4>()) {
        if !ok(a) {
            return i;
        }
        if !ok(b) {
            return i + 1;
        }
        if !ok(c) {
            return i + 2;
        }
        if !ok(d) {
            return i + 3;
        }
        i += 4;
    }
    while i < s.len() && ok(s[i]) {
        i += 1;
    }
    i
}

/// The first offset of `x` in `b`.
pub(crate) fn find1(b: &[u8], x: u8) -> Option<usize> {
    find_by(b, |w| eq_mask(w, x), |c| c == x)
}

/// The first offset of `x` or `y` in `b`.
pub(crate) fn find2(b: &[u8], x: u8, y: u8) -> Option<usize> {
    find_by(b, |w| eq_mask(w, x) | eq_mask(w, y), |c| c == x || c == y)
}

/// The first offset of any of `x`, `y`, `z`, `v` in `b`.
pub(crate) fn find4(b: &[u8], [x, y, z, v]: [u8; 4]) -> Option<usize> {
    find_by(
        b,
        |w| eq_mask(w, x) | eq_mask(w, y) | eq_mask(w, z) | eq_mask(w, v),
        |c| c == x || c == y || c == z || c == v,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `is_ascii` agrees with the standard library on every length up to
    /// 140 (past the blocks' range) with one non-ASCII octet (or none) at
    /// each position.
    #[test]
    fn is_ascii_matches_std() {
        for n in 0..140 {
            let mut b = vec![b'a'; n];
            assert!(is_ascii(&b), "{n}");
            for i in 0..n {
                for x in [0x80u8, 0xC3, 0xFF] {
                    b[i] = x;
                    assert_eq!(is_ascii(&b), b.is_ascii(), "{n} {i} {x:x}");
                    assert!(!is_ascii(&b));
                    b[i] = b'a';
                }
            }
        }
    }

    /// The word-at-a-time test agrees with the octet-by-octet definition
    /// for every octet at every position of a word and of a tail.
    #[test]
    fn printable_ascii_word_test() {
        for len in [1usize, 7, 8, 9, 16, 19] {
            for pos in 0..len {
                for v in 0..=255u8 {
                    let mut b = vec![b'x'; len];
                    b[pos] = v;
                    assert_eq!(
                        is_printable_ascii(&b),
                        (0x21..=0x7E).contains(&v),
                        "len {len} pos {pos} octet {v:#x}"
                    );
                }
            }
        }
        assert!(is_printable_ascii(b""));
    }

    /// Every length up to 40, every match position and a second match
    /// after it: the searches (forward and backward) agree with the
    /// octet-by-octet definition.
    #[test]
    fn searches_find_the_first_match() {
        for n in 0..40 {
            for first in 0..=n {
                for second in first..=n {
                    let mut b = vec![b'a'; n];
                    for (k, c) in [(first, b'?'), (second, b'\\')] {
                        if k < n {
                            b[k] = c;
                        }
                    }
                    // An octet one below a match (a borrow's neighbour).
                    if first > 0 {
                        b[first - 1] = b'>';
                    }
                    let want2 = b.iter().position(|&c| c == b'?' || c == b'\\');
                    assert_eq!(find2(&b, b'?', b'\\'), want2, "{b:?}");
                    let last2 = b.iter().rposition(|&c| c == b'?' || c == b'\\');
                    assert_eq!(rfind2(&b, b'?', b'\\'), last2, "{b:?}");
                    let last1 = b.iter().rposition(|&c| c == b'\\');
                    assert_eq!(rfind1(&b, b'\\'), last1, "{b:?}");
                    let want4 = b
                        .iter()
                        .position(|&c| matches!(c, b'/' | b'\\' | b'?' | b'#'));
                    assert_eq!(find4(&b, [b'/', b'\\', b'?', b'#']), want4, "{b:?}");
                }
            }
        }
        // Every octet value beside a match and alone.
        for v in 0..=255u8 {
            for n in [7usize, 8, 13, 16, 21] {
                for k in 0..n {
                    let mut b = vec![v; n];
                    b[k] = b'#';
                    let want = b.iter().position(|&c| matches!(c, b'#' | b'@'));
                    assert_eq!(find2(&b, b'#', b'@'), want, "{v} {n} {k}");
                    let want1 = b.iter().position(|&c| c == b'#');
                    assert_eq!(find1(&b, b'#'), want1, "{v} {n} {k}");
                    let last1 = b.iter().rposition(|&c| c == b'#');
                    assert_eq!(rfind1(&b, b'#'), last1, "{v} {n} {k}");
                    let last2 = b.iter().rposition(|&c| matches!(c, b'#' | b'@'));
                    assert_eq!(rfind2(&b, b'#', b'@'), last2, "{v} {n} {k}");
                    let want4 = b
                        .iter()
                        .position(|&c| matches!(c, b'/' | b'\\' | b'?' | b'#'));
                    assert_eq!(find4(&b, [b'/', b'\\', b'?', b'#']), want4);
                }
            }
        }
    }
}
