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
//! for messages, then sleeps [`POLL`]. Rank 0 gives up on a rank that has sent nothing
//! for `--rank-timeout` seconds (every rank says it is alive every [`ALIVE_EVERY`]).

use std::collections::hash_map::{Entry, HashMap};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ply_core::perft::PerftKey;

use super::codec::{fnv1a, Message};
use super::coordinator::{
    fingerprint, install_hook, saved_count, start_results, Saver, ALIVE_EVERY,
    DEFAULT_RANK_TIMEOUT, POLL,
};
use super::perft::{PerftJob, SubtreeCount};
use super::{Job, Options};
use crate::parallel::perft_table::Counted;
use crate::parallel::SharedPerftTable;
use crate::quote::quote;

/// The MPI tag of a batch of positions or counts.
pub const ROUTE_TAG: i32 = 20;

/// How messages reach the other ranks of a routed count.
pub trait Net {
    /// This rank.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// Sends a small control message ([`Message::Hello`], [`Message::Alive`],
    /// [`Message::Stop`]).
    fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String>;
    /// Starts sending `bytes` to `rank` under [`ROUTE_TAG`]; returns at once (the net
    /// keeps the bytes until they are delivered).
    fn post(&mut self, rank: usize, bytes: Vec<u8>) -> Result<(), String>;
    /// The next message from another rank as (rank, tag, bytes), if one has arrived;
    /// never waits.
    fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String>;
    /// Whether every posted message has left (frees the ones that have).
    fn flushed(&mut self) -> bool;
    /// Rank 0 gave up on a rank or failed after the count started: the run cannot
    /// end in the ordinary way (over MPI the job is aborted).
    fn give_up(&mut self) {}
}

/// How deep a routed count routes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Routing {
    /// Plies left below the last routed ply, at least: positions closer to the leaves
    /// are counted where they are (`--route-rest`, 1 to 30; default
    /// [`Routing::DEFAULT.rest`](Routing::DEFAULT)).
    pub rest: u32,
    /// The most positions of one ply on one rank for that ply to be routed further
    /// (`--route-nodes`, 1 to 2^30): bounds each rank's memory.
    pub level_nodes: usize,
    /// Items in a batch, per rank (`--route-batch`, 1 to 2^20).
    pub batch: usize,
}

impl Routing {
    /// The settings without the variables.
    pub const DEFAULT: Routing = Routing {
        rest: 4,
        level_nodes: 1 << 20,
        batch: 64,
    };

    /// The settings given (`--route-rest`, `--route-nodes`, `--route-batch`, or their
    /// variables `PLY_ROUTE_REST`, `PLY_ROUTE_NODES`, `PLY_ROUTE_BATCH`, checked by
    /// the command line), the defaults for those not given.
    pub fn new(rest: Option<u64>, level_nodes: Option<u64>, batch: Option<u64>) -> Routing {
        let d = Self::DEFAULT;
        Routing {
            rest: rest.map_or(d.rest, |r| r as u32),
            level_nodes: level_nodes.map_or(d.level_nodes, |n| n as usize),
            batch: batch.map_or(d.batch, |b| b as usize),
        }
    }

    fn text(&self) -> String {
        format!(
            "routed: rest {}, {} nodes, batch {}",
            self.rest, self.level_nodes, self.batch
        )
    }
}

/// The longest path routed below an item.
const MAX_PATH: usize = 16;

/// A position's moves from its item: indices into each position's legal moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Path([u16; MAX_PATH]);

/// A thread's last replayed path: the positions along it, so that the next path
/// replays only from where it leaves this one.
struct Replay<G> {
    item: Option<u32>,
    len: usize,
    path: Path,
    stack: Vec<G>,
}

impl<G: PerftKey> Replay<G> {
    fn new(any: &G) -> Self {
        Replay {
            item: None,
            len: 0,
            path: Path::default(),
            stack: vec![*any; MAX_PATH + 1],
        }
    }

    /// The position `len` moves down `path` from item `item` of `job`.
    fn at(
        &mut self,
        job: &PerftJob<'_, G>,
        item: u32,
        path: &Path,
        len: usize,
    ) -> Result<G, String> {
        let mut same = 0;
        if self.item == Some(item) {
            while same < len.min(self.len) && self.path.0[same] == path.0[same] {
                same += 1;
            }
        } else {
            self.stack[0] = job
                .frontier
                .get(item as usize)
                .ok_or_else(|| format!("no item {}", item))?
                .game;
        }
        self.item = Some(item);
        for j in same..len {
            let g = self.stack[j];
            let moves = g.legal_moves();
            let &mv = moves
                .get(usize::from(path.0[j]))
                .ok_or_else(|| format!("item {}: no move {} on its path", item, path.0[j]))?;
            self.stack[j + 1] = g.play_unchecked(mv);
        }
        self.path = *path;
        self.len = len;
        Ok(self.stack[len])
    }
}

