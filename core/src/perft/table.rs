//! Perft with a transposition table of exact counts: [`perft_tabled`].
//!
//! Deep perft meets the same positions again and again (draughts transposes a lot);
//! a table remembers the count under each (position, remaining depth) and answers
//! the repeats. A count taken from the table must be the count of *that* position,
//! so the table never trusts a hash:
//!
//! * **Exact keys.** A game gives every position it can a key that is a lossless
//!   packing of everything its move tree depends on ([`PerftKey`]), at most
//!   [`MAX_KEY_BITS`] bits; a position whose future does not fit (a draughts position
//!   with king moves in its history, which the repetition rules read) has no key and
//!   is counted without the table, which stays exact.
//! * **Whole keys in 16 bytes.** The key is mixed by a bijection of its `w`-bit
//!   space; the low bits of the result pick the bucket, the rest (the *tag*) is stored
//!   in the entry. Bucket and tag together give back the mixed key and so the key:
//!   an entry matches a position exactly when its tag and depth do, and a count is
//!   never taken from another position, whatever the table's size.
//! * **Buckets of one cache line.** 64 bytes: a 32-bit sequence number (the host's
//!   lock-free shared table uses it as a seqlock; here it stays 0) and four
//!   120-bit entries, each `depth` (6 bits) | `count` | `tag`, packed by [`Layout`].
//!   A probe costs one cache miss.
//! * **Replacement.** A new count goes into an empty entry, else over the entry of
//!   the smallest remaining depth (the cheapest subtree to count again; ties: the
//!   smaller count). Counts are stored for remaining depths
//!   [`MIN_TABLE_DEPTH`]..=[`MAX_TABLE_DEPTH`] when they fit in the entry's count
//!   field (at least 14 bits, more in bigger tables: [`Layout::count_bits`]); a
//!   count too big is simply not stored.
//! * **Only where a probe pays.** A position with one move is never looked up
//!   (its count is its child's), nor one with a few moves at the last table depth
//!   ([`deserves_an_entry`]); the parent decides before it prefetches.
//!
//! A table holds the counts of one game under one rule set (the key packs the
//! position, not the rules): make a new one, or [`BucketTable::clear`] it, before
//! counting under other rules. `docs/deep-perft.md` measures it.

use crate::game::Game;
use crate::perft::perft;
use core::num::NonZeroU128;

/// The widest perft key a table takes, in bits.
pub const MAX_KEY_BITS: u32 = 100;

/// The smallest remaining depth whose counts are stored and looked up. Shallower
/// subtrees are counted again: a probe (a cache miss) costs more than they do.
pub const MIN_TABLE_DEPTH: u32 = 3;

/// At [`MIN_TABLE_DEPTH`] plies to go, positions with at most this many moves are
/// counted without the table: their few subtrees cost less to count again than a
/// probe's trip to memory (measured on draughts: docs/log/2026-11-25-deep-perft.md).
pub const FEW_MOVES: u64 = 3;

/// Children whose slots one node keeps at a time (their buckets are prefetched
/// together).
const SLOT_CHUNK: usize = 32;

/// The largest remaining depth an entry records (its depth field has 6 bits).
pub const MAX_TABLE_DEPTH: u32 = 63;

/// Bits of one entry.
const ENTRY_BITS: u32 = 120;
const ENTRY_MASK: u128 = (1 << ENTRY_BITS) - 1;
/// Bits of the depth field.
const DEPTH_BITS: u32 = 6;
/// Entries per bucket.
pub const BUCKET_ENTRIES: usize = 4;
/// The bucket's sequence number: the low 32 bits of word 0.
pub const SEQ_MASK: u64 = 0xffff_ffff;

/// An exact key for perft tables: the positions a table may answer for.
///
/// The contract: two positions of one game under the same rules whose keys are
/// `Some` and equal have the same move tree (the same legal moves, and move for move
/// children with the same move trees), so they have the same perft count at every
/// depth. A position whose future depends on more than its key can hold returns
/// `None`. Every key is below `2^perft_key_bits(rules)`.
pub trait PerftKey: Game {
    /// The width of this game's perft keys under `rules`, in bits: at most
    /// [`MAX_KEY_BITS`]; 0 when the game has no perft key under these rules (then no
    /// position has one).
    fn perft_key_bits(rules: Self::Rules) -> u32;

