//! Perft as a job: the items are the subtrees a few plies down (the split ply), each
//! counted by one call of the rank's counting function (sequential perft now; a rank's
//! own tabled perft can take its place, see [`PerftJob::with_counter`]).

use std::time::Instant;

use ply_core::Game;

use super::{Job, Options};
use crate::commands::{rate, secs};

/// Subtrees wanted: the tree is split at the first ply with at least this many
/// positions (or one ply above the leaves). The same for every run of the same
/// command, whatever the ranks and threads, so a checkpoint serves any of them.
pub const ITEMS_WANTED: usize = 4096;

/// Counts the leaves `depth` plies below a position.
pub type Counter<G> = fn(&G, u32) -> u64;

/// Perft of a position, split into subtrees.
pub struct PerftJob<G: Game> {
    root: G,
    depth: u32,
    split_ply: u32,
    /// The subtrees' positions, each with the index of the root move it starts with.
    frontier: Vec<(G, usize)>,
    threads: usize,
    counter: Counter<G>,
}

impl<G: Game + Sync> PerftJob<G> {
    /// Perft of `root` to `depth` plies, counted on `threads` threads of each process
    /// by sequential [`ply_core::perft::perft`].
    pub fn new(root: &G, depth: u32, threads: usize) -> Self {
        Self::with_counter(root, depth, threads, ply_core::perft::perft::<G>)
    }

    /// As [`PerftJob::new`], each subtree counted by `counter` (called from `threads`
    /// threads at once).
    pub fn with_counter(root: &G, depth: u32, threads: usize, counter: Counter<G>) -> Self {
        let mut frontier = vec![(*root, 0usize)];
        let mut ply = 0;
        // At least one ply down (so every subtree has its root move), then on until
        // there are enough subtrees or one ply is left.
        while ply < depth && (ply == 0 || (depth - ply > 1 && frontier.len() < ITEMS_WANTED)) {
            frontier = frontier
                .iter()
                .flat_map(|&(g, root_move)| {
                    g.legal_moves()
                        .iter()
                        .enumerate()
                        .map(|(k, &m)| (g.play_unchecked(m), if ply == 0 { k } else { root_move }))
                        .collect::<Vec<_>>()
                })
                .collect();
            ply += 1;
        }
        PerftJob {
            root: *root,
            depth,
            split_ply: ply,
            frontier,
            threads: threads.max(1),
            counter,
        }
    }

    /// The ply the tree is split at.
    pub fn split_ply(&self) -> u32 {
        self.split_ply
    }

    /// The leaves per root move (in generation order) from the subtrees' counts; empty
    /// at depth 0.
    pub fn divide(&self, counts: &[u64]) -> Vec<(G::Move, u64)> {
        if self.depth == 0 {
            return Vec::new();
        }
        let moves = self.root.legal_moves();
        let mut per_move: Vec<(G::Move, u64)> = moves.iter().map(|&m| (m, 0)).collect();
        for (&(_, k), &n) in self.frontier.iter().zip(counts) {
            per_move[k].1 += n;
        }
        per_move
    }
}

impl<G: Game + Send + Sync> Job for PerftJob<G> {
    type Output = u64;

    fn fingerprint(&self) -> String {
        format!("{} subtrees at ply {}", self.frontier.len(), self.split_ply)
    }

    fn items(&self) -> usize {
        self.frontier.len()
    }

    fn slots(&self) -> usize {
        self.threads
    }

    fn run(&self, index: usize) -> Result<u64, String> {
        let (g, _) = self
            .frontier
            .get(index)
            .ok_or_else(|| format!("no subtree {}", index))?;
        Ok((self.counter)(g, self.depth - self.split_ply))
    }

    fn label(&self) -> Option<&str> {
        Some("perft")
    }
}

/// `ply perft` through [`super::run`]: prints what the one-process command prints (the
/// lines of `--divide`, the total, the time and the rate) on rank 0; prints nothing on
/// the other ranks. Returns the total (0 on the other ranks).
pub fn run<G: Game + Send + Sync>(
    game: &G,
    depth: u32,
    divide: bool,
    threads: usize,
    options: &Options,
) -> Result<u64, String> {
    let t = Instant::now();
    let job = PerftJob::new(game, depth, threads);
    let Some(counts) = super::run(&job, options)? else {
        return Ok(0);
    };
    if divide {
        for (mv, n) in job.divide(&counts) {
            crate::outln!("{}: {}", game.display_move(mv), n)?;
        }
    }
    let total: u64 = counts.iter().sum();
    let s = t.elapsed().as_secs_f64();
    crate::outln!("{}", total)?;
    crate::outln!("time: {}", secs(s))?;
    crate::outln!("leaves/s: {}", rate(total, s))?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::{Draughts, Kalah, TicTacToe};

    fn check<G: Game + Send + Sync>(g: &G, max_depth: u32) {
        for depth in 0..=max_depth {
            let job = PerftJob::new(g, depth, 2);
            let counts = super::super::coordinator::run_local(&job, &Options::default()).unwrap();
            let total: u64 = counts.iter().sum();
            assert_eq!(total, ply_core::perft::perft(g, depth), "depth {}", depth);
            let divided: u64 = job.divide(&counts).iter().map(|&(_, n)| n).sum();
            assert_eq!(divided, if depth == 0 { 0 } else { total });
            let mut seq = Vec::new();
            ply_core::perft::perft_divide(g, depth, |m, n| seq.push((m, n)));
            if depth > 0 {
                assert_eq!(job.divide(&counts), seq, "depth {}", depth);
            }
        }
    }

    #[test]
    fn the_split_count_equals_perft() {
        check(&TicTacToe::start(()), 9);
        check(&Draughts::start(Default::default()), 7);
        check(&Kalah::start(Default::default()), 6);
    }

    #[test]
    fn the_split_is_a_few_plies_down() {
        let g = Draughts::start(Default::default());
        assert_eq!(PerftJob::new(&g, 13, 1).split_ply(), 5);
        assert_eq!(PerftJob::new(&g, 13, 1).items(), 7361);
        assert_eq!(PerftJob::new(&g, 3, 1).split_ply(), 2);
        assert_eq!(PerftJob::new(&g, 1, 1).split_ply(), 1);
        assert_eq!(PerftJob::new(&g, 0, 1).split_ply(), 0);
    }
}
