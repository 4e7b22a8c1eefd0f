//! Lazy SMP: every thread runs the same iterative-deepening principal-variation
//! search from the root, sharing nothing but one lock-free transposition table. The
//! threads drift apart (helpers try the root moves in a rotated order, and timing does
//! the rest), and what one thread stores saves the others work. The first thread to
//! complete the requested depth stops the rest and gives the answer.
//!
//! The table ([`SharedTable`]) holds two atomic words per slot, `key ^ data` and
//! `data`, written and read without locks (Hyatt's lockless hashing): a slot torn by
//! two threads writing at once fails the check `check ^ data == key` and is ignored,
//! so no thread ever uses a value stored for another position.
//!
//! Cutoffs from the table are taken only for entries searched to exactly the depth
//! needed (as `EngineConfig::exact` does in the core engine), and fail-soft bounds
//! stay valid bounds under any move order, so the value at a fixed depth is exactly
//! that of sequential alpha-beta.

use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use ply_core::search::engine::{history_slot, HISTORY_SLOTS};
use ply_core::search::tt::{from_tt, to_tt};
use ply_core::search::{Bound, Evaluator, Score, INFINITY, MAX_PLY};
use ply_core::Game;

use super::{leaf, pool, ParallelError, ParallelResult};

/// One slot: `check` is `key ^ data`, so a torn slot is detected.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// What a probe of the [`SharedTable`] finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The stored score, win distances made relative to the probing node.
    pub value: Score,
    /// The depth it was searched to.
    pub depth: u8,
    /// What kind of bound `value` is (never [`Bound::Empty`]).
    pub bound: Bound,
    /// The index of the best move in the position's generation order, if known.
    pub move_index: Option<usize>,
}

/// Move indices at or above this are not stored (14 bits, 0 meaning none).
const MOVE_LIMIT: usize = (1 << 14) - 1;

/// A transposition table shared by threads without locks: each slot is two atomic
/// words, `key ^ data` and `data`, so a read verifies that both words belong to the
/// same write. Moves are stored as their index in the generation order.
pub struct SharedTable {
    slots: Box<[Slot]>,
}