    /// The position's exact key, or `None` when it has none (see the trait).
    fn perft_key(&self) -> Option<u128>;
}

/// A table of perft counts as [`perft_tabled`] sees it: the single-thread
/// [`BucketTable`] over caller memory, and the host's lock-free table that several
/// threads share. `&mut T` is a table too.
pub trait PerftTable {
    /// The key width the table was made for: it takes keys below `2^key_bits()`.
    fn key_bits(&self) -> u32;

    /// Where the position with `key` lives in this table, computed once per position
    /// for the prefetch, the probe and the store that follow.
    fn slot(&self, key: u128) -> Slot;

    /// The count stored at `slot` (from [`PerftTable::slot`]) for `depth` plies, if
    /// any.
    fn probe(&mut self, slot: Slot, depth: u32) -> Option<u64>;

    /// Stores the count of the position at `slot` for `depth` plies (or not: a table
    /// may drop it).
    fn store(&mut self, slot: Slot, depth: u32, count: u64);

    /// Asks the memory system for the bucket of `slot`, which is probed soon. The
    /// default does nothing.
    #[inline]
    fn prefetch(&self, slot: Slot) {
        let _ = slot;
    }
}

impl<T: PerftTable + ?Sized> PerftTable for &mut T {
    #[inline]
    fn key_bits(&self) -> u32 {
        (**self).key_bits()
    }
    #[inline]
    fn slot(&self, key: u128) -> Slot {
        (**self).slot(key)
    }
    #[inline]
    fn probe(&mut self, slot: Slot, depth: u32) -> Option<u64> {
        (**self).probe(slot, depth)
    }
    #[inline]
    fn store(&mut self, slot: Slot, depth: u32, count: u64) {
        (**self).store(slot, depth, count)
    }
    #[inline]
    fn prefetch(&self, slot: Slot) {
        (**self).prefetch(slot)
    }
}

/// A key's place in a table of a given [`Layout`]: the key mixed by [`mix`], whose
/// low bits pick the bucket and whose other bits are the entry's tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot(NonZeroU128);

// The mixed key is below 2^MAX_KEY_BITS, so its complement is never zero, and an
// `Option<Slot>` (a node keeps one per child) takes no more room than the key.
const _: () = assert!(core::mem::size_of::<Option<Slot>>() == 16);

impl Slot {
    /// The slot of a mixed key (below `2^MAX_KEY_BITS`).
    #[inline]
    fn new(mixed: u128) -> Slot {
        match NonZeroU128::new(!mixed) {
            Some(n) => Slot(n),
            None => unreachable!("a mixed key has at most MAX_KEY_BITS bits"),
        }
    }

    /// The mixed key.
    #[inline]
    fn mixed(self) -> u128 {
        !self.0.get()
    }
}

/// Counts the leaves `depth` plies below `game`, as [`perft`] does, looking up and
/// storing the counts of positions with [`MIN_TABLE_DEPTH`] or more plies to go in
/// `table` (`&mut BucketTable<_>`, or the host's `&SharedPerftTable`).
///
/// A game without a perft key under its rules is counted without the table.
///
/// Stack: each ply above [`MIN_TABLE_DEPTH`] + 1 keeps two opened children in
/// its frame (1,248 bytes each for draughts on a 64-bit host), so that a child's
/// buckets are asked for before the sibling before it is counted.
///
/// # Panics
/// If `table` was made for keys narrower than the game's.
pub fn perft_tabled<G: PerftKey, T: PerftTable>(game: &G, depth: u32, mut table: T) -> u64 {
    let bits = G::perft_key_bits(game.rules());
    if bits == 0 {
        return perft(game, depth);
    }
    check_key_bits(&table, bits);
    let slot = game.perft_key().map(|k| table.slot(k));
    if depth <= MIN_TABLE_DEPTH {
        return tabled(game, slot, depth, &mut table);
    }
    open_and_close(game, slot, depth, &mut table)
}

/// Panics if `table` was made for keys narrower than `bits`.
fn check_key_bits<T: PerftTable>(table: &T, bits: u32) {
    assert!(
        bits <= table.key_bits(),
        "a perft table for {}-bit keys cannot hold this game's {}-bit keys",
        table.key_bits(),
        bits
    );
}

