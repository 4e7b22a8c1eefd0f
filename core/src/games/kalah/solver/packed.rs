//! The five-bit form of the endgame tables: with `n` seeds in play (at most
//! [`PACKED_MAX_SEEDS`]) a position's entry is the seeds `a` its mover gets of them,
//! `(margin + n) / 2` in `0..=n`, so the margin is `2a - n`. Each layer starts on a
//! byte ([`packed_layers`]); the tables take 5/8 of a byte an entry, so bigger ones
//! fit: 30 seeds in play for 6 pits take 6.9 GB instead of 11.1 GB. The build
//! writes a byte an entry ([`super::build_layer`]); [`pack_entries`] and
//! [`unpack_entries`] convert, piece by piece.

use core::sync::atomic::{AtomicI8, Ordering};

use super::layout::layer_range;
use super::layout::table_len;
#[cfg(doc)]
use super::layout::UNKNOWN;

/// The most seeds in play a table of five-bit entries ([`pack_entries`]) covers:
/// the mover's share of `n` seeds is `0..=n`, 32 values at 31.
pub const PACKED_MAX_SEEDS: u32 = 31;

/// Bytes of the layer of `n` seeds in play of a table for `pits` pits in five-bit
/// form: 5 bits an entry, rounded up to a whole byte.
pub fn packed_layer_len(pits: u8, n: u32) -> usize {
    (layer_range(pits, n).len() * 5).div_ceil(8)
}

/// Where the layers of a table in five-bit form lie: `0..=max_seeds` seeds in
/// play, one after another, then one zero byte (every entry is read as two
/// bytes). `None` if the table is out of range or above [`PACKED_MAX_SEEDS`].
pub fn packed_layers(pits: u8, max_seeds: u32) -> Option<PackedLayers> {
    table_len(pits, max_seeds)?;
    if max_seeds > PACKED_MAX_SEEDS {
        return None;
    }
    let mut starts = [0usize; PACKED_MAX_SEEDS as usize + 2];
    for n in 0..=max_seeds as usize {
        starts[n + 1] = starts[n] + packed_layer_len(pits, n as u32);
    }
    Some(PackedLayers { starts, max_seeds })
}

/// The layout of a table in five-bit form ([`packed_layers`]).
#[derive(Clone, Copy, Debug)]
pub struct PackedLayers {
    starts: [usize; PACKED_MAX_SEEDS as usize + 2],
    max_seeds: u32,
}

impl PackedLayers {
    /// The bytes of the layer of `n` seeds in play (`n <= max_seeds`).
    pub fn layer(&self, n: u32) -> core::ops::Range<usize> {
        self.starts[n as usize]..self.starts[n as usize + 1]
    }

    /// Bytes of the whole table: its layers and the zero byte after them.
    pub fn len(&self) -> usize {
        self.starts[self.max_seeds as usize + 1] + 1
    }

    /// Whether the table has no entries (never: the layer of 0 seeds has one).
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// The five-bit code at bit `bit` of `bytes`.
#[inline(always)]
pub(super) fn packed_code(bytes: &[u8], bit: usize) -> u32 {
    let at = bit / 8;
    let two = u32::from(bytes[at]) | u32::from(bytes[at + 1]) << 8;
    (two >> (bit % 8)) & 31
}

/// Writes the five-bit form of a run of entries of the layer of `n` seeds in play
/// into `out` (`ceil(5 × len / 8)` bytes) from `values` (each computed: no
/// [`UNKNOWN`]). Runs of a multiple of 8 entries fill whole bytes, so a layer can be
/// packed piece by piece. The same entries take 5/8 of the memory, so bigger
/// tables fit: 30 seeds in play for 6 pits take 6.9 GB instead of 11.1 GB.
pub fn pack_entries(n: u32, values: &[AtomicI8], out: &mut [u8]) -> Result<(), &'static str> {
    if n > PACKED_MAX_SEEDS {
        return Err("five-bit endgame tables cover at most 31 seeds in play");
    }
    if out.len() != (values.len() * 5).div_ceil(8) {
        return Err("five-bit endgame table memory is not the size of its entries");
    }
    // Eight entries make five whole bytes: each group is packed in a register,
    // its values checked together (the 226 M entries of 20-seed tables for 6 pits
    // pack in a fraction of the time one entry at a time took); a last group of
    // fewer entries fills the bytes left, its unused bits zero.
    let n = n as i32;
    let groups = values.len() / 8;
    let (whole, tail) = out.split_at_mut(groups * 5);
    let mut bad = false;
    for (v, o) in values.chunks_exact(8).zip(whole.chunks_exact_mut(5)) {
        o.copy_from_slice(&pack_group(v, n, &mut bad).to_le_bytes()[..5]);
    }
    let last = pack_group(&values[groups * 8..], n, &mut bad);
    tail.copy_from_slice(&last.to_le_bytes()[..tail.len()]);
    if bad {
        return Err("an endgame table entry is not a future margin of its layer");
    }
    Ok(())
}

