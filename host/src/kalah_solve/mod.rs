//! `ply solve kalah`: the exact solver of [`ply_core::games::kalah::solver`] with its
//! endgame tables kept on disk and built on demand (`tables.rs`), and the root and
//! the first moves shared out among one solver per core over one lock-free
//! transposition table ([`SharedSolverTable`]; `scheduler.rs`). The same tables and
//! solver serve the AI players' exact play ([`play`]).
//!
//! Settings ([`SolveOptions`], from `ply solve`'s flags: `ply solve --help`):
//! `PLY_TABLES_DIR` where endgame tables live (default `$XDG_CACHE_HOME/ply`, else
//! `$HOME/.cache/ply`, else `.ply-tables`); `--table-seeds` the seeds in play they
//! cover (default by board size, see [`default_table_seeds`], or more if the table
//! file on disk holds more and fits in half the free memory; the AI players' default
//! differs: `play.rs`); `--hash-mb` (default `default_hash_mb`); `--threads`;
//! `--guess-depth` (default `guess_depth`); `--move-nodes` (default: no limit, every
//! value exact; over it, `ply solve` prints the upper bound proved so far). The test
//! hook `stop_nodes` stops the solve as Ctrl-C would, saving the checkpoint.
//!
//! With `--checkpoint FILE` the bounds proved so far are saved to `FILE` (a
//! checkpoint of [`crate::distributed::checkpoint`] whose items are the root and the
//! first moves, `checkpoint.rs`) whenever they change (at most once a second), on
//! Ctrl-C and at the end; `--resume` goes on from them.

mod checkpoint;
pub(crate) mod checksum;
mod passes;
pub mod play;
mod proved;
mod ranks;
mod reporter;
mod scheduler;
mod table_file;
pub(crate) mod tables;
mod tasks;

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use ply_core::games::kalah::solver::{EndgameTables, KalahSolver, SharedSolverTable, SolverConfig};
use ply_core::games::kalah::Kalah;
use ply_core::Game;

use crate::quote::quote;
use crate::solving::{SolveOptions, SolveOutput};
use proved::Proved;

pub use tables::default_table_seeds;

/// Plies of the shallow searches that give each solve its first guess, for
/// `in_play` seeds on the board: 12 up to 48 seeds, one ply more for every two
/// seeds beyond, at most 20. A deeper guess costs more nodes but lands nearer the
/// value, and the passes a wrong guess adds grow with the board: on Kalah(6,4)
/// 16 plies made the whole solve 0.5 s slower (guesses of 1.6 M nodes against
/// 0.14 M, the same root guess), on Kalah(6,5) 18 plies (11.8 M nodes) guessed the
/// root's value 10 where 12 plies guessed 8, and the root was proved in 251.5 s
/// against 287.7 s (docs/log/2026-11-25-kalah-solver.md).
fn guess_depth(in_play: u32) -> u32 {
    (12 + in_play.saturating_sub(48) / 2).min(20)
}

/// The transposition table's MiB when `--hash-mb` does not say, for `in_play`
/// seeds on the board and tables covering `seeds`: 8 when the tables cover all but
/// 12 seeds (little is left to store), 512 up to 48 seeds in play (Kalah(6,4)),
/// 1024 beyond. On Kalah(6,4) with 20-seed tables 512 MiB searched 8% more nodes
/// than 1 GiB but took 8–16% less time on one thread (fewer of the table's pages
/// to walk and to clear) and no more on two (docs/log/2026-11-27-kalah-solver.md).
fn default_hash_mb(in_play: u32, seeds: u32) -> u64 {
    if in_play <= seeds + 12 {
        8
    } else if in_play <= 48 {
        512
    } else {
        1024
    }
}

/// Writes the checkpoint of a solve, from the solving threads' loop or from the
/// Ctrl-C handler (one at a time); after [`CheckpointWriter::close`] no more.
struct CheckpointWriter {
    path: Option<std::path::PathBuf>,
    fingerprint: String,
    proved: Arc<Proved>,
    closed: Mutex<bool>,
}

