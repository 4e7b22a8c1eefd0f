//! The principal variation, read back from the table after an iteration.

use super::{Engine, SearchReport, MAX_PV};
use crate::game::Game;
use crate::search::tt::Table;
use crate::search::{Clock, Evaluator};

impl<G: Game, E: Evaluator<G>, C: Clock, T: Table, const KILLERS: usize, const HISTORY: usize>
    Engine<G, E, C, T, KILLERS, HISTORY>
{
    /// Fills `report.pv` from its best move down the table's best moves, as deep
    /// as the report's depth (at most [`MAX_PV`] moves).
    pub(super) fn fill_pv(&mut self, game: &G, report: &mut SearchReport<G::Move>) {
        report.pv.clear();
        let Some(first) = report.best_move else {
            return;
        };
        let _ = report.pv.push(first);
        let mut pos = game.play_unchecked(first);
        while report.pv.len() < MAX_PV && (report.pv.len() as u32) < report.depth.max(1) {
            let Some(e) = self.tt.probe(self.key(&pos), 0) else {
                break;
            };
            let moves = pos.legal_moves();
            let Some(&mv) = e.move_index.and_then(|i| moves.get(i)) else {
                break;
            };
            let _ = report.pv.push(mv);
            pos = pos.play_unchecked(mv);
        }
    }
}
