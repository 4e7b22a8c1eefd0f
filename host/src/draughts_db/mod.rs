//! The endgame databases of English draughts on disk (`ply db build checkers`):
//! one file a slice in `checkers-db/` of the tables directory (`PLY_TABLES_DIR`, as
//! the Kalah tables), built by the core's retrograde analysis
//! ([`ply_core::games::draughts::db::build`]) a pair of slices at a time on every
//! core, in dependency order, each pair's files written as soon as it is done (so a
//! build stopped by Ctrl-C or a kill goes on from the slices on disk), and loaded
//! for `ply solve checkers` and the AI players. docs/games/draughts-databases.md
//! describes them.
//!
//! One job a file: `build.rs` drives a build on one process (files read, converted
//! or written), `pair.rs` builds one pair of slices on every core, `job.rs` runs
//! the build as a job of items under MPI, `verify.rs` checks a database against
//! itself, `census.rs` counts what slices hold and `summary.rs` prints it, `load.rs`
//! loads the files for play and solving; `file.rs` is the file format, `cache.rs`
//! the inflated blocks, `chunks.rs` the threads over a range.

mod build;
pub mod cache;
mod census;
mod chunks;
pub mod file;
pub mod job;
mod load;
mod pair;
mod summary;
mod verify;

use std::path::PathBuf;

use ply_core::games::draughts::db::MAX_PIECES;

pub use build::{build_all, build_in_memory, build_memory, BuildReport};
pub use cache::inflate;
pub use census::{census, slice_census, Census, SliceCensus};
pub use load::{load, shared};
pub use pair::build_pair;
pub use summary::{summary, SliceSummary};
pub use verify::verify;

/// The most pieces `ply db build` builds on one machine.
pub const MAX_BUILD_PIECES: u32 = MAX_PIECES;

/// The directory of the databases: `checkers-db` in the tables directory
/// (`PLY_TABLES_DIR`, `dir`, else the user's cache directory).
pub fn db_dir(dir: Option<PathBuf>) -> PathBuf {
    crate::kalah_solve::tables::tables_dir(dir).join("checkers-db")
}