/// The count of `game` (deeper than [`MIN_TABLE_DEPTH`]) through its opened
/// children, stored at `slot` when there is one.
fn open_and_close<G: PerftKey, T: PerftTable>(
    game: &G,
    slot: Option<Slot>,
    depth: u32,
    table: &mut T,
) -> u64 {
    let mut node = Open::new(*game);
    match open(game, slot, depth, table, &mut node) {
        Some(n) => n,
        None => close(&node, depth, table),
    }
}

/// [`perft_tabled`] without looking up or storing `game` itself: its children are
/// looked up as [`perft_tabled`] looks them up. For a caller that decided, as a
/// parent decides ([`deserves_an_entry`]), that `game` is not worth a probe (a
/// distributed count that routes positions between processes, one ply at a time).
pub fn perft_tabled_below<G: PerftKey, T: PerftTable>(game: &G, depth: u32, mut table: T) -> u64 {
    let bits = G::perft_key_bits(game.rules());
    if bits == 0 || depth <= MIN_TABLE_DEPTH {
        return perft(game, depth);
    }
    check_key_bits(&table, bits);
    open_and_close(game, None, depth, &mut table)
}

/// Perft of `game` with at most [`MIN_TABLE_DEPTH`] plies to go, whose place in the
/// table is `slot` (none without a key): looked up at [`MIN_TABLE_DEPTH`], its
/// children counted without the table.
fn tabled<G: PerftKey, T: PerftTable>(
    game: &G,
    slot: Option<Slot>,
    depth: u32,
    table: &mut T,
) -> u64 {
    if depth < MIN_TABLE_DEPTH {
        return perft(game, depth);
    }
    if let Some(s) = slot {
        if let Some(n) = table.probe(s, depth) {
            return n;
        }
    }
    let total = perft(game, depth);
    if let Some(s) = slot {
        table.store(s, depth, total);
    }
    total
}

/// A node above the last table depth that its probe did not answer: its moves, and
/// the slots of its first [`SLOT_CHUNK`] children, whose buckets were asked for.
/// Filled in place by [`open`]: a node is 1,248 bytes for draughts, and moving one
/// out of a call (1.7 KiB before `Option<Slot>` took 16 bytes) cost more than the
/// latency it hides.
struct Open<G: Game> {
    game: G,
    slot: Option<Slot>,
    moves: G::MoveList,
    slots: [Option<Slot>; SLOT_CHUNK],
}

impl<G: PerftKey> Open<G> {
    /// Room for a node, holding `game` until [`open`] fills it.
    fn new(game: G) -> Self {
        Open {
            game,
            slot: None,
            moves: G::MoveList::default(),
            slots: [None; SLOT_CHUNK],
        }
    }

    /// The slots of the children of chunk `c` of the node's moves (`chunk`): the
    /// node's own for the first, else made in `later` and their buckets asked for.
    #[inline]
    fn chunk_slots<'a, T: PerftTable>(
        &'a self,
        c: usize,
        chunk: &[G::Move],
        later: &'a mut Option<[Option<Slot>; SLOT_CHUNK]>,
        depth: u32,
        table: &T,
    ) -> &'a [Option<Slot>; SLOT_CHUNK] {
        if c == 0 {
            return &self.slots;
        }
        let later = later.get_or_insert([None; SLOT_CHUNK]);
        make_slots(&self.game, chunk, later, depth, table);
        later
    }
}

/// Probes `game` (`depth` > [`MIN_TABLE_DEPTH`] plies to go): its count if the table
/// has it, else `None` with the node opened into `node` — its moves generated, its
/// first children's slots made and their buckets asked for, so that their trips to
/// memory run while the caller does other work before [`close`].
#[inline]
fn open<G: PerftKey, T: PerftTable>(
    game: &G,
    slot: Option<Slot>,
    depth: u32,
    table: &mut T,
    node: &mut Open<G>,
) -> Option<u64> {
    if let Some(s) = slot {
        if let Some(n) = table.probe(s, depth) {
            return Some(n);
        }
    }
    node.game = *game;
    node.slot = slot;
    game.generate_moves(&mut node.moves);
    make_slots(game, &node.moves, &mut node.slots, depth, table);
    None
}

