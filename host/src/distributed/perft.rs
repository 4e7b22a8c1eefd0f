//! Perft as a job: the items are the distinct subtrees a few plies down (the split
//! ply; transpositions are one item, whatever their first moves, counted once and
//! multiplied by their paths), each counted by one call of sequential perft,
//! through the process's own table of exact counts when it has one. Under MPI the
//! ranks count it through one table across them ([`super::routed`]) or, with
//! `--private-tables`, each through its own; [`super::perft_run`] runs it.

use ply_core::perft::PerftKey;

use super::{Job, Record};
use crate::parallel::perft::{frontier, Subtree};
use crate::parallel::perft_table::Counted;
use crate::parallel::SharedPerftTable;

/// Subtrees wanted: the tree is split at the first ply with at least this many
/// distinct positions (or one ply above the leaves). The same for every run of the
/// same command, whatever the ranks, threads and tables, so a checkpoint serves any
/// of them.
pub const ITEMS_WANTED: usize = 4096;

/// The count of one subtree: its leaves (times its paths) and the table lookups that
/// counting it made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubtreeCount {
    /// Leaves below the subtree's position, times the paths that reach it.
    pub leaves: u64,
    /// Table lookups made (0 without a table).
    pub probes: u64,
    /// Lookups the table answered.
    pub hits: u64,
}

impl Record for SubtreeCount {
    const WORDS: usize = 3;
    fn encode(&self) -> Vec<u64> {
        vec![self.leaves, self.probes, self.hits]
    }
    fn decode(words: &[u64]) -> Option<Self> {
        match *words {
            [leaves, probes, hits] if hits <= probes => Some(SubtreeCount {
                leaves,
                probes,
                hits,
            }),
            _ => None,
        }
    }
    fn nodes(&self) -> u64 {
        self.leaves
    }
}

/// Perft of a position, split into subtrees.
pub struct PerftJob<'t, G: PerftKey> {
    root: G,
    pub(super) depth: u32,
    pub(super) split_ply: u32,
    pub(super) frontier: Vec<Subtree<G>>,
    pub(super) threads: usize,
    table: Option<&'t SharedPerftTable>,
}

impl<'t, G: PerftKey + Sync> PerftJob<'t, G> {
    /// Perft of `root` to `depth` plies, counted on `threads` threads of each process
    /// by sequential perft, through `table` (this process's, shared by its threads)
    /// when there is one.
    pub fn new(root: &G, depth: u32, threads: usize, table: Option<&'t SharedPerftTable>) -> Self {
        // At least one ply down (so every subtree has its root move), at most one
        // ply above the leaves (or at them, for depth 1).
        let max_ply = if depth <= 1 { depth } else { depth - 1 };
        let (frontier, split_ply) = frontier(root, max_ply, ITEMS_WANTED, true);
        PerftJob {
            root: *root,
            depth,
            split_ply,
            frontier,
            threads: threads.max(1),
            table,
        }
    }

    /// The ply the tree is split at.
    pub fn split_ply(&self) -> u32 {
        self.split_ply
    }

    /// The leaves per root move (in generation order) from the subtrees' counts; empty
    /// at depth 0.
    pub fn divide(&self, counts: &[SubtreeCount]) -> Vec<(G::Move, u64)> {
        if self.depth == 0 {
            return Vec::new();
        }
        let moves = self.root.legal_moves();
        let mut per_move: Vec<(G::Move, u64)> = moves.iter().map(|&m| (m, 0)).collect();
        for (s, n) in self.frontier.iter().zip(counts) {
            // A subtree's leaves are its position's count times its paths; each root
            // move has its share of the paths.
            let count = n.leaves / s.paths;
            for &(k, paths) in &s.root_paths {
                per_move[k].1 += count * paths;
            }
        }
        per_move
    }
}