/// The five-bit codes of up to eight entries of the layer of `n` seeds in play,
/// the first in the low bits; `bad` is set if one is not a margin of the layer.
#[inline(always)]
fn pack_group(values: &[AtomicI8], n: i32, bad: &mut bool) -> u64 {
    let mut word = 0u64;
    for (j, e) in values.iter().enumerate() {
        // In -n..=n with n's parity: the code (v + n) / 2 is then 0..=n.
        let twice = i32::from(e.load(Ordering::Relaxed)) + n;
        *bad |= twice < 0 || twice > 2 * n || twice & 1 != 0;
        word |= ((twice as u64 >> 1) & 31) << (5 * j);
    }
    word
}

/// Writes the entries of up to eight five-bit codes of `word` (the first in the
/// low bits) into `out`; `bad` is set if a code is beyond the layer's seeds.
#[inline(always)]
fn unpack_group(word: u64, out: &[AtomicI8], n: i32, bad: &mut bool) {
    for (j, e) in out.iter().enumerate() {
        let a = ((word >> (5 * j)) & 31) as i32;
        *bad |= a > n;
        e.store((2 * a - n) as i8, Ordering::Relaxed);
    }
}

/// Writes a run of entries of the layer of `n` seeds in play back as one signed
/// byte each into `out` from their five-bit form `packed` (`ceil(5 × len / 8)`
/// bytes): to build more layers on top of them.
pub fn unpack_entries(n: u32, packed: &[u8], out: &[AtomicI8]) -> Result<(), &'static str> {
    if n > PACKED_MAX_SEEDS {
        return Err("five-bit endgame tables cover at most 31 seeds in play");
    }
    if packed.len() != (out.len() * 5).div_ceil(8) {
        return Err("five-bit endgame table memory is not the size of its entries");
    }
    // Five whole bytes hold eight entries: read as one word, like the packing.
    let n = n as i32;
    let groups = out.len() / 8;
    let (whole, tail) = packed.split_at(groups * 5);
    let mut bad = false;
    for (o, p) in out.chunks_exact(8).zip(whole.chunks_exact(5)) {
        let mut bytes = [0u8; 8];
        bytes[..5].copy_from_slice(p);
        unpack_group(u64::from_le_bytes(bytes), o, n, &mut bad);
    }
    let mut bytes = [0u8; 8];
    bytes[..tail.len()].copy_from_slice(tail);
    unpack_group(u64::from_le_bytes(bytes), &out[groups * 8..], n, &mut bad);
    if bad {
        return Err("a five-bit endgame table entry is beyond its layer's seeds");
    }
    Ok(())
}

/// [`pack_entries`] for every layer `0..=max_seeds` of `values` into `out`, laid out
/// as [`packed_layers`] says (its last byte, after the layers, zero).
pub fn pack_tables(
    pits: u8,
    max_seeds: u32,
    values: &[AtomicI8],
    out: &mut [u8],
) -> Result<(), &'static str> {
    let layout = packed_layers(pits, max_seeds)
        .ok_or("five-bit endgame tables cover at most 31 seeds in play")?;
    if values.len() < layer_range(pits, max_seeds).end || out.len() < layout.len() {
        return Err("endgame table memory is too short for its pits and seeds");
    }
    for n in 0..=max_seeds {
        pack_entries(n, &values[layer_range(pits, n)], &mut out[layout.layer(n)])?;
    }
    out[layout.len() - 1] = 0;
    Ok(())
}

