//! Positions as text: PDN FEN (`B:W21-32:B1-12`) read and written, and the `Debug`
//! form that adds the king moves of the history.

use core::fmt;
use core::fmt::Write as _;

use super::board::Colour;
use super::history::king_step;
use super::notation::{char_at, shift, Cursor};
use super::rules::Rules;
use super::Draughts;
use crate::error::ParseError;

/// The colour a FEN letter names: `B`, or `W` or `R` (Red, the Calgary name for
/// White), in either case.
fn colour_letter(c: u8) -> Option<Colour> {
    match c.to_ascii_uppercase() {
        b'B' => Some(Colour::Black),
        b'W' | b'R' => Some(Colour::White),
        _ => None,
    }
}

/// Reads a PDN FEN position, bare or in a `[FEN "..."]` tag, with no history.
pub(super) fn parse_fen(rules: Rules, text: &str) -> Result<Draughts, ParseError> {
    let mut s = text.trim();
    let mut base = text.len() - text.trim_start().len();
    // An optional PDN tag wrapper: [FEN "..."]
    if let Some(rest) = s.strip_prefix('[') {
        let inner = rest.trim_start();
        let Some(after) = inner.strip_prefix("FEN") else {
            return Err(ParseError::new(
                "expected [FEN \"...\"] or a bare FEN",
                base,
            ));
        };
        let after = after.trim_start();
        let Some(q) = after.strip_prefix('"') else {
            return Err(ParseError::new("expected '\"' after FEN", base));
        };
        let Some(end) = q.find('"') else {
            return Err(ParseError::new("missing closing '\"'", text.len()));
        };
        if !q[end + 1..].trim().eq("]") {
            return Err(ParseError::new(
                "expected ']' after the quoted FEN",
                text.len(),
            ));
        }
        base = q.as_ptr() as usize - text.as_ptr() as usize;
        s = &q[..end];
    }
    let s_trim = s.trim_end_matches('.');
    let bytes = s_trim.as_bytes();
    let mut p = Cursor::new(bytes);
    let err_at = |r: &'static str, pos: usize| ParseError::new(r, base + pos);
    p.skip_ws();
    let side_at = p.pos;
    let Some(c) = p.next() else {
        return Err(err_at(
            "empty position: expected a FEN like B:W21,...:B1,...",
            0,
        ));
    };
    let Some(to_move) = colour_letter(c) else {
        return Err(ParseError::at_char(
            "expected the side to move, 'B' or 'W'",
            base + side_at,
            char_at(bytes, side_at, c),
        ));
    };
    let mut pieces = [0u32; 2];
    let mut kings = 0u32;
    let mut seen = [false; 2];
    for _ in 0..2 {
        p.skip_ws();
        if p.peek().is_none() {
            break;
        }
        p.expect(b':', "expected ':' before a side's pieces")
            .map_err(shift(base))?;
        p.skip_ws();
        let c_at = p.pos;
        let Some(c) = p.next() else {
            return Err(err_at("expected 'W' or 'B' naming a side", c_at));
        };
        let Some(colour) = colour_letter(c) else {
            return Err(ParseError::at_char(
                "expected 'W' or 'B' naming a side",
                base + c_at,
                char_at(bytes, c_at, c),
            ));
        };
        if seen[colour.index()] {
            return Err(err_at("a side is listed twice", c_at));
        }
        seen[colour.index()] = true;
        loop {
            p.skip_ws();
            match p.peek() {
                None | Some(b':') => break,
                _ => {}
            }
            let king = if matches!(p.peek(), Some(b'K') | Some(b'k')) {
                p.pos += 1;
                true
            } else {
                false
            };
            let at = p.pos;
            let a = p.number().map_err(shift(base))?;
            let b = if p.peek() == Some(b'-') {
                p.pos += 1;
                p.number().map_err(shift(base))?
            } else {
                a
            };
            if !(1..=32).contains(&a) || !(1..=32).contains(&b) {
                return Err(err_at("squares are numbered 1 to 32", at));
            }
            if b < a {
                return Err(err_at("a range must go up, like 21-32", at));
            }
            for sq in a..=b {
                let m = 1u32 << (sq - 1);
                if (pieces[0] | pieces[1]) & m != 0 {
                    return Err(err_at("a square is listed twice", at));
                }
                pieces[colour.index()] |= m;
                if king {
                    kings |= m;
                }
            }
            p.skip_ws();
            match p.peek() {
                Some(b',') => {
                    p.pos += 1;
                }
                None | Some(b':') => break,
                Some(c) => {
                    return Err(ParseError::at_char(
                        "expected ',' between squares",
                        base + p.pos,
                        char_at(bytes, p.pos, c),
                    ))
                }
            }
        }
    }
    p.skip_ws();
    if p.pos != bytes.len() {
        return Err(ParseError::at_char(
            "unexpected text after the position",
            base + p.pos,
            char_at(bytes, p.pos, bytes[p.pos]),
        ));
    }
    Draughts::from_bitboards(rules, pieces[0], pieces[1], kings, to_move)
        .map_err(|r| ParseError::new(r, base))
}

impl fmt::Display for Draughts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.to_move {
            Colour::Black => "B",
            Colour::White => "W",
        })?;
        for (tag, colour) in [("W", Colour::White), ("B", Colour::Black)] {
            write!(f, ":{}", tag)?;
            let mut first = true;
            let mut bb = self.pieces(colour);
            while bb != 0 {
                let sq = bb.trailing_zeros();
                bb &= bb - 1;
                if !first {
                    f.write_char(',')?;
                }
                first = false;
                if self.kings & (1 << sq) != 0 {
                    f.write_char('K')?;
                }
                write!(f, "{}", sq + 1)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Draughts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Draughts({} {:?}", self, self.rules.variant())?;
        if self.reversible > 0 {
            write!(f, " after king moves")?;
            for &e in self.king_steps() {
                let (from, to) = king_step(e);
                write!(f, " {}-{}", from + 1, to + 1)?;
            }
        }
        f.write_char(')')
    }
}
