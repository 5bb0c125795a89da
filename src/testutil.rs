//! Helpers shared by the unit tests.

/// Every input (the line after `#data`) of the conformance files in
/// `tests/data/*.dat`, in file order.
pub(crate) fn conformance_inputs() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    paths.sort();
    let mut inputs = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        while let Some(l) = lines.next() {
            if l != "#data" {
                continue;
            }
            let Some(input) = lines.next() else { break };
            inputs.push(input.to_owned());
        }
    }
    inputs
}

/// Calls `f` on every sequence of at most `max_len` elements of `pool`
/// (repetitions allowed), shortest first: exhaustive test input.
pub(crate) fn each_sequence<T: Copy>(pool: &[T], max_len: u32, mut f: impl FnMut(&[T])) {
    let n = pool.len();
    let mut seq = Vec::with_capacity(max_len as usize);
    for len in 0..=max_len {
        for mut k in 0..n.pow(len) {
            seq.clear();
            for _ in 0..len {
                seq.push(pool[k % n]);
                k /= n;
            }
            f(&seq);
        }
    }
}

/// A xorshift64 generator: reproducible pseudo-random test input.
pub(crate) struct Xorshift(pub(crate) u64);

impl Xorshift {
    pub(crate) fn next(&mut self) -> u64 {
        let x = &mut self.0;
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// A pseudo-random element of `pool`.
    pub(crate) fn pick<T: Copy>(&mut self, pool: &[T]) -> T {
        pool[(self.next() % pool.len() as u64) as usize]
    }
}

/// The tokens of the exhaustive path tests: separators, dot segments in their spellings, escapes
/// and plain octets. From index 7 on (`%`, `%3`, `5`, `\`, `%2F`) a token may send a path to
/// canonicalization's full steps (a cut escape, one that forms a new one, `\`, `%2F` in `file:`);
/// a path of the others never goes there.
pub(crate) const PATH_TOKENS: [&str; 12] = [
    "/", ".", "..", "%2e", "%2E", "a", "%41", "%", "%3", "5", "\\", "%2F",
];

/// `a` and `b` are the same record: the same value, the same serialization and the same C views
/// of every component; `case` names the input in a failure.
pub(crate) fn assert_same_record(a: &crate::record::Url, b: &crate::record::Url, case: &str) {
    assert_eq!(a, b, "{case}");
    assert_eq!(a.as_str(), b.as_str(), "{case}");
    assert_eq!(a.serialization_nul(), b.serialization_nul(), "{case}");
    for i in 0..8 {
        assert_eq!(a.get_nul(i), b.get_nul(i), "{case} {i}");
    }
}
