//! The training data: one record a position, as self-play writes it and the fit reads
//! it.
//!
//! A record is [`RECORD_BYTES`] little-endian bytes: Black's pieces (`u32`), White's
//! (`u32`), the kings (`u32`), the game's number (`u32`), the side to move (`u8`: 0
//! Black, 1 White), the game's result for White (`u8`: 0 loss, 1 draw, 2 win) and the
//! ply (`u16`).
//!
//! A labelled file ([`crate::label`]) starts with [`LABELLED_MAGIC`], and each record
//! is followed by White's value by search (`i32`): [`LABELLED_BYTES`] bytes a record.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use ply_core::games::draughts::{Colour, Draughts, Rules};

/// Bytes of one record.
pub const RECORD_BYTES: usize = 20;

/// The first bytes of a labelled file.
pub const LABELLED_MAGIC: &[u8; 8] = b"plylbl1\n";

/// Bytes of one record of a labelled file.
pub const LABELLED_BYTES: usize = RECORD_BYTES + 4;

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
    /// White's value by a search (labelled files only; [`crate::label`]).
    pub search: Option<i32>,
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
            search: None,
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
            search: None,
        })
    }
}

/// Every record of `path` (plain or labelled), each checked to be a position.
pub fn read(path: &Path) -> Result<Vec<Record>, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
    let (body, size) = match bytes.strip_prefix(LABELLED_MAGIC.as_slice()) {
        Some(body) => (body, LABELLED_BYTES),
        None => (bytes.as_slice(), RECORD_BYTES),
    };
    if body.len() % size != 0 {
        return Err(format!(
            "{} has {} bytes of records, not a whole number of {}-byte records",
            path.display(),
            body.len(),
            size
        ));
    }
    let mut out = Vec::with_capacity(body.len() / size);
    for chunk in body.chunks_exact(size) {
        let head: &[u8; RECORD_BYTES] = chunk[..RECORD_BYTES].try_into().expect("sized chunk");
        let mut r = Record::from_bytes(head).map_err(|e| format!("{}: {}", path.display(), e))?;
        if size == LABELLED_BYTES {
            let v = &chunk[RECORD_BYTES..];
            r.search = Some(i32::from_le_bytes([v[0], v[1], v[2], v[3]]));
        }
        r.position()
            .map_err(|e| format!("{}: {}", path.display(), e))?;
        out.push(r);
    }
    Ok(out)
}

/// Writes `records` (through a temporary file renamed at the end, so nothing
/// half-written is left): a labelled file when they carry search values (then each
/// must), a plain one when none does.
pub fn write(path: &Path, records: &[Record]) -> Result<(), String> {
    let labelled = records.iter().any(|r| r.search.is_some());
    let tmp = path.with_extension("tmp");
    let result = (|| -> std::io::Result<()> {
        let mut w = BufWriter::new(File::create(&tmp)?);
        if labelled {
            w.write_all(LABELLED_MAGIC)?;
        }
        for r in records {
            w.write_all(&r.to_bytes())?;
            if labelled {
                let v = r.search.ok_or_else(|| {
                    std::io::Error::other(format!(
                        "a record of game {} has no search value",
                        r.game
                    ))
                })?;
                w.write_all(&v.to_le_bytes())?;
            }
        }
        w.flush()?;
        drop(w);
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}: {}", path.display(), e)
    })
}

/// Test records: `games` games of one position each, cycling through positions where
/// White is a man up (a White win), a man down (a loss) or level (a draw), with either
/// side to move: what the fits' tests learn from.
#[cfg(test)]
pub fn man_up_records(games: u32) -> Vec<Record> {
    let fens = [
        ("B:W21-32:B1-11", 2),
        ("W:W21-32:B1-11", 2),
        ("B:W22-32:B1-12", 0),
        ("W:W22-32:B1-12", 0),
        ("B:W21-32:B1-12", 1),
        ("W:W20,22-32:B1-12", 1),
    ];
    (0..games)
        .map(|game| {
            let (fen, result) = fens[game as usize % fens.len()];
            let g = <Draughts as ply_core::Game>::parse_position(Rules::english(), fen).unwrap();
            let mut r = Record::of(&g, game, 10);
            r.result = result;
            r
        })
        .collect()
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

    #[test]
    fn labelled_and_plain_files_round_trip() {
        let dir = std::env::temp_dir().join(format!("ply-train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let g = Draughts::parse_position(Rules::english(), "B:W21-32:B1-11").unwrap();
        let mut a = Record::of(&g, 5, 12);
        a.search = Some(-437);
        let mut b = Record::of(&g, 6, 13);
        b.search = Some(91);
        let path = dir.join("l.bin");
        write(&path, &[a, b]).unwrap();
        assert_eq!(read(&path).unwrap(), vec![a, b]);
        assert!(!path.with_extension("tmp").exists());
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.pop();
        std::fs::write(&path, &bytes).unwrap();
        assert!(read(&path).unwrap_err().contains("24-byte records"));
        let plain = dir.join("p.bin");
        std::fs::write(&plain, a.to_bytes()).unwrap();
        assert_eq!(read(&plain).unwrap()[0].search, None);
        b.search = None;
        assert!(write(&path, &[a, b])
            .unwrap_err()
            .contains("no search value"));
        assert!(!path.with_extension("tmp").exists());
        a.search = None;
        write(&plain, &[a, b]).unwrap();
        assert_eq!(std::fs::read(&plain).unwrap().len(), 2 * RECORD_BYTES);
        assert_eq!(read(&plain).unwrap(), vec![a, b]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
