//! A match's games as PDN, the Portable Draughts Notation (the draughts form of
//! chess's PGN): tag pairs, then the moves numbered, then the result.
//!
//! ```text
//! [Event "ply match"]
//! [Date "2025.06.01"]
//! [Round "1"]
//! [Black "target/release/ply engine checkers"]
//! [White "target/release/ply engine checkers --eval material"]
//! [Result "1-0"]
//! [Opening "ACF 1"]
//! [Termination "White has no legal move"]
//!
//! 1. 9-13 21-17 2. 5-9 … 1-0
//! ```
//!
//! The players' tags are named by the game's names of the two sides (`Black` and
//! `White` in English draughts, the first listed being the first to move; `X` and
//! `O` in tic-tac-toe); the other games are written in the same form. A result is
//! `1-0` when the side that moves first won, `0-1` when the other did, `1/2-1/2` for
//! a draw. A game from a set-up position has the `SetUp` and `FEN` tags and its moves
//! start from there. [`parse`] reads the same form back.

use std::fmt::Write as _;

use ply_core::{Outcome, Player};

/// One game to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// The round: the game's number in the match.
    pub round: usize,
    /// The tag names of the two sides (first mover first) and their players.
    pub players: [(String, String); 2],
    /// The result.
    pub outcome: Outcome,
    /// The opening's name.
    pub opening: String,
    /// Why the game ended.
    pub termination: String,
    /// The set-up position, if not the start.
    pub fen: Option<String>,
    /// The moves from the start (or the set-up position).
    pub moves: Vec<String>,
    /// Which side moved first in the game (the side to move at the start).
    pub first_to_move: Player,
}

/// The result token of `outcome`.
pub fn result_token(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Player::First) => "1-0",
        Outcome::Win(Player::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
        Outcome::Ongoing => "*",
    }
}

/// Today's date as PDN writes it (`2025.06.01`, UTC).
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{:04}.{:02}.{:02}", year, month, day)
}

/// A tag's value with `"` and `\` escaped.
fn escaped(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The game as PDN text, ending in a blank line.
pub fn write(game: &PdnGame, date: &str) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{} \"{}\"]", name, escaped(value));
    };
    tag("Event", "ply match");
    tag("Date", date);
    tag("Round", &game.round.to_string());
    tag(&game.players[0].0, &game.players[0].1);
    tag(&game.players[1].0, &game.players[1].1);
    tag("Result", result_token(game.outcome));
    tag("Opening", &game.opening);
    tag("Termination", &game.termination);
    if let Some(fen) = &game.fen {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    out.push('\n');
    // Moves numbered by full moves; a game whose first mover is the second side
    // (a set-up position) starts with `1...`.
    let mut line = String::new();
    let offset = usize::from(game.first_to_move == Player::Second);
    for (i, m) in game.moves.iter().enumerate() {
        let ply = i + offset;
        let mut word = String::new();
        if ply % 2 == 0 {
            word = format!("{}. ", ply / 2 + 1);
        } else if i == 0 {
            word = format!("{}... ", ply / 2 + 1);
        }
        word.push_str(m);
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    let result = result_token(game.outcome);
    if !line.is_empty() && line.len() + 1 + result.len() > 79 {
        out.push_str(&line);
        out.push('\n');
        line.clear();
    }
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(result);
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A game read back: its tags, in order, its moves and its result token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedGame {
    /// The tag pairs.
    pub tags: Vec<(String, String)>,
    /// The moves, without their numbers.
    pub moves: Vec<String>,
    /// The result token at the end of the moves.
    pub result: String,
}

impl ParsedGame {
    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads the games of a PDN text as [`write()`] writes them (tags, numbered moves,
/// `{comments}` skipped, a result token ending each game).
pub fn parse(text: &str) -> Result<Vec<ParsedGame>, String> {
    let mut games = Vec::new();
    let mut game = ParsedGame::default();
    let mut in_comment = false;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if !in_comment && line.starts_with('[') {
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| format!("line {}: a tag must end with ]", n + 1))?;
            let (name, value) = inner
                .split_once(' ')
                .ok_or_else(|| format!("line {}: a tag needs a name and a value", n + 1))?;
            let value = value
                .trim()
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| format!("line {}: a tag's value is quoted", n + 1))?;
            game.tags.push((
                name.to_string(),
                value.replace("\\\"", "\"").replace("\\\\", "\\"),
            ));
            continue;
        }
        for word in line.split_whitespace() {
            if in_comment {
                in_comment = !word.ends_with('}');
                continue;
            }
            if word.starts_with('{') {
                in_comment = !word.ends_with('}');
                continue;
            }
            if matches!(
                word,
                "1-0" | "0-1" | "1/2-1/2" | "*" | "2-0" | "0-2" | "1-1"
            ) {
                game.result = word.to_string();
                games.push(std::mem::take(&mut game));
                continue;
            }
            // `12.` and `12...` number the moves; `12.11-15` has its move after.
            let body = word.trim_start_matches(|c: char| c.is_ascii_digit());
            let body = if body.len() < word.len() && body.starts_with('.') {
                body.trim_start_matches('.')
            } else {
                word
            };
            if !body.is_empty() {
                game.moves.push(body.to_string());
            }
        }
    }
    if !game.tags.is_empty() || !game.moves.is_empty() {
        return Err("the last game has no result".into());
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_written_and_read_back() {
        let moves: Vec<String> = (0..60)
            .map(|i| format!("{}-{}", 10 + i % 20, 14 + i % 17))
            .collect();
        let game = PdnGame {
            round: 3,
            players: [
                ("Black".into(), "ply engine \"checkers\"".into()),
                ("White".into(), "other".into()),
            ],
            outcome: Outcome::Win(Player::Second),
            opening: "ACF 1".into(),
            termination: "Black has no legal move".into(),
            fen: None,
            moves: moves.clone(),
            first_to_move: Player::First,
        };
        let text = write(&game, "2025.06.01");
        assert!(text.starts_with("[Event \"ply match\"]\n[Date \"2025.06.01\"]\n"));
        assert!(text.contains("\n\n1. 10-14 11-15 2. 12-16"), "{}", text);
        assert!(text.lines().all(|l| l.len() <= 79));
        let back = parse(&(text.clone() + &text)).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].moves, moves);
        assert_eq!(back[0].result, "0-1");
        assert_eq!(back[0].tag("Black"), Some("ply engine \"checkers\""));
        assert_eq!(back[0].tag("Termination"), Some("Black has no legal move"));
    }

    #[test]
    fn a_set_up_position_starts_where_it_says() {
        let game = PdnGame {
            round: 1,
            players: [("X".into(), "a".into()), ("O".into(), "b".into())],
            outcome: Outcome::Draw,
            opening: "o".into(),
            termination: "drawn by the rules".into(),
            fen: Some("x........".into()),
            moves: vec!["5".into(), "9".into()],
            first_to_move: Player::Second,
        };
        let text = write(&game, "2025.06.01");
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"x........\"]"));
        assert!(text.contains("1... 5 2. 9 1/2-1/2"), "{}", text);
        assert_eq!(parse(&text).unwrap()[0].moves, ["5", "9"]);
    }

    #[test]
    fn dates_are_civil() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