/// A hasher for keys that are positions' perft keys (exact, well spread once
/// mixed): a multiply and a fold instead of SipHash.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u128(&mut self, k: u128) {
        let h =
            ((k as u64) ^ ((k >> 64) as u64).rotate_left(17)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }
}

type KeyMap = HashMap<u128, u32, std::hash::BuildHasherDefault<KeyHasher>>;

/// The rank that owns the position with `key` among `ranks` ranks (a hash unlike
/// the table's, so that every rank's table is used whole).
fn owner(key: u128, ranks: usize) -> usize {
    let x = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    let mut h = x.wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^= h >> 32;
    h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
    ((u128::from(h) * ranks as u128) >> 64) as usize
}

/// Why a rank's routed count ended early.
#[derive(Debug)]
enum Fault {
    /// Rank 0 said to stop (it reports why): this rank ends quietly.
    Stopped,
    /// An error, one line.
    Failed(String),
}

impl From<String> for Fault {
    fn from(e: String) -> Self {
        Fault::Failed(e)
    }
}

/// What a rank sent and counted.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    items: u64,
    busy_ns: u64,
    nodes: u64,
    /// Messages carrying positions, and the positions in them.
    position_messages: u64,
    positions: u64,
    /// Every message sent, and its bytes.
    messages: u64,
    bytes: u64,
    probes: u64,
    hits: u64,
}

impl Tally {
    fn words(&self) -> Vec<u64> {
        vec![
            self.items,
            self.busy_ns,
            self.nodes,
            self.position_messages,
            self.positions,
            self.messages,
            self.bytes,
            self.probes,
            self.hits,
        ]
    }
    fn from_words(w: &[u64]) -> Option<Tally> {
        match *w {
            [items, busy_ns, nodes, position_messages, positions, messages, bytes, probes, hits] => {
                Some(Tally {
                    items,
                    busy_ns,
                    nodes,
                    position_messages,
                    positions,
                    messages,
                    bytes,
                    probes,
                    hits,
                })
            }
            _ => None,
        }
    }
}

/// One rank's link to the others: rounds of one message to every other rank, the
/// messages that came early, who was heard from when, and the alive signal.
struct Link<'n, N: Net> {
    net: &'n mut N,
    me: usize,
    size: usize,
    round: u64,
    early: Vec<VecDeque<Vec<u8>>>,
    heard: Vec<Instant>,
    last_to_0: Instant,
    timeout: Duration,
    /// Rank 0: the ranks' hellos (fingerprint hash, host).
    hellos: Vec<Option<(u64, String)>>,
    /// Items of the batch under way on each rank (for rank 0's timeout line).
    held: Vec<usize>,
    /// Pauses in a row with nothing arrived.
    quiet: u32,
    tally: Tally,
}

