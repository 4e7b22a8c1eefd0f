//! `ply verify GAME CMD [--depth D] [--positions N] [--seed S]`: checks another
//! program's move generator through the protocol (docs/protocol.md) against ply's.
//!
//! From the start position and from `N` positions that seeded random playouts reach,
//! the program is asked for its legal moves (`moves`, compared with ply's as sets,
//! each of its moves read with ply's parser in that position) and for a perft divide
//! (`go perft D`, each move's count compared with ply's). On a difference the check
//! walks down: into the first move whose count differs, with a depth one less, until
//! the first position whose legal moves differ, and prints that position (`position
//! fen …`, and the moves from the start that reach it) with the moves only ply has
//! and those only the other program has.
//!
//! The answer to `moves` must come within the start-up limit (10 s), a perft divide
//! within ten times ply's own time for it plus 10 s. Exit status: 0 when every
//! position agrees, 1 on a difference, 2 on bad input or when the program breaks
//! the protocol (the binary maps the error to 2).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use ply_core::playout::SplitMix64;

use crate::games::HostGame;
use crate::protocol::client::{Engine, Failure};
use crate::protocol::{command_words, parse_divide_line, PositionLine, Start};
use crate::quote::quote;
use crate::spec::GameCommand;

/// The limit for `uciok`, `readyok` and a `moves` answer.
const ANSWER: Duration = Duration::from_secs(10);

/// The longest random playout that makes a position, in plies.
pub const MAX_PLAYOUT: u32 = 40;

/// `ply verify`'s settings.
#[derive(Clone, Debug)]
pub struct Verify {
    /// The game spec (sent with `ucinewgame`).
    pub spec: String,
    /// The program's command line.
    pub command: String,
    /// The perft depth at each position (0: the legal moves only).
    pub depth: u32,
    /// Random positions besides the start.
    pub positions: u32,
    /// Their seed.
    pub seed: u64,
}

/// What the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every position agreed.
    Agree,
    /// The first difference: the moves from the start to the position whose legal
    /// moves differ, the moves only ply has, those only the program has.
    Differ {
        /// The moves from the start.
        path: Vec<String>,
        /// Legal for ply, missing from the program's.
        only_ply: Vec<String>,
        /// The program's, not legal for ply.
        only_other: Vec<String>,
    },
}

impl GameCommand for Verify {
    type Output = Verdict;
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<Verdict, String> {
        let words = command_words(&self.command, "CMD")?;
        if self.depth > crate::protocol::MAX_PERFT_DEPTH {
            return Err(format!(
                "--depth {} is out of range: expected 0 to {}",
                self.depth,
                crate::protocol::MAX_PERFT_DEPTH
            ));
        }
        let mut other = Engine::start(&words)?;
        let protocol = |f: Failure| format!("the program broke the protocol: {}", f);
        other.handshake(ANSWER).map_err(protocol)?;
        other
            .send(&format!("ucinewgame {}", self.spec.trim()))
            .map_err(protocol)?;
        if let Some(e) = other.sync(ANSWER).map_err(protocol)?.first() {
            return Err(format!(
                "the program refused the game {}: {}",
                quote(self.spec.trim()),
                quote(e)
            ));
        }
        let mut paths = vec![Vec::new()];
        for i in 0..u64::from(self.positions) {
            paths.push(playout::<G>(rules, self.seed.wrapping_add(i)));
        }
        let mut checker = Checker::<G> {
            rules,
            other: &mut other,
        };
        for (k, path) in paths.iter().enumerate() {
            let found = checker.check(path, self.depth)?;
            let what = if path.is_empty() {
                "the start".to_string()
            } else {
                format!("{} plies from the start", path.len())
            };
            match found {
                Verdict::Agree => crate::outln!(
                    "position {}/{} ({}): moves and perft {} agree",
                    k + 1,
                    paths.len(),
                    what,
                    self.depth
                )?,
                Verdict::Differ {
                    ref path,
                    ref only_ply,
                    ref only_other,
                } => {
                    let g = replay::<G>(rules, path)?;
                    crate::outln!(
                        "position {}/{} ({}): a difference",
                        k + 1,
                        paths.len(),
                        what
                    )?;
                    crate::outln!("position fen {}", g)?;
                    crate::outln!(
                        "moves from the start: {}",
                        if path.is_empty() {
                            "(none)".to_string()
                        } else {
                            path.join(" ")
                        }
                    )?;
                    crate::outln!("only ply has: {}", listed(only_ply))?;
                    crate::outln!("only the program has: {}", listed(only_other))?;
                    other.quit(Duration::from_millis(200));
                    return Ok(found);
                }
            }
        }
        crate::outln!("all {} positions agree", paths.len())?;
        other.quit(Duration::from_millis(200));
        Ok(Verdict::Agree)
    }
}

fn listed(moves: &[String]) -> String {
    if moves.is_empty() {
        "(none)".into()
    } else {
        moves.join(" ")
    }
}

/// The moves of a seeded random playout from the start: up to [`MAX_PLAYOUT`]
/// plies, stopping before the game ends.
fn playout<G: HostGame>(rules: G::Rules, seed: u64) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    let plies = 1 + rng.below(MAX_PLAYOUT as usize);
    let mut g = G::start(rules);
    let mut path = Vec::new();
    for _ in 0..plies {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        let next = g.play_unchecked(mv);
        if next.outcome().is_over() {
            break;
        }
        path.push(g.display_move(mv).to_string());
        g = next;
    }
    path
}

