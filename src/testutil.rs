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