/// Makes the slots of the children that `moves` lead to from `game` (`depth` plies
/// to go) and then asks for their buckets. The slots are all made first and the
/// prefetches then issued back to back: a prefetch that misses the TLB holds up
/// retirement until its page walk ends, and with a child's key and move count
/// between two prefetches the walks ran one after another (7-9% more time on perft
/// 16, one thread; docs/log/2026-11-27-deep-perft.md).
#[inline]
fn make_slots<G: PerftKey, T: PerftTable>(
    game: &G,
    moves: &[G::Move],
    slots: &mut [Option<Slot>; SLOT_CHUNK],
    depth: u32,
    table: &T,
) {
    for (place, &mv) in slots.iter_mut().zip(moves) {
        let child = game.play_unchecked(mv);
        *place = child
            .perft_key()
            .filter(|_| deserves_an_entry(&child, depth - 1))
            .map(|k| table.slot(k));
    }
    for s in slots[..moves.len().min(SLOT_CHUNK)].iter().flatten() {
        table.prefetch(*s);
    }
}

/// Counts an [`open`]ed node's children and stores the total. Where the children
/// are themselves above the last table depth, each child is opened before the one
/// before it is closed: the grandchildren's buckets are on their way while an older
/// sibling's subtree is counted, instead of being waited for at once.
fn close<G: PerftKey, T: PerftTable>(node: &Open<G>, depth: u32, table: &mut T) -> u64 {
    let game = &node.game;
    let mut total = 0;
    let mut later = None;
    if depth - 1 == MIN_TABLE_DEPTH {
        for (c, chunk) in node.moves.chunks(SLOT_CHUNK).enumerate() {
            let slots = node.chunk_slots(c, chunk, &mut later, depth, table);
            for (&s, &mv) in slots.iter().zip(chunk) {
                total += tabled(&game.play_unchecked(mv), s, depth - 1, table);
            }
        }
    } else {
        // Two rooms: the child being opened, and the older one still open.
        let mut rooms = [Open::new(*game), Open::new(*game)];
        let mut waiting: Option<usize> = None;
        let mut next = 0;
        for (c, chunk) in node.moves.chunks(SLOT_CHUNK).enumerate() {
            let slots = node.chunk_slots(c, chunk, &mut later, depth, table);
            for (&s, &mv) in slots.iter().zip(chunk) {
                let child = game.play_unchecked(mv);
                if let Some(n) = open(&child, s, depth - 1, table, &mut rooms[next]) {
                    total += n;
                    continue;
                }
                if let Some(older) = waiting.replace(next) {
                    total += close(&rooms[older], depth - 1, table);
                }
                next ^= 1;
            }
        }
        if let Some(older) = waiting {
            total += close(&rooms[older], depth - 1, table);
        }
    }
    if let Some(s) = node.slot {
        table.store(s, depth, total);
    }
    total
}

/// True if the count of `game`, `depth` ≥ [`MIN_TABLE_DEPTH`] plies deep, is worth
/// a probe and a store. A position with one move (or none) is not: its count is
/// its only child's, which the table holds if it is worth holding. Nor, at
/// [`MIN_TABLE_DEPTH`], is one with at most [`FEW_MOVES`] moves. In draughts,
/// where a capture is compulsory, this leaves out two fifths of the probes of
/// perft 16 from the start.
#[inline]
pub fn deserves_an_entry<G: Game>(game: &G, depth: u32) -> bool {
    let few = if depth == MIN_TABLE_DEPTH {
        FEW_MOVES
    } else {
        1
    };
    game.count_moves() > few
}

/// A bijection of the `bits`-bit integers (`bits` ≥ 1): xor-shifts and odd
/// multipliers modulo `2^bits`, each invertible, so different keys stay different
/// while every bit of the key reaches the low bits that pick a bucket.
#[inline]
pub fn mix(key: u128, bits: u32) -> u128 {
    const M1: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835;
    const M2: u128 = 0xbf58_476d_1ce4_e5b9_94d0_49bb_1331_11eb;
    let mask = if bits >= 128 {
        u128::MAX
    } else {
        (1 << bits) - 1
    };
    let s = bits.div_ceil(2);
    let mut x = key & mask;
    x ^= x >> s;
    x = x.wrapping_mul(M1) & mask;
    x ^= x >> s;
    x = x.wrapping_mul(M2) & mask;
    x ^= x >> s;
    x
}