impl<N: Net> Link<'_, N> {
    /// Reads every message that has arrived; says alive to rank 0; on rank 0, gives
    /// up on a rank silent for too long. Returns whether anything arrived.
    fn idle(&mut self) -> Result<bool, Fault> {
        let mut arrived = false;
        while let Some((from, tag, bytes)) = self.net.poll()? {
            arrived = true;
            if let Some(h) = self.heard.get_mut(from) {
                *h = Instant::now();
            }
            if tag == ROUTE_TAG {
                let q = self.early.get_mut(from).ok_or_else(|| {
                    format!("a message from rank {}, which is not in the run", from)
                })?;
                q.push_back(bytes);
                continue;
            }
            let msg =
                Message::decode(tag, &bytes).map_err(|e| format!("rank {} sent {}", from, e))?;
            match msg {
                Message::Alive => {}
                Message::Hello {
                    fingerprint, host, ..
                } if self.me == 0 && self.hellos[from].is_none() => {
                    self.hellos[from] = Some((fingerprint, host));
                }
                Message::Stop { abort: true } if from == 0 => return Err(Fault::Stopped),
                other => return Err(format!("rank {} sent {:?}", from, other).into()),
            }
        }
        if self.me != 0 && self.last_to_0.elapsed() >= ALIVE_EVERY {
            self.net.send(0, &Message::Alive)?;
            self.last_to_0 = Instant::now();
        }
        if self.me == 0 {
            if let Some(r) = (1..self.size).find(|&r| self.heard[r].elapsed() > self.timeout) {
                self.net.give_up();
                let secs = self.timeout.as_secs_f64();
                return Err(Fault::Failed(match &self.hellos[r] {
                    None => format!(
                        "rank {} has not said hello within {} s (--rank-timeout): it did not \
                         start, or it is stuck or cut off",
                        r, secs
                    ),
                    Some((_, host)) => format!(
                        "rank {} on {} has sent nothing for {} s while it held {} item{} \
                         (--rank-timeout): it is stopped, stuck or cut off",
                        r,
                        quote(host),
                        secs,
                        self.held[r],
                        if self.held[r] == 1 { "" } else { "s" }
                    ),
                }));
            }
        }
        self.net.flushed();
        Ok(arrived)
    }

    /// [`Link::idle`], then, when nothing arrived, a pause: [`POLL`], doubling while
    /// nothing arrives, up to [`LONGEST_PAUSE`] (ranks waiting for the slowest cost
    /// little CPU). The pause ends early when this thread is unparked (a counting
    /// thread that ends).
    fn wait(&mut self) -> Result<(), Fault> {
        if self.idle()? {
            self.quiet = 0;
        } else {
            let pause = (POLL * (1 << self.quiet.min(8))).min(LONGEST_PAUSE);
            self.quiet += 1;
            std::thread::park_timeout(pause);
        }
        Ok(())
    }

    /// One round: `out[r]` to every other rank `r` (each gets one message, empty or
    /// not), and what every rank sent this one in the same round (`out[me]` kept).
    fn exchange(&mut self, mut out: Vec<Vec<u64>>) -> Result<Vec<Vec<u64>>, Fault> {
        self.round += 1;
        for (r, words) in out.iter().enumerate() {
            if r == self.me {
                continue;
            }
            let mut body = Vec::with_capacity(8 * (words.len() + 2));
            body.extend_from_slice(&self.round.to_le_bytes());
            for w in words {
                body.extend_from_slice(&w.to_le_bytes());
            }
            let sum = checksum(&body);
            body.extend_from_slice(&sum.to_le_bytes());
            self.tally.messages += 1;
            self.tally.bytes += body.len() as u64;
            self.net.post(r, body)?;
            if r == 0 {
                self.last_to_0 = Instant::now();
            }
        }
        let mut got: Vec<Option<Vec<u64>>> = (0..self.size).map(|_| None).collect();
        got[self.me] = Some(std::mem::take(&mut out[self.me]));
        loop {
            for (s, slot) in got.iter_mut().enumerate() {
                if slot.is_some() {
                    continue;
                }
                if let Some(bytes) = self.early[s].pop_front() {
                    *slot = Some(
                        decode_round(&bytes, self.round)
                            .map_err(|e| format!("rank {} sent {}", s, e))?,
                    );
                }
            }
            if got.iter().all(Option::is_some) {
                return Ok(got.into_iter().map(Option::unwrap_or_default).collect());
            }
            self.wait()?;
        }
    }

    /// The largest of every rank's `n`.
    fn max(&mut self, n: u64) -> Result<u64, Fault> {
        let got = self.exchange(vec![vec![n]; self.size])?;
        Ok(got
            .iter()
            .filter_map(|w| w.first().copied())
            .max()
            .unwrap_or(n))
    }

    /// Waits until every posted message has left.
    fn flush(&mut self) -> Result<(), Fault> {
        while !self.net.flushed() {
            self.wait()?;
        }
        Ok(())
    }
}

