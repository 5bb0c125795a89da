//! UTF-8 validation of the C ABI's inputs: a shift-based automaton over Unicode Table 3-7's
//! well-formed sequences, a table load and a shift per octet with no branch on the data (faster
//! than `str::from_utf8`'s per-length branches on short IDN text). Invalid input: lossy decoder.

// States are bit offsets into a 64-bit row per octet: `TABLE[b] >> s & 63` is the state after `b`
// in state `s` (nine six-bit states fit one word).
/// Between characters (the only accepting state).
const ACCEPT: u32 = 0;
/// One, two or three continuation octets (`80..BF`) still to come.
const CONT1: u32 = 6;
const CONT2: u32 = 12;
const CONT3: u32 = 18;
const AFTER_E0: u32 = 24;
const AFTER_ED: u32 = 30;
const AFTER_F0: u32 = 36;
const AFTER_F4: u32 = 42;
/// Not UTF-8, whatever follows.
const ERROR: u32 = 48;

const STATES: [u32; 9] = [
    ACCEPT, CONT1, CONT2, CONT3, AFTER_E0, AFTER_ED, AFTER_F0, AFTER_F4, ERROR,
];

/// The transition function, from Table 3-7 ("Well-Formed UTF-8 Byte Sequences").
const fn next(state: u32, b: u8) -> u32 {
    let cont = matches!(b, 0x80..=0xBF);
    let (ok, to) = match state {
        ACCEPT => match b {
            0x00..=0x7F => (true, ACCEPT),
            0xC2..=0xDF => (true, CONT1),
            0xE0 => (true, AFTER_E0),
            0xE1..=0xEC | 0xEE..=0xEF => (true, CONT2),
            0xED => (true, AFTER_ED),
            0xF0 => (true, AFTER_F0),
            0xF1..=0xF3 => (true, CONT3),
            0xF4 => (true, AFTER_F4),
            // 80..BF (a continuation octet first), C0, C1, F5..FF.
            _ => (false, ERROR),
        },
        CONT1 => (cont, ACCEPT),
        CONT2 => (cont, CONT1),
        CONT3 => (cont, CONT2),
        // No overlong form (E0, F0), no surrogate (ED), nothing above U+10FFFF (F4).
        AFTER_E0 => (matches!(b, 0xA0..=0xBF), CONT1),
        AFTER_ED => (matches!(b, 0x80..=0x9F), CONT1),
        AFTER_F0 => (matches!(b, 0x90..=0xBF), CONT2),
        AFTER_F4 => (matches!(b, 0x80..=0x8F), CONT2),
        _ => (false, ERROR),
    };
    if ok { to } else { ERROR }
}

const fn table() -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < STATES.len() {
            let s = STATES[i];
            t[b] |= (next(s, b as u8) as u64) << s;
            i += 1;
        }
        b += 1;
    }
    t
}

static TABLE: [u64; 256] = table();

