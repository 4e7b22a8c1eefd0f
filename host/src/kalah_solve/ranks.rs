//! `ply solve kalah` under `mpirun` or `srun` (the `mpi` feature): a first move's
//! replies are the work items of [`crate::distributed`], dealt out as the results
//! before them call for them, each solved on one thread of a rank over that rank's own
//! transposition table (shared by its threads) and endgame tables. Rank 0 prints what
//! one process prints.
//!
//! For each first move, with `c` the position after it (valued for `c`'s mover):
//! 1. one reply, the best by a shallow estimate, is solved exactly: `c` is worth at
//!    least its value `b`;
//! 2. every other reply is then tested against `b` ([`Item::Above`]): solved
//!    exactly if it is worth more than `b`, else only bounded (at most `b`), which
//!    costs a null-window search. A reply found above `b` raises `b`, and the replies
//!    not yet bounded by the new `b` are tested against it;
//! 3. once every reply is exact or bounded by the best exact one, `c`'s value is
//!    that best value, and the first move's value is it for the root's mover.
//!
//! So the slowest first move is no longer one item: its replies spread over the
//! ranks, and only the replies that can matter are solved exactly (solving every
//! reply exactly cost six times the nodes, `docs/mpi.md`).
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

/// What an item asks about reply `reply` (generation order) of first move `mv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    /// Its exact value.
    Exact { mv: usize, reply: usize },
    /// Its exact value if that is above `bound`, else a bound at most `bound`.
    Above { mv: usize, reply: usize, bound: i32 },
}

/// How items are numbered: for each first move, for each reply slot (one per pit),
/// the exact item, then one item per bound `-span..=span`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    moves: usize,
    pits: usize,
    /// The largest margin of the board: every seed.
    span: i32,
}

impl Layout {
    fn per_reply(&self) -> usize {
        1 + (2 * self.span as usize + 1)
    }

    fn items(&self) -> usize {
        self.moves * self.pits * self.per_reply()
    }

    fn index(&self, item: Item) -> usize {
        let (mv, reply, k) = match item {
            Item::Exact { mv, reply } => (mv, reply, 0),
            Item::Above { mv, reply, bound } => (
                mv,
                reply,
                1 + (bound.clamp(-self.span, self.span) + self.span) as usize,
            ),
        };
        (mv * self.pits + reply) * self.per_reply() + k
    }

    fn item(&self, index: usize) -> Option<Item> {
        if index >= self.items() {
            return None;
        }
        let k = index % self.per_reply();
        let slot = index / self.per_reply();
        let (mv, reply) = (slot / self.pits, slot % self.pits);
        Some(if k == 0 {
            Item::Exact { mv, reply }
        } else {
            Item::Above {
                mv,
                reply,
                bound: k as i32 - 1 - self.span,
            }
        })
    }
}

/// A first move: its name, the position after it, and that position's replies.
struct Branch {
    name: String,
    child: Kalah,
    replies: Vec<(String, Kalah)>,
}

/// Where a first move stands, from the results so far.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Standing {
    /// The value of the position after it, for that position's mover.
    Settled(i32),
    /// The items it needs next.
    Needs(Vec<Item>),
}

/// The first moves' replies as items.
struct Replies<'a> {
    root: &'a Kalah,
    branches: Vec<Branch>,
    layout: Layout,
    memory: &'a Memory,
    env: &'a crate::settings::Environment,
    start: std::time::Instant,
    /// Each first move's reply to solve first (rank 0 only, when first needed).
    eldest: std::sync::OnceLock<Vec<usize>>,
    /// The results as they arrive on rank 0, and which first moves were reported.
    seen: Mutex<(Vec<Option<ReplyBounds>>, Vec<bool>)>,
}

impl<'a> Replies<'a> {
    fn new(root: &'a Kalah, memory: &'a Memory, env: &'a crate::settings::Environment) -> Self {
        let branches: Vec<Branch> = root
            .legal_moves()
            .iter()
            .map(|&m| {
                let child = root.play_unchecked(m);
                let replies = child
                    .legal_moves()
                    .iter()
                    .map(|&r| (child.display_move(r).to_string(), child.play_unchecked(r)))
                    .collect();
                Branch {
                    name: root.display_move(m).to_string(),
                    child,
                    replies,
                }
            })
            .collect();
        let span =
            (root.seeds_in_play() + root.store(Player::First) + root.store(Player::Second)) as i32;
        let layout = Layout {
            moves: branches.len(),
            pits: usize::from(root.rules().pits),
            span,
        };
        Replies {
            root,
            branches,
            layout,
            memory,
            env,
            start: std::time::Instant::now(),
            eldest: std::sync::OnceLock::new(),
            seen: Mutex::new((vec![None; layout.items()], vec![false; layout.moves])),
        }
    }

    /// Plies of a first guess for `game`.
    fn guess_plies(&self, game: &Kalah) -> u32 {
        self.env
            .guess_depth
            .unwrap_or_else(|| guess_depth(game.seeds_in_play()))
    }

