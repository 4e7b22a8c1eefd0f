//! The bytes of a run: an item's result as a few 64-bit words ([`Record`]), the
//! messages between ranks ([`Message`]), and the checksum both use ([`fnv1a`]).
//!
//! Every number is a little-endian `u64`. A message is a tag and its bytes; a result
//! carries the item's number, the number of words and a checksum of the whole, so
//! rank 0 can tell a damaged or wrong answer from a good one.

/// The result of one work item, as the few words a worker sends and a checkpoint keeps.
pub trait Record: Sized + Send + 'static {
    /// The number of words of every record of this type.
    const WORDS: usize;

    /// The record as exactly [`Record::WORDS`] words.
    fn encode(&self) -> Vec<u64>;

    /// The record from its words; `None` if they are not a record of this type.
    fn decode(words: &[u64]) -> Option<Self>;

    /// Nodes (or leaves) the item counted, for the per-rank summary.
    fn nodes(&self) -> u64;
}

/// A count: perft's leaves of one subtree.
impl Record for u64 {
    const WORDS: usize = 1;
    fn encode(&self) -> Vec<u64> {
        vec![*self]
    }
    fn decode(words: &[u64]) -> Option<u64> {
        match words {
            [n] => Some(*n),
            _ => None,
        }
    }
    fn nodes(&self) -> u64 {
        *self
    }
}

/// The 64-bit FNV-1a hash of `bytes`: the checksum of messages and checkpoints, and the
/// hash of a job's fingerprint.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Appends `n` as 8 little-endian bytes.
pub fn put(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(&n.to_le_bytes());
}

/// Reads numbers and text from the front of a byte slice.
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    /// Reads from the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes }
    }

    /// The next 8 bytes as a number; `None` past the end.
    pub fn u64(&mut self) -> Option<u64> {
        let (head, rest) = self.bytes.split_first_chunk::<8>()?;
        self.bytes = rest;
        Some(u64::from_le_bytes(*head))
    }

    /// The next number, if it fits a `usize`.
    pub fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.u64()?).ok()
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.bytes.len() {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        self.bytes
    }
}

/// A message between rank 0 and another rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// A worker is ready: the hash of its job's fingerprint, how many items it computes
    /// at once, and the name of its host.
    Hello {
        /// [`fnv1a`] of the worker's [`super::Job::fingerprint`].
        fingerprint: u64,
        /// The worker's [`super::Job::slots`].
        slots: usize,
        /// The worker's host name.
        host: String,
    },
    /// Rank 0 gives a worker an item to compute.
    Assign {
        /// The item.
        index: usize,
    },
    /// Rank 0 tells a worker to end: `abort` when the run failed (the worker drops
    /// what it has not finished).
    Stop {
        /// The run failed.
        abort: bool,
    },
    /// A worker's result.
    Done {
        /// The item.
        index: usize,
        /// Nanoseconds the worker spent on it.
        busy_ns: u64,
        /// The result's words.
        words: Vec<u64>,
    },
    /// A worker says it is alive (every [`super::coordinator::ALIVE_EVERY`] while it
    /// runs), so rank 0 can tell a rank that stopped answering from a busy one.
    Alive,
    /// A worker could not compute an item.
    Failed {
        /// The item.
        index: usize,
        /// Why, one line.
        error: String,
    },
    /// Rank 0 wants a worker's slot back from a spare item ([`super::Job::spare`]):
    /// a needed item waits for it.
    Drop {
        /// The spare item.
        index: usize,
    },
    /// A worker gave up a spare item rank 0 asked it to drop, unfinished.
    Dropped {
        /// The item.
        index: usize,
    },
    /// What a rank learnt that the others may use ([`super::Job::shared`]): a worker
    /// sends it to rank 0, rank 0 passes it on to every other worker.
    Share {
        /// The job's words.
        words: Vec<u64>,
    },
}

/// Tags of the messages (MPI tags): one per kind.
pub mod tag {
    /// [`super::Message::Hello`].
    pub const HELLO: i32 = 1;
    /// [`super::Message::Assign`].
    pub const ASSIGN: i32 = 2;
    /// [`super::Message::Stop`].
    pub const STOP: i32 = 3;
    /// [`super::Message::Done`].
    pub const DONE: i32 = 4;
    /// [`super::Message::Failed`].
    pub const FAILED: i32 = 5;
    /// [`super::Message::Alive`].
    pub const ALIVE: i32 = 6;
    /// [`super::Message::Drop`].
    pub const DROP: i32 = 7;
    /// [`super::Message::Dropped`].
    pub const DROPPED: i32 = 8;
    /// [`super::Message::Share`].
    pub const SHARE: i32 = 9;
}

impl Message {
    /// The message as its tag and bytes. Every message ends with the checksum of the
    /// tag and the bytes before it.
    pub fn encode(&self) -> (i32, Vec<u8>) {
        let mut b = Vec::new();
        let t = match self {
            Message::Hello {
                fingerprint,
                slots,
                host,
            } => {
                put(&mut b, *fingerprint);
                put(&mut b, *slots as u64);
                put(&mut b, host.len() as u64);
                b.extend_from_slice(host.as_bytes());
                tag::HELLO
            }
            Message::Assign { index } => {
                put(&mut b, *index as u64);
                tag::ASSIGN
            }
            Message::Stop { abort } => {
                put(&mut b, u64::from(*abort));
                tag::STOP
            }
            Message::Done {
                index,
                busy_ns,
                words,
            } => {
                put(&mut b, *index as u64);
                put(&mut b, *busy_ns);
                put(&mut b, words.len() as u64);
                for &w in words {
                    put(&mut b, w);
                }
                tag::DONE
            }
            Message::Alive => tag::ALIVE,
            Message::Failed { index, error } => {
                put(&mut b, *index as u64);
                put(&mut b, error.len() as u64);
                b.extend_from_slice(error.as_bytes());
                tag::FAILED
            }
            Message::Drop { index } => {
                put(&mut b, *index as u64);
                tag::DROP
            }
            Message::Dropped { index } => {
                put(&mut b, *index as u64);
                tag::DROPPED
            }
            Message::Share { words } => {
                put(&mut b, words.len() as u64);
                for &w in words {
                    put(&mut b, w);
                }
                tag::SHARE
            }
        };
        let sum = checksum(t, &b);
        put(&mut b, sum);
        (t, b)
    }

