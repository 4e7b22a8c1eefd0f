//! The openings of a match: where each game starts, every one checked before the
//! first game.
//!
//! * `ballots`: the ACF three-move ballots of English draughts, 156 of them
//!   ([`BALLOTS`], the file `host/data/acf-3move.txt`);
//! * `random:PLIES`: `PLIES` pseudo-random legal moves from the start, a new opening
//!   for each game pair, from `--seed`;
//! * a file: one opening a line, either moves from the start position (`11-15 23-19
//!   8-11`) or a position and moves after it (`fen TEXT [moves M1 M2 …]`, as the
//!   protocol's `position` line); `#` starts a comment, and a comment after an
//!   opening names it. Blank lines are skipped.

use std::path::Path;

use ply_core::playout::SplitMix64;

use crate::games::HostGame;
use crate::position::play_text;
use crate::protocol::{PositionLine, Start};
use crate::quote::quote;

/// The ACF three-move ballots, one a line in the format of an openings file.
pub const BALLOTS: &str = include_str!("../../../data/acf-3move.txt");

/// Where a match's openings come from (`--openings`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The ACF three-move ballots.
    Ballots,
    /// `PLIES` random plies from the start, seeded.
    Random(u32),
    /// A file of openings.
    File(std::path::PathBuf),
}

impl Source {
    /// Parses `--openings`: `ballots`, `random:PLIES` or a file name.
    pub fn parse(text: &str) -> Result<Source, String> {
        if text == "ballots" {
            return Ok(Source::Ballots);
        }
        if let Some(n) = text.strip_prefix("random:") {
            let plies = n
                .parse::<u32>()
                .ok()
                .filter(|&p| p <= 1000)
                .ok_or_else(|| {
                    format!(
                        "--openings {}: expected random:PLIES with PLIES from 0 to 1000",
                        quote(text)
                    )
                })?;
            return Ok(Source::Random(plies));
        }
        if text.is_empty() {
            return Err("--openings is empty: expected ballots, random:PLIES or a file".into());
        }
        Ok(Source::File(text.into()))
    }

    /// The default for a game: the ballots for English draughts, two random plies
    /// otherwise.
    pub fn default_for<G: HostGame>(rules: G::Rules) -> Source {
        if is_english_draughts::<G>(rules) {
            Source::Ballots
        } else {
            Source::Random(2)
        }
    }
}

/// True for English draughts (Black first), the game of the ballots.
fn is_english_draughts<G: HostGame>(rules: G::Rules) -> bool {
    let start = G::start(rules);
    G::NAME == "checkers" && start.player_name(start.side_to_move()) == "Black"
}

/// One opening, checked: where it starts and the moves after, each legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// How it is named: its comment, or its text.
    pub name: String,
    /// The position it starts from (`None`: the game's start position).
    pub fen: Option<String>,
    /// The moves from there, in the game's notation as ply writes them.
    pub moves: Vec<String>,
}

impl Opening {
    /// The position after the opening.
    pub fn position<G: HostGame>(&self, rules: G::Rules) -> Result<G, String> {
        let mut g = match &self.fen {
            Some(text) => G::parse_position(rules, text)
                .map_err(|e| format!("bad position {}: {}", quote(text), e))?,
            None => G::start(rules),
        };
        for (i, m) in self.moves.iter().enumerate() {
            g = play_text(&g, m).map_err(|e| format!("move {} {}: {}", i + 1, quote(m), e))?;
        }
        Ok(g)
    }
}

/// The openings of `source` for game `G`: a deck played in order (ballots, a file),
/// or, for random openings, `pairs` of them from `seed`. Every opening is replayed
/// from its start, and one that leaves the game over is refused; errors name the
/// opening.
pub fn load<G: HostGame>(
    source: &Source,
    rules: G::Rules,
    pairs: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    match source {
        Source::Ballots => {
            if !is_english_draughts::<G>(rules) {
                return Err(format!(
                    "--openings ballots: the ACF ballots are English draughts openings (game \
                     checkers), not {}",
                    G::NAME
                ));
            }
            parse::<G>(BALLOTS, rules, "the ballot")
        }
        Source::File(path) => {
            let text = read(path)?;
            let deck = parse::<G>(&text, rules, &format!("--openings {}", shown(path)))?;
            if deck.is_empty() {
                return Err(format!("--openings {}: no openings in it", shown(path)));
            }
            Ok(deck)
        }
        Source::Random(plies) => Ok((0..pairs as u64)
            .map(|i| random::<G>(rules, *plies, seed.wrapping_add(i)))
            .collect()),
    }
}

fn shown(path: &Path) -> String {
    quote(&path.to_string_lossy())
}

fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("--openings {}: cannot read it: {}", shown(path), e))?;
    String::from_utf8(bytes).map_err(|_| format!("--openings {}: not UTF-8 text", shown(path)))
}

/// Parses and checks the openings of `text` (`what` names it in errors).
pub fn parse<G: HostGame>(text: &str, rules: G::Rules, what: &str) -> Result<Vec<Opening>, String> {
    let mut deck = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let (body, comment) = match raw.split_once('#') {
            Some((b, c)) => (b.trim(), Some(c.trim())),
            None => (raw.trim(), None),
        };
        if body.is_empty() {
            continue;
        }
        let at = || format!("{} line {}", what, n + 1);
        let (fen, moves) = if body.starts_with("fen ") || body.starts_with("startpos") {
            let p = PositionLine::parse(body).map_err(|e| format!("{}: {}", at(), e))?;
            match p.start {
                Start::Fen(f) => (Some(f), p.moves),
                Start::StartPos => (None, p.moves),
            }
        } else {
            (None, body.split_whitespace().map(str::to_string).collect())
        };
        let mut opening = Opening {
            name: comment
                .filter(|c| !c.is_empty())
                .unwrap_or(body)
                .to_string(),
            fen,
            moves: Vec::new(),
        };
        // Replayed move by move; each kept as ply writes it.
        let mut g = opening
            .position::<G>(rules)
            .map_err(|e| format!("{}: {}", at(), e))?;
        for (i, m) in moves.iter().enumerate() {
            let mv = g
                .parse_move(m)
                .map_err(|e| format!("{}: move {} {}: {}", at(), i + 1, quote(m), e))?;
            let next = g
                .play(mv)
                .map_err(|e| format!("{}: move {} {}: {}", at(), i + 1, quote(m), e))?;
            opening.moves.push(g.display_move(mv).to_string());
            g = next;
        }
        if g.outcome().is_over() {
            return Err(format!(
                "{}: the game is over after the opening {}",
                at(),
                quote(body)
            ));
        }
        deck.push(opening);
    }
    Ok(deck)
}

