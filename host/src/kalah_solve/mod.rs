//! `ply solve kalah`: the exact solver of [`ply_core::games::kalah::solver`] with its
//! endgame tables kept on disk and built on demand (`tables.rs`), and the root and
//! the first moves shared out among one solver per core over one lock-free
//! transposition table ([`SharedSolverTable`]; `scheduler.rs`).
//!
//! Settings (environment variables, checked by [`crate::settings::environment`]):
//! * `PLY_TABLES_DIR`: where endgame tables live (default `$XDG_CACHE_HOME/ply`,
//!   else `$HOME/.cache/ply`, else `.ply-tables`);
//! * `PLY_KALAH_TABLE_SEEDS`: seeds in play the tables cover (default by board size,
//!   see [`default_table_seeds`]; `0` for none);
//! * `PLY_HASH_MB`: transposition table MiB (default 1024, 8 when the tables cover
//!   all but a few seeds);
//! * `PLY_THREADS`: threads building endgame tables and solvers (default: the
//!   machine's cores);
//! * `PLY_GUESS_DEPTH`: plies of the shallow searches that give each task its
//!   first guess and order the moves (default 12);
//! * `PLY_KALAH_MOVE_NODES`: nodes a first move may spend on its exact value after
//!   its first null-window pass (default `max`: no limit, every value exact); over
//!   it, `ply solve` prints the upper bound proved so far (for boards too big to
//!   solve every move in the time at hand).

mod scheduler;
mod table_file;
mod tables;

use std::time::Instant;

use ply_core::games::kalah::solver::{EndgameTables, SharedSolverTable, SolverConfig};
use ply_core::games::kalah::Kalah;
use ply_core::Game;

use crate::games::SolveOutput;

pub use tables::default_table_seeds;

/// Plies of the shallow searches that give each solve its first guess.
const GUESS_DEPTH: u32 = 12;

/// The exact value of `game` for its side to move and of each of its moves, for
/// [`crate::HostGame::solve`]; `progress` receives the progress lines.
pub fn solve(game: &Kalah, progress: &mut dyn FnMut(&str)) -> Result<SolveOutput, String> {
    let rules = game.rules();
    // Every setting was checked by `main` before any work; read them again here.
    let env = crate::settings::environment()?;
    let threads = env
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let in_play = game.seeds_in_play();
    let want = env
        .table_seeds
        .unwrap_or_else(|| default_table_seeds(rules.pits));
    // No point in tables beyond the seeds on the board.
    let seeds = want.min(in_play).min(120);
    let t0 = Instant::now();
    let (values, mut details) = if seeds > 0 {
        let (v, note) = tables::load_or_build_tables(
            rules.pits,
            rules.empty_capture,
            seeds,
            threads,
            env.tables_dir.clone(),
            progress,
        )?;
        (v, vec![note])
    } else {
        (Vec::new(), vec!["endgame tables: none".to_string()])
    };
    let table_secs = t0.elapsed().as_secs_f64();
    // A small game, or one the tables nearly cover, needs little table memory.
    let default_mb = if in_play > seeds + 12 { 1024 } else { 8 };
    let hash_mb = env.hash_mb.unwrap_or(default_mb);
    let tables = if seeds > 0 {
        EndgameTables::new(rules.pits, rules.empty_capture, seeds, &values)
            .map_err(|e| e.to_string())?
    } else {
        EndgameTables::none(rules.pits, rules.empty_capture)
    };

    let t1 = Instant::now();
    let words = crate::memory::zeroed_atomic_words(
        (hash_mb as usize * (1 << 20)) / 8 + SharedSolverTable::BUCKET_WORDS,
        &format!("a transposition table of {} MiB (PLY_HASH_MB)", hash_mb),
    )?;
    // Start on a cache line, so that a bucket is one line.
    let skip = (words.as_ptr() as usize).next_multiple_of(64) - words.as_ptr() as usize;
    let job = scheduler::Job {
        root: game,
        table: SharedSolverTable::new(&words[skip / 8..]),
        tables,
        config: SolverConfig {
            etc_from_seeds: seeds + 4,
            ..SolverConfig::default()
        },
        threads,
        guess_depth: env.guess_depth.unwrap_or(GUESS_DEPTH),
        move_nodes: env.move_nodes.unwrap_or(u64::MAX),
        start: t1,
    };
    let solved = job.run(progress)?;
    let search_secs = t1.elapsed().as_secs_f64();

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
    details.push(format!("rules: {}", rules));
    details.push(format!("nodes: {}", solved.nodes));
    details.push(format!(
        "time: endgame tables {:.2} s, search {:.2} s",
        table_secs, search_secs
    ));
    Ok(SolveOutput {
        value,
        move_values,
        move_upper_bounds,
        details,
    })
}
