//! `ply solve kalah` under `mpirun` or `srun` (the `mpi` feature): a first move's
//! replies are the work items of [`crate::distributed`], dealt out as the results
//! before them call for them, each solved on one thread of a rank over that rank's own
//! transposition table (shared by its threads) and endgame tables. Rank 0 prints what
//! one process prints.
//!
//! Every first move's exact value is needed. A position's exact value, for the
//! mover before it, is settled from its replies (valued for its own mover):
//! 1. its most promising reply by a shallow estimate (at most 12 plies, on rank 0)
//!    is settled first, split the same way in turn while it is fewer than
//!    `--split-plies` plies below the root (by default
//!    [`default_split_plies`] of the workers), else solved whole as one item
//!    ([`Item::Exact`]): the position is worth at least its value `b`;
//! 2. every other reply is then tested against `b` ([`Item::Above`]): solved
//!    exactly if it is worth more than `b`, else only bounded (at most `b`), which
//!    costs a null-window search. A reply found above `b` raises `b`, and the
//!    replies not yet bounded by the new `b` are tested against it;
//! 3. once every reply is exact or bounded by the best exact one, the position's
//!    value is that best value.
//!
//! While a position's most promising reply is being settled, its other replies are
//! spare items ([`Job::spare`]): null-window tests against that reply's estimate
//! ([`Item::Test`], never solved exactly: an estimate too low would otherwise have
//! them solve replies that do not matter), for a slot that would otherwise idle. A
//! reply found at most the estimate needs no second test if the value comes out at
//! least the estimate.
//!
//! So the slowest first move is no longer one item: its replies spread over the
//! ranks, and only the replies that can matter are solved exactly (solving every
//! reply exactly cost six times the nodes, `docs/log/2026-11-27-mpi.md`). With
//! `--split-plies 1` each first move is one item.
//!
//! What this gives up against one process: the ranks share no table (what one rank
//! proved about a position, another proves again), and a first move's value is not
//! searched below the root's value (one process proves the root first, then each
//! move below it). `--checkpoint` keeps the finished items (an item under way is
//! solved again after `--resume`), in a checkpoint of its own: one written by a
//! one-process solve is refused here, and the other way round.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use ply_core::games::kalah::solver::{
    bounds_for_player, KalahSolver, Quiet, SolveControl, SolverEntry,
};
use ply_core::games::kalah::Kalah;
use ply_core::search::for_player;
use ply_core::{Game, Player};

mod items;
mod sharing;

use items::{Item, Layout, Path, ReplyBounds, SPLIT_PLIES};
use sharing::{Outbox, Sharing};

use super::scheduler::Solved;
use super::{checkpoint, guess_depth, output, Memory};
use crate::distributed::{Job, Options};
use crate::solving::{SolveOptions, SolveOutput};

/// The deepest estimate that picks a split position's most promising reply.
const ELDEST_PLIES: u32 = 12;

/// The plies split when `--split-plies` does not say, for `workers` slots
/// in all (ranks × threads). A solve on `W` workers takes at least the larger of
/// its nodes ÷ `W` and its largest item; for Kalah(6,4) (docs/log/2026-11-27-mpi.md, "Splitting
/// below the first moves") a 2-ply split has the fewest nodes (146.8 M, largest
/// item 56.0 M), a 3-ply split 170.1 M with items of at most 23.5 M, a 4-ply split
/// 174.0 M and 23.0 M. So: 2 plies up to 3 workers (2 ranks were fastest so on this
/// project's 2-core machine), 3 from 4 workers, 4 from 16 (where bigger boards'
/// largest items weigh most).
pub(super) fn default_split_plies(workers: usize) -> usize {
    match workers {
        0..=3 => 2,
        4..=15 => 3,
        _ => 4,
    }
}

/// Where a position stands, from the results so far.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Standing {
    /// Its value for the mover before it.
    Settled(i32),
    /// The items it needs next.
    Needs(Vec<Item>),
}

