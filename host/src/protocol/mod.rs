//! The engine protocol of docs/protocol.md: its grammar, shared by the two ends.
//!
//! * [`client`]: the controller's end — an engine process started from a command
//!   line, every read with a deadline (`ply match`, `ply verify`);
//! * the engine's end is `ply engine` ([`crate::commands::engine`]).
//!
//! Here: reading a line of bounded length ([`read_line`]), the `position` line
//! ([`PositionLine`]), the `go` line ([`Go`]), the `setoption` line
//! ([`parse_setoption`]), a perft divide line ([`parse_divide_line`]) and the split of
//! an engine's command line into words ([`command_words`]).

pub mod client;

use std::io::{BufRead, Read};

use crate::quote::quote;

/// The longest line either end keeps, in bytes: the rest of a longer line is read
/// and dropped, so a program that never ends its line costs no memory.
pub const MAX_LINE: usize = 1 << 16;

/// Reads one line from `input` without its `\n` (and a `\r` before it); `None` at
/// the end of input. A line longer than [`MAX_LINE`] bytes is cut there; bytes that
/// are not UTF-8 become U+FFFD.
pub fn read_line(input: &mut dyn BufRead) -> std::io::Result<Option<String>> {
    let mut bytes = Vec::new();
    let n = (&mut *input)
        .take(MAX_LINE as u64)
        .read_until(b'\n', &mut bytes)?;
    if n == 0 {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if n == MAX_LINE {
        // Cut: drop the rest of the line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let m = (&mut *input).take(4096).read_until(b'\n', &mut rest)?;
            if m == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// An engine's command line split into words as a POSIX shell splits them (quotes
/// and backslashes respected, nothing expanded): `target/release/ply engine
/// checkers --eval 'material'`. Errors name the flag (`setting`) and the problem.
pub fn command_words(text: &str, setting: &str) -> Result<Vec<String>, String> {
    let words = shlex::split(text).ok_or_else(|| {
        format!(
            "{} {}: unbalanced quotes or a trailing backslash: expected a command line",
            setting,
            quote(text)
        )
    })?;
    if words.is_empty() {
        return Err(format!(
            "{} is empty: expected the command line of an engine",
            setting
        ));
    }
    Ok(words)
}

/// The start of a `position` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the game's start position.
    StartPos,
    /// `fen TEXT`: a position as the game's position text.
    Fen(String),
}

/// `position startpos|fen TEXT [moves M1 M2 …]`, parsed or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionLine {
    /// Where the moves start.
    pub start: Start,
    /// The moves played from there, in order.
    pub moves: Vec<String>,
}

impl PositionLine {
    /// Parses the words after `position`.
    pub fn parse(rest: &str) -> Result<PositionLine, String> {
        let rest = rest.trim();
        let (head, moves) = match find_word(rest, "moves") {
            Some(at) => (rest[..at].trim(), &rest[at + "moves".len()..]),
            None => (rest, ""),
        };
        let start = if head == "startpos" {
            Start::StartPos
        } else if let Some(fen) = head.strip_prefix("fen") {
            let fen = fen.trim();
            if fen.is_empty() || !head.starts_with("fen ") {
                return Err("position fen needs the position text after fen".into());
            }
            Start::Fen(fen.to_string())
        } else {
            return Err(format!(
                "position {}: expected startpos or fen TEXT, then moves M1 M2 …",
                quote(head)
            ));
        };
        Ok(PositionLine {
            start,
            moves: moves.split_whitespace().map(str::to_string).collect(),
        })
    }

    /// The line, `position …` included.
    pub fn to_line(&self) -> String {
        let mut line = match &self.start {
            Start::StartPos => "position startpos".to_string(),
            Start::Fen(text) => format!("position fen {}", text),
        };
        if !self.moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&self.moves.join(" "));
        }
        line
    }
}

/// The byte offset of `word` as a whole word in `text` (between spaces or the ends).
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let before = at == 0 || text.as_bytes()[at - 1].is_ascii_whitespace();
        let end = at + word.len();
        let after = end == text.len() || text.as_bytes()[end].is_ascii_whitespace();
        if before && after {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// What a `go` line asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// `go movetime MS`: answer within `MS` milliseconds.
    MoveTime(u64),
    /// `go depth D`.
    Depth(u32),
    /// `go nodes N`.
    Nodes(u64),
    /// `go clock MS [inc MS] [movestogo N]`: the mover's clock.
    Clock {
        /// Milliseconds left on the mover's clock.
        left_ms: u64,
        /// Milliseconds added after each move.
        inc_ms: u64,
        /// Moves to the next time control (`None`: the rest of the game).
        moves_to_go: Option<u32>,
    },
    /// `go perft D`: a perft divide.
    Perft(u32),
}

