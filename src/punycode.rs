//! Punycode encoding (RFC 3492 section 6.3, from its pseudocode) for CanonicalizeHost step
//! 20.2.1.2.2, appending to a caller's buffer (`idna::punycode::encode_str` allocates a `String`).
//! The digits are lowercase, as the `idna` crate writes them.

/// Section 5 parameter values for Punycode.
const BASE: u32 = 36;
const TMIN: u32 = 1;
const TMAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 0x80;

/// Section 6.1: the bias adaptation function.
fn adapt(delta: u32, num_points: u32, first_time: bool) -> u32 {
    let mut delta = if first_time { delta / DAMP } else { delta / 2 };
    delta += delta / num_points;
    let mut k = 0;
    while delta > ((BASE - TMIN) * TMAX) / 2 {
        delta /= BASE - TMIN;
        k += BASE;
    }
    k + (BASE - TMIN + 1) * delta / (delta + SKEW)
}

/// Section 5: digit values 0-25 are `a`-`z`, 26-35 `0`-`9`; 64 entries, so `& 63` is in bounds.
const DIGITS: &[u8; 64] = b"abcdefghijklmnopqrstuvwxyz0123456789............................";

#[inline]
fn digit(d: u32) -> char {
    char::from(DIGITS[(d & 63) as usize])
}

/// Non-basic code points held on the stack: a label has at most 63; longer input takes a vector.
const STACK: usize = 64;

/// A non-basic code point and the number of basic ones before it (since the previous non-basic
/// one) share a `u32`: the code point in the low 21 bits, the count above (too large: the vector).
const CP_BITS: u32 = 21;
const CP_MASK: u32 = (1 << CP_BITS) - 1;
const MAX_GAP: usize = (u32::MAX >> CP_BITS) as usize;

/// Appends the Punycode encoding of `input` (without `xn--`) to `out`; `false` on overflow (6.4),
/// maybe after partial output. Quadratic in non-basic code points: CanonicalizeHost passes <= 59.
pub fn encode_into(input: &str, out: &mut String) -> bool {
    // Each round's pass runs over the non-basic code points alone, adding the count of basic ones
    // before each (CP_BITS) where the RFC counts them one by one (they are all below `n`).
    let mut packed = [0u32; STACK];
    let (mut count, mut gap, mut basic) = (0, 0usize, 0usize);
    let mut min = u32::MAX;
    for c in input.chars() {
        if c.is_ascii() {
            gap += 1;
            continue;
        }
        if count == STACK || gap > MAX_GAP {
            return encode_long(input, out);
        }
        let c = u32::from(c);
        packed[count] = c | (gap as u32) << CP_BITS;
        min = min.min(c);
        basic += gap;
        gap = 0;
        count += 1;
    }
    encode_packed(input, &packed[..count], basic + gap, gap, min, out)
}

/// [`encode_into`] for more non-basic code points than `STACK`, or a run of basic ones longer
/// than `MAX_GAP`: split by entries of value 0 that stand for `MAX_GAP` basic code points (their
/// count, `MAX_GAP - 1`, plus one for the 0 itself, below every `n`), which no round reaches.
#[cold]
fn encode_long(input: &str, out: &mut String) -> bool {
    let (mut packed, mut gap, mut basic, mut min) = (Vec::new(), 0usize, 0usize, u32::MAX);
    for c in input.chars() {
        if c.is_ascii() {
            gap += 1;
            if gap == MAX_GAP {
                packed.push(((MAX_GAP - 1) as u32) << CP_BITS);
                basic += gap;
                gap = 0;
            }
        } else {
            let c = u32::from(c);
            packed.push(c | (gap as u32) << CP_BITS);
            min = min.min(c);
            basic += gap;
            gap = 0;
        }
    }
    encode_packed(input, &packed, basic + gap, gap, min, out)
}