/// The checksum of a routed message's body (whole words): its tag and words, a
/// word at a time (FNV-1a a byte at a time cost 3 % of a routed count).
fn checksum(body: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325 ^ ROUTE_TAG as u64;
    for c in body.chunks_exact(8) {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    h ^ body.len() as u64
}

/// The words of a routed message of round `round`.
fn decode_round(bytes: &[u8], round: u64) -> Result<Vec<u64>, String> {
    if bytes.len() < 16 || !bytes.len().is_multiple_of(8) {
        return Err(format!("a routed message of {} bytes", bytes.len()));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err("a routed message whose checksum does not match".into());
    }
    let mut words = body
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")));
    let r = words.next().unwrap_or(0);
    if r != round {
        return Err(format!("round {} while this rank is in round {}", r, round));
    }
    Ok(words.collect())
}

/// The positions of one routed ply of a batch, on the rank that owns them.
#[derive(Default)]
struct Level {
    key: Vec<Option<u128>>,
    item: Vec<u32>,
    path: Vec<Path>,
    /// The count: final, or (while `open`) the children counted so far.
    count: Vec<u64>,
    /// Expanded, its routed children's counts still to come.
    open: Vec<bool>,
    /// Worth a table entry ([`ply_core::perft::deserves_an_entry`]): looked up and
    /// stored; one that is not (a position with one move) is expanded at once.
    tabled: Vec<bool>,
    /// (position, rank of its parent, the parent's index there), one per path.
    edges: Vec<(u32, u32, u32)>,
    index: KeyMap,
}

/// The longest a waiting rank sleeps between two looks for messages.
const LONGEST_PAUSE: Duration = Duration::from_millis(2);

/// Wakes a thread when dropped.
struct Unpark(std::thread::Thread);

impl Drop for Unpark {
    fn drop(&mut self) {
        self.0.unpark();
    }
}

/// How many positions ahead a thread asks for a table bucket.
const PREFETCH_AHEAD: usize = 8;

impl Level {
    fn len(&self) -> usize {
        self.key.len()
    }

    /// Asks for the table bucket of position `i`, if it is looked up.
    fn prefetch(&self, i: usize, table: &SharedPerftTable) {
        if let (Some(k), true) = (self.key[i], self.tabled[i]) {
            table.prefetch(table.slot(k));
        }
    }

    /// Empties the level, keeping its memory for the next batch.
    fn clear(&mut self) {
        self.key.clear();
        self.item.clear();
        self.path.clear();
        self.count.clear();
        self.open.clear();
        self.tabled.clear();
        self.edges.clear();
        self.index.clear();
    }

    /// Adds a position reached from `parent` on rank `from`; a key seen before is
    /// the same position (returns false).
    fn add(
        &mut self,
        key: Option<u128>,
        tabled: bool,
        item: u32,
        path: Path,
        from: u32,
        parent: u32,
    ) -> bool {
        let fresh = match key {
            Some(k) => match self.index.entry(k) {
                Entry::Occupied(e) => {
                    self.edges.push((*e.get(), from, parent));
                    return false;
                }
                Entry::Vacant(e) => {
                    e.insert(self.key.len() as u32);
                    true
                }
            },
            None => true,
        };
        self.edges.push((self.key.len() as u32, from, parent));
        self.key.push(key);
        self.item.push(item);
        self.path.push(path);
        self.count.push(0);
        self.open.push(false);
        self.tabled.push(tabled);
        fresh
    }
}

/// What a thread made of one position of a routed ply.
enum Expanded {
    /// The table knew its count.
    Known(u64),
    /// Its children: those with a key to route (key, move index, worth a table
    /// entry), and the count of
    /// those without one.
    Open {
        children: Vec<(u128, u16, bool)>,
        local: u64,
        probes: u64,
        hits: u64,
    },
}

/// The routed count of a perft job on one rank.
struct Routed<'j, 't, G: PerftKey> {
    job: &'j PerftJob<'t, G>,
    table: &'t SharedPerftTable,
    routing: Routing,
    cancel: AtomicBool,
}

impl<G: PerftKey + Send + Sync> Routed<'_, '_, G> {
    /// `f` of every position of `level` (`len` plies below the items) on the job's
    /// threads, in the order of their paths (so that each thread replays only where a
    /// path leaves the one before), while this thread keeps the link alive; the
    /// results in the level's order, and the threads' busy time.
    fn compute<T: Send, N: Net>(
        &self,
        link: &mut Link<N>,
        level: &Level,
        len: usize,
        f: impl Fn(&G, usize) -> Result<T, String> + Sync,
    ) -> Result<(Vec<T>, u64), Fault> {
        let n = level.len();
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_unstable_by_key(|&i| (level.item[i as usize], level.path[i as usize].0));
        let next = AtomicUsize::new(0);
        let busy = AtomicUsize::new(0);
        let done: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::with_capacity(n));
        let failed: Mutex<Option<String>> = Mutex::new(None);
        let threads = self.job.threads.min(n.div_ceil(16)).max(1);
        let chunk = (n / (threads * 64)).clamp(1, 256);
        let outcome = std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    let main = std::thread::current();
                    let (next, busy, done, failed, order, f) =
                        (&next, &busy, &done, &failed, &order, &f);
                    s.spawn(move || {
                        // The waiting thread looks again when this one ends.
                        let _wake = Unpark(main);
                        let t = Instant::now();
                        let mut mine = Vec::new();
                        let mut replay = Replay::new(&self.job.frontier[0].game);
                        while !self.cancel.load(Ordering::Relaxed) {
                            let from = next.fetch_add(chunk, Ordering::Relaxed);
                            if from >= n {
                                break;
                            }
                            let these = &order[from..(from + chunk).min(n)];
                            for (k, &i) in these.iter().enumerate() {
                                // The table's bucket of a position a few ahead: a
                                // probe is a trip to memory.
                                if let Some(&j) = these.get(k + PREFETCH_AHEAD) {
                                    level.prefetch(j as usize, self.table);
                                }
                                let i = i as usize;
                                let r = replay
                                    .at(self.job, level.item[i], &level.path[i], len)
                                    .and_then(|g| f(&g, i));
                                match r {
                                    Ok(v) => mine.push((i, v)),
                                    Err(e) => {
                                        *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                                        self.cancel.store(true, Ordering::Relaxed);
                                    }
                                }
                            }
                        }
                        busy.fetch_add(t.elapsed().as_nanos() as usize, Ordering::Relaxed);
                        done.lock().unwrap_or_else(|e| e.into_inner()).extend(mine);
                    })
                })
                .collect();
            while !workers.iter().all(|w| w.is_finished()) {
                if let Err(e) = link.wait() {
                    self.cancel.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            Ok(())
        });
        outcome?;
        if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(Fault::Failed(e));
        }
        let done = done.into_inner().unwrap_or_else(|e| e.into_inner());
        if done.len() != n {
            return Err(Fault::Failed("a counting thread failed".into()));
        }
        let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
        for (i, v) in done {
            out[i] = Some(v);
        }
        Ok((
            out.into_iter().flatten().collect(),
            busy.load(Ordering::Relaxed) as u64,
        ))
    }

    /// Counts the items of `batch`; returns on every rank the (item, leaves) of the
    /// items it owns.
    fn batch<N: Net>(
        &self,
        link: &mut Link<N>,
        batch: &[usize],
        levels: &mut Vec<Level>,
    ) -> Result<Vec<(usize, u64)>, Fault> {
        let job = self.job;
        let (me, size) = (link.me, link.size);
        let split = job.split_ply;
        let item_owner = |i: usize| match job.frontier[i].game.perft_key() {
            Some(k) => owner(k, size),
            None => i % size,
        };
        link.held = vec![0; size];
        // The levels of the last batch, emptied: their memory serves again.
        for l in levels.iter_mut() {
            l.clear();
        }
        let mut used = 1;
        if levels.is_empty() {
            levels.push(Level::default());
        }
        for &i in batch {
            let o = item_owner(i);
            link.held[o] += 1;
            if o == me {
                let key = job.frontier[i].game.perft_key();
                levels[0].add(key, true, i as u32, Path::default(), 0, 0);
            }
        }
        // Down: route a ply while it is shallow enough and small enough.
        loop {
            let ply = split + used as u32 - 1;
            let len = (ply - split) as usize;
            let rem = job.depth - ply;
            let widest = link.max(levels[used - 1].len() as u64)?;
            let last = rem <= self.routing.rest
                || widest as usize > self.routing.level_nodes
                || len >= MAX_PATH;
            let level = &mut levels[used - 1];
            if last {
                let (counts, busy) = self.compute(link, level, len, |g, i| {
                    let mut c = Counted::new(self.table);
                    let n = if level.tabled[i] {
                        ply_core::perft::perft_tabled(g, rem, &mut c)
                    } else {
                        ply_core::perft::perft_tabled_below(g, rem, &mut c)
                    };
                    Ok((n, c.probes, c.hits))
                })?;
                link.tally.busy_ns += busy;
                for (i, (n, p, h)) in counts.into_iter().enumerate() {
                    level.count[i] = n;
                    link.tally.probes += p;
                    link.tally.hits += h;
                }
                break;
            }
            let (expanded, busy) = self.compute(link, level, len, |g, i| {
                if let (Some(k), true) = (level.key[i], level.tabled[i]) {
                    if let Some(n) = self.table.probe(self.table.slot(k), rem) {
                        return Ok(Expanded::Known(n));
                    }
                }
                let mut c = Counted::new(self.table);
                let mut children = Vec::new();
                let mut local = 0u64;
                for (m, &mv) in g.legal_moves().iter().enumerate() {
                    let child = g.play_unchecked(mv);
                    match child.perft_key() {
                        Some(k) => children.push((
                            k,
                            m as u16,
                            ply_core::perft::deserves_an_entry(&child, rem - 1),
                        )),
                        None => local += ply_core::perft::perft_tabled(&child, rem - 1, &mut c),
                    }
                }
                Ok(Expanded::Open {
                    children,
                    local,
                    probes: c.probes,
                    hits: c.hits,
                })
            })?;
            link.tally.busy_ns += busy;
            let words = 3 + (len + 1).div_ceil(4);
            let mut out: Vec<Vec<u64>> = vec![Vec::new(); size];
            for (i, e) in expanded.into_iter().enumerate() {
                // Every routed position worth an entry is a lookup of its owner's
                // table.
                link.tally.probes += u64::from(level.key[i].is_some() && level.tabled[i]);
                match e {
                    Expanded::Known(n) => {
                        link.tally.hits += 1;
                        level.count[i] = n;
                    }
                    Expanded::Open {
                        children,
                        local,
                        probes,
                        hits,
                    } => {
                        level.count[i] = local;
                        level.open[i] = true;
                        link.tally.probes += probes;
                        link.tally.hits += hits;
                        for (k, m, tabled) in children {
                            let to = &mut out[owner(k, size)];
                            to.reserve(words);
                            to.push(k as u64);
                            to.push((k >> 64) as u64);
                            to.push(
                                u64::from(level.item[i]) << 32 | u64::from(tabled) << 31 | i as u64,
                            );
                            let mut path = level.path[i];
                            path.0[len] = m;
                            for four in path.0[..=len].chunks(4) {
                                let mut w = 0u64;
                                for (j, &x) in four.iter().enumerate() {
                                    w |= u64::from(x) << (16 * j);
                                }
                                to.push(w);
                            }
                        }
                    }
                }
            }
            for (r, o) in out.iter().enumerate() {
                if r != me && !o.is_empty() {
                    link.tally.position_messages += 1;
                    link.tally.positions += (o.len() / words) as u64;
                }
            }
            let got = link.exchange(out)?;
            if levels.len() == used {
                levels.push(Level::default());
            }
            let next = &mut levels[used];
            for (from, w) in got.iter().enumerate() {
                if w.len() % words != 0 {
                    return Err(format!(
                        "rank {} sent a batch of positions of the wrong size",
                        from
                    )
                    .into());
                }
                for e in w.chunks_exact(words) {
                    let key = u128::from(e[0]) | u128::from(e[1]) << 64;
                    let item = (e[2] >> 32) as u32;
                    let (tabled, parent) = (e[2] >> 31 & 1 == 1, e[2] as u32 & 0x7fff_ffff);
                    if item as usize >= job.frontier.len() {
                        return Err(format!("rank {} sent item {}", from, item).into());
                    }
                    let mut path = Path::default();
                    for (j, x) in path.0[..=len].iter_mut().enumerate() {
                        *x = (e[3 + j / 4] >> (16 * (j % 4))) as u16;
                    }
                    if !next.add(Some(key), tabled, item, path, from as u32, parent) && tabled {
                        // Merged with the same position reached another way: a
                        // lookup the routed ply answered.
                        link.tally.probes += 1;
                        link.tally.hits += 1;
                    }
                }
            }
            used += 1;
        }
        // Up: counts back to the parents, ply by ply.
        for depth_below in (1..used).rev() {
            let ply = split + depth_below as u32;
            let (upper, lower) = levels.split_at_mut(depth_below);
            let level = &mut lower[0];
            finish(level, self.table, job.depth - ply);
            let mut out: Vec<Vec<u64>> = vec![Vec::new(); size];
            for &(node, from, parent) in &level.edges {
                let o = &mut out[from as usize];
                o.push(u64::from(parent));
                o.push(level.count[node as usize]);
            }
            let got = link.exchange(out)?;
            let up = &mut upper[depth_below - 1];
            for (from, w) in got.iter().enumerate() {
                for pair in w.chunks(2) {
                    match (pair, up.open.get(pair[0] as usize)) {
                        ([p, n], Some(true)) => {
                            let c = &mut up.count[*p as usize];
                            *c = c
                                .checked_add(*n)
                                .ok_or_else(|| "a count overflows 64 bits".to_string())?;
                        }
                        _ => {
                            return Err(format!(
                                "rank {} sent a count for a position this rank did not expand",
                                from
                            )
                            .into())
                        }
                    }
                }
            }
        }
        let top = &mut levels[0];
        finish(top, self.table, job.depth - split);
        let mut mine = Vec::with_capacity(top.len());
        for i in 0..top.len() {
            let item = top.item[i] as usize;
            let leaves = top.count[i]
                .checked_mul(job.frontier[item].paths)
                .ok_or_else(|| format!("subtree {}: the count overflows 64 bits", item))?;
            mine.push((item, leaves));
            link.tally.items += 1;
            link.tally.nodes += leaves;
        }
        Ok(mine)
    }
}