/// `plies` random legal moves from the start (fewer if a move would end the game).
pub fn random<G: HostGame>(rules: G::Rules, plies: u32, seed: u64) -> Opening {
    let mut g = G::start(rules);
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = g.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        let next = g.play_unchecked(mv);
        if next.outcome().is_over() {
            break;
        }
        moves.push(g.display_move(mv).to_string());
        g = next;
    }
    Opening {
        name: if moves.is_empty() {
            "the start position".into()
        } else {
            moves.join(" ")
        },
        fen: None,
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::draughts::Rules;
    use ply_core::games::{Draughts, TicTacToe};
    use ply_core::Game;

    /// The 18 barred ballots, by their ACF numbers and moves (CheckerBoard's and
    /// Milhouse's lists; pydraughts' "standard" list wrongly keeps number 26).
    const BARRED: [(u32, &str); 18] = [
        (3, "9-13 21-17 10-14"),
        (13, "9-13 23-18 10-14"),
        (26, "9-13 24-19 10-15"),
        (35, "9-13 24-20 12-16"),
        (44, "9-14 22-18 12-16"),
        (45, "9-14 22-18 14-17"),
        (48, "9-14 23-19 10-15"),
        (52, "9-14 24-19 10-15"),
        (77, "10-14 24-19 11-15"),
        (88, "10-15 21-17 9-14"),
        (94, "10-15 22-17 9-14"),
        (109, "10-15 24-20 11-16"),
        (114, "11-15 21-17 10-14"),
        (137, "11-16 21-17 10-14"),
        (145, "11-16 22-18 10-15"),
        (156, "11-16 24-19 10-15"),
        (168, "12-16 23-18 9-14"),
        (171, "12-16 23-19 16x23"),
    ];

    #[test]
    fn the_ballots_are_156_legal_distinct_openings_without_the_barred() {
        let deck = load::<Draughts>(&Source::Ballots, Rules::english(), 0, 0).unwrap();
        assert_eq!(deck.len(), 156);
        let mut positions = std::collections::HashSet::new();
        for o in &deck {
            assert_eq!(o.moves.len(), 3, "{}", o.name);
            let g: Draughts = o.position(Rules::english()).unwrap();
            // Black to move again, the game going on.
            assert!(!g.outcome().is_over());
            assert!(
                positions.insert(g.to_string()),
                "{} repeats a position",
                o.name
            );
        }
        let numbers: Vec<u32> = deck
            .iter()
            .map(|o| o.name.strip_prefix("ACF ").unwrap().parse().unwrap())
            .collect();
        assert!(numbers.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(*numbers.last().unwrap(), 174);
        for (n, moves) in BARRED {
            assert!(!numbers.contains(&n), "barred ballot {} is in the deck", n);
            let barred: Vec<String> = parse::<Draughts>(moves, Rules::english(), "barred").unwrap()
                [0]
            .moves
            .clone();
            assert!(
                deck.iter().all(|o| o.moves != barred),
                "barred ballot {} ({}) is in the deck",
                n,
                moves
            );
        }
        // 156 + 18 = the 174 three-move openings, the barred ones distinct too.
        assert_eq!(numbers.len() + BARRED.len(), 174);
    }

    #[test]
    fn ballots_are_refused_for_other_games() {
        let e = load::<TicTacToe>(&Source::Ballots, (), 0, 0).unwrap_err();
        assert!(e.contains("English draughts"), "{}", e);
        let e = load::<Draughts>(&Source::Ballots, Rules::calgary(), 0, 0).unwrap_err();
        assert!(e.contains("English draughts"), "{}", e);
    }

    #[test]
    fn opening_files_take_moves_positions_and_comments() {
        let text = "# a deck\n\n5 1  # centre, then a corner\nfen x...o.... moves 9\n";
        let deck = parse::<TicTacToe>(text, (), "deck").unwrap();
        assert_eq!(deck.len(), 2);
        assert_eq!(deck[0].name, "centre, then a corner");
        assert_eq!(deck[0].moves, ["5", "1"]);
        assert_eq!(deck[1].fen.as_deref(), Some("x...o...."));
        assert_eq!(deck[1].name, "fen x...o.... moves 9");
        let e = parse::<TicTacToe>("5 5\n", (), "deck").unwrap_err();
        assert!(e.starts_with("deck line 1: move 2 '5'"), "{}", e);
        let e = parse::<TicTacToe>("1 4 2 5 3\n", (), "deck").unwrap_err();
        assert!(e.contains("the game is over"), "{}", e);
    }

    #[test]
    fn random_openings_follow_the_seed() {
        let a = random::<Draughts>(Rules::english(), 4, 7);
        assert_eq!(a, random::<Draughts>(Rules::english(), 4, 7));
        assert_eq!(a.moves.len(), 4);
        a.position::<Draughts>(Rules::english()).unwrap();
    }
}
