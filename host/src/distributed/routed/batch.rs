//! One batch of a routed count on one rank, level by level (the module above says
//! how): down (look up, expand, send each child to its owner, merge by key), below
//! (count the last routed ply alone), up (counts back to the parents, stored by their
//! owners).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use ply_core::perft::PerftKey;

use super::level::{finish, owner, Level, Path, Replay, MAX_PATH, PREFETCH_AHEAD};
use super::settings::Routing;
use super::transport::{Fault, Link, Net};
use crate::distributed::perft::PerftJob;
use crate::parallel::perft_table::Counted;
use crate::parallel::SharedPerftTable;

/// Wakes a thread when dropped.
struct Unpark(std::thread::Thread);

impl Drop for Unpark {
    fn drop(&mut self) {
        self.0.unpark();
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
pub(super) struct Routed<'j, 't, G: PerftKey> {
    pub(super) job: &'j PerftJob<'t, G>,
    pub(super) table: &'t SharedPerftTable,
    pub(super) routing: Routing,
    pub(super) cancel: AtomicBool,
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
    pub(super) fn batch<N: Net>(
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
