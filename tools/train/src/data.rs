//! The training data: one record a position, as self-play writes it and the fit reads
//! it.
//!
//! A record is [`RECORD_BYTES`] little-endian bytes: Black's pieces (`u32`), White's
//! (`u32`), the kings (`u32`), the game's number (`u32`), the side to move (`u8`: 0
//! Black, 1 White), the game's result for White (`u8`: 0 loss, 1 draw, 2 win) and the
//! ply (`u16`).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use ply_core::games::draughts::{Colour, Draughts, Rules};

/// Bytes of one record.
pub const RECORD_BYTES: usize = 20;

/// One position of a game and how the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Black's pieces.
    pub black: u32,
    /// White's pieces.
    pub white: u32,
    /// The kings of both sides.
    pub kings: u32,
    /// The game it comes from (for splitting games, not positions, into sets).
    pub game: u32,
    /// True if White is to move.
    pub white_to_move: bool,
    /// The result for White: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// Plies played before it.
    pub ply: u16,
}

impl Record {
    /// The record of `g`, the `ply`-th position of game `game`, before its result is
    /// known (a draw until [`Record::result`] is set).
    pub fn of(g: &Draughts, game: u32, ply: u16) -> Record {
        Record {
            black: g.pieces(Colour::Black),
            white: g.pieces(Colour::White),
            kings: g.kings(),
            game,
            white_to_move: g.colour_to_move() == Colour::White,
            result: 1,
            ply,
        }
    }

    /// The position (English rules, no history).
    pub fn position(&self) -> Result<Draughts, String> {
        let to_move = if self.white_to_move {
            Colour::White
        } else {
            Colour::Black
        };
        Draughts::from_bitboards(
            Rules::english(),
            self.black,
            self.white,
            self.kings,
            to_move,
        )
        .map_err(|e| format!("a record of game {} is not a position: {}", self.game, e))
    }

    /// White's score: 0, 0.5 or 1.
    pub fn score(&self) -> f64 {
        f64::from(self.result) / 2.0
    }

    /// The record's bytes.
    pub fn to_bytes(self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..4].copy_from_slice(&self.black.to_le_bytes());
        b[4..8].copy_from_slice(&self.white.to_le_bytes());
        b[8..12].copy_from_slice(&self.kings.to_le_bytes());
        b[12..16].copy_from_slice(&self.game.to_le_bytes());
        b[16] = u8::from(self.white_to_move);
        b[17] = self.result;
        b[18..20].copy_from_slice(&self.ply.to_le_bytes());
        b
    }

    /// A record from its bytes; an error names what is wrong.
    pub fn from_bytes(b: &[u8; RECORD_BYTES]) -> Result<Record, String> {
        let word = |at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        if b[16] > 1 || b[17] > 2 {
            return Err(format!(
                "a record has side {} and result {} (expected 0-1 and 0-2)",
                b[16], b[17]
            ));
        }
        Ok(Record {
            black: word(0),
            white: word(4),
            kings: word(8),
            game: word(12),
            white_to_move: b[16] == 1,
            result: b[17],
            ply: u16::from_le_bytes([b[18], b[19]]),
        })
    }
}

/// Every record of `path`, each checked to be a position.
pub fn read(path: &Path) -> Result<Vec<Record>, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {}", path.display(), e))?
        .len();
    if len % RECORD_BYTES as u64 != 0 {
        return Err(format!(
            "{} is {} bytes, not a whole number of {}-byte records",
            path.display(),
            len,
            RECORD_BYTES
        ));
    }
    let mut reader = BufReader::new(file);
    let mut out = Vec::with_capacity((len / RECORD_BYTES as u64) as usize);
    let mut b = [0u8; RECORD_BYTES];
    for _ in 0..len / RECORD_BYTES as u64 {
        reader
            .read_exact(&mut b)
            .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
        let r = Record::from_bytes(&b).map_err(|e| format!("{}: {}", path.display(), e))?;
        r.position()
            .map_err(|e| format!("{}: {}", path.display(), e))?;
        out.push(r);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::Game;

    #[test]
    fn a_record_round_trips() {
        let g = Draughts::parse_position(Rules::english(), "W:WK10,21:B1,K30").unwrap();
        let mut r = Record::of(&g, 77, 31);
        r.result = 2;
        let back = Record::from_bytes(&r.to_bytes()).unwrap();
        assert_eq!(back, r);
        let p = back.position().unwrap();
        assert_eq!(p.to_string(), g.to_string());
        assert_eq!(back.score(), 1.0);
        let mut bad = r.to_bytes();
        bad[17] = 3;
        assert!(Record::from_bytes(&bad).is_err());
    }
}
