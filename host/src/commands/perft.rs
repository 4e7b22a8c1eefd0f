//! `ply perft GAME DEPTH [--position P] [--after M...] [--divide] [--threads N]
//! [--hash-mb M]`.
//!
//! A game with an exact perft key ([`ply_core::perft::PerftKey`]) is counted with a
//! table of exact counts shared by the threads
//! ([`crate::parallel::perft::perft_tabled`]): `--hash-mb` sizes it, otherwise its
//! size follows the depth and the memory free ([`auto_table_bytes`]). Games without
//! a key, and without `--hash-mb` depths below [`TABLE_FROM_DEPTH`] and games that
//! rarely transpose ([`HostGame::PERFT_TABLE_BY_DEFAULT`]), are counted without one;
//! so is every count with `--no-table` (the plain move generator's speed).

use std::time::Instant;

use ply_core::perft::{perft, perft_divide};
use ply_core::Game;

use crate::games::HostGame;
use crate::output::{percent, rate, secs};
use crate::parallel::perft::TabledStatus;
use crate::parallel::SharedPerftTable;
use crate::position::setup;
use crate::spec::GameCommand;

/// Without `--hash-mb`, perft of this depth or more uses a table (shallower counts
/// take milliseconds without one).
pub const TABLE_FROM_DEPTH: u32 = 6;

/// The table size without `--hash-mb`: half the memory free now (shared out among
/// the processes an MPI launcher started on this machine), at most
/// `2^(depth + 13)` bytes (8 MiB for depth 10, 128 MiB for 14, 2 GiB for 18) and at
/// least 1 MiB, rounded down to a power of two (the table's sizes).
pub fn auto_table_bytes(depth: u32) -> u64 {
    let free = crate::memory::available_memory().unwrap_or(1 << 30)
        / 2
        / crate::distributed::local_processes() as u64;
    let by_depth = 1u64 << (depth + 13).min(40);
    let bytes = free.min(by_depth).max(1 << 20);
    1 << (63 - bytes.leading_zeros())
}

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
    /// The table size in MiB (`None`: chosen from the depth and the free memory).
    pub hash_mb: Option<usize>,
    /// Count without a table (`--no-table`): the plain move generator.
    pub no_table: bool,
    /// Under MPI, each rank counts through its own table (`--private-tables`) instead
    /// of the ranks' tables joined into one.
    pub private_tables: bool,
    /// Under MPI, how far the ranks' one table routes positions to their owners
    /// (`--route-rest`, `--route-nodes`, `--route-batch`).
    pub routing: crate::distributed::routed::Routing,
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
        let key_bits = G::perft_key_bits(rules);
        if self.hash_mb.is_some() {
            crate::settings::perft_hash_mb(key_bits, G::NAME)?;
        }
        let game: G = setup(rules, self.position.as_deref(), &self.after)?;
        let table_bytes = match self.hash_mb {
            _ if self.no_table => None,
            Some(mb) => Some((mb as u64) << 20),
            None if key_bits > 0 && G::PERFT_TABLE_BY_DEFAULT && self.depth >= TABLE_FROM_DEPTH => {
                Some(auto_table_bytes(self.depth))
            }
            None => None,
        };
        let table = match table_bytes {
            Some(bytes) => Some(SharedPerftTable::new(bytes, key_bits)?),
            None => None,
        };
        if self.distributed.wanted() {
            return crate::distributed::perft_run::run(
                &game,
                self.depth,
                self.divide,
                self.threads,
                table.as_ref(),
                (!self.private_tables).then_some(self.routing),
                &self.distributed,
            );
        }
        if let Some(table) = &table {
            return run_tabled(&game, &self, table);
        }
        let t = Instant::now();
        let total = if self.divide && self.threads != 1 {
            let err = |e: crate::parallel::ParallelError| e.to_string();
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
        } else if self.divide {
            perft_divide(&game, self.depth, |mv, n| {
                let _ = crate::outln!("{}: {}", game.display_move(mv), n);
            })
        } else {
            perft_with_progress(&game, self.depth, self.threads)
        };
        let s = t.elapsed().as_secs_f64();
        crate::outln!("{}", total)?;
        crate::outln!("time: {}", secs(s))?;
        crate::outln!("leaves/s: {}", rate(total, s))?;
        Ok(total)
    }
}

