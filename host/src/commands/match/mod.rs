//! `ply match GAME --a CMD --b CMD [--time S | --nodes N] [--games N] [--openings
//! ballots|random:PLIES|FILE] [--sprt elo0=E0,elo1=E1[,alpha=A,beta=B]] [--pdn FILE]
//! [--concurrency K] [--grace S] [--startup S] [--max-plies N] [--seed N]`: two
//! engine programs that speak docs/protocol.md play each other, refereed by ply.
//!
//! Each opening is played twice, colours swapped (a game pair); game `i` plays
//! opening `i / 2`, A moving first in the even games. `--concurrency K` plays K games
//! at once, each worker with its own two engine processes, kept from game to game
//! (an engine that failed is started afresh). A line is printed as each game ends,
//! with the running score; at the end, A's wins, draws and losses, the score with its
//! 95% error bar, the Elo difference with its 95% interval ([`stats`]), each engine's
//! time use measured from outside, and with `--sprt` the test's verdict — the match
//! stops early once the log-likelihood ratio crosses a bound. `--pdn FILE` keeps the
//! games ([`pdn`]): the file is checked before the first game and rewritten whole
//! (atomically) after each one, so an interrupted match leaves the games it finished.
//!
//! The referee is [`referee`]; the openings [`openings`].

pub mod openings;
pub mod pdn;
pub mod referee;
pub mod stats;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use ply_core::Player;

use crate::games::HostGame;
use crate::protocol::client::Engine;
use crate::protocol::command_words;
use crate::spec::GameCommand;
use openings::{Opening, Source};
use referee::{Contestant, GameRecord, Limits};
use stats::{Pentanomial, Sprt, Verdict, Wdl};

/// Games played without `--games` when the openings are random.
pub const DEFAULT_RANDOM_GAMES: u32 = 20;

/// A match's settings.
#[derive(Clone, Debug)]
pub struct Match {
    /// The game spec, as given (sent with `ucinewgame`).
    pub spec: String,
    /// Engine A's command line.
    pub a: String,
    /// Engine B's command line.
    pub b: String,
    /// Seconds a move.
    pub time: f64,
    /// Nodes a move instead of a time (`go nodes`).
    pub nodes: Option<u64>,
    /// Games to play (`None`: the whole deck twice, or [`DEFAULT_RANDOM_GAMES`]).
    pub games: Option<u32>,
    /// `--openings` (`None`: the ballots for English draughts, two random plies
    /// otherwise).
    pub openings: Option<String>,
    /// `--sprt`.
    pub sprt: Option<String>,
    /// Where to write the games as PDN.
    pub pdn: Option<PathBuf>,
    /// Games played at once.
    pub concurrency: usize,
    /// Seconds a move may take beyond `time` before it is forfeited.
    pub grace: f64,
    /// Seconds an engine has to answer `uci` and `isready`.
    pub startup: f64,
    /// Plies after the opening before a draw is adjudicated.
    pub max_plies: u32,
    /// The seed of random openings.
    pub seed: u64,
}

/// What a match found, A's view.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// A's results.
    pub games: Wdl,
    /// The SPRT's verdict and LLR, if it ran.
    pub sprt: Option<(Option<Verdict>, f64)>,
}

/// One engine's time use, measured from outside.
#[derive(Clone, Copy, Debug, Default)]
struct TimeUse {
    moves: u64,
    total: f64,
    max: f64,
    over: u64,
}

impl TimeUse {
    fn add(&mut self, seconds: &[f64], budget: f64) {
        for &s in seconds {
            self.moves += 1;
            self.total += s;
            self.max = self.max.max(s);
            self.over += u64::from(s > budget);
        }
    }
}

/// `0.098 s mean, 0.100 s max` of some moves' times (`no moves` for none).
fn times_text(seconds: &[f64]) -> String {
    if seconds.is_empty() {
        return "no moves".into();
    }
    let mean = seconds.iter().sum::<f64>() / seconds.len() as f64;
    let max = seconds.iter().cloned().fold(0.0, f64::max);
    format!("{:.3} s mean, {:.3} s max", mean, max)
}

