//! Halma (8×8 and 16×16) in the `ply` tools, and seed 003's strategy tournament.
//!
//! Game specs: `halma` or `halma:8` (8×8), `halma:16` (16×16), each optionally
//! followed by rule options (`:parlett`, `:no-leave`, `:plies=N`; see
//! `ply_core::games::halma`).
//!
//! Evaluations (`--eval`): `racer` (ply's own, the default), `manhattan` (seed
//! 000), seed 003's strategies `s1`…`s8`, or explicit seed-003 weights `m1,m2,m3,m4`
//! (`1,1.1,0,1`).
//!
//! A seed-003 strategy, and `racer`, value positions for the player who searches (as
//! seed 003's minimax does). The search passes that player to the evaluation (see
//! `ply_core::search::eval`), so every command and every strategy values the same
//! positions alike, at odd and even depths.

use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ply_core::games::halma::eval::{advantage, Manhattan, Racer, Weights};
use ply_core::games::halma::{board_side, write_square, Bits256, Halma, HalmaBoard};
use ply_core::games::{Halma16, Halma8};
use ply_core::search::{alphabeta, minimax, Evaluator, Score};
use ply_core::{Game, Outcome, Player};

use crate::commands::tournament::opening;
use crate::games::HostGame;

/// The Halma evaluations a player can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalmaEval {
    /// ply's own evaluation ([`Racer::DEFAULT`]).
    Racer,
    /// Seed 000's Manhattan distance.
    Manhattan,
    /// A seed-003 strategy.
    Seed(Weights),
}

impl HalmaEval {
    /// Parses an evaluation name (see the module documentation).
    pub fn parse(name: &str) -> Result<HalmaEval, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "racer" => Ok(HalmaEval::Racer),
            "manhattan" => Ok(HalmaEval::Manhattan),
            other => Weights::parse(other).map(HalmaEval::Seed).map_err(|e| {
                format!(
                    "unknown evaluation {} for halma: expected racer, manhattan, s1 to s8 \
                     or weights m1,m2,m3,m4 ({})",
                    crate::quote::quote(name),
                    e
                )
            }),
        }
    }
}

impl<B: HalmaBoard> Evaluator<Halma<B>> for HalmaEval {
    fn evaluate(&self, g: &Halma<B>, me: Player) -> Score {
        match self {
            HalmaEval::Racer => Racer::DEFAULT.evaluate(g, me),
            HalmaEval::Manhattan => Manhattan.evaluate(g, me),
            HalmaEval::Seed(weights) => weights.evaluate(g, me),
        }
    }
}

/// The square name of `sq` on board `B`.
pub fn square_name<B: HalmaBoard>(sq: usize) -> String {
    let mut s = String::new();
    write_square(B::SIDE, sq, &mut s).expect("writing to a String");
    s
}

impl<B: HalmaBoard + Send + Sync + 'static> HostGame for Halma<B>
where
    B::Moves: Send + Sync,
{
    const NAME: &'static str = "halma";
    type Eval = HalmaEval;

    fn evaluator(name: Option<&str>) -> Result<HalmaEval, String> {
        match name {
            None => Ok(HalmaEval::Racer),
            Some(n) => HalmaEval::parse(n),
        }
    }

    fn evaluator_names() -> &'static [&'static str] {
        &[
            "racer",
            "manhattan",
            "s1",
            "s2",
            "s3",
            "s4",
            "s5",
            "s6",
            "s7",
            "s8",
            "m1,m2,m3,m4",
        ]
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "x",
            Player::Second => "o",
        }
    }

    fn diagram(&self) -> String {
        let n = B::SIDE;
        let mut out = String::from("    ");
        for c in 0..n {
            out.push((b'a' + c as u8) as char);
            out.push(' ');
        }
        out.push('\n');
        let camps = Self::camp(Player::First) | Self::camp(Player::Second);
        for r in 0..n {
            out.push_str(&format!("{:>3} ", r + 1));
            for c in 0..n {
                let sq = r * n + c;
                out.push(match self.piece_at(sq) {
                    Some(Player::First) => 'x',
                    Some(Player::Second) => 'o',
                    None if camps.has(sq) => ':',
                    None => '.',
                });
                out.push(' ');
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "x heads for the bottom right camp, o for the top left (':' marks empty camp \
             squares); ply {} of at most {}",
            self.plies(),
            self.rules().max_plies
        ));
        out
    }

    fn describe_move(&self, mv: Self::Move) -> String {
        match self.jump_path(mv) {
            Some(path) if path.len() > 2 => {
                let hops: Vec<String> =
                    path.iter().map(|&s| square_name::<B>(s as usize)).collect();
                format!("plays {} (jumps {})", self.display_move(mv), hops.join(">"))
            }
            Some(_) => format!("plays {} (jump)", self.display_move(mv)),
            None => format!("plays {}", self.display_move(mv)),
        }
    }
}