    /// Each first move's most promising reply for the mover after it, by a shallow
    /// estimate of every reply.
    fn eldest(&self) -> Result<Vec<usize>, String> {
        let mut solver = self.memory.solver(self.root)?;
        self.branches
            .iter()
            .map(|b| {
                let mover = b.child.side_to_move();
                let mut best = (i32::MIN, 0);
                for (r, (_, g)) in b.replies.iter().enumerate() {
                    let e = solver
                        .estimate(g, self.guess_plies(g), 0, &mut Quiet)
                        .map_err(|e| e.to_string())?;
                    let v = for_player(g, mover, e);
                    if v > best.0 {
                        best = (v, r);
                    }
                }
                Ok(best.1)
            })
            .collect()
    }

    /// Where first move `mv` stands given `results`.
    fn standing(&self, mv: usize, results: &[Option<ReplyBounds>], eldest: usize) -> Standing {
        let b = &self.branches[mv];
        if b.replies.is_empty() {
            // The move ends the game.
            return Standing::Settled(b.child.store_difference());
        }
        let span = self.layout.span;
        // Per reply: its exact value if known, and its best upper bound.
        let mut exact = vec![None; b.replies.len()];
        let mut upper = vec![span; b.replies.len()];
        for (reply, (e, u)) in exact.iter_mut().zip(upper.iter_mut()).enumerate() {
            let items = std::iter::once(Item::Exact { mv, reply })
                .chain((-span..=span).map(|bound| Item::Above { mv, reply, bound }));
            for item in items {
                if let Some(r) = &results[self.layout.index(item)] {
                    *u = (*u).min(r.hi);
                    if r.lo == r.hi {
                        *e = Some(r.lo);
                    }
                }
            }
        }
        let Some(best) = exact.iter().flatten().copied().max() else {
            return Standing::Needs(vec![Item::Exact { mv, reply: eldest }]);
        };
        let open: Vec<Item> = (0..b.replies.len())
            .filter(|&r| exact[r].is_none() && upper[r] > best)
            .map(|reply| Item::Above {
                mv,
                reply,
                bound: best,
            })
            .collect();
        if open.is_empty() {
            Standing::Settled(best)
        } else {
            Standing::Needs(open)
        }
    }

    /// The value of first move `mv` for the root's side to move, once settled.
    fn value_for_root(&self, mv: usize, child_value: i32) -> i32 {
        for_player(
            &self.branches[mv].child,
            self.root.side_to_move(),
            child_value,
        )
    }

    /// The progress line of first move `mv`, settled at `child_value`.
    fn settled_line(&self, mv: usize, child_value: i32) {
        crate::errln!(
            "{:>7.1} s pit {}: value {}",
            self.start.elapsed().as_secs_f64(),
            self.branches[mv].name,
            self.value_for_root(mv, child_value)
        );
    }