impl GameCommand for Match {
    type Output = MatchSummary;
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<MatchSummary, String> {
        let words = [
            command_words(&self.a, "--a")?,
            command_words(&self.b, "--b")?,
        ];
        let sprt = self.sprt.as_deref().map(Sprt::parse).transpose()?;
        if self.games == Some(0) {
            return Err("--games must be at least 1".into());
        }
        if self.max_plies == 0 {
            return Err("--max-plies must be at least 1".into());
        }
        let source = match &self.openings {
            Some(text) => Source::parse(text)?,
            None => Source::default_for::<G>(rules),
        };
        let random = matches!(source, Source::Random(_));
        let pairs = self.games.unwrap_or(DEFAULT_RANDOM_GAMES).div_ceil(2) as usize;
        let deck = openings::load::<G>(&source, rules, pairs, self.seed)?;
        let total = match self.games {
            Some(n) => n as usize,
            None if random => DEFAULT_RANDOM_GAMES as usize,
            None => 2 * deck.len(),
        };
        // Each program must at least start: refused now, before any game.
        for w in &words {
            Engine::start(w)?.quit(Duration::from_millis(200));
        }
        let limits = Limits {
            spec: self.spec.clone(),
            move_ms: ((self.time * 1000.0).round() as u64).max(1),
            nodes: self.nodes,
            grace: Duration::from_secs_f64(self.grace),
            startup: Duration::from_secs_f64(self.startup),
            max_plies: self.max_plies,
        };
        crate::outln!("A: {}", self.a)?;
        crate::outln!("B: {}", self.b)?;
        crate::outln!(
            "{} games of {}, {}, openings: {}{}",
            total,
            self.spec.trim(),
            match self.nodes {
                Some(n) => format!("{} nodes a move (forfeit after {:.3} s)", n, self.grace),
                None => format!(
                    "{} ms a move (forfeit after {:.3} s more)",
                    limits.move_ms, self.grace
                ),
            },
            match &source {
                Source::Ballots => format!("the {} ACF three-move ballots", deck.len()),
                Source::Random(p) => format!("{} random plies from seed {}", p, self.seed),
                Source::File(f) => format!("{} from {}", deck.len(), f.display()),
            },
            match &sprt {
                Some(s) => format!(
                    "; SPRT elo0 {} elo1 {} alpha {} beta {}",
                    s.elo0, s.elo1, s.alpha, s.beta
                ),
                None => String::new(),
            }
        )?;
        let root = G::start(rules);
        let budget = match self.nodes {
            Some(_) => None,
            None => Some(limits.move_ms),
        };
        let mut report = Report::<G>::new(&self, root, total, sprt, budget);
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let (tx, rx) = std::sync::mpsc::channel::<(usize, GameRecord)>();
        let mut failed: Result<(), String> = Ok(());
        std::thread::scope(|scope| {
            for _ in 0..self.concurrency.max(1) {
                let (tx, words, deck, limits, next, stop) =
                    (tx.clone(), &words, &deck, &limits, &next, &stop);
                scope.spawn(move || {
                    let mut a = Contestant::new("A", words[0].clone());
                    let mut b = Contestant::new("B", words[1].clone());
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= total {
                            break;
                        }
                        let opening = &deck[(i / 2) % deck.len()];
                        let rules = root.rules();
                        let record = if i.is_multiple_of(2) {
                            referee::play::<G>(rules, opening, [&mut a, &mut b], limits)
                        } else {
                            referee::play::<G>(rules, opening, [&mut b, &mut a], limits)
                        };
                        if tx.send((i, record)).is_err() {
                            break;
                        }
                    }
                    a.quit();
                    b.quit();
                });
            }
            drop(tx);
            for (i, record) in rx {
                if failed.is_ok() {
                    failed = report.finished(i, &deck[(i / 2) % deck.len()], record);
                }
                if failed.is_err() || report.verdict.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        });
        failed?;
        report.summary()
    }
}