impl SharedTable {
    /// A table of `slots` empty slots (0 gives a table that stores nothing),
    /// cleared by the threads of the current rayon pool together.
    pub fn new(slots: usize) -> Self {
        use rayon::prelude::*;
        SharedTable {
            slots: (0..slots)
                .into_par_iter()
                .with_min_len(1 << 14)
                .map(|_| Slot::default())
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        }
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// The verified entry for `key`, its score made relative to a node `ply` plies
    /// from the root; `None` if the slot is empty, holds another position or was
    /// torn by a concurrent write.
    #[inline]
    pub fn probe(&self, key: u64, ply: u32) -> Option<Probe> {
        if self.slots.is_empty() {
            return None;
        }
        let slot = &self.slots[self.index(key)];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        let bound = match (data >> 40) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let mv = ((data >> 42) & 0x3fff) as usize;
        Some(Probe {
            value: from_tt(data as u32 as i32, ply),
            depth: (data >> 32) as u8,
            bound,
            move_index: mv.checked_sub(1),
        })
    }

    /// Stores a result for `key` at a node `ply` plies from the root. A slot holding
    /// the same position searched deeper is kept; anything else is replaced.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: u32,
        depth: u32,
        value: Score,
        bound: Bound,
        move_index: Option<usize>,
    ) {
        if self.slots.is_empty() {
            return;
        }
        let slot = &self.slots[self.index(key)];
        let depth = depth.min(u32::from(u8::MAX));
        let old = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old;
        if old_key == key && (old >> 40) & 3 != 0 && u32::from((old >> 32) as u8) > depth {
            return;
        }
        let bound_bits: u64 = match bound {
            Bound::Empty => return,
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let mv = match move_index {
            Some(i) if i < MOVE_LIMIT => (i + 1) as u64,
            _ => 0,
        };
        let data = u64::from(to_tt(value, ply) as u32)
            | u64::from(depth) << 32
            | bound_bits << 40
            | mv << 42;
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    #[cfg(test)]
    fn write_raw(&self, index: usize, check: u64, data: u64) {
        self.slots[index].check.store(check, Ordering::Relaxed);
        self.slots[index].data.store(data, Ordering::Relaxed);
    }
}

/// ABDADA defers moves at nodes with at least this many plies left.
const ABDADA_MIN_DEPTH: u32 = 3;

/// Slots of the ABDADA table of positions being searched.
const BUSY_SLOTS: usize = 1 << 15;

/// Positions some thread is searching right now (simplified ABDADA): one key per
/// slot, set on entry and cleared on exit. A collision only changes move order.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl BusyTable {
    /// An empty table of `slots` slots (at least one).
    pub fn new(slots: usize) -> Self {
        BusyTable {
            slots: (0..slots.max(1)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(ply_core::zobrist::mix64(key) % self.slots.len() as u64) as usize]
    }

    /// True if a thread has entered `key` and not left it.
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` as being searched.
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `key` (unless another key took the slot since).
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Searches `game` to `depth` plies with Lazy SMP on `threads` threads over a shared
/// table of `table_slots` slots.
pub fn search<G, E>(
    game: &G,
    depth: u32,
    eval: &E,
    threads: usize,
    table_slots: usize,
) -> Result<ParallelResult<G::Move>, ParallelError>
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
{
    run(game, depth, eval, threads, table_slots, false)
}

/// Searches `game` to `depth` plies with ABDADA (in its simplified form): Lazy SMP
/// whose threads, at nodes with a few plies left, put off the moves another thread
/// is searching and take them up last, so the threads spread over the tree instead
/// of following each other.
pub fn search_abdada<G, E>(
    game: &G,
    depth: u32,
    eval: &E,
    threads: usize,
    table_slots: usize,
) -> Result<ParallelResult<G::Move>, ParallelError>
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
{
    run(game, depth, eval, threads, table_slots, true)
}

fn run<G, E>(
    game: &G,
    depth: u32,
    eval: &E,
    threads: usize,
    table_slots: usize,
    abdada: bool,
) -> Result<ParallelResult<G::Move>, ParallelError>
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
{
    let pool = pool(threads)?;
    let moves: Vec<G::Move> = game.legal_moves().to_vec();
    if depth == 0 || moves.is_empty() {
        return Ok(ParallelResult {
            value: leaf(game, 0, eval),
            best_move: None,
            nodes: 1,
        });
    }
    let depth = depth.min(MAX_PLY as u32 - 1);
    let table = pool.install(|| SharedTable::new(table_slots));
    let busy = abdada.then(|| BusyTable::new(BUSY_SLOTS));
    let stop = AtomicBool::new(false);
    let answer: Mutex<Option<(Score, usize)>> = Mutex::new(None);
    let nodes = AtomicU64::new(0);
    pool.broadcast(|ctx| {
        let mut worker = Worker::<G, E>::new(&table, busy.as_ref(), eval, &stop, ctx.index());
        if let Some(found) = worker.iterate(game, depth) {
            let mut a = answer.lock().unwrap_or_else(|e| e.into_inner());
            if a.is_none() {
                *a = Some(found);
            }
            stop.store(true, Ordering::Relaxed);
        }
        nodes.fetch_add(worker.nodes, Ordering::Relaxed);
    });
    let (value, best) = answer
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .expect("the first thread to finish always records its answer");
    Ok(ParallelResult {
        value,
        best_move: Some(moves[best]),
        nodes: nodes.into_inner(),
    })
}

/// One searching thread: its own killers, history and ordering buffers.
struct Worker<'a, G: Game, E> {
    table: &'a SharedTable,
    eval: &'a E,
    stop: &'a AtomicBool,
    id: usize,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<[u32; HISTORY_SLOTS]>,
    buffers: Vec<Vec<(Reverse<i64>, u16)>>,
    deferred: Vec<Vec<usize>>,
    busy: Option<&'a BusyTable>,
    nodes: u64,
    aborted: bool,
}

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    fn new(
        table: &'a SharedTable,
        busy: Option<&'a BusyTable>,
        eval: &'a E,
        stop: &'a AtomicBool,
        id: usize,
    ) -> Self {
        Worker {
            busy,
            deferred: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            table,
            eval,
            stop,
            id,
            killers: vec![[None; 2]; MAX_PLY],
            history: vec![[0; HISTORY_SLOTS]; 2],
            buffers: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            aborted: false,
        }
    }

    /// Iterative deepening to `depth`; the value and best move index of the last
    /// iteration, or `None` if another thread finished first.
    fn iterate(&mut self, game: &G, depth: u32) -> Option<(Score, usize)> {
        let mut result = None;
        for d in 1..=depth {
            let r = self.root(game, d);
            if self.aborted {
                return None;
            }
            result = Some(r);
        }
        result
    }

    /// One root iteration: principal variation search over the ordered root moves.
    fn root(&mut self, game: &G, depth: u32) -> (Score, usize) {
        self.nodes += 1;
        let moves = game.legal_moves();
        let key = game.search_key();
        let tt_move = self.table.probe(key, 0).and_then(|e| e.move_index);
        let mut order = std::mem::take(&mut self.buffers[0]);
        self.order(game, &moves, tt_move, 0, &mut order);
        if self.id > 0 && order.len() > 2 {
            // Helpers start the young brothers at different moves, so they fill
            // the table with different subtrees.
            let shift = self.id % (order.len() - 1);
            order[1..].rotate_left(shift);
        }
        let mut alpha = -INFINITY;
        let mut best = order[0].1 as usize;
        for (i, &(_, idx)) in order.iter().enumerate() {
            let idx = idx as usize;
            let child = game.play_unchecked(moves[idx]);
            let v = if i == 0 {
                self.child(game, &child, depth - 1, 1, alpha, INFINITY)
            } else {
                let v = self.child(game, &child, depth - 1, 1, alpha, alpha + 1);
                if v > alpha && !self.aborted {
                    self.child(game, &child, depth - 1, 1, alpha, INFINITY)
                } else {
                    v
                }
            };
            if self.aborted {
                break;
            }
            if v > alpha {
                alpha = v;
                best = idx;
            }
        }
        self.buffers[0] = order;
        if !self.aborted {
            self.table
                .store(key, 0, depth, alpha, Bound::Exact, Some(best));
        }
        (alpha, best)
    }

    #[inline]
    fn child(
        &mut self,
        parent: &G,
        child: &G,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
    ) -> Score {
        if parent.side_to_move() == child.side_to_move() {
            self.node(child, depth, ply, alpha, beta)
        } else {
            -self.node(child, depth, ply, -beta, -alpha)
        }
    }

    fn node(&mut self, game: &G, depth: u32, ply: u32, mut alpha: Score, beta: Score) -> Score {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if depth == 0 || ply as usize >= MAX_PLY - 1 {
            return leaf(game, ply, self.eval);
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            return leaf(game, ply, self.eval);
        }
        let key = game.search_key();
        let mut tt_move = None;
        if let Some(e) = self.table.probe(key, ply) {
            tt_move = e.move_index.filter(|&i| i < moves.len());
            if u32::from(e.depth) == depth {
                match e.bound {
                    Bound::Exact => return e.value,
                    Bound::Lower if e.value >= beta => return e.value,
                    Bound::Upper if e.value <= alpha => return e.value,
                    _ => {}
                }
            }
        }
        let p = ply as usize;
        let mut order = std::mem::take(&mut self.buffers[p]);
        self.order(game, &moves, tt_move, p, &mut order);
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_idx = None;
        let mut deferred = std::mem::take(&mut self.deferred[p]);
        deferred.clear();
        let defer = self.busy.is_some() && depth >= ABDADA_MIN_DEPTH;
        let mut searched = 0;
        let mut i = 0;
        loop {
            // The ordered moves, then (ABDADA) those deferred because another
            // thread was searching them.
            let (idx, second_pass) = if i < order.len() {
                (order[i].1 as usize, false)
            } else if i - order.len() < deferred.len() {
                (deferred[i - order.len()], true)
            } else {
                break;
            };
            i += 1;
            let mv = moves[idx];
            let child = game.play_unchecked(mv);
            let busy_key = if defer && searched > 0 {
                let busy = self.busy.expect("defer implies a busy table");
                let k = child.search_key();
                if !second_pass && busy.is_busy(k) {
                    deferred.push(idx);
                    continue;
                }
                busy.enter(k);
                Some(k)
            } else {
                None
            };
            let v = if searched == 0 {
                self.child(game, &child, depth - 1, ply + 1, alpha, beta)
            } else {
                let v = self.child(game, &child, depth - 1, ply + 1, alpha, alpha + 1);
                if v > alpha && v < beta && !self.aborted {
                    self.child(game, &child, depth - 1, ply + 1, alpha, beta)
                } else {
                    v
                }
            };
            if let (Some(k), Some(busy)) = (busy_key, self.busy) {
                busy.leave(k);
            }
            searched += 1;
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_idx = Some(idx);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.reward(game, mv, depth, p);
                        break;
                    }
                }
            }
        }
        self.deferred[p] = deferred;
        self.buffers[p] = order;
        if self.aborted {
            return 0;
        }
        let bound = if best <= alpha_orig {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(key, ply, depth, best, bound, best_idx);
        best
    }

    /// A cutoff move becomes a killer at its ply and gains history.
    fn reward(&mut self, game: &G, mv: G::Move, depth: u32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let slot = &mut self.history[game.side_to_move().index()][history_slot(&mv)];
        *slot = slot.saturating_add(depth * depth).min(1 << 20);
    }

    /// Fills `order` with the move indices, best first: the table's move, then the
    /// game's hint, killers and history; ties keep generation order.
    fn order(
        &self,
        game: &G,
        moves: &[G::Move],
        tt_move: Option<usize>,
        ply: usize,
        order: &mut Vec<(Reverse<i64>, u16)>,
    ) {
        order.clear();
        let killers = self.killers[ply];
        let history = &self.history[game.side_to_move().index()];
        for (i, &m) in moves.iter().enumerate() {
            let key = if Some(i) == tt_move {
                i64::MAX
            } else {
                let hint = i64::from(game.move_order_hint(m));
                let killer = if killers[0] == Some(m) {
                    2
                } else if killers[1] == Some(m) {
                    1
                } else {
                    0
                };
                (hint << 32) | (killer << 24) | i64::from(history[history_slot(&m)])
            };
            order.push((Reverse(key), i as u16));
        }
        order.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::search::WIN;

    #[test]
    fn store_and_probe_round_trip() {
        let t = SharedTable::new(64);
        t.store(0xdead_beef, 3, 7, -1234, Bound::Lower, Some(300));
        let e = t.probe(0xdead_beef, 3).unwrap();
        assert_eq!(
            e,
            Probe {
                value: -1234,
                depth: 7,
                bound: Bound::Lower,
                move_index: Some(300)
            }
        );
        assert!(t.probe(0xdead_bef0, 3).is_none());
        // A win stored two plies deep is a win two plies sooner one ply higher.
        t.store(42, 2, 1, WIN - 5, Bound::Exact, None);
        assert_eq!(t.probe(42, 1).unwrap().value, WIN - 4);
        assert_eq!(t.probe(42, 1).unwrap().move_index, None);
    }

    #[test]
    fn deeper_entry_of_same_position_is_kept() {
        let t = SharedTable::new(1);
        t.store(9, 0, 6, 10, Bound::Exact, None);
        t.store(9, 0, 4, 20, Bound::Exact, None);
        assert_eq!(t.probe(9, 0).unwrap().value, 10);
        t.store(10, 0, 1, 30, Bound::Upper, None);
        assert_eq!(t.probe(10, 0).unwrap().value, 30);
        assert!(t.probe(9, 0).is_none());
    }

    #[test]
    fn torn_slot_is_rejected() {
        let t = SharedTable::new(1);
        t.store(77, 0, 5, 11, Bound::Exact, Some(2));
        let good = t.slots[0].data.load(Ordering::Relaxed);
        // The data word of another write paired with this key's check word.
        let other = good ^ (1 << 3);
        t.write_raw(0, 77 ^ good, other);
        assert!(t.probe(77, 0).is_none());
        t.write_raw(0, 77 ^ good, good);
        assert_eq!(t.probe(77, 0).unwrap().value, 11);
    }

    #[test]
    fn busy_table_marks_and_clears() {
        let b = BusyTable::new(1);
        assert!(!b.is_busy(5));
        b.enter(5);
        assert!(b.is_busy(5));
        // Another position takes the only slot; leaving 5 must not clear it.
        b.enter(6);
        b.leave(5);
        assert!(b.is_busy(6) && !b.is_busy(5));
        b.leave(6);
        assert!(!b.is_busy(6));
    }

    #[test]
    fn empty_table_stores_nothing() {
        let t = SharedTable::new(0);
        t.store(1, 0, 1, 1, Bound::Exact, None);
        assert!(t.probe(1, 0).is_none());
    }

    #[test]
    fn concurrent_writers_never_yield_a_foreign_entry() {
        // Eight threads hammer four slots with entries whose value is derived from
        // their key; every verified read must carry its own key's value.
        let t = SharedTable::new(4);
        let bad = AtomicU64::new(0);
        std::thread::scope(|s| {
            for th in 0..8u64 {
                let (t, bad) = (&t, &bad);
                s.spawn(move || {
                    let mut x = th.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let key = x % 64 + 1;
                        let value = (key * 1000) as Score;
                        t.store(
                            key,
                            0,
                            (key % 7) as u32,
                            value,
                            Bound::Exact,
                            Some(key as usize),
                        );
                        let probe_key = (x >> 20) % 64 + 1;
                        if let Some(e) = t.probe(probe_key, 0) {
                            if e.value != (probe_key * 1000) as Score
                                || e.move_index != Some(probe_key as usize)
                                || u64::from(e.depth) != probe_key % 7
                            {
                                bad.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                });
            }
        });
        assert_eq!(bad.into_inner(), 0);
    }
}
