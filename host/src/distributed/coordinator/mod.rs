//! Rank 0's loop ([`coordinate`]): deal out items, compute some itself, check and
//! gather the answers, keep the checkpoint; and the other ranks' loop ([`work`]). The
//! same loop runs a job in one process (a [`Transport`] with no other ranks), so the `mpi` feature adds only
//! the transport.
//!
//! The transport is in `transport.rs`, the checkpoint kept as results come in
//! `saver.rs`, the other ranks' loop in `worker.rs`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::codec::{fnv1a, Message, Record};
use super::dispatch::{Dispatcher, RankBook};
use super::exec::Executor;
use super::{Job, Options};
use crate::quote::quote;

mod saver;
#[cfg(test)]
mod tests;
mod transport;
mod worker;

pub use saver::CHECKPOINT_EVERY;
pub(crate) use saver::{install_hook, saved_count, start_results, Saver};
pub use transport::{Alone, Transport};
pub use worker::work;

/// How long rank 0 waits for its own threads before it looks for messages again (a
/// blocking MPI receive would keep a core busy).
pub const POLL: Duration = Duration::from_micros(200);

/// The fingerprint the checkpoint keeps and the ranks compare: the command's
/// arguments and the job's own description.
pub fn fingerprint<J: Job>(job: &J, options: &Options) -> String {
    if options.command.is_empty() {
        job.fingerprint()
    } else {
        format!("{}; {}", options.command, job.fingerprint())
    }
}

/// Runs `job` in this process alone: its records in item order, `None` for the
/// items a gated job never needed ([`Job::needed`]).
pub fn run_local<J: Job>(job: &J, options: &Options) -> Result<Vec<Option<J::Output>>, String> {
    coordinate(job, options, &mut Alone, "local".into(), false)
}

/// [`run_local`] for a job that needs every item.
pub fn run_local_all<J: Job>(job: &J, options: &Options) -> Result<Vec<J::Output>, String> {
    run_local(job, options).and_then(super::complete)
}

/// How often a rank passes on what its items learnt ([`Job::shared`]).
pub const SHARE_EVERY: Duration = Duration::from_millis(20);

/// Waits (at most a second) until what this rank shared has left it, so that MPI
/// does not end under a send.
pub(super) fn settle<T: Transport>(transport: &mut T) {
    let until = Instant::now() + Duration::from_secs(1);
    while !transport.flush() && Instant::now() < until {
        std::thread::sleep(POLL);
    }
}

/// How often a worker says it is alive ([`Message::Alive`]) when it has sent nothing
/// else.
pub const ALIVE_EVERY: Duration = Duration::from_secs(1);

/// Seconds rank 0 of an MPI run waits for a word from a rank that holds work, unless
/// `--rank-timeout` (`PLY_RANK_TIMEOUT`) says otherwise (every rank says it is alive
/// every second).
pub const DEFAULT_RANK_TIMEOUT: u64 = 120;

/// Rank 0's loop over `transport` (see the module docs); `host` names this process's
/// host in the summary, which is printed on standard error when `summary` is set. A
/// rank that holds work and sends nothing for `options.rank_timeout` seconds
/// (`--rank-timeout`, `PLY_RANK_TIMEOUT`; default [`DEFAULT_RANK_TIMEOUT`]) ends the run
/// with an error naming it.
pub fn coordinate<J: Job, T: Transport>(
    job: &J,
    options: &Options,
    transport: &mut T,
    host: String,
    summary: bool,
) -> Result<Vec<Option<J::Output>>, String> {
    let timeout = options.rank_timeout.unwrap_or(DEFAULT_RANK_TIMEOUT);
    coordinate_within(
        job,
        options,
        transport,
        host,
        summary,
        Duration::from_secs(timeout),
    )
}

