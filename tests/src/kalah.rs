//! Kalah as a plain array, the form the rules are written in: the board in sowing
//! order, and one move sown a seed at a time. The tests hold ply's packed sowing to
//! this model (`tests/tests/kalah/properties.rs`) and read OpenSpiel's boards through
//! it (`tests/tests/kalah/differential.rs`). It is written from the rules, not from
//! ply's code.

use ply_core::games::kalah::{Kalah, KalahRules, Pit, MAX_PITS};
use ply_core::{Game, Player};

/// The board as one array in sowing order, `2 × pits + 2` counts: the first
/// player's pits from its left, its store, the second player's pits from its left,
/// its store.
pub fn board(g: &Kalah) -> Vec<u32> {
    let p = g.rules().pits as usize;
    let mut b = vec![0; 2 * p + 2];
    for i in 0..p {
        b[i] = g.pit(Player::First, i);
        b[p + 1 + i] = g.pit(Player::Second, i);
    }
    b[p] = g.store(Player::First);
    b[2 * p + 1] = g.store(Player::Second);
    b
}

/// The position of a board in sowing order (as [`board`] writes it) with `side` to
/// move, checked by [`Kalah::from_parts`].
pub fn from_board(rules: KalahRules, b: &[u32], side: Player) -> Result<Kalah, &'static str> {
    let p = rules.pits as usize;
    if b.len() != 2 * p + 2 {
        return Err("a board of 2 x pits + 2 counts");
    }
    let mut rows = [[0u8; MAX_PITS as usize]; 2];
    for i in 0..p {
        rows[0][i] = b[i] as u8;
        rows[1][i] = b[p + 1 + i] as u8;
    }
    Kalah::from_parts(rules, rows, [b[p] as u8, b[2 * p + 1] as u8], side)
}

/// Whether the first player's row and the second player's row of a board of `p`
/// pits a row are empty.
pub fn rows_empty(b: &[u32], p: usize) -> (bool, bool) {
    (
        b[..p].iter().all(|&s| s == 0),
        b[p + 1..2 * p + 1].iter().all(|&s| s == 0),
    )
}

/// What one move does by the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlowMove {
    /// The board after the move, in sowing order (swept if the game ended).
    pub board: Vec<u32>,
    /// The side to move next: the mover after an extra turn, else the opponent (a
    /// finished game keeps the same rule).
    pub next: Player,
    /// One row was empty after the move: the game is over.
    pub over: bool,
}

/// Plays `mv` (a non-empty pit of the side to move) on the array, one seed at a
/// time: the sowing that skips the opponent's store, the extra turn, the capture
/// under either capture rule, and the sweep at the end.
pub fn slow_play(g: &Kalah, mv: Pit) -> SlowMove {
    let rules = g.rules();
    let p = rules.pits as usize;
    let n = 2 * p + 2;
    let me = g.side_to_move();
    let base = me.index() * (p + 1);
    let own_store = base + p;
    let opp_store = (own_store + p + 1) % n;
    let mut b = board(g);
    let mut at = base + mv.0 as usize;
    let mut seeds = b[at];
    b[at] = 0;
    while seeds > 0 {
        at = (at + 1) % n;
        if at == opp_store {
            continue;
        }
        b[at] += 1;
        seeds -= 1;
    }
    let mut next = me.opponent();
    if at == own_store {
        next = me;
    } else if at >= base && at < base + p && b[at] == 1 {
        let opposite = 2 * p - at;
        if b[opposite] > 0 || rules.empty_capture {
            b[own_store] += 1 + b[opposite];
            b[at] = 0;
            b[opposite] = 0;
        }
    }
    let (a, z) = rows_empty(&b, p);
    let over = a || z;
    if over {
        for i in 0..p {
            b[p] += std::mem::take(&mut b[i]);
            b[2 * p + 1] += std::mem::take(&mut b[p + 1 + i]);
        }
    }
    SlowMove {
        board: b,
        next,
        over,
    }
}
