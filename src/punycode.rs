//! Punycode encoding (RFC 3492 section 6.3), appending to a caller's buffer:
//! CanonicalizeHost step 20.2.1.2.2 encodes every non-ASCII label, and
//! `idna::punycode::encode_str` would allocate a new `String` each time
//! (its writer-based encoder is private to that crate).
//!
//! Written from the RFC's pseudocode and parameter values (section 5), not
//! from another implementation. The output digits are lowercase, as the
//! `idna` crate (used before) writes them.

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

/// Section 5: digit values 0-25 are `a`-`z`, 26-35 are `0`-`9` (a table
/// rather than a branch on the value).
fn digit(d: u32) -> char {
    const DIGITS: &[u8; BASE as usize] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    char::from(DIGITS[d as usize])
}

/// Appends the Punycode encoding of `input` to `out` (without the `xn--`
/// prefix). `false` on overflow (section 6.4), in which case `out` may hold
/// partial output. Quadratic in the number of code points: callers bound
/// the input (CanonicalizeHost never passes more than 59 code points).
pub fn encode_into(input: &str, out: &mut String) -> bool {
    // The code points are read many times (once per distinct non-basic
    // code point, twice): decode the UTF-8 once. A label of Punycode is at
    // most 63 characters, so a stack array holds every label that can
    // succeed; longer input (which the host rules reject before calling)
    // still gets an exact answer from a vector.
    let mut stack = [0u32; 64];
    let mut len = 0;
    for c in input.chars() {
        if len == stack.len() {
            let all: Vec<u32> = input.chars().map(u32::from).collect();
            return encode_code_points(&all, out);
        }
        stack[len] = u32::from(c);
        len += 1;
    }
    encode_code_points(&stack[..len], out)
}

/// RFC 3492 6.3 on decoded code points.
fn encode_code_points(input: &[u32], out: &mut String) -> bool {
    let Ok(len) = u32::try_from(input.len()) else {
        return false;
    };
    // Section 6.3: copy the basic code points in order, then the delimiter
    // if there were any.
    let mut basic: u32 = 0;
    for &c in input {
        if c < 0x80 {
            out.push(char::from(c as u8));
            basic += 1;
        }
    }
    if basic > 0 {
        out.push('-');
    }
    let (mut n, mut delta, mut bias) = (INITIAL_N, 0u32, INITIAL_BIAS);
    // `h`: the number of code points handled so far.
    let mut h = basic;
    // The smallest code point not yet handled (>= n), found for the first
    // round here and for each next round during the pass over the input
    // (one pass per round instead of two).
    let mut m = input.iter().copied().filter(|&c| c >= n).min().unwrap_or(n);
    while h < len {
        // m exists: h < len.
        match (m - n)
            .checked_mul(h + 1)
            .and_then(|d| delta.checked_add(d))
        {
            Some(d) => delta = d,
            None => return false,
        }
        n = m;
        // The next round's m: the smallest code point above this n.
        let mut next = u32::MAX;
        // Whether a code point is below, at or above `n` varies from one to
        // the next, which no branch predictor learns: the counting and the
        // minimum are arithmetic and conditional moves, and only `c == n`
        // branches.
        for &c in input {
            match delta.checked_add(u32::from(c < n)) {
                Some(d) => delta = d,
                None => return false,
            }
            next = next.min(if c > n { c } else { u32::MAX });
            if c == n {
                // Represent delta as a generalized variable-length integer.
                let mut q = delta;
                let mut k = BASE;
                loop {
                    // TMIN if k <= bias, TMAX if k >= bias + TMAX, else
                    // k - bias (which is then at least 1 = TMIN).
                    let t = k.saturating_sub(bias).clamp(TMIN, TMAX);
                    if q < t {
                        break;
                    }
                    out.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(digit(q));
                bias = adapt(delta, h + 1, h == basic);
                delta = 0;
                h += 1;
            }
        }
        delta += 1;
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
            for _ in 0..n % 40 {
                s.push(rng.pick(&pool));
            }
            assert_eq!(enc(&s), idna::punycode::encode_str(&s).unwrap(), "{s:?}");
        }
    }

    /// Input longer than the stack array takes the vector and gives the
    /// same encoding as the core on the same code points.
    #[test]
    fn long_input() {
        let s: String = "aé日".repeat(30);
        let cps: Vec<u32> = s.chars().map(u32::from).collect();
        let mut want = String::new();
        assert!(encode_code_points(&cps, &mut want));
        assert_eq!(enc(&s), want);
        assert!(enc(&s[..s.len() - "日".len()]).len() < want.len());
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
