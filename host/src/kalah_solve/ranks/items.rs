//! What an item of a Kalah solve on ranks is: a position below the root ([`Path`]),
//! what is asked of it ([`Item`]), how items are numbered ([`Layout`]), and what an
//! item answers ([`ReplyBounds`]).

use crate::distributed::Record;

/// What an item found about a reply: bounds on its value for the mover of the
/// position before it (`lo == hi`: exact), and the nodes its search took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ReplyBounds {
    pub(super) lo: i32,
    pub(super) hi: i32,
    pub(super) nodes: u64,
}

/// The largest margin a Kalah board can give: a record claiming more is refused.
const MAX_MARGIN: i64 = ply_core::games::kalah::MAX_TOTAL_SEEDS as i64;

impl Record for ReplyBounds {
    const WORDS: usize = 3;
    fn encode(&self) -> Vec<u64> {
        vec![
            i64::from(self.lo) as u64,
            i64::from(self.hi) as u64,
            self.nodes,
        ]
    }
    fn decode(words: &[u64]) -> Option<Self> {
        match *words {
            [lo, hi, nodes]
                if (lo as i64).abs() <= MAX_MARGIN
                    && (hi as i64).abs() <= MAX_MARGIN
                    && (lo as i64) <= (hi as i64) =>
            {
                Some(ReplyBounds {
                    lo: lo as i64 as i32,
                    hi: hi as i64 as i32,
                    nodes,
                })
            }
            _ => None,
        }
    }
    fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// The most plies below the root a solve splits (`--split-plies`): paths
/// have room for this many moves.
pub(super) const SPLIT_PLIES: usize = crate::settings::MAX_SPLIT_PLIES;

/// A position below the root: the moves (generation order, `0..pits`) that lead to
/// it, at most [`SPLIT_PLIES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Path {
    pub(super) moves: [u8; SPLIT_PLIES],
    pub(super) len: usize,
}

impl Path {
    pub(super) fn first(mv: usize) -> Self {
        let mut moves = [0; SPLIT_PLIES];
        moves[0] = mv as u8;
        Path { moves, len: 1 }
    }

    pub(super) fn child(&self, reply: usize) -> Option<Self> {
        if self.len >= SPLIT_PLIES {
            return None;
        }
        let mut c = *self;
        c.moves[c.len] = reply as u8;
        c.len += 1;
        Some(c)
    }

    pub(super) fn moves(&self) -> &[u8] {
        &self.moves[..self.len]
    }
}

/// What an item asks about the position at a path: its value for the mover before
/// it (the value of the path's last move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Item {
    /// The exact value.
    Exact(Path),
    /// The exact value if it is above the bound, else a bound at most the bound.
    Above(Path, i32),
    /// A null-window test only: at most the bound, or above it (a lower bound),
    /// never solved exactly (a spare item, against an estimate).
    Test(Path, i32),
}

impl Item {
    /// The position the item is about.
    pub(super) fn path(&self) -> Path {
        match *self {
            Item::Exact(p) | Item::Above(p, _) | Item::Test(p, _) => p,
        }
    }
}

/// How items are numbered: a path's moves as digits `1..=pits` in base `pits + 1`
/// (0: no move), and for each path the exact item, then one [`Item::Above`] per
/// bound `-span..=span`, then one [`Item::Test`] per bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    pub(super) pits: usize,
    /// The largest margin of the board: every seed.
    pub(super) span: i32,
    /// Plies split (at most [`SPLIT_PLIES`]): below this a position is solved whole.
    pub(super) depth: usize,
}

impl Layout {
    pub(super) fn per_path(&self) -> usize {
        1 + 2 * self.bounds()
    }

    /// Bounds a test may have: `-span..=span`.
    fn bounds(&self) -> usize {
        2 * self.span as usize + 1
    }

    /// Path codes: up to `depth` moves (deeper paths have no items).
    pub(super) fn paths(&self) -> usize {
        (self.pits + 1).pow(self.depth as u32)
    }

    pub(super) fn items(&self) -> usize {
        self.paths() * self.per_path()
    }

    pub(super) fn code(&self, path: &Path) -> usize {
        path.moves()
            .iter()
            .rev()
            .fold(0, |c, &m| c * (self.pits + 1) + usize::from(m) + 1)
    }

    pub(super) fn index(&self, item: Item) -> usize {
        let at = |bound: i32| (bound.clamp(-self.span, self.span) + self.span) as usize;
        let (path, k) = match item {
            Item::Exact(p) => (p, 0),
            Item::Above(p, bound) => (p, 1 + at(bound)),
            Item::Test(p, bound) => (p, 1 + self.bounds() + at(bound)),
        };
        self.code(&path) * self.per_path() + k
    }

    pub(super) fn item(&self, index: usize) -> Option<Item> {
        if index >= self.items() {
            return None;
        }
        let k = index % self.per_path();
        let mut code = index / self.per_path();
        let mut path = Path {
            moves: [0; SPLIT_PLIES],
            len: 0,
        };
        while code > 0 {
            let digit = code % (self.pits + 1);
            if digit == 0 {
                return None;
            }
            path.moves[path.len] = (digit - 1) as u8;
            path.len += 1;
            code /= self.pits + 1;
        }
        if path.len == 0 {
            return None;
        }
        Some(if k == 0 {
            Item::Exact(path)
        } else if k <= self.bounds() {
            Item::Above(path, k as i32 - 1 - self.span)
        } else {
            Item::Test(path, (k - 1 - self.bounds()) as i32 - self.span)
        })
    }
}
