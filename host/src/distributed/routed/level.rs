//! The positions of a routed ply: each one's key, item and path from its item (a
//! [`Path`], replayed by [`Replay`] where the owner's table lacks it), its owner rank
//! ([`owner`]), the [`Level`] a rank merges them into by key, and [`finish`], which
//! stores their whole counts in the table.

use std::collections::hash_map::{Entry, HashMap};

use ply_core::perft::PerftKey;

use crate::distributed::perft::PerftJob;
use crate::parallel::SharedPerftTable;

/// The longest path routed below an item.
pub(super) const MAX_PATH: usize = 16;

/// A position's moves from its item: indices into each position's legal moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Path(pub(super) [u16; MAX_PATH]);

/// A thread's last replayed path: the positions along it, so that the next path
/// replays only from where it leaves this one.
pub(super) struct Replay<G> {
    item: Option<u32>,
    len: usize,
    path: Path,
    stack: Vec<G>,
}

impl<G: PerftKey> Replay<G> {
    pub(super) fn new(any: &G) -> Self {
        Replay {
            item: None,
            len: 0,
            path: Path::default(),
            stack: vec![*any; MAX_PATH + 1],
        }
    }

    /// The position `len` moves down `path` from item `item` of `job`.
    pub(super) fn at(
        &mut self,
        job: &PerftJob<'_, G>,
        item: u32,
        path: &Path,
        len: usize,
    ) -> Result<G, String> {
        let mut same = 0;
        if self.item == Some(item) {
            while same < len.min(self.len) && self.path.0[same] == path.0[same] {
                same += 1;
            }
        } else {
            self.stack[0] = job
                .frontier
                .get(item as usize)
                .ok_or_else(|| format!("no item {}", item))?
                .game;
        }
        self.item = Some(item);
        for j in same..len {
            let g = self.stack[j];
            let moves = g.legal_moves();
            let &mv = moves
                .get(usize::from(path.0[j]))
                .ok_or_else(|| format!("item {}: no move {} on its path", item, path.0[j]))?;
            self.stack[j + 1] = g.play_unchecked(mv);
        }
        self.path = *path;
        self.len = len;
        Ok(self.stack[len])
    }
}

/// A hasher for keys that are positions' perft keys (exact, well spread once
/// mixed): a multiply and a fold instead of SipHash.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u128(&mut self, k: u128) {
        let h =
            ((k as u64) ^ ((k >> 64) as u64).rotate_left(17)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }
}

type KeyMap = HashMap<u128, u32, std::hash::BuildHasherDefault<KeyHasher>>;

/// The rank that owns the position with `key` among `ranks` ranks (a hash unlike
/// the table's, so that every rank's table is used whole).
pub(super) fn owner(key: u128, ranks: usize) -> usize {
    let x = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    let mut h = x.wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^= h >> 32;
    h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
    ((u128::from(h) * ranks as u128) >> 64) as usize
}

/// The positions of one routed ply of a batch, on the rank that owns them.
#[derive(Default)]
pub(super) struct Level {
    pub(super) key: Vec<Option<u128>>,
    pub(super) item: Vec<u32>,
    pub(super) path: Vec<Path>,
    /// The count: final, or (while `open`) the children counted so far.
    pub(super) count: Vec<u64>,
    /// Expanded, its routed children's counts still to come.
    pub(super) open: Vec<bool>,
    /// Worth a table entry ([`ply_core::perft::deserves_an_entry`]): looked up and
    /// stored; one that is not (a position with one move) is expanded at once.
    pub(super) tabled: Vec<bool>,
    /// (position, rank of its parent, the parent's index there), one per path.
    pub(super) edges: Vec<(u32, u32, u32)>,
    index: KeyMap,
}

/// How many positions ahead a thread asks for a table bucket.
pub(super) const PREFETCH_AHEAD: usize = 8;

impl Level {
    pub(super) fn len(&self) -> usize {
        self.key.len()
    }

    /// Asks for the table bucket of position `i`, if it is looked up.
    pub(super) fn prefetch(&self, i: usize, table: &SharedPerftTable) {
        if let (Some(k), true) = (self.key[i], self.tabled[i]) {
            table.prefetch(table.slot(k));
        }
    }

    /// Empties the level, keeping its memory for the next batch.
    pub(super) fn clear(&mut self) {
        self.key.clear();
        self.item.clear();
        self.path.clear();
        self.count.clear();
        self.open.clear();
        self.tabled.clear();
        self.edges.clear();
        self.index.clear();
    }

    /// Adds a position reached from `parent` on rank `from`; a key seen before is
    /// the same position (returns false).
    pub(super) fn add(
        &mut self,
        key: Option<u128>,
        tabled: bool,
        item: u32,
        path: Path,
        from: u32,
        parent: u32,
    ) -> bool {
        let fresh = match key {
            Some(k) => match self.index.entry(k) {
                Entry::Occupied(e) => {
                    self.edges.push((*e.get(), from, parent));
                    return false;
                }
                Entry::Vacant(e) => {
                    e.insert(self.key.len() as u32);
                    true
                }
            },
            None => true,
        };
        self.edges.push((self.key.len() as u32, from, parent));
        self.key.push(key);
        self.item.push(item);
        self.path.push(path);
        self.count.push(0);
        self.open.push(false);
        self.tabled.push(tabled);
        fresh
    }
}

/// Stores the counts of a ply's expanded positions, now whole, in the table.
pub(super) fn finish(level: &mut Level, table: &SharedPerftTable, rem: u32) {
    for i in 0..level.len() {
        if i + PREFETCH_AHEAD < level.len() && level.open[i + PREFETCH_AHEAD] {
            level.prefetch(i + PREFETCH_AHEAD, table);
        }
        if std::mem::take(&mut level.open[i]) && level.tabled[i] {
            if let Some(k) = level.key[i] {
                table.store(table.slot(k), rem, level.count[i]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::owner;

    #[test]
    fn owners_spread_keys_over_the_ranks() {
        for ranks in [1, 2, 3, 16] {
            let mut n = vec![0; ranks];
            for k in 0..16_000u128 {
                n[owner(k * 0x1_0000_0001, ranks)] += 1;
            }
            let even = 16_000 / ranks;
            assert!(
                n.iter().all(|&c| c > even * 9 / 10 && c < even * 11 / 10),
                "{:?}",
                n
            );
        }
    }
}