    /// The message from its tag and bytes, or what is wrong with them: an unknown tag,
    /// a wrong length, a checksum that does not match.
    pub fn decode(t: i32, bytes: &[u8]) -> Result<Message, String> {
        let Some(body_len) = bytes.len().checked_sub(8) else {
            return Err(format!("a message of {} bytes, too short", bytes.len()));
        };
        let (body, sum) = bytes.split_at(body_len);
        let sum = u64::from_le_bytes(sum.try_into().expect("8 bytes"));
        if sum != checksum(t, body) {
            return Err(format!(
                "a message (tag {}) whose checksum does not match",
                t
            ));
        }
        let mut r = Reader::new(body);
        let bad = || format!("a malformed message (tag {}, {} bytes)", t, bytes.len());
        let text = |r: &mut Reader| -> Option<String> {
            let n = r.usize()?;
            String::from_utf8(r.bytes(n)?.to_vec()).ok()
        };
        let msg = match t {
            tag::HELLO => Message::Hello {
                fingerprint: r.u64().ok_or_else(bad)?,
                slots: r.usize().ok_or_else(bad)?,
                host: text(&mut r).ok_or_else(bad)?,
            },
            tag::ASSIGN => Message::Assign {
                index: r.usize().ok_or_else(bad)?,
            },
            tag::STOP => Message::Stop {
                abort: r.u64().ok_or_else(bad)? != 0,
            },
            tag::DONE => {
                let index = r.usize().ok_or_else(bad)?;
                let busy_ns = r.u64().ok_or_else(bad)?;
                let n = r.usize().ok_or_else(bad)?;
                if n.checked_mul(8) != Some(r.rest().len()) {
                    return Err(bad());
                }
                let words = (0..n).map(|_| r.u64().expect("length checked")).collect();
                Message::Done {
                    index,
                    busy_ns,
                    words,
                }
            }
            tag::ALIVE => Message::Alive,
            tag::FAILED => Message::Failed {
                index: r.usize().ok_or_else(bad)?,
                error: text(&mut r).ok_or_else(bad)?,
            },
            tag::DROP => Message::Drop {
                index: r.usize().ok_or_else(bad)?,
            },
            tag::DROPPED => Message::Dropped {
                index: r.usize().ok_or_else(bad)?,
            },
            tag::SHARE => {
                let n = r.usize().ok_or_else(bad)?;
                if n.checked_mul(8) != Some(r.rest().len()) {
                    return Err(bad());
                }
                let words = (0..n).map(|_| r.u64().expect("length checked")).collect();
                Message::Share { words }
            }
            _ => return Err(format!("a message with the unknown tag {}", t)),
        };
        if !r.rest().is_empty() {
            return Err(bad());
        }
        Ok(msg)
    }
}

fn checksum(t: i32, body: &[u8]) -> u64 {
    let mut b = Vec::with_capacity(body.len() + 4);
    b.extend_from_slice(&t.to_le_bytes());
    b.extend_from_slice(body);
    fnv1a(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<Message> {
        vec![
            Message::Hello {
                fingerprint: 42,
                slots: 2,
                host: "node-é".into(),
            },
            Message::Assign { index: 7 },
            Message::Stop { abort: true },
            Message::Stop { abort: false },
            Message::Done {
                index: 3,
                busy_ns: 1_000,
                words: vec![1, u64::MAX],
            },
            Message::Failed {
                index: 9,
                error: "no".into(),
            },
            Message::Alive,
            Message::Drop { index: 11 },
            Message::Dropped { index: 12 },
            Message::Share {
                words: vec![1, u64::MAX, 0],
            },
        ]
    }

    #[test]
    fn messages_round_trip() {
        for m in all() {
            let (t, b) = m.encode();
            assert_eq!(Message::decode(t, &b), Ok(m));
        }
    }

    #[test]
    fn damaged_messages_are_refused() {
        for m in all() {
            let (t, b) = m.encode();
            // Any flipped bit, a wrong tag, a cut or a longer message: refused.
            for i in 0..b.len() {
                let mut c = b.clone();
                c[i] ^= 0x10;
                assert!(Message::decode(t, &c).is_err(), "{:?} byte {}", m, i);
            }
            assert!(Message::decode(t + 10, &b).is_err());
            assert!(Message::decode(t, &b[..b.len() - 1]).is_err());
            let mut longer = b.clone();
            longer.push(0);
            assert!(Message::decode(t, &longer).is_err());
        }
        assert!(Message::decode(tag::DONE, &[]).is_err());
    }

    #[test]
    fn a_count_is_one_word() {
        assert_eq!(u64::decode(&7u64.encode()), Some(7));
        assert_eq!(u64::decode(&[1, 2]), None);
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