/// The first moves, split along their most promising replies, as items.
struct Replies<'a> {
    root: &'a Kalah,
    layout: Layout,
    memory: &'a Memory,
    settings: &'a SolveOptions,
    start: std::time::Instant,
    /// Each split position's reply to settle first and its estimate for the
    /// position's mover (`None` if the estimates failed); rank 0 only, when first
    /// needed.
    eldest: Mutex<std::collections::HashMap<Path, (usize, Option<i32>)>>,
    /// Set by [`Job::abandon`]: items under way stop, none starts.
    abandoned: AtomicBool,
    /// Spare items under way that rank 0 wants dropped ([`Job::drop_item`]).
    dropping: Mutex<std::collections::HashSet<usize>>,
    /// The results as they arrive on rank 0, and which first moves were reported.
    seen: Mutex<(Vec<Option<ReplyBounds>>, Vec<bool>)>,
    /// The exact table entries this rank's searches found, to share with the
    /// other ranks ([`Job::shared`]).
    outbox: Outbox,
    /// Entries shared with the others, and learnt from them.
    sent: AtomicU64,
    learnt: AtomicU64,
}

impl<'a> Replies<'a> {
    /// The job for `ranks` ranks of `memory.threads` threads each.
    fn new(root: &'a Kalah, memory: &'a Memory, settings: &'a SolveOptions, ranks: usize) -> Self {
        let workers = ranks.max(1) * memory.threads.max(1);
        let mut job = Self::split(
            root,
            memory,
            settings,
            settings
                .split_plies
                .unwrap_or_else(|| default_split_plies(workers)),
        );
        if ranks > 1 {
            job.outbox = Outbox::new(
                settings
                    .share_work
                    .unwrap_or(crate::settings::DEFAULT_SHARE_WORK),
            );
        }
        job
    }

    /// [`Replies::new`] splitting `depth` plies (`1..=SPLIT_PLIES`).
    fn split(
        root: &'a Kalah,
        memory: &'a Memory,
        settings: &'a SolveOptions,
        depth: usize,
    ) -> Self {
        let span =
            (root.seeds_in_play() + root.store(Player::First) + root.store(Player::Second)) as i32;
        let layout = Layout {
            pits: usize::from(root.rules().pits),
            span,
            depth: depth.clamp(1, SPLIT_PLIES),
        };
        Replies {
            root,
            layout,
            memory,
            settings,
            start: std::time::Instant::now(),
            eldest: Mutex::new(std::collections::HashMap::new()),
            abandoned: AtomicBool::new(false),
            dropping: Mutex::new(std::collections::HashSet::new()),
            seen: Mutex::new((
                vec![None; layout.items()],
                vec![false; root.legal_moves().len()],
            )),
            outbox: Outbox::new(crate::settings::NO_SHARING),
            sent: AtomicU64::new(0),
            learnt: AtomicU64::new(0),
        }
    }

    /// One solver (one thread's) over this rank's memory, whose exact entries of
    /// enough work also go to the outbox.
    fn solver(&self) -> Result<KalahSolver<'_, Sharing<'_>>, String> {
        let (tables, table, config) = self.memory.parts(self.root)?;
        let mut solver =
            KalahSolver::with_table(self.root.rules(), Sharing::new(table, &self.outbox), tables)
                .map_err(|e| e.to_string())?;
        solver.set_config(config);
        Ok(solver)
    }

    fn first_moves(&self) -> usize {
        self.root.legal_moves().len()
    }

    /// The position at `path` and the one before it, if the path is legal.
    fn position(&self, path: &Path) -> Option<(Kalah, Kalah)> {
        let mut before = *self.root;
        let mut at = *self.root;
        for &m in path.moves() {
            let moves = at.legal_moves();
            let &mv = moves.get(usize::from(m))?;
            before = at;
            at = at.play_unchecked(mv);
        }
        Some((before, at))
    }

    /// The moves of `path` as the board shows them: `1 3 5`.
    fn name(&self, path: &Path) -> String {
        let mut at = *self.root;
        let mut names = Vec::new();
        for &m in path.moves() {
            let moves = at.legal_moves();
            let Some(&mv) = moves.get(usize::from(m)) else {
                names.push("?".to_string());
                break;
            };
            names.push(at.display_move(mv).to_string());
            at = at.play_unchecked(mv);
        }
        names.join(" ")
    }

