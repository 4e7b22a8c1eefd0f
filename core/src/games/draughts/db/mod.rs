//! Endgame databases of English draughts: the value (win, loss or draw for the
//! side to move, with the distance to conversion) of every position with few
//! pieces, built by retrograde analysis slice by slice. docs/games/draughts-databases.md
//! describes the design.
//!
//! * [`slice`](mod@slice): slices (the men and kings of each side) and positions normalized to
//!   the side to move;
//! * [`index`]: the bijection between a slice's positions and `0..slice_size`;
//! * [`value`]: values, their codes and a slice's entries (one or two bytes);
//! * [`build`]: the retrograde analysis of a pair of slices, over memory the caller
//!   provides (the host runs it on threads and keeps the files);
//! * [`packed`]: a slice's entries compressed in independent blocks;
//! * [`file`](mod@file): the layout of a slice's file, and its reading in memory;
//! * [`small`]: the databases of up to 3 pieces compiled in (the web page, the
//!   firmware);
//! * [`probe`]: a database in memory and its lookups;
//! * [`check`]: every position's value against its children's;
//! * [`eval`]: an evaluation that gives the engine the databases' exact values.
//!
//! The databases ignore the draw rules of a game (repetition, move limit) and hold
//! the English rules only: under the Calgary variant a position's value depends on
//! the positions before it.

// Builds share their cells between threads by compare-and-swap.
#[cfg(target_has_atomic = "16")]
pub mod build;
pub mod check;
pub mod eval;
pub mod file;
pub mod index;
pub mod packed;
pub mod probe;
pub mod slice;
pub mod small;
pub mod value;

#[cfg(target_has_atomic = "16")]
pub use build::{BuildError, Pair};
pub use eval::DbEval;
pub use index::{rank, slice_size, unrank};
pub use packed::{Inflater, Packed, UnpackError, BLOCK_ENTRIES};
pub use probe::{Database, Lookup, Reader, Slice};
pub use slice::{keys_of, Placement, SliceKey, MAX_PIECES, SLICES};
pub use value::{entry_width, value_of, Entries, Value, BYTE_MAX_DISTANCE, MAX_DISTANCE};