/// RFC 3492 6.3 on `input`, whose non-basic code points are `packed` (see `CP_BITS`); `basic` of
/// its code points are basic, `tail` of them after the last non-basic; `min` is the first `m`.
#[inline(always)]
fn encode_packed(
    input: &str,
    packed: &[u32],
    basic: usize,
    tail: usize,
    min: u32,
    out: &mut String,
) -> bool {
    // Section 6.3: copy the basic code points in order, then the delimiter if there were any.
    if basic > 0 {
        for b in input.bytes().filter(u8::is_ascii) {
            out.push(char::from(b));
        }
        out.push('-');
    }
    // The RFC's integers are 32 bits here (as in `idna`): more code points fails. Padding entries
    // (value 0) are not code points.
    let non_basic = packed.iter().filter(|&&e| e & CP_MASK != 0).count();
    let (Ok(basic), Ok(len), Ok(tail)) = (
        u32::try_from(basic),
        u32::try_from(basic + non_basic),
        u32::try_from(tail),
    ) else {
        return false;
    };
    let (mut n, mut bias) = (INITIAL_N, INITIAL_BIAS);
    // `delta` in 64 bits, capped at 2^33: above `u32::MAX` at an output is 6.4's overflow. It only
    // grows between two outputs, so testing there fails on exactly the input a checked add would.
    const CAP: u64 = 1 << 33;
    let mut delta: u64 = 0;
    let mut h = basic;
    // The smallest code point >= n, for the next round found during this round's pass.
    let mut m = min;
    while h < len {
        delta = (delta + u64::from(m - n) * u64::from(h + 1)).min(CAP);
        n = m;
        let mut next = u32::MAX;
        for &e in packed {
            let c = e & CP_MASK;
            // The basic code points before `c`, all below `n`, then `c`.
            delta += u64::from(e >> CP_BITS) + u64::from(c < n);
            next = next.min(if c > n { c } else { u32::MAX });
            if c == n {
                let Ok(d) = u32::try_from(delta) else {
                    return false;
                };
                // Represent delta as a generalized variable-length integer.
                let mut q = d;
                let mut k = BASE;
                loop {
                    // TMIN if k <= bias, TMAX if k >= bias + TMAX, else k - bias (>= 1 = TMIN).
                    let t = k.saturating_sub(bias).clamp(TMIN, TMAX);
                    if q < t {
                        break;
                    }
                    out.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(digit(q));
                bias = adapt(d, h + 1, h == basic);
                delta = 0;
                h += 1;
            }
        }
        // The basic code points after the last non-basic one, then "increment delta and n".
        delta += u64::from(tail) + 1;
        n += 1;
        m = next;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(s: &str) -> String {
        let mut out = String::new();
        assert!(encode_into(s, &mut out));
        out
    }

    /// Agreement with the `idna` crate's encoder on pseudo-random labels
    /// mixing basic code points, repeated and distinct non-basic ones
    /// from several planes.
    #[test]
    fn random_labels_match_idna() {
        let pool: Vec<char> = "az09-é日本語ü\u{0627}\u{10FFFF}\u{1F600}\u{80}\u{FFFD}ßΩ"
            .chars()
            .collect();
        let mut rng = crate::testutil::Xorshift(0x2545_f491_4f6c_dd1d);
        for n in 0..20_000 {
            let mut s = String::new();
            for _ in 0..n % 80 {
                s.push(rng.pick(&pool));
            }
            assert_eq!(enc(&s), idna::punycode::encode_str(&s).unwrap(), "{s:?}");
        }
    }

    /// Input with more non-basic code points than the stack arrays hold
    /// takes the vectors and gives the `idna` crate's encoding; around the
    /// 64 of the arrays, and with basic code points after the last
    /// non-basic one or not.
    #[test]
    fn long_input() {
        for n in 60..70 {
            for s in ["aé日".repeat(n), "é日a".repeat(n), "日".repeat(n)] {
                assert_eq!(enc(&s), idna::punycode::encode_str(&s).unwrap(), "{s:?}");
            }
        }
    }

    /// Section 6.4's overflow, at the same lengths as the `idna` crate's
    /// encoder: `delta` for U+10FFFF after `k` basic code points is about
    /// 0x10FF7F * (k + 1), which passes 2^32 - 1 near k = 3840; and a
    /// second code point later in the label.
    #[test]
    fn overflow_matches_idna() {
        let mut outcomes = [0; 2];
        for k in (3820..3860).chain([0, 1, 100, 5000]) {
            for s in [
                format!("{}\u{10FFFF}", "a".repeat(k)),
                format!("\u{10FFFF}{}", "a".repeat(k)),
                format!("{}\u{10FFFF}\u{10FFFE}", "é".repeat(k)),
                format!("é{}\u{10FFFF}x", "b".repeat(k)),
            ] {
                let mut out = String::new();
                let got = encode_into(&s, &mut out).then_some(out);
                outcomes[usize::from(got.is_some())] += 1;
                assert_eq!(got, idna::punycode::encode_str(&s), "{k}");
            }
        }
        // Both outcomes occur.
        assert!(outcomes[0] > 10 && outcomes[1] > 10, "{outcomes:?}");
    }

    /// Section 7.1 samples (lowercased, as this encoder writes them), and
    /// agreement with the `idna` crate on a few more.
    #[test]
    fn samples() {
        // (A) Arabic (Egyptian).
        assert_eq!(
            enc(
                "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}"
            ),
            "egbpdaj6bu4bxfgehfvwxn"
        );
        // (B) Chinese (simplified).
        assert_eq!(
            enc("\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}"),
            "ihqwcrb4cv8a8dqg056pqjye"
        );
        // (L) 3<nen>B<gumi><kinpachi><sensei>, with basic code points.
        assert_eq!(
            enc("3\u{5E74}B\u{7D44}\u{91D1}\u{516B}\u{5148}\u{751F}"),
            "3B-ww4c5e180e575a65lsy2b"
        );
        for s in [
            "bücher",
            "ü",
            "aéroport",
            "政府",
            "网络",
            "a\u{10FFFF}b",
            "\u{1F600}x",
        ] {
            assert_eq!(enc(s), idna::punycode::encode_str(s).unwrap(), "{s}");
        }
    }
}