impl<G: PerftKey + Send + Sync> Job for PerftJob<'_, G> {
    type Output = SubtreeCount;

    fn fingerprint(&self) -> String {
        format!(
            "{} distinct positions at ply {}",
            self.frontier.len(),
            self.split_ply
        )
    }

    fn items(&self) -> usize {
        self.frontier.len()
    }

    fn slots(&self) -> usize {
        self.threads
    }

    /// With a table: which neighbouring subtrees share a rank's table decides the
    /// lookups (`--private-tables`), so each rank counts its own run, and two runs on
    /// as many ranks look up the same, however the machines' load differs.
    fn fixed_deal(&self) -> bool {
        self.table.is_some()
    }

    fn run(&self, index: usize) -> Result<SubtreeCount, String> {
        let s = self
            .frontier
            .get(index)
            .ok_or_else(|| format!("no subtree {}", index))?;
        let rest = self.depth - self.split_ply;
        let (n, probes, hits) = match self.table {
            Some(table) => {
                let mut counted = Counted::new(table);
                let n = ply_core::perft::perft_tabled(&s.game, rest, &mut counted);
                (n, counted.probes, counted.hits)
            }
            None => (ply_core::perft::perft(&s.game, rest), 0, 0),
        };
        let leaves = n
            .checked_mul(s.paths)
            .ok_or_else(|| format!("subtree {}: the count overflows 64 bits", index))?;
        Ok(SubtreeCount {
            leaves,
            probes,
            hits,
        })
    }

    fn label(&self) -> Option<&str> {
        Some("perft")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::{Draughts, Halma8, Kalah, TicTacToe};
    use ply_core::Game;

    /// The split count, its divide and its table statistics, with no table, a roomy
    /// one and one of a single bucket (constant replacement), against sequential perft.
    fn check<G: PerftKey + Send + Sync>(g: &G, max_depth: u32) {
        let bits = G::perft_key_bits(g.rules());
        let roomy = SharedPerftTable::new(4 << 20, bits).unwrap();
        let tiny = SharedPerftTable::new(64, bits).unwrap();
        for table in [None, Some(&roomy), Some(&tiny)] {
            for depth in 0..=max_depth {
                let job = PerftJob::new(g, depth, 2, table.filter(|_| bits > 0));
                let counts = super::super::coordinator::run_local_all(
                    &job,
                    &super::super::Options::default(),
                )
                .unwrap();
                let total: u64 = counts.iter().map(|c| c.leaves).sum();
                assert_eq!(total, ply_core::perft::perft(g, depth), "depth {}", depth);
                let divided: u64 = job.divide(&counts).iter().map(|&(_, n)| n).sum();
                assert_eq!(divided, if depth == 0 { 0 } else { total });
                let mut seq = Vec::new();
                ply_core::perft::perft_divide(g, depth, |m, n| seq.push((m, n)));
                if depth > 0 {
                    assert_eq!(job.divide(&counts), seq, "depth {}", depth);
                }
                assert!(counts.iter().all(|c| c.hits <= c.probes));
                if table.is_none() || bits == 0 {
                    assert!(counts.iter().all(|c| c.probes == 0));
                }
            }
        }
    }

    #[test]
    fn the_split_count_equals_perft_with_and_without_a_table() {
        check(&TicTacToe::start(()), 9);
        check(&Draughts::start(Default::default()), 8);
        check(&Kalah::start(Default::default()), 7);
        check(&Halma8::start(Default::default()), 4);
    }

    #[test]
    fn the_split_is_a_few_plies_down_and_merges_transpositions() {
        let g = Draughts::start(Default::default());
        let job = PerftJob::new(&g, 13, 1, None);
        let ply = job.split_ply();
        assert_eq!(ply, SPLIT_PLY_13);
        // The paths to the split ply reach fewer positions, each one item, whatever
        // its first move; each item's paths by root move add up to its paths.
        let paths = ply_core::perft::perft(&g, ply);
        assert_eq!(job.frontier.iter().map(|s| s.paths).sum::<u64>(), paths);
        let keys: std::collections::HashSet<u128> = job
            .frontier
            .iter()
            .map(|s| s.game.perft_key().unwrap())
            .collect();
        assert_eq!(keys.len(), job.items());
        assert!(job.items() < paths as usize, "{}", job.items());
        for s in &job.frontier {
            assert_eq!(s.root_paths.iter().map(|r| r.1).sum::<u64>(), s.paths);
        }
        // Some positions are reached through two root moves or more: one item each.
        assert!(job.frontier.iter().any(|s| s.root_paths.len() > 1));
        assert_eq!(PerftJob::new(&g, 3, 1, None).split_ply(), 2);
        assert_eq!(PerftJob::new(&g, 1, 1, None).split_ply(), 1);
        assert_eq!(PerftJob::new(&g, 0, 1, None).split_ply(), 0);
    }

    /// The split ply of draughts perft 13 from the start: the first with at least
    /// [`ITEMS_WANTED`] distinct positions.
    const SPLIT_PLY_13: u32 = 6;

    #[test]
    fn subtree_counts_round_trip_and_refuse_impossible_words() {
        let c = SubtreeCount {
            leaves: 7,
            probes: 5,
            hits: 2,
        };
        assert_eq!(SubtreeCount::decode(&c.encode()), Some(c));
        assert_eq!(SubtreeCount::decode(&[7, 2, 5]), None);
        assert_eq!(SubtreeCount::decode(&[7, 5]), None);
    }
}
