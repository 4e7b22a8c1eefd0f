//! Text in and out: square and move notation, the position text and the rule
//! options of a game spec (the formats are in the documentation of
//! [`crate::games::halma`]).

use core::fmt;

use super::{Halma, HalmaBoard, HalmaMove, HalmaRules, WinRule};

use crate::error::ParseError;
use crate::game::Player;

/// Writes square `sq` of an `n`×`n` board in the notation of the [module
/// documentation](crate::games::halma) (`c3`, `p16`).
pub fn write_square(n: usize, sq: usize, out: &mut dyn fmt::Write) -> fmt::Result {
    write!(out, "{}{}", (b'a' + (sq % n) as u8) as char, sq / n + 1)
}

/// Parses a square name (`c3`, `p16`) of an `n`×`n` board; `base` is the offset of
/// `text` in the whole input, for error offsets.
pub fn parse_square(n: usize, text: &str, base: usize) -> Result<usize, ParseError> {
    let mut chars = text.char_indices();
    let col = match chars.next() {
        None => return Err(ParseError::new("missing square: expected e.g. c3", base)),
        Some((i, c)) => {
            let lc = c.to_ascii_lowercase();
            if !lc.is_ascii_lowercase() || (lc as usize - 'a' as usize) >= n {
                return Err(ParseError::at_char(
                    if n == 8 {
                        "a column is a letter a to h"
                    } else {
                        "a column is a letter a to p"
                    },
                    base + i,
                    c,
                ));
            }
            lc as usize - 'a' as usize
        }
    };
    let digits = &text[1..];
    if digits.is_empty() {
        return Err(ParseError::new(
            "missing row number after the column letter",
            base + 1,
        ));
    }
    let mut row = 0usize;
    for (i, c) in digits.char_indices() {
        match c.to_digit(10) {
            Some(d) if row < 100 => row = row * 10 + d as usize,
            _ => return Err(ParseError::at_char("a row is a number", base + 1 + i, c)),
        }
    }
    if row == 0 || row > n {
        return Err(ParseError::new(
            if n == 8 {
                "a row number is 1 to 8"
            } else {
                "a row number is 1 to 16"
            },
            base + 1,
        ));
    }
    Ok((row - 1) * n + col)
}

/// The rule options of a game spec's parameters for board `B` (`16:parlett:plies=300`).
pub(super) fn parse_rules<B: HalmaBoard>(params: &str) -> Result<HalmaRules, ParseError> {
    let mut rules = HalmaRules::default();
    if params.is_empty() {
        return Ok(rules);
    }
    let mut offset = 0;
    for (i, tok) in params.split(':').enumerate() {
        match tok {
            "8" | "16" if i == 0 => {
                if tok != B::SIZE_NAME {
                    return Err(ParseError::new(
                        "wrong board size for this Halma type (8 or 16)",
                        offset,
                    ));
                }
            }
            "parlett" => rules.win = WinRule::Parlett,
            "all-in-camp" => rules.win = WinRule::AllInCamp,
            "no-leave" => rules.no_leave = true,
            _ if tok.starts_with("plies=") => {
                let num = &tok[6..];
                match num.parse::<u16>() {
                    Ok(n) if n >= 1 => rules.max_plies = n,
                    _ => {
                        return Err(ParseError::new(
                            "plies=N needs a whole number from 1 to 65535",
                            offset + 6,
                        ))
                    }
                }
            }
            _ => {
                return Err(ParseError::new(
                    "unknown Halma option: expected 8 or 16 first, then parlett, \
                     all-in-camp, no-leave or plies=N",
                    offset,
                ))
            }
        }
        offset += tok.len() + 1;
    }
    Ok(rules)
}

