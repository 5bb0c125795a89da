//! Sixteen octets at a step for the recognizer (`recognize`), or 32 with AVX2: the few lane
//! operations its octet classes are written with, for SSE2 (x86-64, always there: no detection),
//! SSSE3 and AVX2 (x86-64, detected once), NEON (aarch64, part of the target) and in plain Rust
//! ([`Portable`], which the tests run to check the class formulas and the mask arithmetic of every
//! lane width). The intrinsics are `unsafe` to call outside a `#[target_feature]` function even
//! where the target enables the feature: each call says why it holds.
//!
//! A lane is all ones or all zeros after a comparison; [`Lanes::mask`] gives [`Lanes::STRIDE`] bits
//! per lane, the first octet lowest, so the first lane set is `trailing_zeros / STRIDE`.

/// A block of octets ([`Lanes::WIDTH`]: sixteen, or 32 with AVX2) and the comparisons the
/// recognizer's classes need.
pub(crate) trait Lanes: Copy {
    /// Bits per lane in [`Lanes::mask`].
    const STRIDE: u32;
    /// Octets in a block.
    const WIDTH: usize = 16;
    /// The first [`Lanes::WIDTH`] octets of `b`, `b[0]` in the first lane; `b` is at least that
    /// long.
    fn load(b: &[u8]) -> Self;
    /// All ones in each lane equal to `c`.
    fn eq(self, c: u8) -> Self;
    /// All ones in each lane from `lo` to `hi` (unsigned, both included; `lo <= hi`, not all 256
    /// values).
    fn range(self, lo: u8, hi: u8) -> Self;
    fn or(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    /// The lanes one octet on: lane `k` of the result is lane `k - 1` of `self`, lane 0 is the last
    /// lane of `prev` (the block before), so that each lane sees the octet before it.
    fn after(self, prev: Self) -> Self;
    /// All lanes zero.
    fn zero() -> Self;
    /// `STRIDE` bits set for each lane that is all ones, lane 0 lowest; none for a zero lane.
    fn mask(self) -> u64;
    /// Whether [`Lanes::outside`] looks sets up in [`Nibbles`] tables (else the classes are
    /// written with the comparisons above).
    const LOOKUP: bool = false;
    /// All ones in each lane whose octet is not in `set` (only where [`Lanes::LOOKUP`]).
    fn outside(self, set: &Nibbles) -> Self {
        let _ = set;
        unreachable!("no table lookup in these lanes")
    }
}

/// A set of ASCII octets as two 16-octet tables for a byte shuffle: `c` is in it when
/// `lo[c & 15] & hi[c >> 4] != 0`. `hi[h]` is bit `h` for the eight ASCII rows and 0 above (no
/// octet from 0x80 is in a set); `lo[l]` has bit `h` when `16 h + l` is in the set, so the test is
/// exact for every octet.
/// Read by the SSSE3 lanes (and the portable ones in tests): elsewhere only built.
#[cfg_attr(not(any(target_arch = "x86_64", test)), allow(dead_code))]
#[derive(Clone, Copy)]
pub(crate) struct Nibbles {
    lo: [u8; 16],
    hi: [u8; 16],
}

impl Nibbles {
    /// The octets `c` with `table[c] & class != 0`, and `extra` (0: none).
    pub(crate) const fn of(table: &[u8; 256], class: u8, extra: u8) -> Nibbles {
        let mut lo = [0u8; 16];
        let mut hi = [0u8; 16];
        let mut h = 0;
        while h < 8 {
            hi[h] = 1 << h;
            h += 1;
        }
        let mut c = 1;
        while c < 256 {
            if table[c] & class != 0 || (extra != 0 && c == extra as usize) {
                assert!(c < 0x80, "a set of ASCII octets");
                lo[c & 15] |= 1 << (c >> 4);
            }
            c += 1;
        }
        assert!(table[0] & class == 0, "NUL is in no set");
        Nibbles { lo, hi }
    }
}

/// Whether the CPU has SSSE3 (for [`Ssse3`]): detected once, then read from the standard
/// library's cache.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_ssse3() -> bool {
    std::arch::is_x86_feature_detected!("ssse3")
}