/// The deepest `go perft` and `ply verify --depth` (as `ply perft`).
pub const MAX_PERFT_DEPTH: u32 = 64;

impl Go {
    /// Parses the words after `go`.
    pub fn parse(rest: &str) -> Result<Go, String> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let number = |i: usize, what: &str| -> Result<u64, String> {
            let w = words
                .get(i)
                .ok_or_else(|| format!("go {} needs a number after it", what))?;
            w.parse::<u64>().map_err(|_| {
                format!(
                    "go {} {}: expected a whole number from 0 to {}",
                    what,
                    quote(w),
                    u64::MAX
                )
            })
        };
        let at_least_one = |v: u64, what: &str| -> Result<u64, String> {
            if v == 0 {
                Err(format!("go {} must be at least 1", what))
            } else {
                Ok(v)
            }
        };
        let max_depth = ply_core::search::MAX_PLY as u64 - 1;
        let go = match words.first().copied() {
            Some("movetime") => Go::MoveTime(at_least_one(number(1, "movetime")?, "movetime")?),
            Some("nodes") => Go::Nodes(at_least_one(number(1, "nodes")?, "nodes")?),
            Some("depth") => {
                let d = at_least_one(number(1, "depth")?, "depth")?;
                if d > max_depth {
                    return Err(format!(
                        "go depth {} is out of range: expected 1 to {}",
                        d, max_depth
                    ));
                }
                Go::Depth(d as u32)
            }
            Some("perft") => {
                let d = number(1, "perft")?;
                if d > u64::from(MAX_PERFT_DEPTH) {
                    return Err(format!(
                        "go perft {} is out of range: expected 0 to {}",
                        d, MAX_PERFT_DEPTH
                    ));
                }
                Go::Perft(d as u32)
            }
            Some("clock") => {
                let left_ms = at_least_one(number(1, "clock")?, "clock")?;
                let (mut inc_ms, mut moves_to_go) = (0, None);
                let mut i = 2;
                while i < words.len() {
                    match words[i] {
                        "inc" => inc_ms = number(i + 1, "clock … inc")?,
                        "movestogo" => {
                            let n = at_least_one(number(i + 1, "clock … movestogo")?, "movestogo")?;
                            moves_to_go = Some(u32::try_from(n).map_err(|_| {
                                format!("go clock … movestogo {} is out of range", n)
                            })?);
                        }
                        other => {
                            return Err(format!(
                                "go clock: unknown word {}: expected inc MS or movestogo N",
                                quote(other)
                            ))
                        }
                    }
                    i += 2;
                }
                return Ok(Go::Clock {
                    left_ms,
                    inc_ms,
                    moves_to_go,
                });
            }
            Some(other) => {
                return Err(format!(
                    "go {}: expected movetime MS, depth D, nodes N, clock MS, or perft D",
                    quote(other)
                ))
            }
            None => {
                return Err("go needs movetime MS, depth D, nodes N, clock MS or perft D".into())
            }
        };
        if words.len() > 2 {
            return Err(format!(
                "go: unexpected {} after {} {}",
                quote(&words[2..].join(" ")),
                words[0],
                words[1]
            ));
        }
        Ok(go)
    }
}

/// The milliseconds `go clock` gives one move, as the soft and the hard limit of
/// [`Limits::clock_ms`](ply_core::search::Limits::clock_ms): the soft one is the time
/// left shared out over the moves to go (30 when the clock has no time control
/// ahead) plus 80% of the increment, at most a third of the time left; the hard one
/// three times that, at most a third of the time left. Both at least 1 ms.
pub fn clock_allocation(left_ms: u64, inc_ms: u64, moves_to_go: Option<u32>) -> (u64, u64) {
    let share = left_ms / u64::from(moves_to_go.unwrap_or(30).max(1));
    let with_inc = share.saturating_add(inc_ms / 5 * 4 + inc_ms % 5 * 4 / 5);
    let cap = left_ms / 3;
    let soft = with_inc.min(cap).max(1);
    (soft, soft.saturating_mul(3).min(cap).max(soft))
}

/// `setoption name NAME value VALUE`: the name and the value (which may hold spaces).
pub fn parse_setoption(rest: &str) -> Result<(String, String), String> {
    let rest = rest.trim();
    let Some(after_name) = rest.strip_prefix("name ") else {
        return Err("setoption: expected setoption name NAME value VALUE".into());
    };
    let (name, value) = match find_word(after_name, "value") {
        Some(at) => (
            after_name[..at].trim(),
            after_name[at + "value".len()..].trim(),
        ),
        None => (after_name.trim(), ""),
    };
    if name.is_empty() {
        return Err("setoption: the option's name is missing".into());
    }
    Ok((name.to_string(), value.to_string()))
}