// ---------------------------------------------------------------------------
// Seed 003's tournament

/// Settings of `ply tournament halma[:16] --strategies ...`.
#[derive(Clone, Debug)]
pub struct RoundRobin {
    /// The evaluations taking part (names as for `--eval`).
    pub strategies: Vec<String>,
    /// Search depth in plies (seed 003: 2).
    pub depth: u32,
    /// Games per pair of strategies (seed 003: 2, colours swapped). Game `k` of a
    /// pair has the pair's first strategy move first when `k` is even; games 0 and 1
    /// start from the start position, games 2 and 3 from an opening of two
    /// pseudo-random plies, games 4 and 5 from another, and so on.
    pub games_per_pair: u32,
    /// Games played in parallel.
    pub threads: usize,
    /// Where to write one CSV line per game, if anywhere.
    pub results: Option<String>,
    /// `alphabeta` (the seed's) or `minimax`.
    pub minimax: bool,
    /// Seed of the openings of games beyond the first two of each pair.
    pub seed: u64,
    /// Draw bar on standard error while the games run.
    pub progress: bool,
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
    /// Seed 003's advantage of the winner (0 for a draw).
    pub advantage: i64,
}

/// One line of seed 003's table.
#[derive(Clone, Debug, PartialEq)]
pub struct TableRow {
    /// The strategy's name.
    pub name: String,
    /// Pairs won (both games won, when two games are played per pair).
    pub wins: u32,
    /// Pairs drawn.
    pub draws: u32,
    /// Pairs lost.
    pub losses: u32,
    /// Games won, drawn, lost.
    pub games: [u32; 3],
    /// Nodes visited per game, averaged over its games.
    pub avg_nodes: f64,
    /// Average advantage in the games it won (`None`: no game won).
    pub avg_advantage_won: Option<f64>,
    /// Average advantage of the opponent in the games it lost.
    pub avg_advantage_lost: Option<f64>,
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
pub const MAX_ROUND_ROBIN_GAMES: u64 = 1_000_000;

/// Runs the round robin on board `B` under `rules`.
pub fn round_robin<B: HalmaBoard + Send + Sync>(
    rules: ply_core::games::halma::HalmaRules,
    cfg: &RoundRobin,
) -> Result<RoundRobinResult, String> {
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
    let total = jobs.len();
    let done = AtomicUsize::new(0);
    let bar = Mutex::new(());
    let started = std::time::Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {}", cfg.threads, e))?;
    use rayon::prelude::*;
    let games: Vec<GameRecord> = pool.install(|| {
        jobs.par_iter()
            .map(|&(first, second, start)| {
                let (end, nodes) =
                    play_game(start, [evals[first], evals[second]], cfg.depth, cfg.minimax);
                let outcome = end.outcome();
                let adv = match outcome {
                    Outcome::Win(w) => i64::from(advantage(&end, w.opponent())),
                    _ => 0,
                };
                let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                if cfg.progress {
                    let _guard = bar.lock().unwrap_or_else(|p| p.into_inner());
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
                        started.elapsed().as_secs_f64()
                    );
                    if n == total {
                        let _ = writeln!(err);
                    }
                    let _ = err.flush();
                }
                GameRecord {
                    first,
                    second,
                    start: start.to_string(),
                    outcome,
                    plies: u32::from(end.plies() - start.plies()),
                    nodes,
                    advantage: adv,
                }
            })
            .collect()
    });
    let table = tabulate(&cfg.strategies, &games, cfg.games_per_pair);
    Ok(RoundRobinResult { games, table })
}