/// [`coordinate`], waiting at most `timeout` for a word from a rank that holds work.
fn coordinate_within<J: Job, T: Transport>(
    job: &J,
    options: &Options,
    transport: &mut T,
    host: String,
    summary: bool,
    timeout: Duration,
) -> Result<Vec<Option<J::Output>>, String> {
    let fp = fingerprint(job, options);
    let items = job.items();
    let results = match start_results::<J::Output>(options, &fp, items) {
        Ok(r) => r,
        Err(e) => {
            // The other ranks wait for their first message: tell them to end.
            for rank in 1..transport.size() {
                let _ = transport.send(rank, &Message::Stop { abort: true });
            }
            return Err(e);
        }
    };
    let first = job.needed(&results);
    let every_item = first.is_none();
    let mut book = match first {
        None => {
            let b = Dispatcher::new(items, |i| results[i].is_some(), transport.size());
            if job.fixed_deal() {
                b.fixed()
            } else {
                b
            }
        }
        Some(first) => {
            let mut b = Dispatcher::gated(items, |i| results[i].is_some(), transport.size());
            for i in first {
                b.need(i);
            }
            b.set_spare(job.spare(&results));
            b
        }
    };
    let resumed = book.done();
    if resumed > 0 {
        crate::errln!(
            "resuming: {} were done already",
            saver::saved_count(resumed, items, every_item)
        );
    }
    book.hello(0, host, job.slots())?;
    let mut saver = Saver {
        path: options.checkpoint.clone(),
        fingerprint: fp.clone(),
        results: Arc::new(Mutex::new(results)),
        last: Instant::now(),
        unsaved: false,
        every_item,
    };
    let _hook = install_hook(&saver);
    let wait = if transport.size() > 1 {
        POLL
    } else {
        Duration::from_millis(20)
    };
    let started = Instant::now();
    // When each rank was last heard from.
    let mut heard = vec![started; transport.size()];
    let mut progress = crate::interrupt::Progress::new();
    let mut last_shared = started;
    let outcome = std::thread::scope(|scope| {
        let mut exec = Executor::start(scope, job);
        let r = (|| -> Result<(), String> {
            loop {
                // Items queued beyond the threads, so none waits for its next.
                let cap = job.slots() + ahead(job.ahead(), &book.ranks()[0]);
                while let Some(i) = book.assign(0, cap) {
                    exec.submit(i);
                }
                while let Some((rank, t, bytes)) = transport.poll()? {
                    if let Some(h) = heard.get_mut(rank) {
                        *h = Instant::now();
                    }
                    let msg = Message::decode(t, &bytes)
                        .map_err(|e| format!("rank {} sent {}", rank, e))?;
                    on_message(job, &fp, &mut book, &mut saver, transport, rank, msg)?;
                }
                silent_rank(&mut book, transport, &heard, timeout)?;
                if last_shared.elapsed() >= SHARE_EVERY {
                    last_shared = Instant::now();
                    let words = job.shared();
                    if !words.is_empty() {
                        pass_on(&book, transport, 0, &Message::Share { words }.encode())?;
                    }
                }
                transport.flush();
                for f in exec.finished(wait) {
                    if f.output.is_err() && book.is_dropping(f.index) {
                        // A spare item given up for a needed one.
                        book.dropped(0, f.index)?;
                        continue;
                    }
                    let out = f.output.map_err(|e| format!("item {}: {}", f.index, e))?;
                    book.answer(0, f.index, out.nodes(), f.busy_ns)?;
                    job.finished(f.index, &out);
                    saver.store(f.index, out);
                    called_for(job, &mut book, &saver, transport)?;
                }
                // Needed items wait and every slot is busy: spare items give way.
                for (rank, index) in book.to_drop() {
                    if rank == 0 {
                        job.drop_item(index);
                    } else {
                        transport.send(rank, &Message::Drop { index })?;
                    }
                }
                saver.save(false)?;
                if let Some(label) = job.label() {
                    progress.tick(|| {
                        format!(
                            "{}: {}/{} items, {}",
                            label,
                            book.done(),
                            items,
                            crate::output::secs(started.elapsed().as_secs_f64())
                        )
                    });
                }
                if book.all_done() && book.workers_stopped() {
                    return Ok(());
                }
            }
        })();
        // Spare items still under way are not needed: they end now, unread.
        job.abandon();
        if r.is_err() {
            exec.cancel();
            for rank in 1..transport.size() {
                if !book.ranks()[rank].stopped {
                    let _ = transport.send(rank, &Message::Stop { abort: true });
                    book.stopped(rank);
                }
            }
        }
        r
    });
    progress.finish();
    if let Err(e) = outcome {
        return Err(saver.fail(e));
    }
    settle(transport);
    saver.save(true)?;
    if summary {
        print_summary(&book, resumed);
    }
    let results = std::mem::take(&mut *saver.results.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(results)
}

/// After a result of a gated job ([`Job::needed`]): the items it calls for join the
/// book, waiting items it no longer lists are withdrawn, its spare items
/// ([`Job::spare`]) are renewed, and every rank gets what it can take (rank 0's own
/// threads take theirs at the top of its loop).
fn called_for<J: Job, T: Transport>(
    job: &J,
    book: &mut Dispatcher,
    saver: &Saver<J::Output>,
    transport: &mut T,
) -> Result<(), String> {
    let (needed, spare) = {
        let results = saver.results.lock().unwrap_or_else(|e| e.into_inner());
        match job.needed(&results) {
            Some(needed) => (needed, job.spare(&results)),
            None => return Ok(()),
        }
    };
    let listed: std::collections::HashSet<usize> = needed.iter().copied().collect();
    book.withdraw(|i| listed.contains(&i));
    let mut added = false;
    for i in needed {
        added |= book.need(i);
    }
    added |= book.set_spare(spare);
    for rank in 1..transport.size() {
        if (added || book.all_done()) && book.ready(rank) && !book.ranks()[rank].stopped {
            let ahead = ahead(job.ahead(), &book.ranks()[rank]);
            feed(book, transport, rank, ahead)?;
        }
    }
    Ok(())
}

/// An error for the first rank that is still to run or holds work and has sent
/// nothing for `timeout`; that rank is given up (no message goes to it any more).
fn silent_rank<T: Transport>(
    book: &mut Dispatcher,
    transport: &mut T,
    heard: &[Instant],
    timeout: Duration,
) -> Result<(), String> {
    let Some(rank) =
        (1..heard.len()).find(|&r| !book.ranks()[r].stopped && heard[r].elapsed() > timeout)
    else {
        return Ok(());
    };
    book.stopped(rank);
    transport.unresponsive(rank);
    let r = &book.ranks()[rank];
    let secs = timeout.as_secs_f64();
    Err(match &r.host {
        None => format!(
            "rank {} has not said hello within {} s (--rank-timeout): it did not start, \
             or it is stuck or cut off",
            rank, secs
        ),
        Some(host) => format!(
            "rank {} on {} has sent nothing for {} s while it held {} item{} \
             (--rank-timeout): it is stopped, stuck or cut off",
            rank,
            quote(host),
            secs,
            r.outstanding,
            if r.outstanding == 1 { "" } else { "s" }
        ),
    })
}

/// Handles one message from `rank`.
fn on_message<J: Job, T: Transport>(
    job: &J,
    fp: &str,
    book: &mut Dispatcher,
    saver: &mut Saver<J::Output>,
    transport: &mut T,
    rank: usize,
    msg: Message,
) -> Result<(), String> {
    match msg {
        Message::Hello {
            fingerprint,
            slots,
            host,
        } => {
            if fingerprint != fnv1a(fp.as_bytes()) {
                return Err(format!(
                    "rank {} on {} has another job: every rank must run the same ply with \
                     the same arguments",
                    rank,
                    quote(&host)
                ));
            }
            book.hello(rank, host, slots)?;
        }
        Message::Done {
            index,
            busy_ns,
            words,
        } => {
            let out = J::Output::decode(&words).ok_or_else(|| {
                format!(
                    "rank {} answered item {} with {} words that are not a result",
                    rank,
                    index,
                    words.len()
                )
            })?;
            book.answer(rank, index, out.nodes(), busy_ns)?;
            job.finished(index, &out);
            saver.store(index, out);
            called_for(job, book, saver, transport)?;
        }
        Message::Failed { index, error } => {
            return Err(format!("rank {}, item {}: {}", rank, index, error));
        }
        Message::Dropped { index } => book.dropped(rank, index)?,
        Message::Alive => return Ok(()),
        Message::Share { words } => {
            job.learn(&words);
            return pass_on(book, transport, rank, &Message::Share { words }.encode());
        }
        Message::Assign { .. } | Message::Stop { .. } | Message::Drop { .. } => {
            return Err(format!("rank {} sent rank 0 {:?}", rank, msg));
        }
    }
    let ahead = ahead(job.ahead(), &book.ranks()[rank]);
    feed(book, transport, rank, ahead)
}

/// Passes `encoded` (a [`Message::Share`] from `from`, encoded) on to every other
/// worker still running.
fn pass_on<T: Transport>(
    book: &Dispatcher,
    transport: &mut T,
    from: usize,
    encoded: &(i32, Vec<u8>),
) -> Result<(), String> {
    for rank in 1..transport.size() {
        if rank != from && !book.ranks()[rank].stopped && book.ranks()[rank].host.is_some() {
            transport.share(rank, encoded)?;
        }
    }
    Ok(())
}

/// The work a rank's queue should hold: several of the slices its main thread sleeps
/// between looks at its threads ([`super::exec::SLICE`]), and a message each way
/// between it and rank 0.
const QUEUE_COVERS: Duration = Duration::from_millis(4);

/// The most items a rank is given beyond its slots.
const MAX_AHEAD: usize = 256;

/// Items a rank is given beyond its slots: [`Job::ahead`], or, once its items have
/// shown how long one takes, as many as its threads compute in [`QUEUE_COVERS`] (at
/// most [`MAX_AHEAD`]), so that a thread never waits for its next item while the
/// rank's main thread looks once a slice. A job that wants none queued gets none.
fn ahead(job_ahead: usize, book: &RankBook) -> usize {
    if job_ahead == 0 || book.items == 0 {
        return job_ahead;
    }
    // Items longer than QUEUE_COVERS keep the job's own number.
    let per_item = (book.busy_ns / book.items).max(1);
    let per_slot = QUEUE_COVERS.as_nanos() as u64 / per_item;
    let per_rank = usize::try_from(per_slot)
        .unwrap_or(usize::MAX)
        .saturating_mul(book.slots.max(1));
    per_rank.min(MAX_AHEAD).max(job_ahead)
}

/// Gives `rank` items up to its slots and `ahead` more ([`Job::ahead`]), or tells it
/// to stop.
fn feed<T: Transport>(
    book: &mut Dispatcher,
    transport: &mut T,
    rank: usize,
    ahead: usize,
) -> Result<(), String> {
    let cap = book.ranks()[rank].slots + ahead;
    while let Some(index) = book.assign(rank, cap) {
        transport.send(rank, &Message::Assign { index })?;
    }
    if book.should_stop(rank) {
        transport.send(rank, &Message::Stop { abort: false })?;
        book.stopped(rank);
    }
    Ok(())
}

/// One line per rank on standard error: its host, items, busy time, how many items
/// it computed at once ([`super::super::Job::slots`]: its threads for perft, 1 for
/// items that use every thread themselves) and nodes.
fn print_summary(book: &Dispatcher, resumed: usize) {
    if resumed > 0 {
        crate::errln!("{} items read from the checkpoint", resumed);
    }
    for (rank, b) in book.ranks().iter().enumerate() {
        let spare = if b.spare_answered + b.dropped > 0 {
            format!(
                "; {} of the items spare (not needed), {} spare dropped",
                b.spare_answered, b.dropped
            )
        } else {
            String::new()
        };
        crate::errln!(
            "rank {} on {}: {} items, {} busy, {} at a time, {} nodes{}",
            rank,
            b.host.as_deref().unwrap_or("?"),
            b.items,
            super::secs(b.busy_ns),
            b.slots,
            b.nodes,
            spare
        );
    }
}