impl CheckpointWriter {
    /// Saves what is proved (nothing without `--checkpoint`).
    fn save(&self) -> Result<(), String> {
        let closed = self.closed.lock().unwrap_or_else(|e| e.into_inner());
        match &self.path {
            Some(path) if !*closed => crate::distributed::checkpoint::save(
                path,
                &self.fingerprint,
                &self.proved.records(),
            ),
            _ => Ok(()),
        }
    }

    /// Saves a last time; later saves do nothing. The line to show, if any.
    fn close(&self) -> Option<String> {
        let saved = self.save();
        *self.closed.lock().unwrap_or_else(|e| e.into_inner()) = true;
        let path = self.path.as_ref()?;
        Some(match saved {
            Ok(()) => format!(
                "checkpoint saved to {}: go on with --resume",
                quote(&path.to_string_lossy())
            ),
            Err(e) => e,
        })
    }
}

/// The exact value of `game` for its side to move and of each of its moves, for
/// [`crate::HostGame::solve`]; `progress` receives the progress lines.
/// Under an MPI launcher a first move's replies are dealt out to the ranks (`ranks/`), and
/// the ranks other than 0 get `None`.
pub fn solve(
    game: &Kalah,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Option<SolveOutput>, String> {
    if crate::distributed::launch().is_some() {
        return ranks::solve(game, options, progress);
    }
    let move_nodes = options.move_nodes.unwrap_or(u64::MAX);

    // The checkpoint first: one that is refused costs no work.
    let items = 1 + game.legal_moves().len();
    let fingerprint = checkpoint::fingerprint(game, move_nodes);
    let resumed = match (&options.checkpoint, options.resume) {
        (Some(path), true) => {
            let r = crate::distributed::checkpoint::load(path, &fingerprint, items)?;
            if let Some(r) = &r {
                checkpoint::check_ranges(r, game, &quote(&path.to_string_lossy()))?;
            }
            r
        }
        _ => None,
    };
    let resuming = resumed.is_some();
    let proved = Arc::new(Proved::new(items, resumed));
    let writer = Arc::new(CheckpointWriter {
        path: options.checkpoint.clone(),
        fingerprint,
        proved: proved.clone(),
        closed: Mutex::new(false),
    });
    if let Some(path) = &options.checkpoint {
        let names: Vec<String> = game
            .legal_moves()
            .iter()
            .map(|&m| game.display_move(m).to_string())
            .collect();
        progress(&format!(
            "checkpoint {}: {}",
            quote(&path.to_string_lossy()),
            if resuming {
                format!("resuming; proved before: {}", proved.line(&names))
            } else {
                "new".to_string()
            }
        ));
        writer.save()?;
        let w = writer.clone();
        crate::interrupt::on_interrupt(Some(Box::new(move || {
            if let Some(line) = w.close() {
                crate::errln!("{}", line);
            }
        })));
    }
    let result = solve_with(game, options, &proved, &writer, progress);
    crate::interrupt::on_interrupt(None);
    let mut out = result?;
    if resuming {
        out.details.push("resumed from the checkpoint".to_string());
    }
    Ok(Some(out))
}

/// What every solve searches with: the endgame tables (loaded or built) and the
/// transposition table's memory, and the solver threads.
struct Memory {
    values: tables::TableMemory,
    seeds: u32,
    words: Vec<AtomicU64>,
    threads: usize,
    /// The line about the endgame tables.
    note: String,
    /// Seconds the endgame tables took to load or build.
    table_secs: f64,
}

impl Memory {
    /// The endgame tables for `game` and the transposition table, as the settings
    /// `settings` ask.
    fn prepare(
        game: &Kalah,
        settings: &SolveOptions,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Memory, String> {
        let rules = game.rules();
        let threads = settings
            .threads
            .unwrap_or_else(crate::distributed::default_threads);
        let in_play = game.seeds_in_play();
        tables::upgrade_format_2(
            rules.pits,
            rules.empty_capture,
            threads,
            settings.tables_dir.clone(),
            progress,
        )?;
        // By default, the default size or the file on disk if it holds more (built
        // with a larger --table-seeds once), as long as it takes at most half
        // the memory free now.
        let want = settings.table_seeds.unwrap_or_else(|| {
            let default = default_table_seeds(rules.pits);
            tables::usable_seeds_on_disk(
                rules.pits,
                rules.empty_capture,
                in_play,
                settings.tables_dir.clone(),
            )
            .map_or(default, |k| k.max(default))
        });
        // No point in tables beyond the seeds on the board.
        let seeds = want.min(in_play).min(120);
        let t0 = Instant::now();
        let (values, note) = if seeds > 0 {
            tables::load_or_build_tables(
                rules.pits,
                rules.empty_capture,
                seeds,
                tables::maps_tables(in_play, seeds),
                threads,
                settings.tables_dir.clone(),
                progress,
            )?
        } else {
            (
                tables::TableMemory::Owned(Vec::new()),
                "endgame tables: none".to_string(),
            )
        };
        let table_secs = t0.elapsed().as_secs_f64();
        let hash_mb = settings.hash_mb.unwrap_or(default_hash_mb(in_play, seeds));
        let words = crate::memory::zeroed_atomic_words(
            (hash_mb as usize * (1 << 20)) / 8 + SharedSolverTable::BUCKET_WORDS,
            &format!("a transposition table of {} MiB (--hash-mb)", hash_mb),
        )?;
        Ok(Memory {
            values,
            seeds,
            words,
            threads,
            note,
            table_secs,
        })
    }

    /// The endgame tables and the transposition table of a solve of `root`'s board
    /// over this memory, and the solvers' configuration.
    fn parts<'a>(
        &'a self,
        root: &Kalah,
    ) -> Result<(EndgameTables<'a>, SharedSolverTable<'a>, SolverConfig), String> {
        let rules = root.rules();
        let tables = if self.seeds > 0 {
            self.values
                .tables(rules.pits, rules.empty_capture, self.seeds)?
        } else {
            EndgameTables::none(rules.pits, rules.empty_capture)
        };
        // Start on a cache line, so that a bucket is one line.
        let skip =
            (self.words.as_ptr() as usize).next_multiple_of(64) - self.words.as_ptr() as usize;
        let config = SolverConfig {
            // Measured on Kalah(6,4) and (6,5): from 4 seeds above the tables
            // the children's lookups cost more page walks than their cutoffs
            // save (docs/log/2026-11-25-kalah-solver.md, docs/log/2026-11-27-kalah-solver.md).
            etc_from_seeds: self.seeds + 6,
            ..SolverConfig::default()
        };
        Ok((
            tables,
            SharedSolverTable::new(&self.words[skip / 8..], rules.pits),
            config,
        ))
    }

    /// One solver (one thread's) over this memory, for positions of `root`'s board.
    fn solver<'a>(
        &'a self,
        root: &Kalah,
    ) -> Result<KalahSolver<'a, SharedSolverTable<'a>>, String> {
        let (tables, table, config) = self.parts(root)?;
        let mut solver =
            KalahSolver::with_table(root.rules(), table, tables).map_err(|e| e.to_string())?;
        solver.set_config(config);
        Ok(solver)
    }

    /// A job over this memory with the settings `settings` (its stop and save hooks are
    /// the caller's).
    fn job<'a>(
        &'a self,
        root: &'a Kalah,
        settings: &SolveOptions,
        proved: &'a Proved,
        save: &'a (dyn Fn() -> Result<(), String> + Sync),
        stopped_at_nodes: &'a AtomicBool,
    ) -> Result<scheduler::Job<'a>, String> {
        let (tables, table, config) = self.parts(root)?;
        Ok(scheduler::Job {
            root,
            table,
            tables,
            config,
            threads: self.threads,
            guess_depth: settings
                .guess_depth
                .unwrap_or_else(|| guess_depth(root.seeds_in_play())),
            move_nodes: settings.move_nodes.unwrap_or(u64::MAX),
            start: Instant::now(),
            proved,
            save,
            stop_nodes: settings.stop_nodes,
            stopped_at_nodes,
        })
    }
}

