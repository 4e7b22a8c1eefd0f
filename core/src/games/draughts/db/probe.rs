//! A database in memory: the value codes of its slices, looked up by position.

use super::super::{Draughts, Variant};
use super::index::rank;
use super::packed::Packed;
use super::slice::{Placement, SliceKey, SLICES};
use super::value::{value_of, Entries, Value};
use crate::game::Game;

/// The values of the slices a build's conversions lead into (`build.rs`).
pub trait Lookup {
    /// The value of position `index` of slice `key`, `None` if that slice is not
    /// there.
    fn value(&self, key: SliceKey, index: u64) -> Option<Value>;
}

/// A slice's entries in memory: plain ([`Entries`], one or two bytes a position)
/// or compressed in blocks ([`Packed`]).
#[derive(Clone, Copy, Debug)]
pub enum Slice<'a> {
    /// A byte or two a position.
    Plain(Entries<'a>),
    /// Deflated blocks with their index.
    Packed(Packed<'a>),
}

impl Default for Slice<'_> {
    fn default() -> Self {
        Slice::Plain(Entries::EMPTY)
    }
}

impl<'a> Slice<'a> {
    /// The number of positions.
    #[inline(always)]
    pub fn len(&self) -> u64 {
        match self {
            Slice::Plain(e) => e.len() as u64,
            Slice::Packed(p) => p.len(),
        }
    }

    /// Whether there is no position.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes of an entry: 1 or 2.
    #[inline(always)]
    pub fn width(&self) -> usize {
        match self {
            Slice::Plain(e) => e.width(),
            Slice::Packed(p) => p.width(),
        }
    }

    /// The value of position `i`; a compressed slice inflates its block each call
    /// ([`Packed::code`]: a [`Database`] with a [`Reader`] caches them).
    pub fn get(&self, i: u64) -> Option<Value> {
        match self {
            Slice::Plain(e) => e.get(usize::try_from(i).ok()?),
            Slice::Packed(p) => p.get(i),
        }
    }
}

/// Reads entry `i` of a compressed slice, with a cache of inflated blocks: the
/// host's keeps one a thread. `None` past the end.
pub type Reader = fn(&Packed<'_>, u64) -> Option<u16>;

/// The finished slices of a database, each a [`Slice`] in memory the caller
/// provides; a slice not there is empty. It has room for the slices whose
/// [`SliceKey::id`] is below `N`: every slice of up to 8 pieces by default
/// ([`SLICES`]), fewer for a small database ([`small`](super::small): 35 slots
/// hold the slices of up to 3 pieces, where 495 would take about 20 KB of a
/// microcontroller's flash).
#[derive(Clone, Copy)]
pub struct Database<'a, const N: usize = SLICES> {
    slices: [Slice<'a>; N],
    pieces: u32,
    reader: Option<Reader>,
}

impl<const N: usize> Default for Database<'_, N> {
    fn default() -> Self {
        Self::empty()
    }
}

impl Database<'_> {
    /// A database with no slice and room for every slice of up to 8 pieces.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<'a, const N: usize> Database<'a, N> {
    /// A database with no slice, room for `N`.
    pub const fn empty() -> Self {
        Database {
            slices: [Slice::Plain(Entries::EMPTY); N],
            pieces: 0,
            reader: None,
        }
    }

    /// Adds slice `key`'s entries (as many as [`slice_size`](super::slice_size)`(key)`).
    pub fn set(&mut self, key: SliceKey, entries: Entries<'a>) -> Result<(), &'static str> {
        self.set_slice(key, Slice::Plain(entries))
    }

    /// Adds slice `key`, plain or compressed (as many entries as
    /// [`slice_size`](super::slice_size)`(key)`). A `const fn`, for a database
    /// built when a program is compiled ([`small`](super::small)).
    pub const fn set_slice(&mut self, key: SliceKey, slice: Slice<'a>) -> Result<(), &'static str> {
        let id = match key.id() {
            Some(id) if id < N => id,
            Some(_) => return Err("a slice with more pieces than the database has room for"),
            None => return Err("a slice of more than 8 pieces"),
        };
        let len = match slice {
            Slice::Plain(e) => e.len() as u64,
            Slice::Packed(p) => p.len(),
        };
        if len != super::slice_size(key) {
            return Err("a slice's entries are not as many as its positions");
        }
        self.slices[id] = slice;
        if key.pieces() > self.pieces {
            self.pieces = key.pieces();
        }
        Ok(())
    }

    /// Reads compressed slices through `reader` (a cache of inflated blocks)
    /// rather than inflating a block at every lookup.
    pub fn set_reader(&mut self, reader: Reader) {
        self.reader = Some(reader);
    }

    /// Slice `key`, if it is there.
    pub fn slice(&self, key: SliceKey) -> Option<Slice<'a>> {
        key.id()
            .and_then(|id| self.slices.get(id).copied())
            .filter(|s| !s.is_empty())
    }

    /// The most pieces of a slice it holds.
    pub const fn pieces(&self) -> u32 {
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

impl<const N: usize> Lookup for Database<'_, N> {
    #[inline]
    fn value(&self, key: SliceKey, index: u64) -> Option<Value> {
        match *self.slices.get(key.id()?)? {
            Slice::Plain(e) => e.get(usize::try_from(index).ok()?),
            Slice::Packed(p) => match self.reader {
                Some(read) => value_of(read(&p, index)?, p.width()),
                None => p.get(index),
            },
        }
    }
}