/// Whether the CPU has AVX2 (for [`Avx2`] and the copy of the pass compiled with it).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// The lanes the entries run with on x86-64: [`UNKNOWN`] until the first call detects them
/// ([`detect_lanes`]), then [`AVX2`], [`SSSE3`] or [`SSE2`]. One octet read at each call, in place
/// of the standard library's test, whose call to detect makes every caller save registers.
#[cfg(target_arch = "x86_64")]
static LANES: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(UNKNOWN);
#[cfg(target_arch = "x86_64")]
pub(crate) const UNKNOWN: u8 = 0;
#[cfg(target_arch = "x86_64")]
pub(crate) const SSE2: u8 = 1;
#[cfg(target_arch = "x86_64")]
pub(crate) const SSSE3: u8 = 2;
#[cfg(target_arch = "x86_64")]
pub(crate) const AVX2: u8 = 3;

/// [`LANES`] as it is: [`SSSE3`] or [`AVX2`] only once the CPU was found to have them.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn lanes() -> u8 {
    LANES.load(std::sync::atomic::Ordering::Relaxed)
}

/// Detects the CPU's features and notes the lanes in [`LANES`].
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
pub(crate) fn detect_lanes() {
    let k = if has_avx2() {
        AVX2
    } else if has_ssse3() {
        SSSE3
    } else {
        SSE2
    };
    LANES.store(k, std::sync::atomic::Ordering::Relaxed);
}