/// [`solve`] once the checkpoint is read: tables, table memory, the threaded job.
fn solve_with(
    game: &Kalah,
    settings: &SolveOptions,
    proved: &Proved,
    writer: &CheckpointWriter,
    progress: &mut dyn FnMut(&str),
) -> Result<SolveOutput, String> {
    let memory = Memory::prepare(game, settings, progress)?;
    let t1 = Instant::now();
    let stopped_at_nodes = AtomicBool::new(false);
    let save = || writer.save();
    let job = memory.job(game, settings, proved, &save, &stopped_at_nodes)?;
    let solved = match job.run(progress) {
        Ok(s) => {
            writer.save()?;
            s
        }
        Err(e) => {
            let saved = writer.close();
            if stopped_at_nodes.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(format!(
                    "stopped after {} nodes (the test hook PLY_KALAH_STOP_NODES){}",
                    settings.stop_nodes.unwrap_or(0),
                    saved.map(|l| format!("; {}", l)).unwrap_or_default()
                ));
            }
            return Err(e);
        }
    };
    Ok(output(game, &solved, &memory, t1.elapsed().as_secs_f64()))
}

/// What `ply solve` prints of a solve that found `solved` with `memory` in
/// `search_secs` seconds of search.
fn output(
    game: &Kalah,
    solved: &scheduler::Solved,
    memory: &Memory,
    search_secs: f64,
) -> SolveOutput {
    let mut move_values = Vec::new();
    let mut move_upper_bounds = Vec::new();
    for &(mv, (lo, hi)) in &solved.moves {
        let name = game.display_move(mv).to_string();
        if lo == hi {
            move_values.push((name, i64::from(lo)));
        } else {
            move_upper_bounds.push((name, i64::from(hi)));
        }
    }
    let value = if solved.moves.is_empty() {
        // A finished game: its margin for the side to move.
        i64::from(game.store_difference())
    } else {
        i64::from(solved.value)
    };
    let details = vec![
        memory.note.clone(),
        format!("rules: {}", game.rules()),
        format!("nodes: {}", solved.nodes),
        format!(
            "time: endgame tables {:.2} s, search {:.2} s",
            memory.table_secs, search_secs
        ),
    ];
    SolveOutput {
        value,
        move_values,
        move_upper_bounds,
        details,
    }
}

