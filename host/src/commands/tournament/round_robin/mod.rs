//! `ply tournament halma[:16] --strategies s1,s7,...`: the round robin of the C++
//! Halma README (docs/references.md) between evaluations of [`HalmaEval`] — every
//! pair plays `--games-per-pair` games at a fixed depth, colours alternating — and
//! its table (pairs won, drawn and lost, nodes, the README's "advantage") and CSV
//! results. Each game is a work item ([`crate::distributed`]): the games can be kept
//! in a checkpoint and dealt out to the ranks of an MPI run, with the same table and
//! CSV as in one process. The table and the CSV are in `round_robin/table.rs`.

use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

use ply_core::games::halma::eval::advantage;
use ply_core::games::halma::{board_side, Bits256, Halma, HalmaBoard, HalmaRules};
use ply_core::games::{Halma16, Halma8};
use ply_core::search::{alphabeta, minimax};
use ply_core::{Game, Outcome, Player};

use super::opening;
use crate::games::halma::HalmaEval;

mod table;

pub use table::{format_csv, format_table, tabulate, TableRow};

/// Settings of `ply tournament halma[:16] --strategies ...`.
#[derive(Clone, Debug)]
pub struct RoundRobin {
    /// The evaluations taking part (names as for `--eval`).
    pub strategies: Vec<String>,
    /// Search depth in plies (the C++ Halma README: 2).
    pub depth: u32,
    /// Games per pair of strategies (the README: 2, colours swapped). Game `k` of a
    /// pair has the pair's first strategy move first when `k` is even; games 0 and 1
    /// start from the start position, games 2 and 3 from an opening of two
    /// pseudo-random plies, games 4 and 5 from another, and so on.
    pub games_per_pair: u32,
    /// Games played in parallel.
    pub threads: usize,
    /// Where to write one CSV line per game, if anywhere.
    pub results: Option<String>,
    /// `alphabeta` (the README's) or `minimax`.
    pub minimax: bool,
    /// Seed of the openings of games beyond the first two of each pair.
    pub seed: u64,
    /// Draw bar on standard error while the games run.
    pub progress: bool,
    /// `--checkpoint` and `--resume`; under an MPI launcher the games are dealt out to
    /// the ranks.
    pub distributed: crate::distributed::Options,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Index of the strategy that moved first.
    pub first: usize,
    /// Index of the strategy that moved second.
    pub second: usize,
    /// The position the game started from.
    pub start: String,
    /// How it ended.
    pub outcome: Outcome,
    /// Plies played.
    pub plies: u32,
    /// Nodes visited by each player's searches, first player first.
    pub nodes: [u64; 2],
    /// The README's advantage of the winner (0 for a draw).
    pub advantage: i64,
}

/// The tournament's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundRobinResult {
    /// Every game, in schedule order.
    pub games: Vec<GameRecord>,
    /// One row per strategy, in the order given.
    pub table: Vec<TableRow>,
}

fn play_game<B: HalmaBoard>(
    start: Halma<B>,
    evals: [HalmaEval; 2],
    depth: u32,
    use_minimax: bool,
) -> (Halma<B>, [u64; 2]) {
    let mut g = start;
    let mut nodes = [0u64; 2];
    while !g.outcome().is_over() {
        let side = g.side_to_move();
        let eval = evals[side.index()];
        let r = if use_minimax {
            minimax(&g, depth, &eval)
        } else {
            alphabeta(&g, depth, &eval)
        };
        nodes[side.index()] += r.nodes;
        let mv = r
            .best_move
            .expect("an unfinished Halma game always has a move");
        g = g.play_unchecked(mv);
    }
    (g, nodes)
}

/// The most games a round robin plays (all its games are laid out before the first
/// is played).
pub const MAX_ROUND_ROBIN_GAMES: u64 = crate::settings::MAX_GAMES;

/// Runs the round robin on board `B` under `rules` (in this process: see
/// [`round_robin_on_ranks`] for a run that may be one rank of several).
pub fn round_robin<B: HalmaBoard + Send + Sync>(
    rules: HalmaRules,
    cfg: &RoundRobin,
) -> Result<RoundRobinResult, String> {
    round_robin_on_ranks::<B>(rules, cfg)?
        .ok_or_else(|| "the round robin's results are on rank 0 of this MPI run".into())
}

