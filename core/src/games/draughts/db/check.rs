//! The consistency check of a finished database: every position's value agrees
//! with its children's, for `ply db verify` over whole databases.

use core::ops::Range;

use super::super::{DraughtsMoves, Rules};
use super::index::unrank;
use super::probe::{Database, Lookup};
use super::slice::{Placement, SliceKey};
use super::value::Value;
use crate::game::Game;

/// A position whose value disagrees with its children's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inconsistent {
    /// The position.
    pub position: Placement,
    /// Its value in the database (`None`: a byte no value has, or a child missing).
    pub found: Option<Value>,
    /// The value its children give it.
    pub expected: Option<Value>,
}

/// The value the children of `p` (the mover to move) give it in `db`: lost in 0
/// without a move; won in `d + 1` where the nearest losing child is at distance
/// `d` (a conversion counts as 0); lost in `d + 1` where every child is won, the
/// farthest at `d`; else drawn. `None` if a child is not in `db`.
pub fn value_from_children(db: &Database, p: &Placement) -> Option<Value> {
    let g = p.game_with(Rules::english());
    let mut moves = DraughtsMoves::default();
    g.generate_moves(&mut moves);
    if moves.is_empty() {
        return Some(Value::Loss(0));
    }
    let mut nearest_loss: Option<u16> = None;
    let mut farthest_win: Option<u16> = None;
    let mut all_won = true;
    for &m in moves.iter() {
        let v = db.probe(&g.play_unchecked(m))?;
        let conversion = m.is_capture() || m.crowns();
        let d = |x: u16| if conversion { 0 } else { x };
        match v {
            Value::Loss(x) => nearest_loss = Some(nearest_loss.map_or(d(x), |n| n.min(d(x)))),
            Value::Win(x) => farthest_win = Some(farthest_win.map_or(d(x), |n| n.max(d(x)))),
            Value::Draw => {}
        }
        all_won &= matches!(v, Value::Win(_));
    }
    Some(match (nearest_loss, farthest_win) {
        (Some(n), _) => Value::Win(n.saturating_add(1)),
        (None, Some(f)) if all_won => Value::Loss(f.saturating_add(1)),
        _ => Value::Draw,
    })
}

/// Checks the positions `range` of slice `key` of `db`; the first inconsistent
/// one, if any.
pub fn check_range(db: &Database, key: SliceKey, range: Range<u64>) -> Result<(), Inconsistent> {
    for i in range {
        let p = unrank(key, i);
        let found = db.value(key, i);
        let expected = value_from_children(db, &p);
        if found.is_none() || found != expected {
            return Err(Inconsistent {
                position: p,
                found,
                expected,
            });
        }
    }
    Ok(())
}