    /// Plies of a first guess for `game`.
    fn guess_plies(&self, game: &Kalah) -> u32 {
        self.settings
            .guess_depth
            .unwrap_or_else(|| guess_depth(game.seeds_in_play()))
    }

    /// The reply of the position `at` to settle first: the best for its mover by a
    /// shallow estimate of every reply (the first reply if the estimates fail), and
    /// its estimate.
    fn eldest_of(&self, path: &Path, at: &Kalah) -> (usize, Option<i32>) {
        let mut known = self.eldest.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&e) = known.get(path) {
            return e;
        }
        let mover = at.side_to_move();
        let mut best = (i32::MIN, 0);
        let mut estimated = true;
        if let Ok(mut solver) = self.memory.solver(self.root) {
            for (r, &mv) in at.legal_moves().iter().enumerate() {
                let g = at.play_unchecked(mv);
                // Rank 0 estimates on the thread that answers the ranks: a
                // shallow order is enough to pick a reply, and a deep one would
                // keep the ranks waiting (a big board's first guesses go 20 plies).
                let plies = self.guess_plies(&g).min(ELDEST_PLIES);
                let Ok(e) = solver.estimate(&g, plies, 0, &mut Quiet) else {
                    estimated = false;
                    break;
                };
                let v = for_player(&g, mover, e);
                if v > best.0 {
                    best = (v, r);
                }
            }
        }
        let span = self.layout.span;
        let found = (
            best.1,
            (estimated && best.0 != i32::MIN).then(|| best.0.clamp(-span, span)),
        );
        known.insert(*path, found);
        found
    }

    /// Where the position at `path` stands given `results`: its value for the mover
    /// before it, or the items it needs next. A position above the split depth
    /// settles its most promising reply first (split in turn), then tests the
    /// others against the best value known; until a reply is exact, tests of the
    /// others against the most promising one's estimate go to `spare`, the deepest
    /// positions' first.
    fn standing(
        &self,
        path: &Path,
        results: &[Option<ReplyBounds>],
        spare: &mut Vec<Item>,
    ) -> Standing {
        let Some((before, at)) = self.position(path) else {
            return Standing::Needs(Vec::new());
        };
        let parent_mover = before.side_to_move();
        let span = self.layout.span;
        // This position's own items first: an exact value settles it.
        let own = self.items_of(path);
        for item in own {
            if let Some(r) = &results[self.layout.index(item)] {
                if r.lo == r.hi {
                    return Standing::Settled(r.lo);
                }
            }
        }
        let replies = at.legal_moves().len();
        if replies == 0 {
            return Standing::Settled(for_player(&at, parent_mover, at.store_difference()));
        }
        if path.len >= self.layout.depth {
            return Standing::Needs(vec![Item::Exact(*path)]);
        }
        // Split: every reply's exact value for this position's mover if known, and
        // its best upper bound.
        let mut exact = vec![None; replies];
        let mut upper = vec![span; replies];
        for r in 0..replies {
            let Some(c) = path.child(r) else { continue };
            for item in self.items_of(&c) {
                if let Some(x) = &results[self.layout.index(item)] {
                    upper[r] = upper[r].min(x.hi);
                    if x.lo == x.hi {
                        exact[r] = Some(x.lo);
                    }
                }
            }
        }
        // The most promising reply, settled through its own replies.
        let (first, estimate) = self.eldest_of(path, &at);
        let mut first_needs = Vec::new();
        if exact[first].is_none() {
            let c = path.child(first).expect("a split position has children");
            match self.standing(&c, results, spare) {
                Standing::Settled(v) => exact[first] = Some(v),
                Standing::Needs(items) => first_needs = items,
            }
        }
        let Some(best) = exact.iter().flatten().copied().max() else {
            if let Some(e) = estimate {
                spare.extend(
                    (0..replies)
                        .filter(|&r| r != first && upper[r] > e)
                        .filter_map(|r| Some(Item::Test(path.child(r)?, e))),
                );
            }
            return Standing::Needs(first_needs);
        };
        let mut open: Vec<Item> = (0..replies)
            .filter(|&r| r != first && exact[r].is_none() && upper[r] > best)
            .filter_map(|r| Some(Item::Above(path.child(r)?, best)))
            .collect();
        if exact[first].is_none() && upper[first] > best {
            open.extend(first_needs);
        }
        if open.is_empty() {
            Standing::Settled(for_player(&at, parent_mover, best))
        } else {
            Standing::Needs(open)
        }
    }

    /// Every item about the position at `path`.
    fn items_of(&self, path: &Path) -> impl Iterator<Item = Item> {
        let (p, span) = (*path, self.layout.span);
        std::iter::once(Item::Exact(p))
            .chain((-span..=span).flat_map(move |b| [Item::Above(p, b), Item::Test(p, b)]))
    }

    /// The progress line of first move `mv`, settled at `value`.
    fn settled_line(&self, mv: usize, value: i32) {
        crate::errln!(
            "{:>7.1} s pit {}: value {}",
            self.start.elapsed().as_secs_f64(),
            self.name(&Path::first(mv)),
            value
        );
    }

    /// Solves the item (number `index`) on this thread.
    fn compute(&self, index: usize, item: Item) -> Result<ReplyBounds, String> {
        let path = item.path();
        let (before, g) = self
            .position(&path)
            .ok_or_else(|| format!("no position at {:?}", path.moves()))?;
        let mover = before.side_to_move();
        if g.legal_moves().is_empty() {
            let v = for_player(&g, mover, g.store_difference());
            return Ok(ReplyBounds {
                lo: v,
                hi: v,
                nodes: 0,
            });
        }
        let g = &g;
        let span = self.layout.span;
        let stop = || Abandon {
            all: &self.abandoned,
            dropping: &self.dropping,
            index,
        };
        if stop().should_stop() {
            return Err("abandoned: the run is over or the slot is wanted".into());
        }
        let mut solver = self.solver()?;
        let stopped = |e: ply_core::games::kalah::solver::Interrupted| e.to_string();
        // Bounds for `g`'s own mover, searched from `guess` to the exact value.
        let mut exact = |lo: i32, hi: i32, guess: i32| {
            solver
                .solve_bounded(g, lo, hi, guess, u64::MAX, &mut stop())
                .map_err(stopped)
        };
        let (lo, hi) = match item {
            Item::Exact(_) => {
                let mut guesser = self.solver()?;
                let guess = guesser
                    .estimate(g, self.guess_plies(g), 0, &mut stop())
                    .map_err(stopped)?;
                exact(-span, span, guess)?
            }
            Item::Above(_, bound) | Item::Test(_, bound) => {
                // "Worth more than `bound` to the mover before `g`", as a test of
                // `g`'s own mover: "at least bound + 1", or, for the other side,
                // "less than -bound" (not "at least -bound").
                let same = g.side_to_move() == mover;
                let beta = if same { bound + 1 } else { -bound };
                let mut tester = self.solver()?;
                let (lo, hi) = tester
                    .test(g, -span, span, beta, &mut stop())
                    .map_err(stopped)?;
                let nodes = tester.nodes();
                let (clo, chi) = bounds_for_player(g, mover, (lo, hi));
                if chi <= bound || matches!(item, Item::Test(..)) {
                    return Ok(ReplyBounds {
                        lo: clo,
                        hi: chi,
                        nodes,
                    });
                }
                // Above the bound: its exact value, from the side the test moved.
                let guess = if lo >= beta { lo } else { hi };
                let (lo, hi) = exact(lo, hi, guess)?;
                let (clo, chi) = bounds_for_player(g, mover, (lo, hi));
                return Ok(ReplyBounds {
                    lo: clo,
                    hi: chi,
                    nodes: nodes + solver.nodes(),
                });
            }
        };
        let (clo, chi) = bounds_for_player(g, mover, (lo, hi));
        Ok(ReplyBounds {
            lo: clo,
            hi: chi,
            nodes: solver.nodes(),
        })
    }
}

