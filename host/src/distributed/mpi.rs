//! The MPI transport (the `mpi` feature): one rank per process, started by `mpirun` or
//! `srun`. Only the main thread calls MPI ([`Threading::Funneled`]); the items are
//! computed on the process's own threads meanwhile ([`super::exec`]).
//!
//! Rank 0 runs [`super::coordinator::coordinate`], every other rank
//! [`super::coordinator::work`]. Nobody blocks in MPI: a rank looks for messages, then
//! waits a little for its own threads ([`super::coordinator::POLL`]), so a waiting
//! rank does not keep a core busy.

use mpi::request::{Request, StaticScope};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Threading;

use ply_core::perft::PerftKey;

use super::codec::Message;
use super::coordinator::{coordinate, work, Transport};
use super::perft::{PerftJob, SubtreeCount};
use super::routed::{Net, Routing, ROUTE_TAG};
use super::{Job, Options};
use crate::parallel::SharedPerftTable;

/// A posted send and its bytes, which stay put until it completes.
type Posted = (Request<'static, [u8], StaticScope>, *mut [u8]);

/// The world communicator as a [`Transport`] and a [`Net`], whether rank 0 gave up
/// on a rank that stopped answering, and the sends posted and not complete yet.
pub struct World(SimpleCommunicator, bool, Vec<Posted>);

impl Drop for World {
    fn drop(&mut self) {
        // Only where the job is being aborted: MPI keeps the bytes of a send that did
        // not complete, so neither they nor the request may be freed.
        for (request, _) in self.2.drain(..) {
            std::mem::forget(request);
        }
    }
}

impl Net for World {
    fn rank(&self) -> usize {
        self.0.rank() as usize
    }

    fn size(&self) -> usize {
        self.0.size() as usize
    }

    fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String> {
        Transport::send(self, rank, msg)
    }

    fn post(&mut self, rank: usize, bytes: Vec<u8>) -> Result<(), String> {
        self.post_tagged(rank, ROUTE_TAG, bytes)
    }

    fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String> {
        Transport::poll(self)
    }

    fn flushed(&mut self) -> bool {
        let posted = std::mem::take(&mut self.2);
        for (request, raw) in posted {
            match request.test() {
                // SAFETY: the send has completed: MPI holds no reference to the bytes.
                Ok(_) => drop(unsafe { Box::from_raw(raw) }),
                Err(request) => self.2.push((request, raw)),
            }
        }
        self.2.is_empty()
    }

    fn give_up(&mut self) {
        self.1 = true;
    }
}

impl World {
    /// Posts `bytes` to `rank` with `tag` without waiting ([`Net::flushed`] frees
    /// them once sent).
    fn post_tagged(&mut self, rank: usize, tag: i32, bytes: Vec<u8>) -> Result<(), String> {
        let rank = i32::try_from(rank).map_err(|_| format!("no rank {}", rank))?;
        let raw: *mut [u8] = Box::into_raw(bytes.into_boxed_slice());
        // SAFETY: the bytes are freed only once the send has completed ([`Net::flushed`]),
        // or never (a job aborted with the send under way).
        let buf: &'static [u8] = unsafe { &*raw };
        let request = self
            .0
            .process_at_rank(rank)
            .immediate_send_with_tag(StaticScope, buf, tag);
        self.2.push((request, raw));
        Ok(())
    }
}

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

    fn share(&mut self, rank: usize, encoded: &(i32, Vec<u8>)) -> Result<(), String> {
        self.post_tagged(rank, encoded.0, encoded.1.clone())
    }

    fn flush(&mut self) -> bool {
        Net::flushed(self)
    }
}

/// Starts MPI, runs `job` on this rank, ends MPI. Rank 0 gets the results.
pub fn run<J: Job>(job: &J, options: &Options) -> Result<Option<Vec<Option<J::Output>>>, String> {
    in_world(|world, rank, host| {
        if rank == 0 {
            coordinate(job, options, world, host, true).map(Some)
        } else {
            work(job, options, world, host).map(|()| None)
        }
    })
}

/// Starts MPI, counts perft `job` with the ranks' tables joined into one
/// ([`super::routed`]; `table` is this rank's part), ends MPI. Rank 0 gets the
/// items' counts.
pub fn run_routed<G: PerftKey + Send + Sync>(
    job: &PerftJob<'_, G>,
    table: &SharedPerftTable,
    routing: Routing,
    options: &Options,
) -> Result<Option<Vec<SubtreeCount>>, String> {
    in_world(|world, _, host| super::routed::count(job, table, routing, options, world, host, true))
}

/// Starts MPI, runs `f` with the world, this rank and its host, ends MPI; ends the
/// whole job where a rank other than 0 failed or rank 0 gave up on one.
fn in_world<T>(f: impl FnOnce(&mut World, i32, String) -> Result<T, String>) -> Result<T, String> {
    let (universe, threading) = mpi::initialize_with_threading(Threading::Funneled)
        .ok_or("MPI was started already: a process runs one job")?;
    if matches!(threading, Threading::Single) {
        return Err("this MPI library does not allow threads (MPI_THREAD_FUNNELED)".into());
    }
    let mut world = World(universe.world(), false, Vec::new());
    let rank = world.0.rank();
    let host = mpi::environment::processor_name().unwrap_or_else(|_| "?".into());
    let result = f(&mut world, rank, host);
    if let (Err(e), true) = (&result, rank > 0 || world.1) {
        // On a worker: rank 0 would wait for this rank's items forever. On rank 0,
        // once it gave up on a rank that stopped answering: that rank would never
        // end MPI with the others. Either way, end the whole job.
        let line = crate::quote::cap_line(&crate::interrupt::one_line(&format!("error: {}", e)));
        crate::errln!("{}", super::error_line(&line));
        world.0.abort(1);
    }
    // MPI ends when the universe is dropped: after every message of this rank.
    drop(world);
    drop(universe);
    result
}