    /// Solves the item on this thread.
    fn compute(&self, item: Item) -> Result<ReplyBounds, String> {
        let (mv, reply) = match item {
            Item::Exact { mv, reply } | Item::Above { mv, reply, .. } => (mv, reply),
        };
        let b = self
            .branches
            .get(mv)
            .ok_or_else(|| format!("no first move {}", mv))?;
        let (_, g) = b
            .replies
            .get(reply)
            .ok_or_else(|| format!("first move {} has no reply {}", b.name, reply))?;
        let mover = b.child.side_to_move();
        if g.legal_moves().is_empty() {
            let v = for_player(g, mover, g.store_difference());
            return Ok(ReplyBounds {
                lo: v,
                hi: v,
                nodes: 0,
            });
        }
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
            Item::Exact { .. } => {
                let mut guesser = self.memory.solver(self.root)?;
                let guess = guesser
                    .estimate(g, self.guess_plies(g), 0, &mut Quiet)
                    .map_err(stopped)?;
                exact(-span, span, guess)?
            }
            Item::Above { bound, .. } => {
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
            "{}; each first move's replies tested against its best reply's value",
            checkpoint::fingerprint(self.root, u64::MAX)
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
        let eldest = match self.eldest.get() {
            Some(e) => e,
            None => {
                // The first call, on rank 0: the moves that end the game are settled
                // with no item.
                let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
                for (mv, b) in self.branches.iter().enumerate() {
                    if b.replies.is_empty() && !seen.1[mv] {
                        seen.1[mv] = true;
                        self.settled_line(mv, b.child.store_difference());
                    }
                }
                // Without estimates, the first reply of each move goes first.
                let e = self
                    .eldest()
                    .unwrap_or_else(|_| vec![0; self.branches.len()]);
                self.eldest.get_or_init(|| e)
            }
        };
        let mut items = Vec::new();
        for (mv, &first) in eldest.iter().enumerate() {
            if let Standing::Needs(v) = self.standing(mv, results, first) {
                items.extend(v.into_iter().map(|i| self.layout.index(i)));
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
        let (mv, reply) = match item {
            Item::Exact { mv, reply } | Item::Above { mv, reply, .. } => (mv, reply),
        };
        let t = self.start.elapsed().as_secs_f64();
        let b = &self.branches[mv];
        let found = if output.lo == output.hi {
            format!("value {}", output.lo)
        } else {
            format!("at most {}", output.hi)
        };
        crate::errln!(
            "{:>7.1} s pit {}, reply pit {}: {} ({} nodes)",
            t,
            b.name,
            b.replies.get(reply).map_or("?", |r| r.0.as_str()),
            found,
            output.nodes
        );
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.0[index] = Some(*output);
        let eldest = self.eldest.get().map_or(0, |e| e[mv]);
        if let (false, Standing::Settled(v)) = (seen.1[mv], self.standing(mv, &seen.0, eldest)) {
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
    let mut moves = Vec::with_capacity(job.branches.len());
    for (mv, &pit) in legal.iter().enumerate() {
        match job.standing(mv, results, 0) {
            Standing::Settled(v) => {
                let v = job.value_for_root(mv, v);
                moves.push((pit, (v, v)));
            }
            Standing::Needs(_) => {
                return Err(format!(
                    "pit {} is not settled by the items' results",
                    job.branches[mv].name
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
            moves: 3,
            pits: 4,
            span: 5,
        };
        assert_eq!(l.items(), 3 * 4 * 12);
        for i in 0..l.items() {
            let item = l.item(i).unwrap();
            assert_eq!(l.index(item), i, "{:?}", item);
        }
        assert_eq!(l.item(l.items()), None);
        assert_eq!(
            l.item(l.index(Item::Above {
                mv: 2,
                reply: 3,
                bound: -5
            })),
            Some(Item::Above {
                mv: 2,
                reply: 3,
                bound: -5
            })
        );
    }

    #[test]
    fn replies_are_tested_against_the_best_exact_one_and_again_when_it_rises() {
        let game = Kalah::new(KalahRules::new(4, 3).unwrap());
        let mem = memory(1);
        let env = crate::settings::Environment::default();
        let job = Replies::new(&game, &mem, &env);
        let mut results = vec![None; job.items()];
        let replies = job.branches[0].replies.len();
        assert!(replies >= 3);
        // Nothing known: the eldest reply, exactly.
        let first = Item::Exact { mv: 0, reply: 1 };
        assert_eq!(job.standing(0, &results, 1), Standing::Needs(vec![first]));
        // Reply 1 is worth 2: every other reply is tested against 2.
        results[job.layout.index(first)] = Some(ReplyBounds {
            lo: 2,
            hi: 2,
            nodes: 10,
        });
        let above = |reply, bound| Item::Above {
            mv: 0,
            reply,
            bound,
        };
        let others: Vec<usize> = (0..replies).filter(|&r| r != 1).collect();
        assert_eq!(
            job.standing(0, &results, 1),
            Standing::Needs(others.iter().map(|&r| above(r, 2)).collect())
        );
        // Reply 0 is at most 2; the next is worth 6: the ones still open are tested
        // against 6.
        results[job.layout.index(above(0, 2))] = Some(ReplyBounds {
            lo: -36,
            hi: 0,
            nodes: 1,
        });
        results[job.layout.index(above(others[1], 2))] = Some(ReplyBounds {
            lo: 6,
            hi: 6,
            nodes: 1,
        });
        let open: Vec<Item> = others[2..].iter().map(|&r| above(r, 6)).collect();
        assert_eq!(job.standing(0, &results, 1), Standing::Needs(open.clone()));
        // A test against the old bound that finds "at most 2" settles its reply too.
        for (k, item) in open.iter().enumerate() {
            let Item::Above { reply, .. } = *item else {
                unreachable!()
            };
            let (at, hi) = if k == 0 {
                (above(reply, 2), 2)
            } else {
                (*item, 6)
            };
            results[job.layout.index(at)] = Some(ReplyBounds {
                lo: -36,
                hi,
                nodes: 1,
            });
        }
        assert_eq!(job.standing(0, &results, 1), Standing::Settled(6));
        // For the root's mover after a move that passes the turn: -6.
        assert_eq!(job.value_for_root(0, 6), -6);
    }

    #[test]
    fn the_replies_job_in_one_process_gives_every_moves_exact_value() {
        for (pits, seeds, ec) in [(4u8, 3u8, false), (3, 3, true), (6, 2, false), (6, 2, true)] {
            let rules = KalahRules::new(pits, seeds).unwrap().with_empty_capture(ec);
            let game = Kalah::new(rules);
            for threads in [1, 2] {
                let mem = memory(threads);
                let env = crate::settings::Environment::default();
                let job = Replies::new(&game, &mem, &env);
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
                    assert_eq!(solved.moves[k], (m, (want, want)), "{:?} move {}", rules, k);
                }
                assert_eq!(
                    solved.value,
                    solved.moves.iter().map(|m| m.1 .0).max().unwrap()
                );
                assert!(solved.nodes > 0);
                // Only some of the items were needed.
                assert!(results.iter().flatten().count() < results.len() / 4);
            }
        }
    }
}
