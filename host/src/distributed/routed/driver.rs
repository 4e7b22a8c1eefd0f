//! A routed count from start to end on one rank: the hellos, the items left after a
//! checkpoint, batch after batch, and on rank 0 the checkpoint, the progress line and
//! the per-rank summary.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ply_core::perft::PerftKey;

use super::batch::Routed;
use super::settings::Routing;
use super::transport::{Fault, Link, Net, Tally};
use crate::distributed::codec::{fnv1a, Message};
use crate::distributed::coordinator::{
    fingerprint, install_hook, saved_count, start_results, Saver, DEFAULT_RANK_TIMEOUT,
};
use crate::distributed::perft::{PerftJob, SubtreeCount};
use crate::distributed::{Job, Options};
use crate::parallel::SharedPerftTable;
use crate::quote::quote;

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
            crate::distributed::complete(results).map(Some)
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
                crate::distributed::secs(t.busy_ns),
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