fn replay<G: HostGame>(rules: G::Rules, path: &[String]) -> Result<G, String> {
    crate::position::setup(rules, None, path)
}

/// Asks the program about positions and compares its answers with ply's.
struct Checker<'a, G: HostGame> {
    rules: G::Rules,
    other: &'a mut Engine,
}

impl<G: HostGame> Checker<'_, G> {
    /// Checks the position `path` reaches, to `depth`, walking down on a difference.
    fn check(&mut self, path: &[String], depth: u32) -> Result<Verdict, String> {
        let g = replay::<G>(self.rules, path)?;
        let ours: BTreeSet<String> = g
            .legal_moves()
            .iter()
            .map(|&m| g.display_move(m).to_string())
            .collect();
        self.send_position(path)?;
        let theirs = self.moves(&g)?;
        if theirs != ours {
            return Ok(Verdict::Differ {
                path: path.to_vec(),
                only_ply: ours.difference(&theirs).cloned().collect(),
                only_other: theirs.difference(&ours).cloned().collect(),
            });
        }
        if depth == 0 {
            return Ok(Verdict::Agree);
        }
        let started = Instant::now();
        let mut our_counts = BTreeMap::new();
        ply_core::perft::perft_divide(&g, depth, |m, n| {
            our_counts.insert(g.display_move(m).to_string(), n);
        });
        let limit = started.elapsed() * 10 + Duration::from_secs(10);
        let their_counts = self.divide(&g, depth, limit)?;
        if their_counts == our_counts {
            return Ok(Verdict::Agree);
        }
        // The first move whose count differs (or that only one side counts).
        let keys: BTreeSet<&String> = our_counts.keys().chain(their_counts.keys()).collect();
        for k in keys {
            if our_counts.get(k) == their_counts.get(k) {
                continue;
            }
            if !our_counts.contains_key(k) || !their_counts.contains_key(k) {
                // Its `moves` agreed, its divide does not: the difference is here.
                return Ok(Verdict::Differ {
                    path: path.to_vec(),
                    only_ply: our_counts
                        .keys()
                        .filter(|m| !their_counts.contains_key(*m))
                        .cloned()
                        .collect(),
                    only_other: their_counts
                        .keys()
                        .filter(|m| !our_counts.contains_key(*m))
                        .cloned()
                        .collect(),
                });
            }
            let mut below = path.to_vec();
            below.push(k.clone());
            let found = self.check(&below, depth - 1)?;
            if found != Verdict::Agree {
                return Ok(found);
            }
            return Err(format!(
                "the program's perft {} after {} counts {} where ply counts {}, but every \
                 position below agrees: its answers contradict each other",
                depth - 1,
                quote(&below.join(" ")),
                their_counts[k],
                our_counts[k]
            ));
        }
        Ok(Verdict::Agree)
    }

    fn send_position(&mut self, path: &[String]) -> Result<(), String> {
        let line = PositionLine {
            start: Start::StartPos,
            moves: path.to_vec(),
        };
        self.other.send(&line.to_line()).map_err(broke)
    }

    /// The program's `moves`, each read with ply's parser where it can be (a move
    /// ply cannot read or play is kept as written).
    fn moves(&mut self, g: &G) -> Result<BTreeSet<String>, String> {
        self.other.send("moves").map_err(broke)?;
        let (line, _) = self
            .other
            .wait_for(Instant::now() + ANSWER, ANSWER, "moves", |l| {
                l.split_whitespace().next() == Some("moves") || l.starts_with("error")
            })
            .map_err(broke)?;
        if line.starts_with("error") {
            return Err(format!(
                "the program broke the protocol: it answered moves with {}",
                quote(&line)
            ));
        }
        Ok(line
            .split_whitespace()
            .skip(1)
            .map(|m| normalise(g, m))
            .collect())
    }

    /// The program's perft divide at `depth`.
    fn divide(
        &mut self,
        g: &G,
        depth: u32,
        limit: Duration,
    ) -> Result<BTreeMap<String, u64>, String> {
        self.other
            .send(&format!("go perft {}", depth))
            .map_err(broke)?;
        let (end, lines) = self
            .other
            .wait_for(
                Instant::now() + limit,
                limit,
                "perft total (nodes N)",
                |l| l.split_whitespace().next() == Some("nodes") || l.starts_with("error"),
            )
            .map_err(broke)?;
        if end.starts_with("error") {
            return Err(format!(
                "the program broke the protocol: it answered go perft {} with {}",
                depth,
                quote(&end)
            ));
        }
        let mut counts = BTreeMap::new();
        for l in lines {
            if let Some((m, n)) = parse_divide_line(&l) {
                *counts.entry(normalise(g, &m)).or_insert(0) += n;
            }
        }
        Ok(counts)
    }
}

fn broke(f: Failure) -> String {
    format!("the program broke the protocol: {}", f)
}

/// `text` as ply writes the move it names in `g`, if ply reads it as a legal move;
/// otherwise `text` itself.
fn normalise<G: HostGame>(g: &G, text: &str) -> String {
    match g.parse_move(text) {
        Ok(m) if g.check_move(m).is_ok() => g.display_move(m).to_string(),
        _ => text.to_string(),
    }
}