impl Job for Replies<'_> {
    type Output = ReplyBounds;

    fn fingerprint(&self) -> String {
        format!(
            "{}; split {} plies (PLY_KALAH_SPLIT_PLIES) down along each position's most promising reply, the \
             other replies tested against its value (spare: against its estimate)",
            checkpoint::fingerprint(self.root, u64::MAX),
            self.layout.depth
        )
    }

    fn items(&self) -> usize {
        self.layout.items()
    }

    fn slots(&self) -> usize {
        // An item is one thread's solve; a rank's threads share its table.
        self.memory.threads.max(1)
    }

    fn run(&self, index: usize) -> Result<ReplyBounds, String> {
        let item = self
            .layout
            .item(index)
            .ok_or_else(|| format!("no item {}", index))?;
        // A drop asked for while an earlier run of the item was ending is not
        // this run's.
        let dropping = || self.dropping.lock().unwrap_or_else(|e| e.into_inner());
        dropping().remove(&index);
        let out = self.compute(index, item);
        dropping().remove(&index);
        out
    }

    fn needed(&self, results: &[Option<ReplyBounds>]) -> Option<Vec<usize>> {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let mut items = Vec::new();
        for mv in 0..self.first_moves() {
            match self.standing(&Path::first(mv), results, &mut Vec::new()) {
                Standing::Needs(v) => items.extend(v.into_iter().map(|i| self.layout.index(i))),
                // A move settled with no item of its own (one that ends the game,
                // or whose only reply does) gets its line here.
                Standing::Settled(v) if !seen.1[mv] => {
                    seen.1[mv] = true;
                    self.settled_line(mv, v);
                }
                Standing::Settled(_) => {}
            }
        }
        Some(items)
    }

    fn spare(&self, results: &[Option<ReplyBounds>]) -> Vec<usize> {
        let mut spare = Vec::new();
        for mv in 0..self.first_moves() {
            self.standing(&Path::first(mv), results, &mut spare);
        }
        spare.into_iter().map(|i| self.layout.index(i)).collect()
    }

    fn abandon(&self) {
        self.abandoned.store(true, Ordering::Relaxed);
    }

    fn drop_item(&self, index: usize) {
        self.dropping
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(index);
    }

    fn ahead(&self) -> usize {
        // An item can take minutes: none waits queued behind a busy rank.
        0
    }

    fn finished(&self, index: usize, output: &ReplyBounds) {
        let Some(item) = self.layout.item(index) else {
            return;
        };
        let path = item.path();
        let (tested, bound) = match item {
            Item::Exact(_) => (String::new(), self.layout.span),
            Item::Above(_, b) => (format!("against {}, ", b), b),
            Item::Test(_, b) => (format!("spare test against {}, ", b), b),
        };
        let found = if output.lo == output.hi {
            format!("{}value {}", tested, output.lo)
        } else if output.hi <= bound {
            format!("{}at most {}", tested, output.hi)
        } else {
            format!("{}at least {}", tested, output.lo)
        };
        let rest = self
            .name(&path)
            .split_once(' ')
            .map_or("whole".to_string(), |(_, rest)| {
                format!("reply pit {}", rest)
            });
        crate::errln!(
            "{:>7.1} s pit {}, {}: {} ({} nodes)",
            self.start.elapsed().as_secs_f64(),
            self.name(&Path::first(usize::from(path.moves[0]))),
            rest,
            found,
            output.nodes
        );
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.0[index] = Some(*output);
        let mv = usize::from(path.moves[0]);
        if let (false, Standing::Settled(v)) = (
            seen.1[mv],
            self.standing(&Path::first(mv), &seen.0, &mut Vec::new()),
        ) {
            seen.1[mv] = true;
            self.settled_line(mv, v);
        }
    }

    fn label(&self) -> Option<&str> {
        None
    }

    fn shared(&self) -> Vec<u64> {
        let entries = self.outbox.take();
        self.sent.fetch_add(entries.len() as u64, Ordering::Relaxed);
        entries.iter().flat_map(SolverEntry::to_words).collect()
    }

    fn learn(&self, words: &[u64]) {
        let Ok((_, mut table, _)) = self.memory.parts(self.root) else {
            return;
        };
        use ply_core::games::kalah::solver::{learn, prefetch_learn};
        let entries: Vec<SolverEntry> = words
            .chunks_exact(3)
            .filter_map(|w| SolverEntry::from_words([w[0], w[1], w[2]]))
            .collect();
        // Buckets asked for a batch ahead, so that the waits for memory overlap.
        const AHEAD: usize = 16;
        for e in entries.iter().take(AHEAD) {
            prefetch_learn(&table, e);
        }
        for (i, &e) in entries.iter().enumerate() {
            if let Some(next) = entries.get(i + AHEAD) {
                prefetch_learn(&table, next);
            }
            learn(&mut table, e);
        }
        self.learnt
            .fetch_add(entries.len() as u64, Ordering::Relaxed);
    }
}

