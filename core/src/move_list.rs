//! Fixed-capacity move lists.
//!
//! Each game states the largest number of legal moves any reachable position can
//! have, proves it in a doc comment, and uses a [`MoveList`] of exactly that capacity.
//! No heap, no reallocation, and a list lives on the stack of the search.

use core::ops::{Deref, DerefMut};

/// A list of at most `N` moves, backed by `heapless::Vec`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveList<M, const N: usize>(heapless::Vec<M, N>);

impl<M, const N: usize> MoveList<M, N> {
    /// The capacity: the proven bound on legal moves for the game that uses this list.
    pub const CAPACITY: usize = N;

    /// An empty list.
    pub const fn new() -> Self {
        MoveList(heapless::Vec::new())
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list is full. Each game proves its capacity sufficient for every
    /// reachable position, so this would mean the game's bound argument is wrong;
    /// the tests construct each game's worst case to check it.
    #[inline]
    pub fn push(&mut self, mv: M) {
        if self.0.push(mv).is_err() {
            capacity_exceeded(N)
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Keeps only the moves for which `keep` returns true, in order.
    pub fn retain(&mut self, keep: impl FnMut(&M) -> bool) {
        self.0.retain(keep);
    }

    /// Shortens the list to `len` moves.
    pub fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }
}

#[cold]
#[inline(never)]
fn capacity_exceeded(n: usize) -> ! {
    panic!(
        "move list capacity {} exceeded: the game's bound is wrong",
        n
    )
}

impl<M, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M, const N: usize> Deref for MoveList<M, N> {
    type Target = [M];
    #[inline]
    fn deref(&self) -> &[M] {
        &self.0
    }
}

impl<M, const N: usize> DerefMut for MoveList<M, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [M] {
        &mut self.0
    }
}

impl<'a, M, const N: usize> IntoIterator for &'a MoveList<M, N> {
    type Item = &'a M;
    type IntoIter = core::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(feature = "defmt")]
impl<M: defmt::Format, const N: usize> defmt::Format for MoveList<M, N> {
    fn format(&self, f: defmt::Formatter) {
        defmt::write!(f, "{}", self.0.as_slice())
    }
}
