//! How the coordinator's messages reach the other ranks: the [`Transport`] trait, and
//! [`Alone`], a process with no other ranks (MPI's is in `distributed/mpi.rs`).

use crate::distributed::codec::Message;

/// How messages reach the other ranks of a run.
pub trait Transport {
    /// The number of ranks of the run, this one included (1: a process alone).
    fn size(&self) -> usize;
    /// The next message from any other rank as (rank, tag, bytes), if one has arrived;
    /// never waits.
    fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String>;
    /// Sends `msg` to `rank`.
    fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String>;
    /// Rank 0 has not heard from `rank` for too long and will send it nothing more:
    /// the run cannot end with it in the ordinary way (over MPI it is aborted once
    /// rank 0 has saved its checkpoint and said why).
    fn unresponsive(&mut self, _rank: usize) {}
    /// Sends a message already encoded ([`Message::encode`], a [`Message::Share`]
    /// passed on to several ranks is encoded once) to `rank` without waiting for it
    /// to be received: two ranks sharing at once must not wait on each other. Its
    /// bytes are kept until [`Transport::flush`] finds it sent. The default:
    /// [`Transport::send`] of the message decoded.
    fn share(&mut self, rank: usize, encoded: &(i32, Vec<u8>)) -> Result<(), String> {
        let msg = Message::decode(encoded.0, &encoded.1)?;
        self.send(rank, &msg)
    }
    /// Frees what [`Transport::share`] sent and is received; whether nothing it
    /// sent is still on its way. The default: true.
    fn flush(&mut self) -> bool {
        true
    }
}

/// A process alone: no other ranks.
pub struct Alone;

impl Transport for Alone {
    fn size(&self) -> usize {
        1
    }
    fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String> {
        Ok(None)
    }
    fn send(&mut self, rank: usize, _msg: &Message) -> Result<(), String> {
        Err(format!("no rank {} in a process alone", rank))
    }
}