/// Defines `fn $name($args) -> $out` running `$body` with the runs type `$R` of the machine: on
/// x86-64 in a copy compiled with AVX2 when the CPU has it (`Avx2Runs`: [`Avx2`] lanes, [`Ssse3`]
/// ones on input under 32 octets, all written as three-operand instructions, which need no
/// register copies), else in one compiled with SSSE3 ([`Ssse3`] lanes) when it has that; otherwise
/// `Fast` (SSE2, NEON, or the octet loops). Expanded in `recognize`, whose `Blocks`, `Avx2Runs`
/// and `Fast` it names.
///
/// `$name` only chooses ([`lanes`]): each copy is a function of its own, called last, so that the
/// choice saves and restores no registers.
macro_rules! entry {
    ($(#[$m:meta])* $vis:vis fn $name:ident($s:ident: $st:ty $(, $a:ident: $t:ty)* $(,)?) -> $out:ty {
        $R:ident => $body:expr
    }) => {
        $(#[$m])*
        $vis fn $name($s: $st $(, $a: $t)*) -> $out {
            #[cfg(target_arch = "x86_64")]
            {
                // Two copies of the pass, chosen by the length of the input (the first argument):
                // each runs blocks of one width, and sets up their constants alone.
                #[target_feature(enable = "avx2")]
                fn avx2($s: $st $(, $a: $t)*) -> $out {
                    if $s.len() < <super::block::Avx2 as super::block::Lanes>::WIDTH {
                        type $R = Blocks<super::block::Ssse3>;
                        $body
                    } else {
                        type $R = Avx2Runs;
                        $body
                    }
                }
                #[target_feature(enable = "ssse3")]
                fn ssse3($s: $st $(, $a: $t)*) -> $out {
                    type $R = Blocks<super::block::Ssse3>;
                    $body
                }
                /// The first call: detects the lanes, then chooses.
                #[cold]
                #[inline(never)]
                fn first($s: $st $(, $a: $t)*) -> $out {
                    super::block::detect_lanes();
                    $name($s $(, $a)*)
                }
                match super::block::lanes() {
                    // SAFETY: `lanes` is `AVX2` only where the CPU has AVX2, the feature `avx2` is
                    // compiled with; it implies SSSE3, which `Ssse3` lanes need.
                    super::block::AVX2 => return unsafe { avx2($s $(, $a)*) },
                    // SAFETY: `lanes` is `SSSE3` only where the CPU has SSSE3, the only feature
                    // `ssse3` is compiled with, and `Ssse3` lanes need.
                    super::block::SSSE3 => return unsafe { ssse3($s $(, $a)*) },
                    super::block::UNKNOWN => return first($s $(, $a)*),
                    _ => {}
                }
            }
            #[cfg_attr(target_arch = "x86_64", inline(never))]
            #[cfg_attr(not(target_arch = "x86_64"), inline(always))]
            fn fast($s: $st $(, $a: $t)*) -> $out {
                type $R = Fast;
                $body
            }
            fast($s $(, $a)*)
        }
    };
}
pub(crate) use entry;

/// The lanes of the machine: SSE2 on x86-64, NEON on aarch64.
#[cfg(target_arch = "x86_64")]
pub(crate) type Native = x86::Sse2;
#[cfg(target_arch = "aarch64")]
pub(crate) type Native = arm::Neon;

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::{Avx2, Ssse3};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm_add_epi8, _mm_alignr_epi8, _mm_and_si128, _mm_cmpeq_epi8,
        _mm_cmpgt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        _mm_setzero_si128, _mm_shuffle_epi8, _mm_slli_si128, _mm_srli_epi16, _mm_srli_si128,
        _mm_xor_si128, _mm256_add_epi8, _mm256_alignr_epi8, _mm256_and_si256,
        _mm256_broadcastsi128_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
        _mm256_movemask_epi8, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi8,
        _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_xor_si256,
    };

    use super::{Lanes, Nibbles};

    // SSE2 is part of every x86-64 CPU and enabled on every x86-64 target: the intrinsics need no
    // detection, and a target without it fails to build here.
    const _: () = assert!(cfg!(target_feature = "sse2"), "SSE2 is enabled");

    /// Sixteen octets in an SSE2 register.
    #[derive(Clone, Copy)]
    pub(crate) struct Sse2(__m128i);

    impl Lanes for Sse2 {
        const STRIDE: u32 = 1;

        #[inline(always)]
        fn load(b: &[u8]) -> Self {
            let b: &[u8; 16] = b.first_chunk().expect("a block of sixteen octets");
            // SAFETY: `b` is sixteen readable octets, and `_mm_loadu_si128` has no alignment
            // requirement; SSE2 is enabled (asserted above).
            Sse2(unsafe { _mm_loadu_si128(b.as_ptr().cast()) })
        }

        #[inline(always)]
        fn eq(self, c: u8) -> Self {
            // SAFETY: SSE2 is enabled (asserted above).
            unsafe { Sse2(_mm_cmpeq_epi8(self.0, _mm_set1_epi8(c as i8))) }
        }

        #[inline(always)]
        fn range(self, lo: u8, hi: u8) -> Self {
            // `lo <= v <= hi` is `v - lo < w` (unsigned, `w` the width); SSE2 compares signed
            // octets, so both sides are flipped by 0x80: `v + (0x80 - lo)` against `w ^ 0x80`.
            let w = hi.wrapping_sub(lo).wrapping_add(1);
            // SAFETY: SSE2 is enabled (asserted above).
            unsafe {
                let d = _mm_add_epi8(self.0, _mm_set1_epi8(0x80u8.wrapping_sub(lo) as i8));
                Sse2(_mm_cmpgt_epi8(_mm_set1_epi8((w ^ 0x80) as i8), d))
            }
        }

        #[inline(always)]
        fn or(self, o: Self) -> Self {
            // SAFETY: SSE2 is enabled (asserted above).
            unsafe { Sse2(_mm_or_si128(self.0, o.0)) }
        }

        #[inline(always)]
        fn and(self, o: Self) -> Self {
            // SAFETY: SSE2 is enabled (asserted above).
            unsafe { Sse2(_mm_and_si128(self.0, o.0)) }
        }

        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            // SAFETY: SSE2 is enabled (asserted above).
            unsafe { Sse2(_mm_xor_si128(self.0, o.0)) }
        }

        #[inline(always)]
        fn after(self, prev: Self) -> Self {
            // SAFETY: SSE2 is enabled (asserted above).
            unsafe {
                Sse2(_mm_or_si128(
                    _mm_slli_si128::<1>(self.0),
                    _mm_srli_si128::<15>(prev.0),
                ))
            }
        }

        #[inline(always)]
        fn zero() -> Self {
            // SAFETY: SSE2 is enabled (asserted above).
            unsafe { Sse2(_mm_setzero_si128()) }
        }

        #[inline(always)]
        fn mask(self) -> u64 {
            // SAFETY: SSE2 is enabled (asserted above).
            unsafe { u64::from(_mm_movemask_epi8(self.0) as u16) }
        }
    }

    /// SSE2 lanes whose sets are looked up with SSSE3's byte shuffle (`pshufb`). A value of this
    /// type is made only where the CPU has SSSE3: by `entry!` after `lanes` said so, and by
    /// tests after `has_ssse3`.
    #[derive(Clone, Copy)]
    pub(crate) struct Ssse3(Sse2);

    impl Lanes for Ssse3 {
        const STRIDE: u32 = 1;
        const LOOKUP: bool = true;

        #[inline(always)]
        fn load(b: &[u8]) -> Self {
            Ssse3(Sse2::load(b))
        }

        #[inline(always)]
        fn eq(self, c: u8) -> Self {
            Ssse3(self.0.eq(c))
        }

        #[inline(always)]
        fn range(self, lo: u8, hi: u8) -> Self {
            Ssse3(self.0.range(lo, hi))
        }

        #[inline(always)]
        fn or(self, o: Self) -> Self {
            Ssse3(self.0.or(o.0))
        }

        #[inline(always)]
        fn and(self, o: Self) -> Self {
            Ssse3(self.0.and(o.0))
        }

        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            Ssse3(self.0.xor(o.0))
        }

        #[inline(always)]
        fn after(self, prev: Self) -> Self {
            // SAFETY: the CPU has SSSE3 wherever an `Ssse3` value exists (see the type).
            unsafe { Ssse3(Sse2(_mm_alignr_epi8::<15>((self.0).0, (prev.0).0))) }
        }

        #[inline(always)]
        fn zero() -> Self {
            Ssse3(Sse2::zero())
        }

        #[inline(always)]
        fn mask(self) -> u64 {
            self.0.mask()
        }

        #[inline(always)]
        fn outside(self, set: &Nibbles) -> Self {
            let v = (self.0).0;
            // SAFETY: the CPU has SSSE3 wherever an `Ssse3` value exists (see the type); the
            // tables are sixteen readable octets each, loaded unaligned.
            unsafe {
                let nibble = _mm_set1_epi8(0x0F);
                let lo = _mm_shuffle_epi8(
                    _mm_loadu_si128(set.lo.as_ptr().cast()),
                    _mm_and_si128(v, nibble),
                );
                let hi = _mm_shuffle_epi8(
                    _mm_loadu_si128(set.hi.as_ptr().cast()),
                    _mm_and_si128(_mm_srli_epi16::<4>(v), nibble),
                );
                Ssse3(Sse2(_mm_cmpeq_epi8(
                    _mm_and_si128(lo, hi),
                    _mm_setzero_si128(),
                )))
            }
        }
    }

    /// 32 octets in an AVX2 register, the sets looked up with its byte shuffle (`vpshufb`, which
    /// shuffles each half of sixteen on its own: the tables are in both halves). A value of this
    /// type is made only where the CPU has AVX2: by `entry!` after `lanes` said so, and by tests
    /// after `has_avx2`.
    #[derive(Clone, Copy)]
    pub(crate) struct Avx2(__m256i);

    impl Lanes for Avx2 {
        const STRIDE: u32 = 1;
        const WIDTH: usize = 32;
        const LOOKUP: bool = true;

        #[inline(always)]
        fn load(b: &[u8]) -> Self {
            let b: &[u8; 32] = b.first_chunk().expect("a block of 32 octets");
            // SAFETY: `b` is 32 readable octets, and `_mm256_loadu_si256` has no alignment
            // requirement; the CPU has AVX2 wherever an `Avx2` value is made (see the type).
            Avx2(unsafe { _mm256_loadu_si256(b.as_ptr().cast()) })
        }

        #[inline(always)]
        fn eq(self, c: u8) -> Self {
            // SAFETY: the CPU has AVX2 wherever an `Avx2` value exists (see the type).
            unsafe { Avx2(_mm256_cmpeq_epi8(self.0, _mm256_set1_epi8(c as i8))) }
        }

        #[inline(always)]
        fn range(self, lo: u8, hi: u8) -> Self {
            // As `Sse2::range`: both sides flipped by 0x80 for the signed comparison.
            let w = hi.wrapping_sub(lo).wrapping_add(1);
            // SAFETY: the CPU has AVX2 wherever an `Avx2` value exists (see the type).
            unsafe {
                let d = _mm256_add_epi8(self.0, _mm256_set1_epi8(0x80u8.wrapping_sub(lo) as i8));
                Avx2(_mm256_cmpgt_epi8(_mm256_set1_epi8((w ^ 0x80) as i8), d))
            }
        }

        #[inline(always)]
        fn or(self, o: Self) -> Self {
            // SAFETY: the CPU has AVX2 wherever an `Avx2` value exists (see the type).
            unsafe { Avx2(_mm256_or_si256(self.0, o.0)) }
        }

        #[inline(always)]
        fn and(self, o: Self) -> Self {
            // SAFETY: the CPU has AVX2 wherever an `Avx2` value exists (see the type).
            unsafe { Avx2(_mm256_and_si256(self.0, o.0)) }
        }

        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            // SAFETY: the CPU has AVX2 wherever an `Avx2` value exists (see the type).
            unsafe { Avx2(_mm256_xor_si256(self.0, o.0)) }
        }

        #[inline(always)]
        fn after(self, prev: Self) -> Self {
            // `vpalignr` moves each half on its own: the half before each half (`prev`'s high
            // one, then `self`'s low one) gives its lane 0.
            // SAFETY: the CPU has AVX2 wherever an `Avx2` value exists (see the type).
            unsafe {
                let before = _mm256_permute2x128_si256::<0x21>(prev.0, self.0);
                Avx2(_mm256_alignr_epi8::<15>(self.0, before))
            }
        }

        #[inline(always)]
        fn zero() -> Self {
            // SAFETY: the CPU has AVX2 wherever an `Avx2` value is made (see the type).
            unsafe { Avx2(_mm256_setzero_si256()) }
        }

        #[inline(always)]
        fn mask(self) -> u64 {
            // SAFETY: the CPU has AVX2 wherever an `Avx2` value exists (see the type).
            unsafe { u64::from(_mm256_movemask_epi8(self.0) as u32) }
        }

        #[inline(always)]
        fn outside(self, set: &Nibbles) -> Self {
            let v = self.0;
            // SAFETY: the CPU has AVX2 wherever an `Avx2` value exists (see the type); the
            // tables are sixteen readable octets each, loaded unaligned.
            unsafe {
                let nibble = _mm256_set1_epi8(0x0F);
                let lo_t = _mm256_broadcastsi128_si256(_mm_loadu_si128(set.lo.as_ptr().cast()));
                let hi_t = _mm256_broadcastsi128_si256(_mm_loadu_si128(set.hi.as_ptr().cast()));
                let lo = _mm256_shuffle_epi8(lo_t, _mm256_and_si256(v, nibble));
                let hi =
                    _mm256_shuffle_epi8(hi_t, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble));
                Avx2(_mm256_cmpeq_epi8(
                    _mm256_and_si256(lo, hi),
                    _mm256_setzero_si256(),
                ))
            }
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod arm {
    use std::arch::aarch64::{
        uint8x16_t, vandq_u8, vceqq_u8, vcltq_u8, vdupq_n_u8, veorq_u8, vextq_u8, vget_lane_u64,
        vld1q_u8, vorrq_u8, vreinterpret_u64_u8, vreinterpretq_u16_u8, vshrn_n_u16, vsubq_u8,
    };

    // NEON is part of every aarch64 target; a target without it fails to build here.
    const _: () = assert!(cfg!(target_feature = "neon"), "NEON is enabled");

    /// Sixteen octets in a NEON register.
    #[derive(Clone, Copy)]
    pub(crate) struct Neon(uint8x16_t);

    impl super::Lanes for Neon {
        // NEON has no movemask: each 16-bit pair of lanes shifted right by 4 and narrowed keeps four
        // bits of each lane.
        const STRIDE: u32 = 4;

        #[inline(always)]
        fn load(b: &[u8]) -> Self {
            let b: &[u8; 16] = b.first_chunk().expect("a block of sixteen octets");
            // SAFETY: `b` is sixteen readable octets; `vld1q_u8` has no alignment requirement; NEON
            // is enabled (asserted above).
            Neon(unsafe { vld1q_u8(b.as_ptr()) })
        }

        #[inline(always)]
        fn eq(self, c: u8) -> Self {
            // SAFETY: NEON is enabled (asserted above).
            unsafe { Neon(vceqq_u8(self.0, vdupq_n_u8(c))) }
        }

        #[inline(always)]
        fn range(self, lo: u8, hi: u8) -> Self {
            let w = hi.wrapping_sub(lo).wrapping_add(1);
            // SAFETY: NEON is enabled (asserted above).
            unsafe { Neon(vcltq_u8(vsubq_u8(self.0, vdupq_n_u8(lo)), vdupq_n_u8(w))) }
        }

        #[inline(always)]
        fn or(self, o: Self) -> Self {
            // SAFETY: NEON is enabled (asserted above).
            unsafe { Neon(vorrq_u8(self.0, o.0)) }
        }

        #[inline(always)]
        fn and(self, o: Self) -> Self {
            // SAFETY: NEON is enabled (asserted above).
            unsafe { Neon(vandq_u8(self.0, o.0)) }
        }

        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            // SAFETY: NEON is enabled (asserted above).
            unsafe { Neon(veorq_u8(self.0, o.0)) }
        }

        #[inline(always)]
        fn after(self, prev: Self) -> Self {
            // `vextq_u8::<15>(a, b)` is the last octet of `a`, then the first fifteen of `b`.
            // SAFETY: NEON is enabled (asserted above).
            unsafe { Neon(vextq_u8::<15>(prev.0, self.0)) }
        }

        #[inline(always)]
        fn zero() -> Self {
            // SAFETY: NEON is enabled (asserted above).
            unsafe { Neon(vdupq_n_u8(0)) }
        }

        #[inline(always)]
        fn mask(self) -> u64 {
            // SAFETY: NEON is enabled (asserted above).
            unsafe {
                let narrowed = vshrn_n_u16::<4>(vreinterpretq_u16_u8(self.0));
                vget_lane_u64::<0>(vreinterpret_u64_u8(narrowed))
            }
        }
    }
}