/// Seed 003's table from the games: a strategy wins a pair when it wins more than
/// half of the pair's games, loses it when the opponent does, and draws it
/// otherwise (with two games: wins both, loses both, or anything else).
pub fn tabulate(names: &[String], games: &[GameRecord], per_pair: u32) -> Vec<TableRow> {
    let k = names.len();
    let mut rows: Vec<TableRow> = names
        .iter()
        .map(|n| TableRow {
            name: n.clone(),
            wins: 0,
            draws: 0,
            losses: 0,
            games: [0; 3],
            avg_nodes: 0.0,
            avg_advantage_won: None,
            avg_advantage_lost: None,
        })
        .collect();
    let mut pair_wins = vec![vec![0u32; k]; k];
    let mut nodes = vec![(0u64, 0u64); k];
    let mut adv_won = vec![(0i64, 0u32); k];
    let mut adv_lost = vec![(0i64, 0u32); k];
    for g in games {
        let players = [g.first, g.second];
        for (side, &s) in players.iter().enumerate() {
            nodes[s].0 += g.nodes[side];
            nodes[s].1 += 1;
        }
        match g.outcome {
            Outcome::Win(w) => {
                let (winner, loser) = (players[w.index()], players[w.opponent().index()]);
                pair_wins[winner][loser] += 1;
                rows[winner].games[0] += 1;
                rows[loser].games[2] += 1;
                adv_won[winner].0 += g.advantage;
                adv_won[winner].1 += 1;
                adv_lost[loser].0 += g.advantage;
                adv_lost[loser].1 += 1;
            }
            _ => {
                rows[g.first].games[1] += 1;
                rows[g.second].games[1] += 1;
            }
        }
    }
    for i in 0..k {
        for (j, won_by_j) in pair_wins.iter().enumerate() {
            if i == j {
                continue;
            }
            if 2 * pair_wins[i][j] > per_pair {
                rows[i].wins += 1;
            } else if 2 * won_by_j[i] > per_pair {
                rows[i].losses += 1;
            } else {
                rows[i].draws += 1;
            }
        }
        rows[i].avg_nodes = if nodes[i].1 > 0 {
            nodes[i].0 as f64 / nodes[i].1 as f64
        } else {
            0.0
        };
        let avg = |(s, n): (i64, u32)| (n > 0).then(|| s as f64 / f64::from(n));
        rows[i].avg_advantage_won = avg(adv_won[i]);
        rows[i].avg_advantage_lost = avg(adv_lost[i]);
    }
    rows
}

/// Seed 003's table as Markdown, plus game totals.
pub fn format_table(res: &RoundRobinResult) -> String {
    let opt = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{:.2}", x));
    let mut s = String::from(
        "| strategy | wins | draws | losses | avg. number of visited nodes | avg. advantage if won | avg. advantage of opponent if lost | games won-drawn-lost |\n\
         | -------- | ---: | ----: | -----: | ---------------------------: | --------------------: | ---------------------------------: | :------------------: |\n",
    );
    for r in &res.table {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {:.2} | {} | {} | {}-{}-{} |\n",
            r.name,
            r.wins,
            r.draws,
            r.losses,
            r.avg_nodes,
            opt(r.avg_advantage_won),
            opt(r.avg_advantage_lost),
            r.games[0],
            r.games[1],
            r.games[2]
        ));
    }
    let n = res.games.len();
    let draws = res
        .games
        .iter()
        .filter(|g| g.outcome == Outcome::Draw)
        .count();
    let plies: u64 = res.games.iter().map(|g| u64::from(g.plies)).sum();
    s.push_str(&format!(
        "\n{} games, {} drawn, {:.1} plies per game on average\n",
        n,
        draws,
        plies as f64 / n.max(1) as f64
    ));
    s
}

/// The games as CSV, one line each after a header.
pub fn format_csv(names: &[String], res: &RoundRobinResult) -> String {
    let mut s =
        String::from("first,second,result,plies,nodes_first,nodes_second,advantage,start\n");
    for g in &res.games {
        let result = match g.outcome {
            Outcome::Win(Player::First) => "first",
            Outcome::Win(Player::Second) => "second",
            _ => "draw",
        };
        s.push_str(&format!(
            "{},{},{},{},{},{},{},{}\n",
            names[g.first].replace(',', " "),
            names[g.second].replace(',', " "),
            result,
            g.plies,
            g.nodes[0],
            g.nodes[1],
            g.advantage,
            g.start
        ));
    }
    s
}

/// `ply tournament SPEC --strategies ...`: parses the Halma spec, runs the round
/// robin on the board it names, prints the table and writes the results file.
pub fn run_round_robin(spec: &str, cfg: &RoundRobin) -> Result<RoundRobinResult, String> {
    let (name, params) = crate::spec::split(spec.trim());
    if !name.eq_ignore_ascii_case("halma") {
        return Err(format!(
            "--strategies is seed 003's Halma tournament: the game must be halma or halma:16, not {}",
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
        round_robin::<Bits256>(Halma16::parse_rules(params).map_err(bad)?, cfg)?
    } else {
        round_robin::<u64>(Halma8::parse_rules(params).map_err(bad)?, cfg)?
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
        crate::interrupt::write_atomic(
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
    fn evaluation_names_parse() {
        assert_eq!(HalmaEval::parse("racer").unwrap(), HalmaEval::Racer);
        assert_eq!(HalmaEval::parse("Manhattan").unwrap(), HalmaEval::Manhattan);
        assert!(matches!(
            HalmaEval::parse("s7").unwrap(),
            HalmaEval::Seed(_)
        ));
        assert!(HalmaEval::parse("1,1.1,0,1").is_ok());
        let e = HalmaEval::parse("s9").unwrap_err();
        assert!(e.contains("unknown evaluation 's9'"), "{}", e);
    }

    #[test]
    fn pair_scoring_follows_seed_003() {
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