/// The match's results as they come in, printed and written.
struct Report<'a, G: HostGame> {
    settings: &'a Match,
    root: G,
    total: usize,
    sprt: Option<Sprt>,
    /// Seconds a move (none under a node budget).
    budget: Option<f64>,
    /// A's score of each game (in half points), by game number.
    half_points: Vec<Option<u8>>,
    games: Wdl,
    pairs: Pentanomial,
    forfeits: [u64; 2],
    time: [TimeUse; 2],
    /// The PDN of each finished game, by game number.
    pdn: Vec<Option<String>>,
    date: String,
    /// The SPRT's verdict when it crossed a bound, with the LLR and the games then.
    verdict: Option<(Verdict, f64, u64)>,
}

impl<'a, G: HostGame> Report<'a, G> {
    fn new(
        settings: &'a Match,
        root: G,
        total: usize,
        sprt: Option<Sprt>,
        ms: Option<u64>,
    ) -> Self {
        Report {
            settings,
            root,
            total,
            sprt,
            budget: ms.map(|ms| ms as f64 / 1000.0),
            half_points: vec![None; total],
            games: Wdl::default(),
            pairs: Pentanomial::default(),
            forfeits: [0; 2],
            time: [TimeUse::default(); 2],
            pdn: vec![None; total],
            date: pdn::today(),
            verdict: None,
        }
    }