/// Stores the counts of a ply's expanded positions, now whole, in the table.
fn finish(level: &mut Level, table: &SharedPerftTable, rem: u32) {
    for i in 0..level.len() {
        if i + PREFETCH_AHEAD < level.len() && level.open[i + PREFETCH_AHEAD] {
            level.prefetch(i + PREFETCH_AHEAD, table);
        }
        if std::mem::take(&mut level.open[i]) && level.tabled[i] {
            if let Some(k) = level.key[i] {
                table.store(table.slot(k), rem, level.count[i]);
            }
        }
    }
}

/// Counts `job` on every rank of `net` with their tables joined (see the module);
/// `table` is this rank's part. Returns the items' counts on rank 0, `None` on the
/// other ranks (and on one that rank 0 told to stop). Rank 0 keeps the checkpoint of
/// `options` and, with `summary`, prints a line per rank on standard error.
pub fn count<G: PerftKey + Send + Sync, N: Net>(
    job: &PerftJob<'_, G>,
    table: &SharedPerftTable,
    routing: Routing,
    options: &Options,
    net: &mut N,
    host: String,
    summary: bool,
) -> Result<Option<Vec<SubtreeCount>>, String> {
    let (me, size) = (net.rank(), net.size());
    let fp = fingerprint(job, options);
    // Ranks compare the job and how it is routed; the checkpoint keeps the job only,
    // so it resumes with private tables too.
    let hello = fnv1a(format!("{}; {}", fp, routing.text()).as_bytes());
    let now = Instant::now();
    let mut link = Link {
        net,
        me,
        size,
        round: 0,
        early: vec![VecDeque::new(); size],
        heard: vec![now; size],
        last_to_0: now,
        timeout: Duration::from_secs(options.rank_timeout.unwrap_or(DEFAULT_RANK_TIMEOUT)),
        hellos: vec![None; size],
        held: vec![0; size],
        quiet: 0,
        tally: Tally::default(),
    };
    let routed = Routed {
        job,
        table,
        routing,
        cancel: AtomicBool::new(false),
    };
    if me != 0 {
        link.net.send(
            0,
            &Message::Hello {
                fingerprint: hello,
                slots: job.threads,
                host,
            },
        )?;
        return match worker(&routed, &mut link) {
            Ok(()) | Err(Fault::Stopped) => Ok(None),
            Err(Fault::Failed(e)) => Err(e),
        };
    }
    let items = job.items();
    let stop_all = |link: &mut Link<N>| {
        for r in 1..size {
            let _ = link.net.send(r, &Message::Stop { abort: true });
        }
    };
    let results = match start_results::<SubtreeCount>(options, &fp, items) {
        Ok(r) => r,
        Err(e) => {
            stop_all(&mut link);
            return Err(e);
        }
    };
    // Every rank's hello, each for this job.
    while link.hellos.iter().skip(1).any(Option::is_none) {
        if let Err(e) = link.wait() {
            stop_all(&mut link);
            return Err(match e {
                Fault::Failed(e) => e,
                Fault::Stopped => "rank 0 was told to stop".into(),
            });
        }
    }
    if let Some(r) = (1..size).find(|&r| link.hellos[r].as_ref().is_some_and(|h| h.0 != hello)) {
        stop_all(&mut link);
        let host = link.hellos[r].as_ref().map_or("?", |h| h.1.as_str());
        return Err(format!(
            "rank {} on {} has another job: every rank must run the same ply with the same \
             arguments (and the same --route-* settings)",
            r,
            quote(host)
        ));
    }
    let resumed = results.iter().filter(|r| r.is_some()).count();
    if resumed > 0 {
        crate::errln!(
            "resuming: {} were done already",
            saved_count(resumed, items, true)
        );
    }
    let mut saver = Saver {
        path: options.checkpoint.clone(),
        fingerprint: fp,
        results: Arc::new(Mutex::new(results)),
        last: Instant::now(),
        unsaved: false,
        every_item: true,
    };
    let _hook = install_hook(&saver);
    match coordinate(&routed, &mut link, &mut saver, host, summary, resumed) {
        Ok(()) => {
            saver.save(true)?;
            let results =
                std::mem::take(&mut *saver.results.lock().unwrap_or_else(|e| e.into_inner()));
            super::complete(results).map(Some)
        }
        Err(e) => {
            link.net.give_up();
            Err(saver.fail(match e {
                Fault::Failed(e) => e,
                Fault::Stopped => "rank 0 was told to stop".into(),
            }))
        }
    }
}