/// Runs the round robin on board `B` under `rules` through [`crate::distributed::run`]:
/// the results on rank 0 (and in one process), `None` on the other ranks of an MPI run.
pub fn round_robin_on_ranks<B: HalmaBoard + Send + Sync>(
    rules: HalmaRules,
    cfg: &RoundRobin,
) -> Result<Option<RoundRobinResult>, String> {
    if cfg.strategies.len() < 2 {
        return Err("--strategies needs at least two names, e.g. s1,s7".into());
    }
    let mut seen = std::collections::HashSet::new();
    for s in &cfg.strategies {
        if !seen.insert(s) {
            return Err(format!(
                "strategy {} is listed twice in --strategies: name each once",
                crate::quote::quote(s)
            ));
        }
    }
    if cfg.games_per_pair == 0 {
        return Err("--games-per-pair must be at least 1".into());
    }
    let k = cfg.strategies.len() as u64;
    let games = (k * (k - 1) / 2).saturating_mul(u64::from(cfg.games_per_pair));
    if games > MAX_ROUND_ROBIN_GAMES {
        return Err(format!(
            "{} strategies with --games-per-pair {} make {} games: at most {}",
            k, cfg.games_per_pair, games, MAX_ROUND_ROBIN_GAMES
        ));
    }
    if cfg.depth == 0 || cfg.depth > 8 {
        return Err(format!(
            "--depth {} is out of range for the tournament: expected 1 to 8",
            cfg.depth
        ));
    }
    if cfg.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let evals: Vec<HalmaEval> = cfg
        .strategies
        .iter()
        .map(|s| HalmaEval::parse(s))
        .collect::<Result<_, _>>()?;
    let k = evals.len();
    let mut jobs = Vec::new();
    for i in 0..k {
        for j in i + 1..k {
            for g in 0..cfg.games_per_pair {
                let (first, second) = if g % 2 == 0 { (i, j) } else { (j, i) };
                let pair_game = u64::from(g / 2);
                let start: Halma<B> = if pair_game == 0 {
                    Halma::<B>::start(rules)
                } else {
                    opening(rules, 2, cfg.seed.wrapping_add(pair_game))
                };
                jobs.push((first, second, start));
            }
        }
    }
    let job = Games {
        cfg,
        evals,
        schedule: jobs,
        done: AtomicUsize::new(0),
        started: std::time::Instant::now(),
    };
    let Some(records) = crate::distributed::run(&job, &cfg.distributed)? else {
        return Ok(None);
    };
    let games: Vec<GameRecord> = records
        .into_iter()
        .zip(&job.schedule)
        .map(|(r, &(_, _, start))| GameRecord {
            start: start.to_string(),
            ..r
        })
        .collect();
    let table = tabulate(&cfg.strategies, &games, cfg.games_per_pair);
    Ok(Some(RoundRobinResult { games, table }))
}

/// The round robin's games as work items: item `i` is game `i` of the schedule.
struct Games<'a, B: HalmaBoard> {
    cfg: &'a RoundRobin,
    evals: Vec<HalmaEval>,
    /// Each game's first and second strategy and its start.
    schedule: Vec<(usize, usize, Halma<B>)>,
    /// Games finished (for the bar).
    done: AtomicUsize,
    started: std::time::Instant,
}

/// A game's result as a work item's record: the players, the outcome (0 drawn, 1 the
/// first player won, 2 the second), the plies, each player's nodes and the advantage
/// (the start position is the schedule's, filled in by rank 0).
impl crate::distributed::Record for GameRecord {
    const WORDS: usize = 7;
    fn encode(&self) -> Vec<u64> {
        let outcome = match self.outcome {
            Outcome::Win(Player::First) => 1,
            Outcome::Win(Player::Second) => 2,
            _ => 0,
        };
        vec![
            self.first as u64,
            self.second as u64,
            outcome,
            u64::from(self.plies),
            self.nodes[0],
            self.nodes[1],
            self.advantage as u64,
        ]
    }
    fn decode(words: &[u64]) -> Option<Self> {
        let &[first, second, outcome, plies, n0, n1, advantage] = words else {
            return None;
        };
        Some(GameRecord {
            first: usize::try_from(first).ok()?,
            second: usize::try_from(second).ok()?,
            start: String::new(),
            outcome: match outcome {
                0 => Outcome::Draw,
                1 => Outcome::Win(Player::First),
                2 => Outcome::Win(Player::Second),
                _ => return None,
            },
            plies: u32::try_from(plies).ok()?,
            nodes: [n0, n1],
            advantage: advantage as i64,
        })
    }
    fn nodes(&self) -> u64 {
        self.nodes[0].saturating_add(self.nodes[1])
    }
}

impl<B: HalmaBoard + Send + Sync> crate::distributed::Job for Games<'_, B> {
    type Output = GameRecord;

    fn fingerprint(&self) -> String {
        format!("{} games", self.schedule.len())
    }

    fn items(&self) -> usize {
        self.schedule.len()
    }

    fn slots(&self) -> usize {
        self.cfg.threads
    }

    fn run(&self, i: usize) -> Result<GameRecord, String> {
        let (first, second, start) = self.schedule[i];
        let (end, nodes) = play_game(
            start,
            [self.evals[first], self.evals[second]],
            self.cfg.depth,
            self.cfg.minimax,
        );
        let outcome = end.outcome();
        Ok(GameRecord {
            first,
            second,
            start: String::new(),
            outcome,
            plies: u32::from(end.plies() - start.plies()),
            nodes,
            advantage: match outcome {
                Outcome::Win(w) => i64::from(advantage(&end, w.opponent())),
                _ => 0,
            },
        })
    }

    fn finished(&self, _i: usize, _game: &GameRecord) {
        let n = self.done.fetch_add(1, Ordering::SeqCst) + 1;
        if !self.cfg.progress {
            return;
        }
        let total = self.schedule.len();
        let width = 30;
        let filled = n * width / total;
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r[{}{}] {}/{} games, {:.0} s",
            "#".repeat(filled),
            ".".repeat(width - filled),
            n,
            total,
            self.started.elapsed().as_secs_f64()
        );
        if n == total {
            let _ = writeln!(err);
        }
        let _ = err.flush();
    }

    fn label(&self) -> Option<&str> {
        // The bar instead.
        None
    }
}