/// A position in the position text, under `rules`.
pub(super) fn parse_position<B: HalmaBoard>(
    rules: HalmaRules,
    text: &str,
) -> Result<Halma<B>, ParseError> {
    let n = B::SIDE;
    let (mut first, mut second) = (B::EMPTY, B::EMPTY);
    let mut chars = text.char_indices().peekable();
    // Leading whitespace.
    while let Some(&(_, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else {
            break;
        }
    }
    for r in 0..n {
        if r > 0 {
            // A row separator: '/' or a line break (with surrounding blanks).
            let mut seen = false;
            while let Some(&(i, c)) = chars.peek() {
                match c {
                    '/' | '\n' | '\r' | ' ' | '\t' => {
                        seen = true;
                        chars.next();
                    }
                    '.' | 'x' | 'X' | 'o' | 'O' if seen => break,
                    _ if !seen => {
                        return Err(ParseError::at_char(
                            if n == 8 {
                                "a row has exactly 8 squares; expected '/' or a line break"
                            } else {
                                "a row has exactly 16 squares; expected '/' or a line break"
                            },
                            i,
                            c,
                        ))
                    }
                    _ => {
                        return Err(ParseError::at_char(
                            "unknown square: expected '.', 'x' or 'o'",
                            i,
                            c,
                        ))
                    }
                }
            }
        }
        for c in 0..n {
            match chars.next() {
                None => {
                    return Err(ParseError::new(
                        if n == 8 {
                            "the board ends early: expected 8 rows of 8 squares"
                        } else {
                            "the board ends early: expected 16 rows of 16 squares"
                        },
                        text.len(),
                    ))
                }
                Some((i, ch)) => match ch {
                    'x' | 'X' => first = first | B::square(r * n + c),
                    'o' | 'O' => second = second | B::square(r * n + c),
                    '.' => {}
                    '/' | '\n' | '\r' => {
                        return Err(ParseError::at_char(
                            if n == 8 {
                                "a row is too short: it has exactly 8 squares"
                            } else {
                                "a row is too short: it has exactly 16 squares"
                            },
                            i,
                            ch,
                        ))
                    }
                    _ => {
                        return Err(ParseError::at_char(
                            "unknown square: expected '.', 'x' or 'o'",
                            i,
                            ch,
                        ))
                    }
                },
            }
        }
    }
    // The side to move.
    let mut blank = false;
    while let Some(&(_, c)) = chars.peek() {
        if c.is_whitespace() {
            blank = true;
            chars.next();
        } else {
            break;
        }
    }
    let stm = match chars.next() {
        None => {
            return Err(ParseError::new(
                "missing side to move after the board: 'x' or 'o'",
                text.len(),
            ))
        }
        Some((i, c)) if !blank => return Err(ParseError::at_char(
            "the board has too many squares in its last row, or no blank before the side to move",
            i,
            c,
        )),
        Some((_, 'x' | 'X')) => Player::First,
        Some((_, 'o' | 'O')) => Player::Second,
        Some((i, c)) => return Err(ParseError::at_char("the side to move is 'x' or 'o'", i, c)),
    };
    // Optional ply count.
    let rest_start = chars.peek().map_or(text.len(), |&(i, _)| i);
    let rest = &text[rest_start..];
    let trimmed = rest.trim();
    let mut plies = 0u16;
    if !trimmed.is_empty() {
        if !rest.starts_with(char::is_whitespace) {
            return Err(ParseError::new(
                "expected a blank after the side to move",
                rest_start,
            ));
        }
        let at = rest_start + (rest.len() - rest.trim_start().len());
        plies = trimmed
            .parse::<u16>()
            .map_err(|_| ParseError::new("the ply count is a whole number from 0 to 65535", at))?;
    }
    for p in [first, second] {
        let k = p.count() as usize;
        if k == 0 || k > B::PIECES {
            return Err(ParseError::new(
                if B::PIECES == 10 {
                    "each side has 1 to 10 pieces on 8x8"
                } else {
                    "each side has 1 to 19 pieces on 16x16"
                },
                0,
            ));
        }
    }
    Ok(Halma::from_parts(first, second, stm, plies, rules))
}

/// A move in the notation of an `n`×`n` board (`c1-c3`, `pass`).
pub(super) fn parse_move(n: usize, text: &str) -> Result<HalmaMove, ParseError> {
    let t = text.trim();
    let base = text.len() - text.trim_start().len();
    if t.is_empty() {
        return Err(ParseError::new(
            "empty move: expected from-to, e.g. c1-c3, or pass",
            0,
        ));
    }
    if t.eq_ignore_ascii_case("pass") {
        return Ok(HalmaMove::PASS);
    }
    let Some(dash) = t.find('-') else {
        return Err(ParseError::new(
            "a move is from-to, e.g. c1-c3 (or pass)",
            base,
        ));
    };
    let from = parse_square(n, &t[..dash], base)?;
    let to = parse_square(n, &t[dash + 1..], base + dash + 1)?;
    if from == to {
        return Err(ParseError::new(
            "a move must end on a different square than it starts",
            base,
        ));
    }
    Ok(HalmaMove::new(from as u8, to as u8))
}

/// Writes a move in the notation of an `n`×`n` board.
pub(super) fn write_move(n: usize, mv: HalmaMove, out: &mut dyn fmt::Write) -> fmt::Result {
    if mv.is_pass() {
        return out.write_str("pass");
    }
    write_square(n, mv.from as usize, out)?;
    out.write_char('-')?;
    write_square(n, mv.to as usize, out)
}

impl<B: HalmaBoard> fmt::Display for Halma<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = B::SIDE;
        for r in 0..n {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..n {
                let sq = r * n + c;
                f.write_str(match self.piece_at(sq) {
                    Some(Player::First) => "x",
                    Some(Player::Second) => "o",
                    None => ".",
                })?;
            }
        }
        f.write_str(match self.stm {
            Player::First => " x",
            Player::Second => " o",
        })?;
        if self.plies > 0 {
            write!(f, " {}", self.plies)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::halma::{Halma16, Halma8};

    fn alloc_free_text<G: fmt::Display>(g: &G) -> heapless::String<400> {
        let mut s = heapless::String::new();
        fmt::write(&mut s, format_args!("{}", g)).unwrap();
        s
    }

    #[test]
    fn start_text_round_trips() {
        let g = Halma8::default();
        let text = alloc_free_text(&g);
        assert_eq!(
            text.as_str(),
            "xxxx..../xxx...../xx....../x......./.......o/......oo/.....ooo/....oooo x"
        );
        let p = Halma8::parse_position(HalmaRules::default(), &text).unwrap();
        assert_eq!(p, g);
        assert_eq!(p.hash(), g.hash());
    }

    #[test]
    fn incremental_hash_matches_parsed() {
        let g = Halma16::default();
        let mv = g.legal_moves()[7];
        let h = g.play_unchecked(mv);
        let text = alloc_free_text(&h);
        let p = Halma16::parse_position(HalmaRules::default(), &text).unwrap();
        assert_eq!(p.hash(), h.hash());
        assert_ne!(h.hash(), g.hash());
    }

    #[test]
    fn squares_and_moves_round_trip_on_both_sizes() {
        let mut s: heapless::String<8> = heapless::String::new();
        write_square(16, 255, &mut s).unwrap();
        assert_eq!(s.as_str(), "p16");
        assert_eq!(parse_square(16, "p16", 0), Ok(255));
        assert_eq!(parse_square(8, "c3", 0), Ok(18));
        let mv = parse_move(8, " c1-c3 ").unwrap();
        assert_eq!(mv, HalmaMove::new(2, 18));
        let mut t: heapless::String<8> = heapless::String::new();
        write_move(8, mv, &mut t).unwrap();
        assert_eq!(t.as_str(), "c1-c3");
    }
}
