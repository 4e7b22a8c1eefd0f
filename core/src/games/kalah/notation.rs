//! Kalah in text: the rule parameters of a game spec, positions and moves, read and
//! written in the forms the module documentation describes under "Notation".

use core::fmt;

use super::{pit, Kalah, KalahRules, Pit, MAX_PITS, MAX_TOTAL_SEEDS};
use crate::error::ParseError;
use crate::game::Player;

/// The rule parameters after `kalah` in a game spec: `""` (6×4), `PxS`,
/// `empty-capture`, `PxS:empty-capture`.
pub(super) fn parse_rules(params: &str) -> Result<KalahRules, ParseError> {
    let mut rules = KalahRules::default();
    let mut sized = false;
    let mut offset = 0;
    if params.is_empty() {
        return Ok(rules);
    }
    for part in params.split(':') {
        if part == "empty-capture" {
            if rules.empty_capture {
                return Err(ParseError::new("empty-capture given twice", offset));
            }
            rules.empty_capture = true;
        } else if let Some(x) = part.find(['x', 'X']) {
            if sized || rules.empty_capture {
                return Err(ParseError::new(
                    "the size PITSxSEEDS comes first, once: kalah[:PITSxSEEDS][:empty-capture]",
                    offset,
                ));
            }
            let pits = parse_number(&part[..x], offset)?;
            let seeds = parse_number(&part[x + 1..], offset + x + 1)?;
            if pits == 0 || pits > u32::from(MAX_PITS) {
                return Err(ParseError::new("pits per row must be 1 to 8", offset));
            }
            if seeds == 0 {
                return Err(ParseError::new(
                    "seeds per pit must be at least 1",
                    offset + x + 1,
                ));
            }
            if u64::from(pits) * u64::from(seeds) * 2 > u64::from(MAX_TOTAL_SEEDS) {
                return Err(ParseError::new(
                    "too many seeds: 2 x pits x seeds must be at most 255 (a pit is one byte)",
                    offset + x + 1,
                ));
            }
            rules.pits = pits as u8;
            rules.seeds = seeds as u8;
            sized = true;
        } else {
            let c = part.chars().next().unwrap_or(':');
            return Err(ParseError::at_char(
                "expected PITSxSEEDS (like 6x4) or empty-capture",
                offset,
                c,
            ));
        }
        offset += part.len() + 1;
    }
    Ok(rules)
}

/// A position in the text form `PITS [STORE] / PITS [STORE] / first|second`, checked
/// by [`Kalah::from_parts`].
pub(super) fn parse_position(rules: KalahRules, text: &str) -> Result<Kalah, ParseError> {
    let p = rules.pits as usize;
    let mut rows = [[0u8; MAX_PITS as usize]; 2];
    let mut stores = [0u8; 2];
    let mut side = None;
    // States: pits of row r (0 or 1), its store, the '/', then the side.
    let mut row = 0usize;
    let mut count = 0usize;
    let mut expect_slash = false;
    for (offset, w) in words(text) {
        if side.is_some() {
            return Err(ParseError::new("text after the side to move", offset));
        }
        if expect_slash {
            if w != "/" {
                let c = w.chars().next().unwrap_or(' ');
                return Err(ParseError::at_char("expected '/' after a store", offset, c));
            }
            expect_slash = false;
            continue;
        }
        if row == 2 {
            side = Some(match w {
                "first" | "First" | "f" => Player::First,
                "second" | "Second" | "s" => Player::Second,
                _ => {
                    let c = w.chars().next().unwrap_or(' ');
                    return Err(ParseError::at_char(
                        "expected the side to move: 'first' or 'second'",
                        offset,
                        c,
                    ));
                }
            });
            continue;
        }
        if let Some(inner) = w.strip_prefix('[') {
            let Some(num) = inner.strip_suffix(']') else {
                return Err(ParseError::new(
                    "a store is a number in brackets: [0]",
                    offset,
                ));
            };
            if count != p {
                return Err(ParseError::new(
                    if count < p {
                        "too few pits in a row for the rules' size"
                    } else {
                        "too many pits in a row for the rules' size"
                    },
                    offset,
                ));
            }
            let v = parse_number(num, offset + 1)?;
            if v > MAX_TOTAL_SEEDS {
                return Err(ParseError::new("a store holds at most 255 seeds", offset));
            }
            stores[row] = v as u8;
            row += 1;
            count = 0;
            expect_slash = true;
            continue;
        }
        let v = parse_number(w, offset)?;
        if count >= p {
            return Err(ParseError::new(
                "too many pits in a row for the rules' size (missing [store]?)",
                offset,
            ));
        }
        if v > MAX_TOTAL_SEEDS {
            return Err(ParseError::new("a pit holds at most 255 seeds", offset));
        }
        rows[row][count] = v as u8;
        count += 1;
    }
    let Some(side) = side else {
        return Err(ParseError::new(
            "incomplete position: expected 'PITS [STORE] / PITS [STORE] / first|second'",
            text.len(),
        ));
    };
    Kalah::from_parts(rules, rows, stores, side).map_err(|reason| ParseError::new(reason, 0))
}

/// A move on a board of `pits` pits a row: the pit number from the mover's left.
pub(super) fn parse_move(pits: u8, text: &str) -> Result<Pit, ParseError> {
    let t = text.trim();
    let lead = text.len() - text.trim_start().len();
    let v = parse_number(t, lead)?;
    if v == 0 || v > u32::from(pits) {
        return Err(ParseError::new(
            "a move is a pit number from 1 to the number of pits a row, counted from the mover's left",
            lead,
        ));
    }
    Ok(Pit(v as u8 - 1))
}