/// The items still to count, the same on every rank: those rank 0's checkpoint lacks.
fn left(done: &[u64], items: usize) -> Vec<usize> {
    let mut is_done = vec![false; items];
    for &i in done {
        if let Some(d) = is_done.get_mut(i as usize) {
            *d = true;
        }
    }
    (0..items).filter(|&i| !is_done[i]).collect()
}

/// A rank other than 0: takes the items left from rank 0, counts batch after batch,
/// sends its part of each to rank 0, and its tally at the end.
fn worker<G: PerftKey + Send + Sync, N: Net>(
    routed: &Routed<G>,
    link: &mut Link<N>,
) -> Result<(), Fault> {
    let size = link.size;
    let got = link.exchange(vec![Vec::new(); size])?;
    let todo = left(&got[0], routed.job.items());
    let mut levels = Vec::new();
    for batch in todo.chunks(routed.routing.batch * size) {
        let mine = routed.batch(link, batch, &mut levels)?;
        let mut out = vec![Vec::new(); size];
        out[0] = result_words(&mine, &link.tally);
        link.exchange(out)?;
    }
    let mut out = vec![Vec::new(); size];
    out[0] = link.tally.words();
    link.exchange(out)?;
    link.flush()
}

/// A rank's part of a batch for rank 0: its probes and hits so far, then (item,
/// leaves) pairs.
fn result_words(mine: &[(usize, u64)], tally: &Tally) -> Vec<u64> {
    let mut w = vec![tally.probes, tally.hits];
    for &(i, n) in mine {
        w.push(i as u64);
        w.push(n);
    }
    w
}

