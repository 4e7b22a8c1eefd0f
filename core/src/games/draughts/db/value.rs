//! The value of a position for its side to move, with the distance to conversion,
//! and its code in a finished slice: one byte a position where the slice's
//! distances fit ([`BYTE_MAX_DISTANCE`]), two bytes where they do not
//! ([`entry_width`]), the width chosen per slice and recorded in its file.

/// The value of a position for the side to move under perfect play, ignoring the
/// draw rules of a game (repetition, move limit): a win or a loss with the number
/// of plies to the next conversion (a capture or a crowning, or the end of the
/// game) when the winner hastens it and the loser delays it, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins; the conversion comes within this many plies (1 or
    /// more).
    Win(u16),
    /// The side to move loses; the conversion (or the end: 0, no move) comes after
    /// this many plies.
    Loss(u16),
    /// Neither side can force a win.
    Draw,
}

/// The longest distance to conversion a one-byte entry holds.
pub const BYTE_MAX_DISTANCE: u32 = 126;

/// The longest distance to conversion a two-byte entry (and a build's cell) holds.
pub const MAX_DISTANCE: u32 = 16382;

/// The bytes of an entry of a slice whose longest distance is `longest`: 1 up to
/// [`BYTE_MAX_DISTANCE`], 2 up to [`MAX_DISTANCE`], `None` beyond.
pub const fn entry_width(longest: u32) -> Option<usize> {
    if longest <= BYTE_MAX_DISTANCE {
        Some(1)
    } else if longest <= MAX_DISTANCE {
        Some(2)
    } else {
        None
    }
}

/// The longest distance an entry of `width` bytes holds (0 for a width no entry
/// has).
pub const fn width_max_distance(width: usize) -> u32 {
    match width {
        1 => BYTE_MAX_DISTANCE,
        2 => MAX_DISTANCE,
        _ => 0,
    }
}

impl Value {
    /// Its code: 0 a draw, `1 + 2d` a win in `d`, `2 + 2d` a loss in `d`. A slice
    /// stores it in one byte or two (little-endian), as its width says.
    #[inline(always)]
    pub const fn code(self) -> u16 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => 1 + 2 * d,
            Value::Loss(d) => 2 + 2 * d,
        }
    }

    /// The value of `code`; `None` for a code no value has (1: a win in 0, and
    /// every code of a distance over [`MAX_DISTANCE`]).
    #[inline(always)]
    pub const fn from_code(code: u16) -> Option<Self> {
        match code {
            0 => Some(Value::Draw),
            1 => None,
            c if c as u32 > 2 + 2 * MAX_DISTANCE => None,
            c if c % 2 == 1 => Some(Value::Win((c - 1) / 2)),
            c => Some(Value::Loss((c - 2) / 2)),
        }
    }

    /// The distance to conversion of a win or a loss, 0 for a draw.
    #[inline(always)]
    pub const fn distance(self) -> u16 {
        match self {
            Value::Win(d) | Value::Loss(d) => d,
            Value::Draw => 0,
        }
    }

    /// 1 for a win, -1 for a loss, 0 for a draw.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Value::Win(_) => 1,
            Value::Loss(_) => -1,
            Value::Draw => 0,
        }
    }
}

/// A finished slice's entries: `width` bytes a position in index order, each a
/// [`Value::code`] (two bytes little-endian), in memory the caller provides.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entries<'a> {
    bytes: &'a [u8],
    width: u8,
}

impl<'a> Entries<'a> {
    /// No entries (the [`Default`]).
    pub const EMPTY: Entries<'a> = Entries {
        bytes: &[],
        width: 0,
    };

    /// The entries in `bytes`, `width` (1 or 2) bytes each; `None` for another
    /// width or a length that is not a multiple of it.
    pub const fn new(bytes: &'a [u8], width: usize) -> Option<Self> {
        if (width != 1 && width != 2) || !bytes.len().is_multiple_of(width) {
            return None;
        }
        Some(Entries {
            bytes,
            width: width as u8,
        })
    }

    /// The number of positions.
    #[inline(always)]
    pub const fn len(&self) -> usize {
        if self.width == 0 {
            0
        } else {
            self.bytes.len() / self.width as usize
        }
    }

    /// Whether there is no position.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes of an entry.
    #[inline(always)]
    pub const fn width(&self) -> usize {
        self.width as usize
    }

    /// The entries' bytes.
    #[inline(always)]
    pub const fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The code of position `i`, if there is one.
    #[inline(always)]
    pub fn code(&self, i: usize) -> Option<u16> {
        if self.width == 1 {
            self.bytes.get(i).map(|&b| u16::from(b))
        } else {
            let at = i.checked_mul(2)?;
            let b = self.bytes.get(at..at.checked_add(2)?)?;
            Some(u16::from_le_bytes([b[0], b[1]]))
        }
    }

    /// The value of position `i`: `None` past the end, for a code no value has, and
    /// for a byte entry whose distance is over [`BYTE_MAX_DISTANCE`] (255).
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<Value> {
        value_of(self.code(i)?, self.width())
    }
}

/// The value of `code` in an entry of `width` bytes: `None` for a code no value
/// has and for a distance over what the width holds (255 in a byte).
#[inline(always)]
pub fn value_of(code: u16, width: usize) -> Option<Value> {
    let v = Value::from_code(code)?;
    if u32::from(v.distance()) > width_max_distance(width) {
        return None;
    }
    Some(v)
}

/// Writes `v`'s code as entry `i` of `out` (`width` bytes an entry); `false` if its
/// distance does not fit the width, and then `out` is left as it was.
#[inline(always)]
pub fn put(out: &mut [u8], width: usize, i: usize, v: Value) -> bool {
    if u32::from(v.distance()) > width_max_distance(width) {
        return false;
    }
    let c = v.code();
    if width == 1 {
        out[i] = c as u8;
    } else {
        out[2 * i..2 * i + 2].copy_from_slice(&c.to_le_bytes());
    }
    true
}
