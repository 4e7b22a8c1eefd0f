//! Moves as text: PDN (`11-15`, `22x15`, `26x17x10`) and the Calgary assignment's
//! path notation (`[P (0,5),P (1,4)]`), read and written; the byte cursor the
//! parsers share.

use core::fmt;

use super::board::{bit, square_at, square_x, square_y, JUMP, NEIGHBOUR};
use super::mv::{DraughtsMoves, Move};
use super::Draughts;
use crate::error::ParseError;

impl Draughts {
    /// Writes `mv` as the Calgary assignment's Haskell `show` of its path:
    /// `[P (0,5),P (1,4)]`.
    pub fn write_move_calgary(&self, mv: Move, out: &mut dyn fmt::Write) -> fmt::Result {
        let mut squares = [0u8; 14];
        let n = mv.squares(&mut squares);
        let mut tags = [false; 14];
        self.calgary_tags(mv, &mut tags);
        out.write_char('[')?;
        for (k, &sq) in squares[..n].iter().enumerate() {
            if k > 0 {
                out.write_char(',')?;
            }
            write!(
                out,
                "{} ({},{})",
                if tags[k] { 'K' } else { 'P' },
                square_x(sq),
                square_y(sq)
            )?;
        }
        out.write_char(']')
    }

    /// A `Display` wrapper for a move in the Calgary notation.
    pub fn display_calgary(&self, mv: Move) -> CalgaryMove<'_> {
        CalgaryMove { game: self, mv }
    }

    /// Parses a move in the Calgary notation `[P (0,5),P (1,4)]` (whitespace is free;
    /// the `P`/`K` tags must match the piece).
    pub fn parse_move_calgary(&self, text: &str) -> Result<Move, ParseError> {
        let mut squares = [0u8; 14];
        let mut tags = [false; 14];
        let mut n = 0;
        let bytes = text.as_bytes();
        let mut p = Cursor::new(bytes);
        p.skip_ws();
        p.expect(b'[', "a Calgary move starts with '['")?;
        loop {
            p.skip_ws();
            if n == 0 && p.peek() == Some(b']') {
                return Err(ParseError::new(
                    "empty path: a move has at least two squares",
                    p.pos,
                ));
            }
            let tag_at = p.pos;
            let king = match p.next() {
                Some(b'P') => false,
                Some(b'K') => true,
                Some(c) => {
                    return Err(ParseError::at_char(
                        "expected 'P' (a man) or 'K' (a king)",
                        tag_at,
                        c as char,
                    ))
                }
                None => {
                    return Err(ParseError::new(
                        "unexpected end: expected 'P' or 'K'",
                        tag_at,
                    ))
                }
            };
            p.skip_ws();
            p.expect(b'(', "expected '(' before a coordinate")?;
            p.skip_ws();
            let x_at = p.pos;
            let x = p.number()?;
            p.skip_ws();
            p.expect(b',', "expected ',' between x and y")?;
            p.skip_ws();
            let y = p.number()?;
            p.skip_ws();
            p.expect(b')', "expected ')' after a coordinate")?;
            let Some(sq) = square_at(x as i32, y as i32) else {
                return Err(ParseError::new(
                    "not a playable square: x and y are 0 to 7 with x + y odd",
                    x_at,
                ));
            };
            if n == squares.len() {
                return Err(ParseError::new("too many squares in the path", x_at));
            }
            squares[n] = sq;
            tags[n] = king;
            n += 1;
            p.skip_ws();
            match p.next() {
                Some(b',') => continue,
                Some(b']') => break,
                Some(c) => {
                    return Err(ParseError::at_char(
                        "expected ',' or ']' after a square",
                        p.pos - 1,
                        c as char,
                    ))
                }
                None => return Err(ParseError::new("unexpected end: expected ']'", p.pos)),
            }
        }
        p.skip_ws();
        if p.pos != bytes.len() {
            return Err(ParseError::at_char(
                "unexpected text after the move",
                p.pos,
                bytes[p.pos] as char,
            ));
        }
        let mv = self.resolve(&squares[..n], 0)?;
        let mut expect = [false; 14];
        let len = self.calgary_tags(mv, &mut expect);
        if len == n {
            for k in 0..n {
                if expect[k] != tags[k] {
                    return Err(ParseError::new(
                        if expect[k] {
                            "wrong tag: the piece is a king there (K), not a man (P)"
                        } else {
                            "wrong tag: the piece is a man there (P), not a king (K)"
                        },
                        0,
                    ));
                }
            }
        }
        Ok(mv)
    }

    /// The Calgary `P`/`K` tag (true = `K`) of each square of `mv`'s path; returns the
    /// number of squares.
    fn calgary_tags(&self, mv: Move, out: &mut [bool; 14]) -> usize {
        let mut squares = [0u8; 14];
        let n = mv.squares(&mut squares);
        let mut king = self.kings & bit(mv.from) != 0;
        let crown = self.to_move.crown_row();
        for (k, &sq) in squares[..n].iter().enumerate() {
            if k > 0 && crown & bit(sq) != 0 {
                king = true;
            }
            out[k] = king;
        }
        n
    }

    /// Finds the move whose squares are `squares` (origin, landings…, destination;
    /// a capture may list only its origin and destination if that is unambiguous).
    /// If no legal move matches, builds the move the squares describe so that `play`
    /// can say why it is illegal. `offset` is where the text started, for errors.
    fn resolve(&self, squares: &[u8], offset: usize) -> Result<Move, ParseError> {
        if squares.len() < 2 {
            return Err(ParseError::new("a move needs at least two squares", offset));
        }
        let from = squares[0];
        let to = squares[squares.len() - 1];
        let mut legal = DraughtsMoves::new();
        self.generate_all(&mut legal);
        let mut found: Option<Move> = None;
        let mut ambiguous = false;
        for &m in legal.iter() {
            if m.from != from || m.to != to {
                continue;
            }
            let mut path = [0u8; 14];
            let len = m.squares(&mut path);
            let matches = if squares.len() == 2 {
                true
            } else {
                len == squares.len() && path[..len] == *squares
            };
            if matches {
                match found {
                    None => found = Some(m),
                    // Two paths with the same result: either is the move meant.
                    Some(f) if f.same_result(&m) => {}
                    Some(_) => ambiguous = true,
                }
            }
        }
        if ambiguous {
            return Err(ParseError::new(
                "ambiguous: several captures go from there to there; list every landing square",
                offset,
            ));
        }
        if let Some(m) = found {
            return Ok(m);
        }
        // Not legal here: build the move the squares describe.
        if squares.len() == 2 {
            if let Some(d) = NEIGHBOUR[from as usize].iter().position(|&n| n == to) {
                let crown = self.to_move.crown_row();
                let man = self.kings & bit(from) == 0;
                return Ok(Move::simple(from, to, d, man && crown & bit(to) != 0));
            }
        }
        let mut path = 0u32;
        let mut crowns = false;
        let crown = self.to_move.crown_row();
        let mut king = self.kings & bit(from) != 0;
        for (k, w) in squares.windows(2).enumerate() {
            let Some(d) = (0..4).find(|&d| JUMP[w[0] as usize][d] == w[1]) else {
                return Err(ParseError::new(
                    if squares.len() == 2 {
                        "the two squares are neither a diagonal step nor a jump apart"
                    } else {
                        "every step of a capture must be a jump two squares diagonally"
                    },
                    offset,
                ));
            };
            path |= (d as u32) << (2 * k);
            if !king && crown & bit(w[1]) != 0 {
                king = true;
                crowns = true;
            }
        }
        let jumps = squares.len() as u32 - 1;
        Ok(Move::capture(from, to, path, jumps, crowns))
    }

    /// Reads a move in PDN or (starting with `[`) the Calgary notation: the body of
    /// [`Game::parse_move`](crate::Game::parse_move).
    pub(super) fn parse_move_text(&self, text: &str) -> Result<Move, ParseError> {
        let t = text.trim_start();
        let lead = text.len() - t.len();
        if t.starts_with('[') {
            return self.parse_move_calgary(t).map_err(shift(lead));
        }
        let t = t.trim_end();
        let bytes = t.as_bytes();
        if bytes.is_empty() {
            return Err(ParseError::new(
                "empty move: expected squares like 11-15 or 22x15",
                lead,
            ));
        }
        let mut squares = [0u8; 14];
        let mut n = 0;
        let mut p = Cursor::new(bytes);
        loop {
            let at = p.pos;
            let v = p.number().map_err(shift(lead))?;
            if !(1..=32).contains(&v) {
                return Err(ParseError::new("squares are numbered 1 to 32", at + lead));
            }
            if n == squares.len() {
                return Err(ParseError::new("too many squares in the move", at + lead));
            }
            squares[n] = (v - 1) as u8;
            n += 1;
            match p.next() {
                None => break,
                Some(b'-') | Some(b'x') | Some(b'X') | Some(b':') => {}
                Some(c) => {
                    return Err(ParseError::at_char(
                        "expected '-' or 'x' between squares",
                        p.pos - 1 + lead,
                        char_at(bytes, p.pos - 1, c),
                    ))
                }
            }
        }
        self.resolve(&squares[..n], lead)
    }

    /// Writes `mv` in PDN, every landing listed: the body of
    /// [`Game::write_move`](crate::Game::write_move).
    pub(super) fn write_move_pdn(&self, mv: Move, out: &mut dyn fmt::Write) -> fmt::Result {
        let mut squares = [0u8; 14];
        let n = mv.squares(&mut squares);
        let sep = if mv.is_capture() { 'x' } else { '-' };
        for (k, &sq) in squares[..n].iter().enumerate() {
            if k > 0 {
                out.write_char(sep)?;
            }
            write!(out, "{}", sq + 1)?;
        }
        Ok(())
    }
}

