//! The loop of a rank other than 0 ([`work`]): it computes the items rank 0 deals it.

use crate::distributed::codec::{fnv1a, Message, Record};
use crate::distributed::exec::Executor;
use crate::distributed::{Job, Options};

use std::time::Instant;

use super::{fingerprint, settle, Transport, ALIVE_EVERY, POLL, SHARE_EVERY};

/// A rank other than 0: says hello (its job's fingerprint hash, its slots, its host),
/// computes the items it is given and sends each result back, until rank 0 tells it to
/// stop (then a spare item still under way is abandoned, [`Job::abandon`], unsent).
pub fn work<J: Job, T: Transport>(
    job: &J,
    options: &Options,
    transport: &mut T,
    host: String,
) -> Result<(), String> {
    let fp = fnv1a(fingerprint(job, options).as_bytes());
    transport.send(
        0,
        &Message::Hello {
            fingerprint: fp,
            slots: job.slots(),
            host,
        },
    )?;
    let mut last_sent = Instant::now();
    let mut last_shared = Instant::now();
    std::thread::scope(|scope| {
        let mut exec = Executor::start(scope, job);
        let mut stop: Option<bool> = None;
        // Items given and not answered yet, and those rank 0 asked to drop.
        let mut held = std::collections::HashSet::new();
        let mut dropping = std::collections::HashSet::new();
        loop {
            if last_sent.elapsed() >= ALIVE_EVERY {
                transport.send(0, &Message::Alive)?;
                last_sent = Instant::now();
            }
            while let Some((from, t, bytes)) = transport.poll()? {
                let msg =
                    Message::decode(t, &bytes).map_err(|e| format!("rank {} sent {}", from, e))?;
                match msg {
                    Message::Assign { index } if index < job.items() && stop.is_none() => {
                        held.insert(index);
                        exec.submit(index)
                    }
                    Message::Drop { index } => {
                        // One already answered needs nothing: its answer is on its way.
                        if held.contains(&index) && dropping.insert(index) {
                            job.drop_item(index);
                        }
                    }
                    Message::Stop { abort } => {
                        stop = Some(abort);
                        // Whatever is still under way (spare items, or anything
                        // after a failure) is not wanted any more.
                        job.abandon();
                        if abort {
                            exec.cancel();
                        }
                    }
                    Message::Share { words } => job.learn(&words),
                    other => return Err(format!("rank {} sent {:?}", from, other)),
                }
            }
            match stop {
                // Rank 0 failed and says why: this rank ends quietly.
                Some(true) => return Ok(()),
                Some(false) if exec.in_flight() == 0 => {
                    settle(transport);
                    return Ok(());
                }
                _ => {}
            }
            let finished = exec.finished(POLL);
            // Only while it holds items, before their answers: rank 0 then still
            // reads (an answer is still to come after it), so a share never waits
            // on a rank 0 that has ended. What an item learnt leaves before its
            // answer.
            if stop.is_none()
                && !held.is_empty()
                && (!finished.is_empty() || last_shared.elapsed() >= SHARE_EVERY)
            {
                last_shared = Instant::now();
                let words = job.shared();
                if !words.is_empty() {
                    transport.share(0, &Message::Share { words }.encode())?;
                    last_sent = Instant::now();
                }
            }
            transport.flush();
            for f in finished {
                held.remove(&f.index);
                let dropped = dropping.remove(&f.index);
                if stop.is_some() {
                    // An abandoned spare item: rank 0 has what it needs.
                    continue;
                }
                let msg = match f.output {
                    Err(_) if dropped => Message::Dropped { index: f.index },
                    Ok(out) => Message::Done {
                        index: f.index,
                        busy_ns: f.busy_ns,
                        words: out.encode(),
                    },
                    Err(error) => Message::Failed {
                        index: f.index,
                        error,
                    },
                };
                transport.send(0, &msg)?;
                last_sent = Instant::now();
            }
        }
    })
}