/// The lanes as an array, `STRIDE` bits of mask per lane (1 as SSE2's, 4 as NEON's): the reference
/// the tests check the class formulas and the mask arithmetic with, on any machine.
#[cfg(any(test, feature = "differential"))]
#[derive(Clone, Copy)]
pub(crate) struct Portable<const STRIDE: u32>([u8; 16]);

#[cfg(any(test, feature = "differential"))]
impl<const STRIDE: u32> Portable<STRIDE> {
    #[inline]
    fn map(self, f: impl Fn(u8) -> bool) -> Self {
        Portable(self.0.map(|c| if f(c) { 0xFF } else { 0 }))
    }

    #[inline]
    fn zip(self, o: Self, f: impl Fn(u8, u8) -> u8) -> Self {
        let mut r = [0u8; 16];
        for (k, x) in r.iter_mut().enumerate() {
            *x = f(self.0[k], o.0[k]);
        }
        Portable(r)
    }
}

#[cfg(any(test, feature = "differential"))]
impl<const STRIDE: u32> Lanes for Portable<STRIDE> {
    const STRIDE: u32 = STRIDE;

    fn load(b: &[u8]) -> Self {
        Portable(*b.first_chunk().expect("a block of sixteen octets"))
    }

    fn eq(self, c: u8) -> Self {
        self.map(|x| x == c)
    }

