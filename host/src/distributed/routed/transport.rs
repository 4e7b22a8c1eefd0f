//! How a rank of a routed count talks to the others: the [`Net`] it sends through
//! (MPI's is in `distributed/mpi.rs`; [`Alone`], a process with no other ranks), and
//! the [`Link`] over it: rounds of one checksummed message to every other rank, posted
//! without waiting, the messages that came early kept for their round, waits that
//! look for messages and back off, the alive signal and rank 0's `--rank-timeout`.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::distributed::codec::Message;
use crate::distributed::coordinator::{ALIVE_EVERY, POLL};
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

/// Why a rank's routed count ended early.
#[derive(Debug)]
pub(super) enum Fault {
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
pub(super) struct Tally {
    pub(super) items: u64,
    pub(super) busy_ns: u64,
    pub(super) nodes: u64,
    /// Messages carrying positions, and the positions in them.
    pub(super) position_messages: u64,
    pub(super) positions: u64,
    /// Every message sent, and its bytes.
    pub(super) messages: u64,
    pub(super) bytes: u64,
    pub(super) probes: u64,
    pub(super) hits: u64,
}

impl Tally {
    pub(super) fn words(&self) -> Vec<u64> {
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
    pub(super) fn from_words(w: &[u64]) -> Option<Tally> {
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
pub(super) struct Link<'n, N: Net> {
    pub(super) net: &'n mut N,
    pub(super) me: usize,
    pub(super) size: usize,
    pub(super) round: u64,
    pub(super) early: Vec<VecDeque<Vec<u8>>>,
    pub(super) heard: Vec<Instant>,
    pub(super) last_to_0: Instant,
    pub(super) timeout: Duration,
    /// Rank 0: the ranks' hellos (fingerprint hash, host).
    pub(super) hellos: Vec<Option<(u64, String)>>,
    /// Items of the batch under way on each rank (for rank 0's timeout line).
    pub(super) held: Vec<usize>,
    /// Pauses in a row with nothing arrived.
    pub(super) quiet: u32,
    pub(super) tally: Tally,
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
    pub(super) fn wait(&mut self) -> Result<(), Fault> {
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
    pub(super) fn exchange(&mut self, mut out: Vec<Vec<u64>>) -> Result<Vec<Vec<u64>>, Fault> {
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
    pub(super) fn max(&mut self, n: u64) -> Result<u64, Fault> {
        let got = self.exchange(vec![vec![n]; self.size])?;
        Ok(got
            .iter()
            .filter_map(|w| w.first().copied())
            .max()
            .unwrap_or(n))
    }

    /// Waits until every posted message has left.
    pub(super) fn flush(&mut self) -> Result<(), Fault> {
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

/// The longest a waiting rank sleeps between two looks for messages.
const LONGEST_PAUSE: Duration = Duration::from_millis(2);

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
