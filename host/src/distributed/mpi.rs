//! The MPI transport (the `mpi` feature): one rank per process, started by `mpirun` or
//! `srun`. Only the main thread calls MPI ([`Threading::Funneled`]); the items are
//! computed on the process's own threads meanwhile ([`super::exec`]).
//!
//! Rank 0 runs [`super::coordinator::coordinate`], every other rank
//! [`super::coordinator::work`]. Nobody blocks in MPI: a rank looks for messages, then
//! waits a little for its own threads ([`super::coordinator::POLL`]), so a waiting
//! rank does not keep a core busy.

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Threading;

use super::codec::Message;
use super::coordinator::{coordinate, work, Transport};
use super::{Job, Options};

/// The world communicator as a [`Transport`], and whether rank 0 gave up on a rank
/// that stopped answering.
pub struct World(SimpleCommunicator, bool);

impl Transport for World {
    fn size(&self) -> usize {
        self.0.size() as usize
    }

    fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String> {
        Ok(self
            .0
            .any_process()
            .immediate_matched_probe()
            .map(|probed| {
                let (bytes, status) = probed.matched_receive_vec::<u8>();
                (status.source_rank() as usize, status.tag(), bytes)
            }))
    }

    fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String> {
        let rank = i32::try_from(rank).map_err(|_| format!("no rank {}", rank))?;
        let (tag, bytes) = msg.encode();
        let to = self.0.process_at_rank(rank);
        if let Message::Stop { .. } = msg {
            // Returns once the rank has it: rank 0 may end MPI right after, and a
            // message still queued then (to a rank it never sent to before) would
            // never leave, with that rank waiting for it and rank 0 for that rank.
            to.synchronous_send_with_tag(&bytes[..], tag);
        } else {
            to.send_with_tag(&bytes[..], tag);
        }
        Ok(())
    }

    fn unresponsive(&mut self, _rank: usize) {
        self.1 = true;
    }
}

/// Starts MPI, runs `job` on this rank, ends MPI. Rank 0 gets the results.
pub fn run<J: Job>(job: &J, options: &Options) -> Result<Option<Vec<Option<J::Output>>>, String> {
    let (universe, threading) = mpi::initialize_with_threading(Threading::Funneled)
        .ok_or("MPI was started already: a process runs one job")?;
    if matches!(threading, Threading::Single) {
        return Err("this MPI library does not allow threads (MPI_THREAD_FUNNELED)".into());
    }
    let mut world = World(universe.world(), false);
    let rank = world.0.rank();
    let host = mpi::environment::processor_name().unwrap_or_else(|_| "?".into());
    let result = if rank == 0 {
        coordinate(job, options, &mut world, host, true).map(Some)
    } else {
        work(job, options, &mut world, host).map(|()| None)
    };
    if let (Err(e), true) = (&result, rank > 0 || world.1) {
        // On a worker: rank 0 would wait for this rank's items forever. On rank 0,
        // once it gave up on a rank that stopped answering: that rank would never
        // end MPI with the others. Either way, end the whole job.
        let line = crate::quote::cap_line(&crate::interrupt::one_line(&format!("error: {}", e)));
        crate::errln!("{}", super::error_line(&line));
        world.0.abort(1);
    }
    // MPI ends when the universe is dropped: after every message of this rank.
    drop(universe);
    result
}
