//! ABDADA's deferral: at a node, a move another engine is searching is put off
//! until the node's other moves are searched (by then its value is usually in the
//! shared table).

use super::Engine;
use crate::game::Game;
use crate::search::order::MoveOrder;
use crate::search::tt::Table;
use crate::search::{Clock, Evaluator};

/// At most this many moves of a node are deferred by ABDADA; further busy moves are
/// searched at once.
const MAX_DEFERRED: usize = 32;

/// A node's moves in ABDADA's order: the ordered moves, then those put off because
/// another engine was searching them.
pub(super) struct Deferral {
    /// Whether moves may be put off at this node.
    on: bool,
    deferred: heapless::Vec<u16, MAX_DEFERRED>,
    next: usize,
}

impl Deferral {
    #[inline]
    pub(super) fn new(on: bool) -> Self {
        Deferral {
            on,
            deferred: heapless::Vec::new(),
            next: 0,
        }
    }

    /// The next move's index, and true if it was put off before.
    #[inline]
    pub(super) fn next(&mut self, order: &mut MoveOrder) -> Option<(usize, bool)> {
        if let Some(i) = order.next() {
            return Some((i, false));
        }
        let i = *self.deferred.get(self.next)?;
        self.next += 1;
        Some((usize::from(i), true))
    }

    /// Puts move `i` off; false if the list is full (the move is searched now).
    #[inline]
    pub(super) fn put_off(&mut self, i: usize) -> bool {
        self.deferred.push(i as u16).is_ok()
    }
}

impl<G: Game, E: Evaluator<G>, C: Clock, T: Table, const KILLERS: usize, const HISTORY: usize>
    Engine<G, E, C, T, KILLERS, HISTORY>
{
    /// ABDADA at one move of a node (`eligible`: not the node's first move): `None`
    /// if the move is put off because another engine is searching `child`, else the
    /// key this engine entered as busy, if any (to leave once the move is searched).
    #[inline]
    pub(super) fn enter_move(
        &mut self,
        deferral: &mut Deferral,
        i: usize,
        second_pass: bool,
        child: &G,
        eligible: bool,
    ) -> Option<Option<u64>> {
        if !(deferral.on && eligible) {
            return Some(None);
        }
        let k = self.key(child);
        if !second_pass && self.tt.is_busy(k) && deferral.put_off(i) {
            return None;
        }
        self.tt.enter(k);
        Some(Some(k))
    }
}
