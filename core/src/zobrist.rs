//! Zobrist keys, computed at compile time by `const fn` (no build script, no tables
//! to ship): a SplitMix64 stream, which is what Zobrist hashing needs — independent,
//! well-mixed 64-bit words.

/// One step of SplitMix64: advances `state` and returns the next output.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Mixes a 64-bit word into a well-distributed one (the SplitMix64 finaliser).
pub const fn mix64(x: u64) -> u64 {
    splitmix64(x).1
}

/// `N` Zobrist keys from `seed`. Different games use different seeds.
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix64(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_seeded() {
        const A: [u64; 64] = keys(1);
        const B: [u64; 64] = keys(2);
        for (i, a) in A.iter().enumerate() {
            assert!(!A[..i].contains(a));
            assert_ne!(*a, B[i]);
        }
    }
}
