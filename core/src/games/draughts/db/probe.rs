//! A database in memory: the value codes of its slices, looked up by position.

use super::super::{Draughts, Variant};
use super::index::rank;
use super::slice::{Placement, SliceKey, SLICES};
use super::value::{Entries, Value};
use crate::game::Game;

/// The values of the slices a build's conversions lead into (`build.rs`).
pub trait Lookup {
    /// The value of position `index` of slice `key`, `None` if that slice is not
    /// there.
    fn value(&self, key: SliceKey, index: u64) -> Option<Value>;
}

/// The finished slices of a database, each its [`Entries`] (one or two bytes a
/// position) in memory the caller provides; a slice not there is empty.
#[derive(Clone, Copy)]
pub struct Database<'a> {
    slices: [Entries<'a>; SLICES],
    pieces: u32,
}

impl Default for Database<'_> {
    fn default() -> Self {
        Database {
            slices: [Entries::default(); SLICES],
            pieces: 0,
        }
    }
}

impl<'a> Database<'a> {
    /// A database with no slice.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds slice `key`'s entries (as many as [`slice_size`](super::slice_size)`(key)`).
    pub fn set(&mut self, key: SliceKey, entries: Entries<'a>) -> Result<(), &'static str> {
        let id = key.id().ok_or("a slice of more than 8 pieces")?;
        if entries.len() as u64 != super::slice_size(key) {
            return Err("a slice's entries are not as many as its positions");
        }
        self.slices[id] = entries;
        self.pieces = self.pieces.max(key.pieces());
        Ok(())
    }

    /// The entries of slice `key`, if it is there.
    pub fn slice(&self, key: SliceKey) -> Option<Entries<'a>> {
        key.id().map(|id| self.slices[id]).filter(|s| !s.is_empty())
    }

    /// The most pieces of a slice it holds.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The value of `g` for its side to move, if its slice is there and `g` is under
    /// the English rules (their draw rules aside; see [`Value`]).
    #[inline]
    pub fn probe(&self, g: &Draughts) -> Option<Value> {
        if g.rules().variant() != Variant::English {
            return None;
        }
        let p = Placement::of(g);
        let key = SliceKey::of(&p);
        if key.pieces() > self.pieces {
            return None;
        }
        self.value(key, rank(key, &p))
    }
}

impl Lookup for Database<'_> {
    #[inline]
    fn value(&self, key: SliceKey, index: u64) -> Option<Value> {
        self.slice(key)?.get(usize::try_from(index).ok()?)
    }
}