/// `ply tournament SPEC --strategies ...`: parses the Halma spec, runs the round
/// robin on the board it names, prints the table and writes the results file.
pub fn run_round_robin(spec: &str, cfg: &RoundRobin) -> Result<RoundRobinResult, String> {
    let (name, params) = crate::spec::split(spec.trim());
    if !name.eq_ignore_ascii_case("halma") {
        return Err(format!(
            "--strategies is the C++ Halma README's round robin: the game must be halma or halma:16, not {}",
            crate::quote::quote(name)
        ));
    }
    let bad = |e: ply_core::ParseError| {
        format!(
            "bad parameters in game spec {}: {}",
            crate::quote::quote(spec),
            e
        )
    };
    let res = if board_side(params) == 16 {
        round_robin_on_ranks::<Bits256>(Halma16::parse_rules(params).map_err(bad)?, cfg)?
    } else {
        round_robin_on_ranks::<u64>(Halma8::parse_rules(params).map_err(bad)?, cfg)?
    };
    let Some(res) = res else {
        // Another rank of an MPI run: rank 0 prints the results.
        return Ok(RoundRobinResult {
            games: Vec::new(),
            table: Vec::new(),
        });
    };
    crate::outln!(
        "halma tournament: {} at depth {} ({}), {} games per pair",
        spec,
        cfg.depth,
        if cfg.minimax { "minimax" } else { "alpha-beta" },
        cfg.games_per_pair
    )?;
    crate::out!("{}", format_table(&res))?;
    if let Some(path) = &cfg.results {
        // Whole or not at all (checked writable by `main` before the games).
        crate::files::write_atomic(
            std::path::Path::new(path),
            format_csv(&cfg.strategies, &res).as_bytes(),
        )
        .map_err(|e| {
            format!(
                "cannot write results file {}: {}",
                crate::quote::quote(path),
                e
            )
        })?;
        crate::outln!("results written to {}", path)?;
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_scoring_follows_the_cpp_halma_readme() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let rec = |first, second, outcome| GameRecord {
            first,
            second,
            start: String::new(),
            outcome,
            plies: 10,
            nodes: [100, 300],
            advantage: if outcome == Outcome::Draw { 0 } else { 12 },
        };
        let games = vec![
            // a beats b twice: a wins the pair.
            rec(0, 1, Outcome::Win(Player::First)),
            rec(1, 0, Outcome::Win(Player::Second)),
            // a and c win one each: drawn pair.
            rec(0, 2, Outcome::Win(Player::First)),
            rec(2, 0, Outcome::Win(Player::First)),
            // b wins one, one drawn game: drawn pair (only one game won).
            rec(1, 2, Outcome::Win(Player::First)),
            rec(2, 1, Outcome::Draw),
        ];
        let t = tabulate(&names, &games, 2);
        assert_eq!((t[0].wins, t[0].draws, t[0].losses), (1, 1, 0));
        assert_eq!((t[1].wins, t[1].draws, t[1].losses), (0, 1, 1));
        assert_eq!((t[2].wins, t[2].draws, t[2].losses), (0, 2, 0));
        assert_eq!(t[0].games, [3, 0, 1]);
        assert_eq!(t[2].games, [1, 1, 2]);
        // a: nodes 100 (first), 300 (second), 100, 300 → 200.
        assert_eq!(t[0].avg_nodes, 200.0);
        assert_eq!(t[0].avg_advantage_won, Some(12.0));
        assert_eq!(t[1].avg_advantage_won, Some(12.0));
        assert_eq!(t[1].avg_advantage_lost, Some(12.0));
    }

    #[test]
    fn a_small_round_robin_plays_every_pair_both_ways_in_parallel() {
        let cfg = RoundRobin {
            strategies: vec!["s1".into(), "s5".into(), "racer".into()],
            depth: 1,
            games_per_pair: 2,
            threads: 2,
            results: None,
            minimax: false,
            seed: 1,
            progress: false,
            distributed: Default::default(),
        };
        let res = round_robin::<u64>(Default::default(), &cfg).unwrap();
        assert_eq!(res.games.len(), 6);
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            assert!(res.games.iter().any(|g| (g.first, g.second) == (i, j)));
            assert!(res.games.iter().any(|g| (g.first, g.second) == (j, i)));
        }
        for g in &res.games {
            assert!(g.outcome.is_over());
            assert!(g.nodes[0] > 0 && g.nodes[1] > 0);
        }
        // Same games, whatever the thread count.
        let one = round_robin::<u64>(
            Default::default(),
            &RoundRobin {
                threads: 1,
                ..cfg.clone()
            },
        )
        .unwrap();
        assert_eq!(one, res);
        let total: u32 = res.table.iter().map(|r| r.wins + r.draws + r.losses).sum();
        assert_eq!(total, 6);
    }
}