/// Rank 0: sends the items left, counts batch after batch with the others, keeps
/// each batch's results (the batch's lookups kept with its first item), and prints
/// the per-rank lines at the end.
fn coordinate<G: PerftKey + Send + Sync, N: Net>(
    routed: &Routed<G>,
    link: &mut Link<N>,
    saver: &mut Saver<SubtreeCount>,
    host: String,
    summary: bool,
    resumed: usize,
) -> Result<(), Fault> {
    let size = link.size;
    let items = routed.job.items();
    let done: Vec<u64> = {
        let results = saver.results.lock().unwrap_or_else(|e| e.into_inner());
        (0..items)
            .filter(|&i| results[i].is_some())
            .map(|i| i as u64)
            .collect()
    };
    let todo = left(&done, items);
    link.exchange(vec![done; size])?;
    let started = Instant::now();
    let mut progress = crate::interrupt::Progress::new();
    // Each rank's probes and hits as last reported.
    let mut lookups = vec![(0u64, 0u64); size];
    let mut finished = done_count(saver);
    let mut levels = Vec::new();
    for batch in todo.chunks(routed.routing.batch * size) {
        let mine = routed.batch(link, batch, &mut levels)?;
        let mut out = vec![Vec::new(); size];
        out[0] = result_words(&mine, &link.tally);
        let got = link.exchange(out)?;
        let mut counts: HashMap<usize, u64> = HashMap::with_capacity(batch.len());
        let (mut probes, mut hits) = (0u64, 0u64);
        for (r, w) in got.iter().enumerate() {
            let (p, h) = match w[..] {
                [p, h, ..] if w.len() % 2 == 0 => (p, h),
                _ => return Err(format!("rank {} sent a malformed batch result", r).into()),
            };
            probes += p.saturating_sub(lookups[r].0);
            hits += h.saturating_sub(lookups[r].1);
            lookups[r] = (p, h);
            for pair in w[2..].chunks_exact(2) {
                if counts.insert(pair[0] as usize, pair[1]).is_some() {
                    return Err(format!("rank {} counted item {} twice", r, pair[0]).into());
                }
            }
        }
        for (k, &i) in batch.iter().enumerate() {
            let leaves = *counts
                .get(&i)
                .ok_or_else(|| format!("no rank counted item {}", i))?;
            let (probes, hits) = if k == 0 {
                (probes, hits.min(probes))
            } else {
                (0, 0)
            };
            saver.store(
                i,
                SubtreeCount {
                    leaves,
                    probes,
                    hits,
                },
            );
        }
        finished += batch.len();
        saver.save(false)?;
        progress.tick(|| {
            format!(
                "perft: {}/{} items, {}",
                finished,
                items,
                crate::output::secs(started.elapsed().as_secs_f64())
            )
        });
    }
    progress.finish();
    let got = link.exchange(vec![Vec::new(); size])?;
    link.flush()?;
    if summary {
        if resumed > 0 {
            crate::errln!("{} items read from the checkpoint", resumed);
        }
        for (r, w) in got.iter().enumerate() {
            let t = if r == 0 {
                link.tally
            } else {
                Tally::from_words(w).ok_or_else(|| format!("rank {} sent a malformed tally", r))?
            };
            let host = if r == 0 {
                host.as_str()
            } else {
                link.hellos[r].as_ref().map_or("?", |h| h.1.as_str())
            };
            crate::errln!(
                "rank {} on {}: {} items, {} busy, {} at a time, {} nodes; routed {} positions \
                 in {} messages ({} a message), {} messages and {} bytes sent, {} probes, \
                 {:.1}% hits",
                r,
                host,
                t.items,
                super::secs(t.busy_ns),
                routed.job.threads,
                t.nodes,
                t.positions,
                t.position_messages,
                t.positions.checked_div(t.position_messages).unwrap_or(0),
                t.messages,
                t.bytes,
                t.probes,
                crate::output::percent(t.hits, t.probes)
            );
        }
    }
    Ok(())
}

fn done_count(saver: &Saver<SubtreeCount>) -> usize {
    let results = saver.results.lock().unwrap_or_else(|e| e.into_inner());
    results.iter().filter(|r| r.is_some()).count()
}

/// A process alone as a [`Net`]: no other ranks.
pub struct Alone;

impl Net for Alone {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn send(&mut self, rank: usize, _msg: &Message) -> Result<(), String> {
        Err(format!("no rank {} in a process alone", rank))
    }
    fn post(&mut self, rank: usize, _bytes: Vec<u8>) -> Result<(), String> {
        Err(format!("no rank {} in a process alone", rank))
    }
    fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String> {
        Ok(None)
    }
    fn flushed(&mut self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests;
