//! Perft over one table spread across the ranks (transposition-driven scheduling,
//! level by level): every position near the top of the tree has one owner rank, by
//! its key; work on it travels to the owner, which looks it up in its part of the
//! table and expands it there, so that the ranks' tables act as one. Below the routed
//! plies each rank counts its positions alone, through its own table.
//!
//! The job's items are the same as [`super::perft::PerftJob`]'s (the distinct
//! positions at the split ply, so a checkpoint serves both ways of counting). They are
//! counted a batch at a time by every rank together:
//!
//! 1. **down**: the batch's items go to their owners; a rank looks up each position
//!    it owns in its table; one the table lacks is expanded, and each child goes to
//!    its own owner in one message per destination rank (a rank merges what it
//!    receives by key, so a transposition is one position however many ranks reach
//!    it). A ply's positions are expanded so while more than [`Routing::rest`] plies
//!    remain below them and no rank holds more than [`Routing::level_nodes`] of
//!    them;
//! 2. **below**: the positions of the last routed ply are counted by their owners
//!    alone ([`ply_core::perft::perft_tabled`], the rank's threads and table);
//! 3. **up**: counts travel back to the parents, one message per destination rank and
//!    ply; an owner adds its children's counts and stores the sum in its table,
//!    where a later batch finds it;
//! 4. the owners of the batch's items send their counts to rank 0, which keeps the
//!    checkpoint.
//!
//! A position travels as its key and its path from its item (indices into each
//! position's legal moves): every rank holds the items, so an owner replays the path
//! when its table lacks the position. Positions without a key (a draughts position
//! after a king move) are counted where they are met.
//!
//! No rank waits in MPI: sends are posted without waiting, and a waiting rank looks
//! for messages, then sleeps [`POLL`](super::coordinator::POLL). Rank 0 gives up on a rank that has sent nothing
//! for `--rank-timeout` seconds (every rank says it is alive every [`ALIVE_EVERY`](super::coordinator::ALIVE_EVERY)).
//!
//! The files: `settings.rs` ([`Routing`]), `transport.rs` (the [`Net`] and the rounds
//! of messages over it), `level.rs` (a routed ply's positions, their paths and
//! owners), `batch.rs` (one batch, down and up), `driver.rs` ([`count`]: the run on
//! rank 0 and on the others).

mod batch;
mod driver;
mod level;
mod settings;
mod transport;

pub use driver::count;
pub use settings::Routing;
pub use transport::{Alone, Net, ROUTE_TAG};

#[cfg(test)]
mod tests;