#[cfg(test)]
mod tests {
    use super::{default_hash_mb, guess_depth};

    #[test]
    fn first_guesses_deepen_with_the_seeds_in_play() {
        // Kalah(6,3), (6,4): 12 plies; (6,5): 18; (6,6) and beyond: 20.
        for (in_play, plies) in [(0, 12), (36, 12), (48, 12), (49, 12), (50, 13), (60, 18)] {
            assert_eq!(guess_depth(in_play), plies, "{} seeds", in_play);
        }
        for in_play in [64, 72, 96, 1000] {
            assert_eq!(guess_depth(in_play), 20, "{} seeds", in_play);
        }
    }

    #[test]
    fn the_default_table_grows_with_the_board() {
        // Kalah(6,4) with 20-seed tables: 512 MiB; (6,5) and (6,6): 1 GiB; a board
        // the tables nearly cover (6x2 with 20 seeds, 6x3 with 26): 8 MiB.
        assert_eq!(default_hash_mb(48, 20), 512);
        assert_eq!(default_hash_mb(36, 20), 512);
        assert_eq!(default_hash_mb(60, 20), 1024);
        assert_eq!(default_hash_mb(72, 30), 1024);
        assert_eq!(default_hash_mb(24, 20), 8);
        assert_eq!(default_hash_mb(36, 26), 8);
        assert_eq!(default_hash_mb(32, 20), 8);
        assert_eq!(default_hash_mb(33, 20), 512);
    }
}