    /// Game `i` ended: its line, the running score, the PDN file, the SPRT.
    fn finished(&mut self, i: usize, opening: &Opening, r: GameRecord) -> Result<(), String> {
        let a_side = if i.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        };
        let sides = [a_side, a_side.opponent()];
        let half = match r.outcome.sign_for(a_side) {
            Some(1) => 2u8,
            Some(0) | None => 1,
            _ => 0,
        };
        match half {
            2 => self.games.wins += 1,
            1 => self.games.draws += 1,
            _ => self.games.losses += 1,
        }
        self.half_points[i] = Some(half);
        if let Some(other) = self.half_points.get(i ^ 1).copied().flatten() {
            if i ^ 1 < self.total {
                self.pairs.add(usize::from(half + other));
            }
        }
        for (k, side) in sides.iter().enumerate() {
            self.time[k].add(&r.times[side.index()], self.budget.unwrap_or(f64::INFINITY));
            if r.forfeit == Some(*side) {
                self.forfeits[k] += 1;
            }
        }
        let name = |p: Player| self.root.player_name(p);
        let result = match half {
            2 => "A wins",
            1 => "draw",
            _ => "B wins",
        };
        let points = self.games.wins as f64 + self.games.draws as f64 / 2.0;
        crate::outln!(
            "game {}/{} ({}): A {}, B {}: {}, {}; {} plies; A {}, B {}; score A {} - B {}",
            i + 1,
            self.total,
            opening.name,
            name(sides[0]),
            name(sides[1]),
            result,
            r.reason,
            r.moves.len() - r.opening_plies,
            times_text(&r.times[sides[0].index()]),
            times_text(&r.times[sides[1].index()]),
            points,
            self.games.games() as f64 - points,
        )?;
        if let Some(path) = &self.settings.pdn {
            let commands = [&self.settings.a, &self.settings.b];
            let player_of = |p: Player| {
                let k = usize::from(p != a_side);
                (name(p).to_string(), commands[k].clone())
            };
            self.pdn[i] = Some(pdn::write(
                &pdn::PdnGame {
                    round: i + 1,
                    players: [player_of(Player::First), player_of(Player::Second)],
                    outcome: r.outcome,
                    opening: opening.name.clone(),
                    termination: r.reason.clone(),
                    fen: r.fen.clone(),
                    moves: r.moves.clone(),
                    first_to_move: r.first_to_move,
                },
                &self.date,
            ));
            let text: String = self.pdn.iter().flatten().map(String::as_str).collect();
            crate::files::write_atomic(path, text.as_bytes()).map_err(|e| {
                format!(
                    "--pdn {}: cannot write it: {}",
                    crate::quote::quote(&path.to_string_lossy()),
                    e
                )
            })?;
        }
        if let (Some(s), None) = (self.sprt, self.verdict) {
            let llr = s.llr_pairs(&self.pairs);
            if let Some(v) = s.verdict(llr) {
                self.verdict = Some((v, llr, self.games.games()));
            }
        }
        Ok(())
    }

    fn summary(&self) -> Result<MatchSummary, String> {
        let g = &self.games;
        crate::outln!(
            "A: {} wins, {} draws, {} losses in {} games (B: {} wins); forfeits: A {}, B {}",
            g.wins,
            g.draws,
            g.losses,
            g.games(),
            g.losses,
            self.forfeits[0],
            self.forfeits[1]
        )?;
        let (estimate, model) = if self.pairs.pairs() > 0 {
            (
                self.pairs.estimate(),
                format!("{} game pairs", self.pairs.pairs()),
            )
        } else {
            (g.estimate(), format!("{} single games", g.games()))
        };
        if let Some(e) = estimate {
            crate::outln!(
                "score: A {:.2}% ± {:.2}% (95%, over {})",
                100.0 * e.score,
                100.0 * e.margin,
                model
            )?;
            crate::outln!(
                "elo: A {} (95% interval {} to {})",
                signed(e.elo),
                signed(e.elo_low),
                signed(e.elo_high)
            )?;
        }
        for (k, label) in ["A", "B"].iter().enumerate() {
            let t = &self.time[k];
            if t.moves == 0 {
                crate::outln!("time {}: no moves", label)?;
                continue;
            }
            match self.budget {
                Some(budget) => crate::outln!(
                    "time {}: {:.1}% of the {:.3} s budget a move on average, longest {:.3} s, {} of {} moves over budget",
                    label,
                    100.0 * t.total / t.moves as f64 / budget,
                    budget,
                    t.max,
                    t.over,
                    t.moves
                )?,
                None => crate::outln!(
                    "time {}: {:.3} s a move on average, longest {:.3} s, {} moves",
                    label,
                    t.total / t.moves as f64,
                    t.max,
                    t.moves
                )?,
            }
        }
        let mut sprt = None;
        if let Some(s) = self.sprt {
            let (lower, upper) = s.bounds();
            match self.verdict {
                Some((v, llr, games)) => {
                    crate::outln!(
                        "sprt: LLR {:.2} (bounds {:.2}, {:.2}) after {} games: {}",
                        llr,
                        lower,
                        upper,
                        games,
                        match v {
                            Verdict::H1 => format!(
                                "H1 accepted: A is stronger by {} Elo rather than {}",
                                s.elo1, s.elo0
                            ),
                            Verdict::H0 =>
                                format!("H0 accepted: A is not stronger by {} Elo", s.elo1),
                        }
                    )?;
                    sprt = Some((Some(v), llr));
                }
                None => {
                    let llr = s.llr_pairs(&self.pairs);
                    crate::outln!(
                        "sprt: LLR {:.2} (bounds {:.2}, {:.2}): no verdict yet",
                        llr,
                        lower,
                        upper
                    )?;
                    sprt = Some((None, llr));
                }
            }
        }
        Ok(MatchSummary {
            games: self.games,
            sprt,
        })
    }
}

/// `+12.3`, `-4.0`, `+inf`.
fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // -0.0 prints as +0.0.
        format!("{:+.1}", x + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_numbers() {
        assert_eq!(signed(12.34), "+12.3");
        assert_eq!(signed(-4.0), "-4.0");
        assert_eq!(signed(f64::INFINITY), "+inf");
        assert_eq!(signed(-0.0), "+0.0");
    }

    #[test]
    fn time_use_counts_moves_over_budget() {
        let mut t = TimeUse::default();
        t.add(&[0.05, 0.11, 0.09], 0.1);
        assert_eq!((t.moves, t.over), (3, 1));
        assert!((t.max - 0.11).abs() < 1e-12);
        assert_eq!(times_text(&[]), "no moves");
        assert_eq!(times_text(&[0.1, 0.3]), "0.200 s mean, 0.300 s max");
    }
}
