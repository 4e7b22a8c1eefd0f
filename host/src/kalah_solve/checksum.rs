//! The checksum of the Kalah endgame-table files (`table_file.rs`): 64 bits for
//! finding damage in gigabytes at several bytes a cycle.

use ply_core::zobrist::mix64;

/// A 64-bit checksum of `bytes` for finding damage (not an adversary): four
/// independent multiply-rotate lanes over 32-byte blocks (several bytes a cycle),
/// the tail and the length mixed in at the end. [`Checksum`] computes the same
/// value over pieces.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut c = Checksum::new();
    c.update(bytes);
    c.finish()
}

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;

/// [`checksum`] computed over a sequence of pieces.
#[derive(Clone, Debug)]
pub struct Checksum {
    lanes: [u64; 4],
    tail: [u8; 32],
    tail_len: usize,
    len: u64,
}

impl Default for Checksum {
    fn default() -> Self {
        Self::new()
    }
}

impl Checksum {
    /// The checksum of nothing yet.
    pub fn new() -> Self {
        Checksum {
            lanes: [P1, P2, P1 ^ P2, !P1],
            tail: [0; 32],
            tail_len: 0,
            len: 0,
        }
    }

    #[inline(always)]
    fn block(lanes: &mut [u64; 4], b: &[u8]) {
        for (k, lane) in lanes.iter_mut().enumerate() {
            let w = u64::from_le_bytes(b[8 * k..8 * k + 8].try_into().unwrap());
            *lane = lane
                .wrapping_add(w.wrapping_mul(P2))
                .rotate_left(31)
                .wrapping_mul(P1);
        }
    }

    /// Adds `bytes` after what came before.
    pub fn update(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.tail_len > 0 {
            let take = (32 - self.tail_len).min(bytes.len());
            self.tail[self.tail_len..self.tail_len + take].copy_from_slice(&bytes[..take]);
            self.tail_len += take;
            bytes = &bytes[take..];
            if self.tail_len < 32 {
                return;
            }
            let t = self.tail;
            Self::block(&mut self.lanes, &t);
            self.tail_len = 0;
        }
        let mut blocks = bytes.chunks_exact(32);
        for b in &mut blocks {
            Self::block(&mut self.lanes, b);
        }
        let rest = blocks.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
        self.tail_len = rest.len();
    }

    /// The checksum of everything added.
    pub fn finish(&self) -> u64 {
        let mut lanes = self.lanes;
        let mut t = [0u8; 32];
        t[..self.tail_len].copy_from_slice(&self.tail[..self.tail_len]);
        Self::block(&mut lanes, &t);
        let mut h = self.len.wrapping_mul(P1);
        for (k, l) in lanes.iter().enumerate() {
            h = mix64(h ^ l.rotate_left(7 * k as u32 + 1));
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_over_pieces_is_the_checksum_of_the_whole() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let whole = checksum(&data);
        for cut in [0, 1, 31, 32, 33, 64, 500, 999, 1000] {
            let mut c = Checksum::new();
            c.update(&data[..cut]);
            c.update(&data[cut..]);
            assert_eq!(c.finish(), whole, "cut {cut}");
        }
        // Any single changed byte, and a shorter or longer input, change it.
        for i in [0, 17, 500, 999] {
            let mut d = data.clone();
            d[i] ^= 1;
            assert_ne!(checksum(&d), whole);
        }
        assert_ne!(checksum(&data[..999]), whole);
        let mut longer = data.clone();
        longer.push(0);
        assert_ne!(checksum(&longer), whole);
        assert_ne!(checksum(&[]), checksum(&[0]));
    }
}