/// Where and how a table of `2^index_bits` buckets keeps a key of `key_bits` bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    key_bits: u32,
    index_bits: u32,
    tag_bits: u32,
    count_bits: u32,
}

impl Layout {
    /// The layout of a table of `buckets` buckets (rounded down to a power of two;
    /// 0 is a table that stores nothing) for keys of `key_bits` bits.
    ///
    /// # Panics
    /// If `key_bits` is 0 or above [`MAX_KEY_BITS`].
    pub const fn new(key_bits: u32, buckets: usize) -> Layout {
        assert!(key_bits >= 1 && key_bits <= MAX_KEY_BITS);
        let index_bits = if buckets == 0 {
            0
        } else {
            usize::BITS - 1 - buckets.leading_zeros()
        };
        // A table with more buckets than keys uses only the first 2^key_bits.
        let used = if index_bits < key_bits {
            index_bits
        } else {
            key_bits
        };
        let tag_bits = key_bits - used;
        let count_bits = ENTRY_BITS - DEPTH_BITS - tag_bits;
        Layout {
            key_bits,
            index_bits: used,
            tag_bits,
            count_bits: if count_bits > 64 { 64 } else { count_bits },
        }
    }

    /// The key width.
    pub const fn key_bits(&self) -> u32 {
        self.key_bits
    }

    /// Buckets in use: `2^index_bits`.
    pub const fn buckets(&self) -> usize {
        1 << self.index_bits
    }

    /// Bits of an entry's count field: counts below `2^count_bits` are stored.
    pub const fn count_bits(&self) -> u32 {
        self.count_bits
    }

    /// True if the count of a subtree `depth` plies deep can be stored.
    #[inline]
    pub const fn storable(&self, depth: u32, count: u64) -> bool {
        depth >= 1
            && depth <= MAX_TABLE_DEPTH
            && (self.count_bits >= 64 || count < 1 << self.count_bits)
    }

    /// The slot of `key` in a table of this layout.
    #[inline]
    pub fn slot(&self, key: u128) -> Slot {
        Slot::new(mix(key, self.key_bits))
    }

    /// The bucket of `slot` and the tag stored with it.
    #[inline]
    pub fn split(&self, slot: Slot) -> (usize, u128) {
        let mixed = slot.mixed();
        let bucket = (mixed & ((1u128 << self.index_bits) - 1)) as usize;
        (bucket, mixed >> self.index_bits)
    }

    /// The count stored in `words` (a bucket) for `tag` at `depth`, if any.
    #[inline]
    pub fn find(&self, words: &[u64; 8], tag: u128, depth: u32) -> Option<u64> {
        let want = (tag << (DEPTH_BITS + self.count_bits)) | u128::from(depth);
        let mask = !(((1u128 << self.count_bits) - 1) << DEPTH_BITS) & ENTRY_MASK;
        (0..BUCKET_ENTRIES)
            .map(|i| entry(words, i))
            .find(|&e| e & mask == want)
            .map(|e| ((e >> DEPTH_BITS) & ((1u128 << self.count_bits) - 1)) as u64)
    }

    /// Entries of `words` (a bucket) in use.
    pub fn entries_used(&self, words: &[u64; 8]) -> usize {
        (0..BUCKET_ENTRIES)
            .filter(|&i| entry(words, i) != 0)
            .count()
    }

    /// Writes the count of `tag` at `depth` into `words` (a bucket), over an empty
    /// entry, else over the one of the smallest depth (then the smallest count);
    /// nothing changes if the bucket holds this entry already. The caller checks
    /// [`Layout::storable`].
    #[inline]
    pub fn insert(&self, words: &mut [u64; 8], tag: u128, depth: u32, count: u64) {
        let new = (tag << (DEPTH_BITS + self.count_bits))
            | (u128::from(count) << DEPTH_BITS)
            | u128::from(depth);
        let depth_mask = (1u128 << DEPTH_BITS) - 1;
        let mut victim = 0;
        let mut worst = u128::MAX;
        for i in 0..BUCKET_ENTRIES {
            let e = entry(words, i);
            if e == new {
                return;
            }
            // Empty entries (all zero) rank first, then by depth, then by count.
            let d = e & depth_mask;
            let rank = if e == 0 {
                0
            } else {
                (d << 66) | (((e >> DEPTH_BITS) & ((1u128 << self.count_bits) - 1)) + 1)
            };
            if rank < worst {
                worst = rank;
                victim = i;
            }
        }
        set_entry(words, victim, new);
    }
}