/// [`unpack_entries`] for every layer `0..=max_seeds` of the five-bit form `packed`
/// into `out`.
pub fn unpack_tables(
    pits: u8,
    max_seeds: u32,
    packed: &[u8],
    out: &[AtomicI8],
) -> Result<(), &'static str> {
    let layout = packed_layers(pits, max_seeds)
        .ok_or("five-bit endgame tables cover at most 31 seeds in play")?;
    if out.len() < layer_range(pits, max_seeds).end || packed.len() < layout.len() {
        return Err("endgame table memory is too short for its pits and seeds");
    }
    for n in 0..=max_seeds {
        unpack_entries(n, &packed[layout.layer(n)], &out[layer_range(pits, n)])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::endgame::TableIndex;
    use super::super::layout::UNKNOWN;
    use super::super::EndgameTables;
    use super::*;

    #[test]
    fn five_bit_entries_pack_every_margin_of_every_layer_and_back() {
        // One pit a row: layer n has n + 1 entries, each any margin of n's parity
        // in -n..=n; fill every layer up to 31 with every code in turn.
        let k = PACKED_MAX_SEEDS;
        let len = table_len(1, k).unwrap();
        let values: [AtomicI8; 528] = core::array::from_fn(|_| AtomicI8::new(0));
        assert_eq!(len, 528);
        for n in 0..=k {
            for (j, i) in layer_range(1, n).enumerate() {
                let a = (j as u32 * 7 + n) % (n + 1);
                values[i].store((2 * a as i32 - n as i32) as i8, Ordering::Relaxed);
            }
        }
        let mut packed = [0u8; 400];
        pack_tables(1, k, &values, &mut packed).unwrap();
        let t = EndgameTables::packed(1, false, k, &packed).unwrap();
        let layout = packed_layers(1, k).unwrap();
        for n in 0..=k {
            for (j, i) in layer_range(1, n).enumerate() {
                let at = TableIndex {
                    at: layout.layer(n).start * 8 + 5 * j,
                    n,
                };
                assert_eq!(t.value_at(at), i32::from(values[i].load(Ordering::Relaxed)));
            }
        }
        let back: [AtomicI8; 528] = core::array::from_fn(|_| AtomicI8::new(0));
        unpack_tables(1, k, &packed, &back).unwrap();
        for (a, b) in values.iter().zip(&back) {
            assert_eq!(a.load(Ordering::Relaxed), b.load(Ordering::Relaxed));
        }
        // Each layer starts on a byte of its own: 5 bits an entry, rounded up.
        assert_eq!(layout.layer(0), 0..1);
        assert_eq!(layout.layer(1), 1..3);
        assert_eq!(layout.layer(3), 5..8);
        assert_eq!(
            layout.len(),
            (0..=k)
                .map(|n| (5 * (n as usize + 1)).div_ceil(8))
                .sum::<usize>()
                + 1
        );
        assert_eq!(packed[layout.len() - 1], 0);
        // What cannot be packed is refused: more than 31 seeds, a value that is
        // not a margin of its layer, memory too short.
        assert!(pack_tables(1, 32, &values, &mut packed).is_err());
        assert!(EndgameTables::packed(1, false, 32, &packed).is_err());
        assert!(EndgameTables::packed(1, false, k, &packed[..layout.len() - 1]).is_err());
        values[layer_range(1, 5).start].store(4, Ordering::Relaxed);
        assert!(pack_tables(1, k, &values, &mut packed).is_err());
        values[layer_range(1, 5).start].store(UNKNOWN, Ordering::Relaxed);
        assert!(pack_tables(1, k, &values, &mut packed).is_err());
        values[layer_range(1, 5).start].store(-5, Ordering::Relaxed);
        pack_tables(1, k, &values, &mut packed).unwrap();
        // Layer 20's 21 entries: two groups of eight packed together, then five
        // one by one; a bad entry is refused in either.
        for at in [3usize, 12, 19] {
            let e = &values[layer_range(1, 20).start + at];
            let good = e.load(Ordering::Relaxed);
            for bad in [good + 1, 21, -22, UNKNOWN] {
                e.store(bad, Ordering::Relaxed);
                assert!(
                    pack_tables(1, k, &values, &mut packed).is_err(),
                    "{at} {bad}"
                );
            }
            e.store(good, Ordering::Relaxed);
        }
        pack_tables(1, k, &values, &mut packed).unwrap();
        // A code beyond its layer's seeds (31 in layer 20) is refused when
        // unpacked, in a group of eight or in the tail.
        let layer = layout.layer(20);
        for at in [3usize, 19] {
            let bit = layer.start * 8 + 5 * at;
            let saved = (packed[bit / 8], packed[bit / 8 + 1]);
            packed[bit / 8] |= (31u32 << (bit % 8)) as u8;
            packed[bit / 8 + 1] |= ((31u32 << (bit % 8)) >> 8) as u8;
            assert!(unpack_tables(1, k, &packed, &back).is_err(), "{at}");
            (packed[bit / 8], packed[bit / 8 + 1]) = saved;
        }
        unpack_tables(1, k, &packed, &back).unwrap();
    }
}
