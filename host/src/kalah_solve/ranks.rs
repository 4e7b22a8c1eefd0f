//! `ply solve kalah` under `mpirun` or `srun` (the `mpi` feature): a first move's
//! replies are the work items of [`crate::distributed`], dealt out as the results
//! before them call for them, each solved on one thread of a rank over that rank's own
//! transposition table (shared by its threads) and endgame tables. Rank 0 prints what
//! one process prints.
//!
//! Every first move's exact value is needed. A position's exact value, for the
//! mover before it, is settled from its replies (valued for its own mover):
//! 1. its most promising reply by a shallow estimate (at most 12 plies, on rank 0)
//!    is settled first, split the
//!    same way in turn while it is fewer than `PLY_KALAH_SPLIT_PLIES` plies below
//!    the root (default [`DEFAULT_SPLIT_PLIES`]), else solved whole as one item
//!    ([`Item::Exact`]): the position is worth at least its value `b`;
//! 2. every other reply is then tested against `b` ([`Item::Above`]): solved
//!    exactly if it is worth more than `b`, else only bounded (at most `b`), which
//!    costs a null-window search. A reply found above `b` raises `b`, and the
//!    replies not yet bounded by the new `b` are tested against it;
//! 3. once every reply is exact or bounded by the best exact one, the position's
//!    value is that best value.
//!
//! So the slowest first move is no longer one item: its replies spread over the
//! ranks, and only the replies that can matter are solved exactly (solving every
//! reply exactly cost six times the nodes, `docs/mpi.md`). With
//! `PLY_KALAH_SPLIT_PLIES=1` each first move is one item.
//!
//! What this gives up against one process: the ranks share no table (what one rank
//! proved about a position, another proves again), and a first move's value is not
//! searched below the root's value (one process proves the root first, then each
//! move below it). `--checkpoint` keeps the finished items (an item under way is
//! solved again after `--resume`), in a checkpoint of its own: one written by a
//! one-process solve is refused here, and the other way round.

use std::sync::Mutex;

use ply_core::games::kalah::solver::{bounds_for_player, Quiet};
use ply_core::games::kalah::Kalah;
use ply_core::search::for_player;
use ply_core::{Game, Player};

use super::scheduler::Solved;
use super::{checkpoint, guess_depth, output, Memory};
use crate::distributed::{Job, Options, Record};
use crate::games::{SolveOptions, SolveOutput};

/// What an item found about a reply: bounds on its value for the mover of the
/// position before it (`lo == hi`: exact), and the nodes its search took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ReplyBounds {
    pub(super) lo: i32,
    pub(super) hi: i32,
    pub(super) nodes: u64,
}

/// The largest margin a Kalah board can give: a record claiming more is refused.
const MAX_MARGIN: i64 = ply_core::games::kalah::MAX_TOTAL_SEEDS as i64;

impl Record for ReplyBounds {
    const WORDS: usize = 3;
    fn encode(&self) -> Vec<u64> {
        vec![
            i64::from(self.lo) as u64,
            i64::from(self.hi) as u64,
            self.nodes,
        ]
    }
    fn decode(words: &[u64]) -> Option<Self> {
        match *words {
            [lo, hi, nodes]
                if (lo as i64).abs() <= MAX_MARGIN
                    && (hi as i64).abs() <= MAX_MARGIN
                    && (lo as i64) <= (hi as i64) =>
            {
                Some(ReplyBounds {
                    lo: lo as i64 as i32,
                    hi: hi as i64 as i32,
                    nodes,
                })
            }
            _ => None,
        }
    }
    fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// The most plies below the root a solve splits (`PLY_KALAH_SPLIT_PLIES`): paths
/// have room for this many moves.
const SPLIT_PLIES: usize = crate::settings::MAX_SPLIT_PLIES;

/// The deepest estimate that picks a split position's most promising reply.
const ELDEST_PLIES: u32 = 12;

/// The plies split by default: on this project's 2-core machine 2 ranks solved
/// Kalah(6,4) fastest so (docs/mpi.md); deeper splits make the largest item
/// smaller, for runs with more ranks than first moves.
pub(super) const DEFAULT_SPLIT_PLIES: usize = 2;

/// A position below the root: the moves (generation order, `0..pits`) that lead to
/// it, at most [`SPLIT_PLIES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Path {
    moves: [u8; SPLIT_PLIES],
    len: usize,
}

impl Path {
    fn first(mv: usize) -> Self {
        let mut moves = [0; SPLIT_PLIES];
        moves[0] = mv as u8;
        Path { moves, len: 1 }
    }

