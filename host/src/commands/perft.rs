//! `ply perft GAME DEPTH [--position P] [--after M...] [--divide] [--threads N]`.

use std::time::Instant;

use ply_core::perft::{perft, perft_divide};
use ply_core::Game;

use crate::commands::{rate, secs};
use crate::games::HostGame;
use crate::position::setup;
use crate::spec::GameCommand;

/// Perft from a position.
#[derive(Clone, Debug)]
pub struct Perft {
    /// Plies to count.
    pub depth: u32,
    /// Start from this position text instead of the start position.
    pub position: Option<String>,
    /// Moves to play first.
    pub after: Vec<String>,
    /// One line per root move.
    pub divide: bool,
    /// Threads (1: the sequential count of the core).
    pub threads: usize,
    /// Count capture paths with the same result once (games with capture paths).
    pub unique: bool,
    /// `--checkpoint` and `--resume`; under an MPI launcher the count is dealt out to
    /// the ranks ([`crate::distributed`]).
    pub distributed: crate::distributed::Options,
}

impl GameCommand for Perft {
    type Output = u64;
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<u64, String> {
        let rules = if self.unique {
            G::unique_captures(rules)?
        } else {
            rules
        };
        let game: G = setup(rules, self.position.as_deref(), &self.after)?;
        if self.distributed.wanted() {
            return crate::distributed::perft::run(
                &game,
                self.depth,
                self.divide,
                self.threads,
                &self.distributed,
            );
        }
        let t = Instant::now();
        let total = if self.threads != 1 {
            let err = |e: crate::parallel::ParallelError| e.to_string();
            if self.divide {
                let lines = crate::parallel::perft::perft_divide(&game, self.depth, self.threads)
                    .map_err(err)?;
                for &(mv, n) in &lines {
                    crate::outln!("{}: {}", game.display_move(mv), n)?;
                }
                if self.depth == 0 {
                    1
                } else {
                    lines.iter().map(|&(_, n)| n).sum()
                }
            } else {
                crate::parallel::perft::perft(&game, self.depth, self.threads).map_err(err)?
            }
        } else if self.divide {
            perft_divide(&game, self.depth, |mv, n| {
                let _ = crate::outln!("{}: {}", game.display_move(mv), n);
            })
        } else {
            perft_with_progress(&game, self.depth)
        };
        let s = t.elapsed().as_secs_f64();
        crate::outln!("{}", total)?;
        crate::outln!("time: {}", secs(s))?;
        crate::outln!("leaves/s: {}", rate(total, s))?;
        Ok(total)
    }
}

/// Sequential perft that shows progress on standard error when it runs longer than a
/// second: the tree is split into at least 1024 subtrees a few plies down (fewer if the
/// tree is that small), counted one after the other.
pub fn perft_with_progress<G: Game>(game: &G, depth: u32) -> u64 {
    let mut frontier = vec![*game];
    let mut d = depth;
    while d > 1 && frontier.len() < 1024 {
        frontier = frontier
            .iter()
            .flat_map(|g| {
                g.legal_moves()
                    .iter()
                    .map(|&m| g.play_unchecked(m))
                    .collect::<Vec<G>>()
            })
            .collect();
        d -= 1;
    }
    let mut progress = crate::interrupt::Progress::new();
    let mut leaves = 0u64;
    for (i, g) in frontier.iter().enumerate() {
        leaves += perft(g, d);
        let t = progress.elapsed();
        progress.tick(|| {
            format!(
                "perft: {}/{} subtrees at ply {}, {} leaves, {}",
                i + 1,
                frontier.len(),
                depth - d,
                leaves,
                secs(t)
            )
        });
    }
    progress.finish();
    leaves
}