/// Displays a move in the Calgary notation.
pub struct CalgaryMove<'a> {
    game: &'a Draughts,
    mv: Move,
}

impl fmt::Display for CalgaryMove<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.game.write_move_calgary(self.mv, f)
    }
}

/// A byte cursor for the parsers.
pub(super) struct Cursor<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `bytes`.
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Cursor { bytes, pos: 0 }
    }
    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }
    pub(super) fn next(&mut self) -> Option<u8> {
        let c = self.peek();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }
    pub(super) fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(c) if c.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }
    pub(super) fn expect(&mut self, c: u8, reason: &'static str) -> Result<(), ParseError> {
        match self.peek() {
            Some(x) if x == c => {
                self.pos += 1;
                Ok(())
            }
            Some(x) => Err(ParseError::at_char(
                reason,
                self.pos,
                char_at(self.bytes, self.pos, x),
            )),
            None => Err(ParseError::new(reason, self.pos)),
        }
    }
    /// A decimal number of at most 3 digits.
    pub(super) fn number(&mut self) -> Result<u32, ParseError> {
        let start = self.pos;
        let mut v = 0u32;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            if self.pos - start == 3 {
                return Err(ParseError::new("number too long", start));
            }
            v = v * 10 + u32::from(c - b'0');
            self.pos += 1;
        }
        if self.pos == start {
            return Err(match self.peek() {
                Some(c) => ParseError::at_char(
                    "expected a number",
                    self.pos,
                    char_at(self.bytes, self.pos, c),
                ),
                None => ParseError::new("unexpected end: expected a number", self.pos),
            });
        }
        Ok(v)
    }
}

/// Moves a parse error `by` bytes on: for errors found in a slice of the text that
/// starts `by` bytes in.
pub(super) fn shift(by: usize) -> impl Fn(ParseError) -> ParseError {
    move |e| ParseError {
        offset: e.offset + by,
        ..e
    }
}

/// The character at byte `pos` (for error messages on non-ASCII input).
pub(super) fn char_at(bytes: &[u8], pos: usize, fallback: u8) -> char {
    core::str::from_utf8(&bytes[pos..])
        .ok()
        .and_then(|s| s.chars().next())
        .unwrap_or(fallback as char)
}