    fn child(&self, reply: usize) -> Option<Self> {
        if self.len >= SPLIT_PLIES {
            return None;
        }
        let mut c = *self;
        c.moves[c.len] = reply as u8;
        c.len += 1;
        Some(c)
    }

    fn moves(&self) -> &[u8] {
        &self.moves[..self.len]
    }
}

/// What an item asks about the position at a path: its value for the mover before
/// it (the value of the path's last move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    /// The exact value.
    Exact(Path),
    /// The exact value if it is above the bound, else a bound at most the bound.
    Above(Path, i32),
}

/// How items are numbered: a path's moves as digits `1..=pits` in base `pits + 1`
/// (0: no move), and for each path the exact item, then one item per bound
/// `-span..=span`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    pits: usize,
    /// The largest margin of the board: every seed.
    span: i32,
    /// Plies split (at most [`SPLIT_PLIES`]): below this a position is solved whole.
    depth: usize,
}

impl Layout {
    fn per_path(&self) -> usize {
        1 + (2 * self.span as usize + 1)
    }

    /// Path codes: up to `depth` moves (deeper paths have no items).
    fn paths(&self) -> usize {
        (self.pits + 1).pow(self.depth as u32)
    }

    fn items(&self) -> usize {
        self.paths() * self.per_path()
    }

    fn code(&self, path: &Path) -> usize {
        path.moves()
            .iter()
            .rev()
            .fold(0, |c, &m| c * (self.pits + 1) + usize::from(m) + 1)
    }

    fn index(&self, item: Item) -> usize {
        let (path, k) = match item {
            Item::Exact(p) => (p, 0),
            Item::Above(p, bound) => (
                p,
                1 + (bound.clamp(-self.span, self.span) + self.span) as usize,
            ),
        };
        self.code(&path) * self.per_path() + k
    }

    fn item(&self, index: usize) -> Option<Item> {
        if index >= self.items() {
            return None;
        }
        let k = index % self.per_path();
        let mut code = index / self.per_path();
        let mut path = Path {
            moves: [0; SPLIT_PLIES],
            len: 0,
        };
        while code > 0 {
            let digit = code % (self.pits + 1);
            if digit == 0 {
                return None;
            }
            path.moves[path.len] = (digit - 1) as u8;
            path.len += 1;
            code /= self.pits + 1;
        }
        if path.len == 0 {
            return None;
        }
        Some(if k == 0 {
            Item::Exact(path)
        } else {
            Item::Above(path, k as i32 - 1 - self.span)
        })
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
    env: &'a crate::settings::Environment,
    start: std::time::Instant,
    /// Each split position's reply to settle first (rank 0 only, when first needed).
    eldest: Mutex<std::collections::HashMap<Path, usize>>,
    /// The results as they arrive on rank 0, and which first moves were reported.
    seen: Mutex<(Vec<Option<ReplyBounds>>, Vec<bool>)>,
}

impl<'a> Replies<'a> {
    fn new(root: &'a Kalah, memory: &'a Memory, env: &'a crate::settings::Environment) -> Self {
        Self::split(
            root,
            memory,
            env,
            env.split_plies.unwrap_or(DEFAULT_SPLIT_PLIES),
        )
    }

    /// [`Replies::new`] splitting `depth` plies (`1..=SPLIT_PLIES`).
    fn split(
        root: &'a Kalah,
        memory: &'a Memory,
        env: &'a crate::settings::Environment,
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
            env,
            start: std::time::Instant::now(),
            eldest: Mutex::new(std::collections::HashMap::new()),
            seen: Mutex::new((
                vec![None; layout.items()],
                vec![false; root.legal_moves().len()],
            )),
        }
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
        self.env
            .guess_depth
            .unwrap_or_else(|| guess_depth(game.seeds_in_play()))
    }