/// Entry `i` of a bucket: bits `32 + 120 i` to `152 + 120 i` of its 512 bits.
#[inline]
fn entry(words: &[u64; 8], i: usize) -> u128 {
    let off = 32 + ENTRY_BITS as usize * i;
    let (w, s) = (off / 64, (off % 64) as u32);
    let mut v = (u128::from(words[w]) | u128::from(words[w + 1]) << 64) >> s;
    if s > 128 - ENTRY_BITS {
        v |= u128::from(words[w + 2]) << (128 - s);
    }
    v & ENTRY_MASK
}

/// Sets entry `i` of a bucket (see [`entry`]).
#[inline]
fn set_entry(words: &mut [u64; 8], i: usize, e: u128) {
    let off = 32 + ENTRY_BITS as usize * i;
    let (w, s) = (off / 64, (off % 64) as u32);
    let mask = ENTRY_MASK << s;
    let pair = u128::from(words[w]) | u128::from(words[w + 1]) << 64;
    let pair = (pair & !mask) | ((e << s) & mask);
    words[w] = pair as u64;
    words[w + 1] = (pair >> 64) as u64;
    if s > 128 - ENTRY_BITS {
        let high = s - (128 - ENTRY_BITS);
        let m = (1u64 << high) - 1;
        words[w + 2] = (words[w + 2] & !m) | ((e >> (128 - s)) as u64 & m);
    }
}

/// One bucket: a cache line of eight words (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(C, align(64))]
pub struct PerftBucket(pub [u64; 8]);

impl PerftBucket {
    /// An empty bucket: use it to initialise the caller's array.
    pub const EMPTY: Self = PerftBucket([0; 8]);
}

/// A perft table over caller-provided buckets: `S` is any owner of a slice of
/// buckets — `&mut [PerftBucket]` (a `static` array, borrowed memory) in the core, a
/// `Vec` on the host. The largest power of two of them are used; none is a table
/// that stores nothing.
#[derive(Debug)]
pub struct BucketTable<S> {
    buckets: S,
    layout: Layout,
}

impl<S: AsRef<[PerftBucket]> + AsMut<[PerftBucket]>> BucketTable<S> {
    /// A table over `buckets` (cleared) for keys of `key_bits` bits (a game's
    /// [`PerftKey::perft_key_bits`]).
    ///
    /// # Panics
    /// If `key_bits` is 0 or above [`MAX_KEY_BITS`].
    pub fn new(buckets: S, key_bits: u32) -> Self {
        let n = buckets.as_ref().len();
        let mut t = BucketTable {
            buckets,
            layout: Layout::new(key_bits, n),
        };
        t.clear();
        t
    }

    /// Empties every bucket.
    pub fn clear(&mut self) {
        for b in self.buckets.as_mut().iter_mut() {
            *b = PerftBucket::EMPTY;
        }
    }

    /// The layout of the entries.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Entries the table holds (0 over no buckets).
    pub fn capacity(&self) -> usize {
        if self.buckets.as_ref().is_empty() {
            0
        } else {
            self.layout.buckets() * BUCKET_ENTRIES
        }
    }
}

impl<S: AsRef<[PerftBucket]> + AsMut<[PerftBucket]>> PerftTable for BucketTable<S> {
    fn key_bits(&self) -> u32 {
        self.layout.key_bits()
    }

    #[inline]
    fn slot(&self, key: u128) -> Slot {
        self.layout.slot(key)
    }

    #[inline]
    fn probe(&mut self, slot: Slot, depth: u32) -> Option<u64> {
        let buckets = self.buckets.as_ref();
        if buckets.is_empty() {
            return None;
        }
        let (i, tag) = self.layout.split(slot);
        self.layout.find(&buckets[i].0, tag, depth)
    }

    #[inline]
    fn store(&mut self, slot: Slot, depth: u32, count: u64) {
        if self.buckets.as_ref().is_empty() || !self.layout.storable(depth, count) {
            return;
        }
        let (i, tag) = self.layout.split(slot);
        let layout = self.layout;
        layout.insert(&mut self.buckets.as_mut()[i].0, tag, depth, count);
    }
}

#[cfg(test)]
mod tests;