/// Perft with `table` on `perft.threads` threads, `--divide` included; prints the
/// result, the time and the table's size and hit rate.
fn run_tabled<G: HostGame>(
    game: &G,
    perft: &Perft,
    table: &SharedPerftTable,
) -> Result<u64, String> {
    let t = Instant::now();
    let mut progress = crate::interrupt::Progress::new();
    let mut sum = TabledStatus::default();
    let count = |g: &G,
                 depth: u32,
                 what: &str,
                 sum: &mut TabledStatus,
                 progress: &mut crate::interrupt::Progress| {
        let s = crate::parallel::perft::perft_tabled(g, depth, perft.threads, table, &mut |s| {
            let elapsed = progress.elapsed();
            progress.tick(|| {
                format!(
                    "perft: {}{}/{} subtrees at ply {}, {} leaves, {}, table {:.1}% hits, {:.1}% full",
                    what,
                    s.done,
                    s.subtrees,
                    s.ply,
                    sum.leaves + s.leaves,
                    secs(elapsed),
                    percent(sum.hits + s.hits, sum.probes + s.probes),
                    table.fill_permille() as f64 / 10.0
                )
            })
        });
        sum.leaves += s.leaves;
        sum.probes += s.probes;
        sum.hits += s.hits;
        s.leaves
    };
    let total = if perft.divide && perft.depth > 0 {
        let moves = game.legal_moves();
        for (i, &mv) in moves.iter().enumerate() {
            let what = format!("move {}/{}, ", i + 1, moves.len());
            let n = count(
                &game.play_unchecked(mv),
                perft.depth - 1,
                &what,
                &mut sum,
                &mut progress,
            );
            progress.finish();
            crate::outln!("{}: {}", game.display_move(mv), n)?;
        }
        sum.leaves
    } else {
        count(game, perft.depth, "", &mut sum, &mut progress)
    };
    progress.finish();
    let s = t.elapsed().as_secs_f64();
    crate::outln!("{}", total)?;
    crate::outln!("time: {}", secs(s))?;
    crate::outln!("leaves/s: {}", rate(total, s))?;
    crate::outln!(
        "{}",
        crate::parallel::perft_table::table_line(table.bytes(), sum.probes, sum.hits)
    )?;
    Ok(total)
}

/// Perft on `threads` threads that shows progress on standard error when it runs
/// longer than a second: the tree is split into at least 1024 subtrees a few plies
/// down (fewer if the tree is that small), which the threads take one at a time
/// (on one thread, in order) while this thread reports how many are counted.
pub fn perft_with_progress<G: Game + Sync>(game: &G, depth: u32, threads: usize) -> u64 {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
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
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let leaves = AtomicU64::new(0);
    let count = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(g) = frontier.get(i) else {
            return;
        };
        leaves.fetch_add(perft(g, d), Ordering::Relaxed);
        done.fetch_add(1, Ordering::Release);
    };
    let mut progress = crate::interrupt::Progress::new();
    let show = |progress: &mut crate::interrupt::Progress| {
        let t = progress.elapsed();
        progress.tick(|| {
            format!(
                "perft: {}/{} subtrees at ply {}, {} leaves, {}",
                done.load(Ordering::Acquire),
                frontier.len(),
                depth - d,
                leaves.load(Ordering::Relaxed),
                secs(t)
            )
        });
    };
    if threads <= 1 {
        while done.load(Ordering::Relaxed) < frontier.len() {
            let i = next.fetch_add(1, Ordering::Relaxed);
            leaves.fetch_add(perft(&frontier[i], d), Ordering::Relaxed);
            done.fetch_add(1, Ordering::Release);
            show(&mut progress);
        }
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads.min(frontier.len()) {
                scope.spawn(count);
            }
            while done.load(Ordering::Acquire) < frontier.len() {
                std::thread::sleep(std::time::Duration::from_millis(50));
                show(&mut progress);
            }
        });
    }
    progress.finish();
    leaves.into_inner()
}