    /// The reply of the position `at` to settle first: the best for its mover by a
    /// shallow estimate of every reply (the first reply if the estimates fail).
    fn eldest_of(&self, path: &Path, at: &Kalah) -> usize {
        let mut known = self.eldest.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&e) = known.get(path) {
            return e;
        }
        let mover = at.side_to_move();
        let mut best = (i32::MIN, 0);
        if let Ok(mut solver) = self.memory.solver(self.root) {
            for (r, &mv) in at.legal_moves().iter().enumerate() {
                let g = at.play_unchecked(mv);
                // Rank 0 estimates on the thread that answers the ranks: a
                // shallow order is enough to pick a reply, and a deep one would
                // keep the ranks waiting (a big board's first guesses go 20 plies).
                let plies = self.guess_plies(&g).min(ELDEST_PLIES);
                let Ok(e) = solver.estimate(&g, plies, 0, &mut Quiet) else {
                    break;
                };
                let v = for_player(&g, mover, e);
                if v > best.0 {
                    best = (v, r);
                }
            }
        }
        known.insert(*path, best.1);
        best.1
    }

    /// Where the position at `path` stands given `results`: its value for the mover
    /// before it, or the items it needs next. A position above the split depth
    /// settles its most promising reply first (split in turn), then tests the
    /// others against the best value known.
    fn standing(&self, path: &Path, results: &[Option<ReplyBounds>]) -> Standing {
        let Some((before, at)) = self.position(path) else {
            return Standing::Needs(Vec::new());
        };
        let parent_mover = before.side_to_move();
        let span = self.layout.span;
        // This position's own items first: an exact value settles it.
        let own = std::iter::once(Item::Exact(*path))
            .chain((-span..=span).map(|b| Item::Above(*path, b)));
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
            let items =
                std::iter::once(Item::Exact(c)).chain((-span..=span).map(|b| Item::Above(c, b)));
            for item in items {
                if let Some(x) = &results[self.layout.index(item)] {
                    upper[r] = upper[r].min(x.hi);
                    if x.lo == x.hi {
                        exact[r] = Some(x.lo);
                    }
                }
            }
        }
        // The most promising reply, settled through its own replies.
        let first = self.eldest_of(path, &at);
        let mut first_needs = Vec::new();
        if exact[first].is_none() {
            let c = path.child(first).expect("a split position has children");
            match self.standing(&c, results) {
                Standing::Settled(v) => exact[first] = Some(v),
                Standing::Needs(items) => first_needs = items,
            }
        }
        let Some(best) = exact.iter().flatten().copied().max() else {
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

    /// The progress line of first move `mv`, settled at `value`.
    fn settled_line(&self, mv: usize, value: i32) {
        crate::errln!(
            "{:>7.1} s pit {}: value {}",
            self.start.elapsed().as_secs_f64(),
            self.name(&Path::first(mv)),
            value
        );
    }

    /// Solves the item on this thread.
    fn compute(&self, item: Item) -> Result<ReplyBounds, String> {
        let path = match item {
            Item::Exact(p) | Item::Above(p, _) => p,
        };
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
        let mut solver = self.memory.solver(self.root)?;
        let stopped = |e: ply_core::games::kalah::solver::Interrupted| e.to_string();
        // Bounds for `g`'s own mover, searched from `guess` to the exact value.
        let mut exact = |lo: i32, hi: i32, guess: i32| {
            solver
                .solve_bounded(g, lo, hi, guess, u64::MAX, &mut Quiet)
                .map_err(stopped)
        };
        let (lo, hi) = match item {
            Item::Exact(_) => {
                let mut guesser = self.memory.solver(self.root)?;
                let guess = guesser
                    .estimate(g, self.guess_plies(g), 0, &mut Quiet)
                    .map_err(stopped)?;
                exact(-span, span, guess)?
            }
            Item::Above(_, bound) => {
                // "Worth more than `bound` to the mover before `g`", as a test of
                // `g`'s own mover: "at least bound + 1", or, for the other side,
                // "less than -bound" (not "at least -bound").
                let same = g.side_to_move() == mover;
                let beta = if same { bound + 1 } else { -bound };
                let mut tester = self.memory.solver(self.root)?;
                let (lo, hi) = tester
                    .test(g, -span, span, beta, &mut Quiet)
                    .map_err(stopped)?;
                let nodes = tester.nodes();
                let (clo, chi) = bounds_for_player(g, mover, (lo, hi));
                if chi <= bound {
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
            "{}; split {} plies down along each position's most promising reply, the \
             other replies tested against its value",
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
        self.compute(item)
    }

    fn needed(&self, results: &[Option<ReplyBounds>]) -> Option<Vec<usize>> {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let mut items = Vec::new();
        for mv in 0..self.first_moves() {
            match self.standing(&Path::first(mv), results) {
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

    fn ahead(&self) -> usize {
        // An item can take minutes: none waits queued behind a busy rank.
        0
    }

    fn finished(&self, index: usize, output: &ReplyBounds) {
        let Some(item) = self.layout.item(index) else {
            return;
        };
        let path = match item {
            Item::Exact(p) | Item::Above(p, _) => p,
        };
        let tested = match item {
            Item::Exact(_) => String::new(),
            Item::Above(_, b) => format!("against {}, ", b),
        };
        let found = if output.lo == output.hi {
            format!("{}value {}", tested, output.lo)
        } else {
            format!("{}at most {}", tested, output.hi)
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
        if let (false, Standing::Settled(v)) =
            (seen.1[mv], self.standing(&Path::first(mv), &seen.0))
        {
            seen.1[mv] = true;
            self.settled_line(mv, v);
        }
    }

    fn label(&self) -> Option<&str> {
        None
    }
}

/// [`super::solve`] on the ranks of an MPI run (or one process started by a
/// launcher): rank 0 gets the output, the other ranks `None`.
pub(super) fn solve(
    game: &Kalah,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Option<SolveOutput>, String> {
    let env = crate::settings::environment()?;
    for (set, name) in [
        (env.move_nodes.is_some(), "PLY_KALAH_MOVE_NODES"),
        (env.stop_nodes.is_some(), "PLY_KALAH_STOP_NODES"),
    ] {
        if set {
            return Err(format!(
                "{} applies to the solve of one process, not under mpirun or srun \
                 (where every first move is solved exactly): unset it",
                name
            ));
        }
    }
    let memory = Memory::prepare(game, &env, progress)?;
    let t1 = std::time::Instant::now();
    let job = Replies::new(game, &memory, &env);
    let distributed = Options {
        checkpoint: options.checkpoint.clone(),
        resume: options.resume,
        command: String::new(),
    };
    let Some(results) = crate::distributed::run_partial(&job, &distributed)? else {
        return Ok(None);
    };
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
        match job.standing(&Path::first(mv), results) {
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
mod tests {
    use super::*;
    use crate::distributed::coordinator::run_local;
    use ply_core::games::kalah::solver::{EndgameTables, KalahSolver, SolverEntry};
    use ply_core::games::kalah::KalahRules;
    use std::sync::atomic::AtomicU64;

    /// Solver memory without endgame tables: a 1 MiB table, `threads` threads.
    fn memory(threads: usize) -> Memory {
        Memory {
            values: super::super::tables::TableMemory::Owned(Vec::new()),
            seeds: 0,
            words: (0..(1 << 17) + 8).map(|_| AtomicU64::new(0)).collect(),
            threads,
            note: String::new(),
            table_secs: 0.0,
        }
    }

    #[test]
    fn reply_bounds_round_trip_and_refuse_impossible_words() {
        for v in [
            ReplyBounds {
                lo: -14,
                hi: -14,
                nodes: 303_579,
            },
            ReplyBounds {
                lo: -255,
                hi: 255,
                nodes: 0,
            },
        ] {
            assert_eq!(ReplyBounds::decode(&v.encode()), Some(v));
        }
        assert_eq!(ReplyBounds::decode(&[256, 256, 1]), None);
        assert_eq!(ReplyBounds::decode(&[0, (-256i64) as u64, 1]), None);
        assert_eq!(ReplyBounds::decode(&[2, 1, 1]), None, "lo above hi");
        assert_eq!(ReplyBounds::decode(&[1, 1]), None);
        assert_eq!(ReplyBounds::decode(&[1, 2, 3, 4]), None);
    }

    #[test]
    fn every_item_has_one_number() {
        let l = Layout {
            pits: 3,
            span: 5,
            depth: 2,
        };
        assert_eq!(l.items(), 4usize.pow(2) * 12);
        let mut seen = 0;
        for i in 0..l.items() {
            if let Some(item) = l.item(i) {
                assert_eq!(l.index(item), i, "{:?}", item);
                seen += 1;
            }
        }
        // Every path of 1 or 2 moves, each with its 12 items.
        let paths: usize = (1..=2).map(|k| 3usize.pow(k)).sum();
        assert_eq!(seen, paths * 12);
        assert_eq!(l.item(l.items()), None);
        let p = Path::first(2).child(0).unwrap();
        assert_eq!(
            l.item(l.index(Item::Above(p, -5))),
            Some(Item::Above(p, -5))
        );
    }

    #[test]
    fn replies_are_tested_against_the_best_exact_one_and_again_when_it_rises() {
        let game = Kalah::new(KalahRules::new(4, 3).unwrap());
        let mem = memory(1);
        let env = crate::settings::Environment::default();
        let job = Replies::split(&game, &mem, &env, 2);
        let root = Path::first(0);
        // The reply to settle first: reply 1.
        job.eldest.lock().unwrap().insert(root, 1);
        let mut results = vec![None; job.items()];
        let (_, at) = job.position(&root).unwrap();
        let replies = at.legal_moves().len();
        assert!(replies >= 3);
        let c = |r: usize| root.child(r).unwrap();
        // Nothing known: the eldest reply, exactly.
        assert_eq!(
            job.standing(&root, &results),
            Standing::Needs(vec![Item::Exact(c(1))])
        );
        // Reply 1 is worth 2: every other reply is tested against 2.
        results[job.layout.index(Item::Exact(c(1)))] = Some(ReplyBounds {
            lo: 2,
            hi: 2,
            nodes: 10,
        });
        let others: Vec<usize> = (0..replies).filter(|&r| r != 1).collect();
        assert_eq!(
            job.standing(&root, &results),
            Standing::Needs(others.iter().map(|&r| Item::Above(c(r), 2)).collect())
        );
        // Reply 0 is at most 2; the next is worth 6: the ones still open are tested
        // against 6.
        let set = |results: &mut Vec<Option<ReplyBounds>>, item, lo, hi| {
            results[job.layout.index(item)] = Some(ReplyBounds { lo, hi, nodes: 1 });
        };
        set(&mut results, Item::Above(c(others[0]), 2), -36, 0);
        set(&mut results, Item::Above(c(others[1]), 2), 6, 6);
        let open: Vec<Item> = others[2..].iter().map(|&r| Item::Above(c(r), 6)).collect();
        assert_eq!(job.standing(&root, &results), Standing::Needs(open.clone()));
        // A test against the old bound that finds "at most 2" settles its reply too.
        for (k, &r) in others[2..].iter().enumerate() {
            if k == 0 {
                set(&mut results, Item::Above(c(r), 2), -36, 2);
            } else {
                set(&mut results, Item::Above(c(r), 6), -36, 6);
            }
        }
        // Settled at 6 for the opponent, who moves after pit 1: -6 for the root.
        assert_eq!(job.standing(&root, &results), Standing::Settled(-6));
        // Split one ply deeper, the eldest reply is settled through its own replies.
        let deeper = Replies::split(&game, &mem, &env, 3);
        deeper.eldest.lock().unwrap().insert(root, 1);
        deeper.eldest.lock().unwrap().insert(c(1), 0);
        let none = vec![None; deeper.items()];
        assert_eq!(
            deeper.standing(&root, &none),
            Standing::Needs(vec![Item::Exact(c(1).child(0).unwrap())])
        );
    }

    #[test]
    fn the_replies_job_in_one_process_gives_every_moves_exact_value() {
        for (pits, seeds, ec) in [(4u8, 3u8, false), (3, 3, true), (6, 2, false), (6, 2, true)] {
            let rules = KalahRules::new(pits, seeds).unwrap().with_empty_capture(ec);
            let game = Kalah::new(rules);
            for (threads, depth) in [(1, 1), (1, 2), (2, 3), (1, 4)] {
                let mem = memory(threads);
                let env = crate::settings::Environment::default();
                let job = Replies::split(&game, &mem, &env, depth);
                let results = run_local(&job, &Options::default()).unwrap();
                let solved = assemble(&job, &results).unwrap();
                // Each move solved alone by a plain solver.
                let mut tt = vec![SolverEntry::EMPTY; 1 << 12];
                let mut s =
                    KalahSolver::new(rules, &mut tt, EndgameTables::none(pits, ec)).unwrap();
                let me = game.side_to_move();
                for (k, &m) in game.legal_moves().iter().enumerate() {
                    let child = game.play_unchecked(m);
                    let want = if child.legal_moves().is_empty() {
                        for_player(&child, me, child.store_difference())
                    } else {
                        for_player(&child, me, s.solve(&child, &mut Quiet).unwrap())
                    };
                    assert_eq!(
                        solved.moves[k],
                        (m, (want, want)),
                        "{:?} move {} depth {}",
                        rules,
                        k,
                        depth
                    );
                }
                assert_eq!(
                    solved.value,
                    solved.moves.iter().map(|m| m.1 .0).max().unwrap()
                );
                assert!(solved.nodes > 0);
                let computed = results.iter().flatten().count();
                if depth == 1 {
                    assert_eq!(computed, game.legal_moves().len(), "each first move whole");
                } else {
                    assert!(computed > game.legal_moves().len());
                }
            }
        }
    }
}