/// A perft divide line `M: COUNT`: the move and the count.
pub fn parse_divide_line(line: &str) -> Option<(String, u64)> {
    let (mv, count) = line.rsplit_once(':')?;
    let mv = mv.trim();
    if mv.is_empty() || mv.contains(char::is_whitespace) {
        return None;
    }
    Some((mv.to_string(), count.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_lines_parse_and_print_back() {
        let p = PositionLine::parse("startpos moves 11-15 23-19").unwrap();
        assert_eq!(p.start, Start::StartPos);
        assert_eq!(p.moves, ["11-15", "23-19"]);
        assert_eq!(p.to_line(), "position startpos moves 11-15 23-19");
        // Kalah's position text has spaces; it runs to the word `moves`.
        let p = PositionLine::parse("fen 4 4 [0] / 4 4 [0] / S moves 1").unwrap();
        assert_eq!(p.start, Start::Fen("4 4 [0] / 4 4 [0] / S".into()));
        assert_eq!(p.moves, ["1"]);
        let p = PositionLine::parse("fen B:W18:B14").unwrap();
        assert_eq!(p.to_line(), "position fen B:W18:B14");
        assert!(PositionLine::parse("fen").is_err());
        assert!(PositionLine::parse("startpos 11-15").is_err());
        assert!(PositionLine::parse("").is_err());
    }

    #[test]
    fn go_lines_parse_and_refuse_what_they_should() {
        assert_eq!(Go::parse("movetime 100"), Ok(Go::MoveTime(100)));
        assert_eq!(Go::parse("depth 7"), Ok(Go::Depth(7)));
        assert_eq!(Go::parse("nodes 5000"), Ok(Go::Nodes(5000)));
        assert_eq!(Go::parse("perft 0"), Ok(Go::Perft(0)));
        assert_eq!(
            Go::parse("clock 60000 inc 1000 movestogo 20"),
            Ok(Go::Clock {
                left_ms: 60000,
                inc_ms: 1000,
                moves_to_go: Some(20)
            })
        );
        for bad in [
            "",
            "movetime",
            "movetime 0",
            "movetime -5",
            "depth 1000",
            "perft 65",
            "clock 100 inc",
            "clock 100 sideways 3",
            "fast",
            "depth 3 4",
        ] {
            assert!(Go::parse(bad).is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn a_clock_is_shared_out_over_the_moves_to_go() {
        // 60 s, no increment, no control ahead: a thirtieth, three times that at most.
        assert_eq!(clock_allocation(60_000, 0, None), (2_000, 6_000));
        // Ten moves to go, 1 s increment: 6 s + 0.8 s; the hard limit a third.
        assert_eq!(clock_allocation(60_000, 1_000, Some(10)), (6_800, 20_000));
        // One move to go: never more than a third of what is left.
        assert_eq!(clock_allocation(60_000, 0, Some(1)), (20_000, 20_000));
        assert_eq!(clock_allocation(1, 0, None), (1, 1));
    }

    #[test]
    fn setoption_lines_split_name_and_value() {
        assert_eq!(
            parse_setoption("name Hash value 32"),
            Ok(("Hash".into(), "32".into()))
        );
        assert_eq!(
            parse_setoption("name Eval value -2.5,1,1,1"),
            Ok(("Eval".into(), "-2.5,1,1,1".into()))
        );
        assert!(parse_setoption("Hash 32").is_err());
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            command_words("ply engine 'checkers' --eval \"mat erial\"", "--a").unwrap(),
            ["ply", "engine", "checkers", "--eval", "mat erial"]
        );
        assert!(command_words("ply 'engine", "--a")
            .unwrap_err()
            .starts_with("--a 'ply 'engine': unbalanced"));
        assert!(command_words("  ", "--b").unwrap_err().contains("empty"));
    }

    #[test]
    fn long_lines_are_cut_and_the_rest_dropped() {
        let mut text = vec![b'x'; MAX_LINE + 10];
        text.extend_from_slice(b"\nnext\r\n");
        let mut input = &text[..];
        assert_eq!(read_line(&mut input).unwrap().unwrap().len(), MAX_LINE);
        assert_eq!(read_line(&mut input).unwrap().as_deref(), Some("next"));
        assert_eq!(read_line(&mut input).unwrap(), None);
    }

    #[test]
    fn divide_lines_parse() {
        assert_eq!(parse_divide_line("11-15: 8"), Some(("11-15".into(), 8)));
        assert_eq!(parse_divide_line("nodes 7"), None);
        assert_eq!(parse_divide_line("a b: 7"), None);
    }
}