/// Whether `bytes` is well-formed UTF-8, exactly as `str::from_utf8` says (the tests compare the
/// two on every string of up to three octets and every four-octet one starting F0..F4).
pub(crate) fn is_valid(bytes: &[u8]) -> bool {
    let word = |i: usize| {
        let w = &bytes[i..i + 8];
        u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]])
    };
    let n = bytes.len();
    // Skip the leading ASCII words, eight octets to a test (the state stays ACCEPT).
    let mut i = 0;
    while i + 8 <= n && word(i) & 0x8080_8080_8080_8080 == 0 {
        i += 8;
    }
    // Then every octet, with no branch on the data (it would mispredict from one URL to the next).
    // The bits above the low six are left over: a 64-bit shift uses its count's low six bits only.
    let mut state = u64::from(ACCEPT);
    let mut step = |w: u64| {
        for k in 0..8 {
            let b = (w >> (8 * k)) as u8;
            state = TABLE[usize::from(b)].wrapping_shr(state as u32);
        }
    };
    while i + 8 <= n {
        step(word(i));
        i += 8;
    }
    if n >= 8 {
        // The last octets: the last word shifted down, NUL-padded. NUL keeps ACCEPT and takes every
        // other state to ERROR, so the padded input ends in ACCEPT exactly when the input does.
        step(
            word(n - 8)
                .checked_shr(8 * (8 - (n - i)) as u32)
                .unwrap_or(0),
        );
    } else {
        let mut w = [0u8; 8];
        w[..n].copy_from_slice(bytes);
        step(u64::from_le_bytes(w));
    }
    state & 63 == u64::from(ACCEPT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(s: &[u8]) {
        assert_eq!(is_valid(s), std::str::from_utf8(s).is_ok(), "{s:x?}");
    }

    /// Every string of up to three octets, alone and after eight ASCII
    /// octets (the word skip) and one (no skip).
    #[test]
    fn up_to_three_octets() {
        same(b"");
        let mut buf = *b"abcdefgh\0\0\0";
        for a in 0..=255u8 {
            same(&[a]);
            for b in 0..=255u8 {
                same(&[a, b]);
                for c in 0..=255u8 {
                    same(&[a, b, c]);
                }
            }
            buf[8] = a;
            same(&buf[..9]);
            same(&buf[7..9]);
        }
    }

    /// Every four-octet string whose first octet can start a four-octet
    /// sequence (F0..F4), and after an ASCII word. With the three-octet
    /// test this covers every transition of the automaton from every state
    /// it can be in, and ERROR is a sink, so the two agree on every input.
    #[test]
    fn four_octets() {
        for a in 0xF0..=0xF4u8 {
            for b in 0..=255u8 {
                for c in 0..=255u8 {
                    for d in 0..=255u8 {
                        let s = [a, b, c, d];
                        assert_eq!(is_valid(&s), std::str::from_utf8(&s).is_ok(), "{s:x?}");
                    }
                }
            }
            same(&[
                b'x', b'y', b'z', b'w', b'v', b'u', b't', b's', a, 0x90, 0x80, 0x80,
            ]);
        }
    }

    /// A truncated sequence (every state but ACCEPT and ERROR) at every
    /// position of a word, then ASCII words: the word skip must not skip
    /// a word while a character is open. And complete ones, which it may.
    #[test]
    fn ascii_word_after_open_character() {
        let open: [&[u8]; 10] = [
            b"\xC3",
            b"\xE3",
            b"\xE3\x81",
            b"\xE0",
            b"\xED",
            b"\xF0",
            b"\xF0\x90",
            b"\xF0\x90\x80",
            b"\xF4",
            b"\xC3\xA9",
        ];
        for pre in 0..17 {
            for seq in open {
                for post in [0, 1, 7, 8, 9, 16, 17, 24] {
                    let mut s = vec![b'a'; pre];
                    s.extend_from_slice(seq);
                    s.extend(std::iter::repeat_n(b'b', post));
                    same(&s);
                }
            }
        }
    }

    /// ERROR is a sink, and every state's row entries are states.
    #[test]
    fn error_is_a_sink() {
        for (b, row) in TABLE.iter().enumerate() {
            assert_eq!(row >> ERROR & 63, u64::from(ERROR), "{b:#x}");
            for s in STATES {
                let to = (row >> s & 63) as u32;
                assert!(STATES.contains(&to), "{b:#x} {s} {to}");
            }
        }
    }

    /// Pseudo-random strings over octets that matter, of every length up to
    /// 40 (longer runs of characters and of ASCII words).
    #[test]
    fn random_strings() {
        let pool = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1,
            0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, b'a', b'a', b'a', 0x80, 0xBF,
        ];
        let mut rng = crate::testutil::Xorshift(0x853c_49e6_748f_ea9b);
        let mut s = Vec::new();
        for n in 0..200_000 {
            s.clear();
            for _ in 0..n % 41 {
                s.push(rng.pick(&pool));
            }
            same(&s);
        }
        for c in ['a', 'é', '日', '\u{1F600}', '\u{10FFFF}', '\u{FFFD}'] {
            same(c.to_string().repeat(30).as_bytes());
        }
    }
}