/// A control that stops an item's solve once the run is over ([`Job::abandon`]) or
/// rank 0 wants its slot back ([`Job::drop_item`]).
struct Abandon<'a> {
    all: &'a AtomicBool,
    dropping: &'a Mutex<std::collections::HashSet<usize>>,
    index: usize,
}

impl SolveControl for Abandon<'_> {
    fn should_stop(&mut self) -> bool {
        self.all.load(Ordering::Relaxed)
            || self
                .dropping
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains(&self.index)
    }
}

/// [`super::solve`] on the ranks of an MPI run (or one process started by a
/// launcher): rank 0 gets the output, the other ranks `None`.
pub(super) fn solve(
    game: &Kalah,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Option<SolveOutput>, String> {
    for (set, name) in [
        (
            options.move_nodes.is_some(),
            "--move-nodes (PLY_KALAH_MOVE_NODES)",
        ),
        (options.stop_nodes.is_some(), "PLY_KALAH_STOP_NODES"),
    ] {
        if set {
            return Err(format!(
                "{} applies to the solve of one process, not under mpirun or srun \
                 (where every first move is solved exactly): unset it",
                name
            ));
        }
    }
    let memory = Memory::prepare(game, options, progress)?;
    let t1 = std::time::Instant::now();
    let ranks = crate::distributed::launch()
        .and_then(|l| l.size)
        .unwrap_or(1);
    let job = Replies::new(game, &memory, options, ranks);
    if !crate::distributed::other_rank() {
        let depth = job.layout.depth;
        crate::errln!(
            "split {} {} down ({})",
            depth,
            if depth == 1 { "ply" } else { "plies" },
            match options.split_plies {
                Some(_) => "--split-plies".to_string(),
                None => format!(
                    "the default for {} ranks × {} threads; --split-plies chooses",
                    ranks,
                    memory.threads.max(1)
                ),
            }
        );
    }
    let distributed = Options {
        checkpoint: options.checkpoint.clone(),
        resume: options.resume,
        command: String::new(),
        rank_timeout: options.rank_timeout,
    };
    let Some(results) = crate::distributed::run_partial(&job, &distributed)? else {
        return Ok(None);
    };
    if ranks > 1 {
        crate::errln!(
            "table entries shared: {} sent by rank 0, {} learnt from the other ranks",
            job.sent.load(Ordering::Relaxed),
            job.learnt.load(Ordering::Relaxed)
        );
    }
    let solved = assemble(&job, &results)?;
    Ok(Some(output(
        game,
        &solved,
        &memory,
        t1.elapsed().as_secs_f64(),
    )))
}

/// The root's value and every first move's, from the items' results.
fn assemble(job: &Replies<'_>, results: &[Option<ReplyBounds>]) -> Result<Solved, String> {
    let legal = job.root.legal_moves();
    let mut moves = Vec::with_capacity(legal.len());
    for (mv, &pit) in legal.iter().enumerate() {
        match job.standing(&Path::first(mv), results, &mut Vec::new()) {
            Standing::Settled(v) => moves.push((pit, (v, v))),
            Standing::Needs(_) => {
                return Err(format!(
                    "pit {} is not settled by the items' results",
                    job.name(&Path::first(mv))
                ))
            }
        }
    }
    Ok(Solved {
        value: moves.iter().map(|m| m.1 .0).max().unwrap_or(0),
        moves,
        nodes: results.iter().flatten().map(|r| r.nodes).sum(),
    })
}

#[cfg(test)]
mod tests;