/// Writes `mv` as its pit number from the mover's left (1-based).
pub(super) fn write_move(mv: Pit, out: &mut dyn fmt::Write) -> fmt::Result {
    write!(out, "{}", u16::from(mv.0) + 1)
}

impl fmt::Display for KalahRules {
    /// The parameters as `parse_rules` reads them: `6x4` or `6x4:empty-capture`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.pits, self.seeds)?;
        if self.empty_capture {
            write!(f, ":empty-capture")?;
        }
        Ok(())
    }
}

impl fmt::Display for Kalah {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in 0..2 {
            for i in 0..self.rules.pits as u32 {
                write!(f, "{} ", pit(self.rows[s], i))?;
            }
            write!(f, "[{}] / ", self.stores[s])?;
        }
        match self.side {
            Player::First => write!(f, "first"),
            Player::Second => write!(f, "second"),
        }
    }
}

impl fmt::Debug for Kalah {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Kalah({}: {})", self.rules, self)
    }
}

/// A whole number in decimal digits, one leading `+` allowed (as every number ply
/// reads: Rust's `str::parse` takes one too); too many digits saturate, for the
/// caller's range check to refuse.
fn parse_number(text: &str, offset: usize) -> Result<u32, ParseError> {
    let (text, offset) = match text.strip_prefix('+') {
        Some(rest) => (rest, offset + 1),
        None => (text, offset),
    };
    if text.is_empty() {
        return Err(ParseError::new("expected a number", offset));
    }
    let mut v: u32 = 0;
    for (i, c) in text.char_indices() {
        let d = c
            .to_digit(10)
            .ok_or(ParseError::at_char("expected a digit", offset + i, c))?;
        v = v.saturating_mul(10).saturating_add(d);
    }
    Ok(v)
}

/// Splits `text` at ASCII whitespace, yielding each word with its byte offset.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| c.is_ascii_whitespace())
        .scan(0usize, |pos, w| {
            let start = *pos;
            *pos += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::super::tests::rules;
    use super::*;
    use crate::game::Game;

    #[test]
    fn position_text_round_trips_and_hash_matches() {
        let mut g = Kalah::default();
        for m in [2u8, 5, 0, 3, 1] {
            if g.check_move(Pit(m)).is_ok() {
                g = g.play_unchecked(Pit(m));
            }
            let mut buf = heapless::String::<128>::new();
            fmt::write(&mut buf, format_args!("{}", g)).unwrap();
            let q = Kalah::parse_position(g.rules, &buf).unwrap();
            assert_eq!(q, g);
            assert_eq!(q.hash(), g.hash());
        }
    }

    #[test]
    fn start_text() {
        let mut buf = heapless::String::<128>::new();
        fmt::write(&mut buf, format_args!("{}", Kalah::default())).unwrap();
        assert_eq!(buf.as_str(), "4 4 4 4 4 4 [0] / 4 4 4 4 4 4 [0] / first");
    }

    #[test]
    fn rules_parse_and_reject() {
        assert_eq!(Kalah::parse_rules("").unwrap(), KalahRules::default());
        assert_eq!(Kalah::parse_rules("3x3").unwrap(), rules(3, 3));
        assert_eq!(
            Kalah::parse_rules("6x4:empty-capture").unwrap(),
            rules(6, 4).with_empty_capture(true)
        );
        assert_eq!(
            Kalah::parse_rules("empty-capture").unwrap(),
            KalahRules::default().with_empty_capture(true)
        );
        assert_eq!(Kalah::parse_rules("8x15").unwrap(), rules(8, 15));
        assert!(Kalah::parse_rules("9x4").is_err());
        assert!(Kalah::parse_rules("0x4").is_err());
        assert!(Kalah::parse_rules("6x0").is_err());
        assert!(Kalah::parse_rules("6x22").is_err());
        assert!(Kalah::parse_rules("6x4:empty").is_err());
        assert!(Kalah::parse_rules("empty-capture:6x4").is_err());
        assert_eq!(Kalah::parse_rules("6xz").unwrap_err().found, Some('z'));
    }

    #[test]
    fn bad_positions_say_why() {
        let r = KalahRules::default();
        let e = |t| Kalah::parse_position(r, t).unwrap_err().reason;
        assert!(e("4 4 4 4 4 [0] / 4 4 4 4 4 4 [0] / first").contains("too few pits"));
        assert!(e("4 4 4 4 4 4 4 [0] / 4 4 4 4 4 4 [0] / first").contains("too many pits"));
        assert!(e("4 4 4 4 4 4 [1] / 4 4 4 4 4 4 [0] / first").contains("add up"));
        assert!(e("0 0 0 0 0 0 [24] / 4 4 4 4 4 4 [0] / first").contains("one row is empty"));
        assert!(e("4 4 4 4 4 4 [0] / 4 4 4 4 4 4 [0] / nobody").contains("side to move"));
        assert!(e("4 4 4 4 4 4 [0] 4 4 4 4 4 4 [0] / first").contains("'/'"));
        assert!(e("4 4 4 4 4 4 [0] / 4 4 4 4 4 4 [0]").contains("incomplete"));
        assert_eq!(
            Kalah::parse_position(r, "4 4 4 x 4 4 [0] / 4 4 4 4 4 4 [0] / first")
                .unwrap_err()
                .found,
            Some('x')
        );
    }
}