    fn range(self, lo: u8, hi: u8) -> Self {
        self.map(|x| (lo..=hi).contains(&x))
    }

    fn or(self, o: Self) -> Self {
        self.zip(o, |a, b| a | b)
    }

    fn and(self, o: Self) -> Self {
        self.zip(o, |a, b| a & b)
    }

    fn xor(self, o: Self) -> Self {
        self.zip(o, |a, b| a ^ b)
    }

    fn after(self, prev: Self) -> Self {
        let mut r = [0u8; 16];
        r[0] = prev.0[15];
        r[1..].copy_from_slice(&self.0[..15]);
        Portable(r)
    }

    fn zero() -> Self {
        Portable([0; 16])
    }

    fn mask(self) -> u64 {
        let lane = (1u64 << STRIDE) - 1;
        let mut m = 0;
        for (k, &x) in self.0.iter().enumerate() {
            if x == 0xFF {
                m |= lane << (k as u32 * STRIDE);
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `what` of the machine's lanes and of the portable ones agree on every octet value in every
    /// lane, beside octets of each other value.
    fn agrees(what: impl Fn(&[u8; 16]) -> (u64, u64)) {
        for c in 0..=255u8 {
            for other in [0u8, b'a', b'/', 0x80, 0xFF] {
                for k in 0..16 {
                    let mut b = [other; 16];
                    b[k] = c;
                    let (native, portable) = what(&b);
                    assert_eq!(native, portable, "{c:#x} at {k} among {other:#x}");
                }
            }
        }
    }

    /// Every operation on the machine's lanes gives the portable lanes' mask (at the machine's
    /// stride), for every octet value and every range the recognizer uses and its edges.
    #[test]
    fn native_lanes_match_portable() {
        type P = Portable<{ <Native as Lanes>::STRIDE }>;
        // The recognizer's ranges, and the widest and narrowest at the edges of the octet values
        // and of the signed comparison (0x7F, 0x80).
        let ranges = [
            (0x20, 0x7E),
            (0x21, 0x7E),
            (b'a', b'z'),
            (b'A', b'Z'),
            (b'-', b'9'),
            (b'&', b';'),
            (b'@', b'['),
            (0, 0),
            (0, 0xFE),
            (1, 0xFF),
            (0x7F, 0x80),
            (0x80, 0xFF),
            (0xFF, 0xFF),
        ];
        for (lo, hi) in ranges {
            agrees(|b| {
                (
                    Native::load(b).range(lo, hi).mask(),
                    P::load(b).range(lo, hi).mask(),
                )
            });
        }
        for c in [0u8, b'.', b'/', 0x7F, 0x80, 0xFF] {
            agrees(|b| {
                let (n, p) = (Native::load(b), P::load(b));
                (
                    n.eq(c).or(n.eq(b'a')).xor(n.eq(b'/')).mask(),
                    p.eq(c).or(p.eq(b'a')).xor(p.eq(b'/')).mask(),
                )
            });
        }
    }

    /// [`Lanes::after`] and [`Lanes::and`] of the machine's lanes give the portable lanes' mask,
    /// for every octet value in every lane, with the block before holding each value in its last
    /// lane.
    #[test]
    fn native_after_matches_portable() {
        type P = Portable<{ <Native as Lanes>::STRIDE }>;
        for last in [0u8, b'/', 0x80, 0xFF] {
            let mut before = [b'a'; 16];
            before[15] = last;
            agrees(|b| {
                let (n, p) = (Native::load(b), P::load(b));
                let (nb, pb) = (Native::load(&before).eq(b'/'), P::load(&before).eq(b'/'));
                (
                    n.eq(b'/').after(nb).and(n.eq(b'.')).mask(),
                    p.eq(b'/').after(pb).and(p.eq(b'.')).mask(),
                )
            });
        }
        #[cfg(target_arch = "x86_64")]
        if has_ssse3() {
            agrees(|b| {
                let (n, p) = (Ssse3::load(b), P::load(b));
                (
                    n.eq(b'/').after(n.eq(b'a')).mask(),
                    p.eq(b'/').after(p.eq(b'a')).mask(),
                )
            });
        }
        assert_eq!(Native::zero().mask(), 0);
    }

    /// Every operation of the AVX2 lanes gives, on 32 octets, the masks of the portable lanes on
    /// each half (the high half after the low one), for every octet value in every lane.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_lanes_match_portable_halves() {
        if !has_avx2() {
            return;
        }
        type P = Portable<1>;
        let halves = |b: &[u8; 32], f: &dyn Fn(P, P) -> P| {
            let (lo, hi) = (P::load(&b[..16]), P::load(&b[16..]));
            let prev = P::load(&[b'/'; 16]);
            f(lo, prev).mask() | f(hi, lo).mask() << 16
        };
        for c in 0..=255u8 {
            for other in [0u8, b'a', b'/', 0x80, 0xFF] {
                for k in 0..32 {
                    let mut b = [other; 32];
                    b[k] = c;
                    let v = Avx2::load(&b);
                    let prev = Avx2::load(&[b'/'; 32]);
                    for (lo, hi) in [(0x21, 0x7E), (b'a', b'z'), (0, 0), (0x7F, 0x80), (1, 0xFF)] {
                        assert_eq!(
                            v.range(lo, hi).mask(),
                            halves(&b, &|x, _| x.range(lo, hi)),
                            "range {lo:#x}-{hi:#x} {c:#x} at {k} among {other:#x}"
                        );
                    }
                    assert_eq!(
                        v.eq(b'/').after(prev.eq(b'/')).and(v.eq(b'.')).mask(),
                        halves(&b, &|x, p| x.eq(b'/').after(p.eq(b'/')).and(x.eq(b'.'))),
                        "after {c:#x} at {k} among {other:#x}"
                    );
                    assert_eq!(
                        v.eq(c).or(v.eq(b'a')).xor(v.eq(b'/')).mask(),
                        halves(&b, &|x, _| x.eq(c).or(x.eq(b'a')).xor(x.eq(b'/'))),
                        "eq {c:#x} at {k} among {other:#x}"
                    );
                }
            }
        }
        assert_eq!(Avx2::zero().mask(), 0);
    }

    #[test]
    fn portable_after_moves_each_lane_one_on() {
        let mut b = [0u8; 16];
        let mut c = [0u8; 16];
        b[0] = 0xFF;
        b[14] = 0xFF;
        b[15] = 0xFF;
        c[15] = 0xFF;
        let m = Portable::<1>::load(&b).after(Portable::load(&c)).mask();
        assert_eq!(m, 1 | 1 << 1 | 1 << 15);
    }

    #[test]
    fn portable_mask_has_stride_bits_per_lane() {
        let mut b = [0u8; 16];
        b[3] = 1;
        b[15] = 1;
        assert_eq!(Portable::<1>::load(&b).eq(1).mask(), 1 << 3 | 1 << 15);
        assert_eq!(Portable::<4>::load(&b).eq(1).mask(), 0xF << 12 | 0xF << 60);
    }
}
