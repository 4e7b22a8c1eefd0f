//! Labels by search: each chosen record gets White's value from a fixed-node search of
//! its position, so that the fit can learn from what a deeper look says as well as
//! from the game's result (`fit --lambda`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ply_core::games::draughts::{Colour, DraughtsEvaluation as Eval};
use ply_core::search::{Engine, EngineConfig, Limits, NoClock, TtEntry, WIN};

use crate::data::Record;

/// The largest value a label keeps: a proved win or loss is written as this, far past
/// any evaluation, so the fit reads it as certain.
pub const DECIDED: i32 = 2_000;

/// How a labelling run searches.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Nodes a position.
    pub nodes: u64,
    /// Threads.
    pub threads: usize,
    /// Transposition-table entries a thread (cleared before each position, so a
    /// label does not depend on the order or the thread).
    pub table_entries: usize,
}

/// White's value of `r`'s position by a search of `s.nodes` nodes with `eval`.
pub fn label_one(r: &Record, s: &Settings, eval: Eval, slots: &mut [TtEntry]) -> i32 {
    let g = r.position().expect("records are checked when read");
    slots.fill(TtEntry::EMPTY);
    let mut engine = Engine::new(slots, eval, NoClock, EngineConfig::default());
    let v = engine.search(&g, Limits::nodes(s.nodes)).value;
    white_value(v, g.colour_to_move() == Colour::White)
}

/// White's label of `v`, a search value for the side to move of a position with
/// `white_to_move`: a proved win or loss becomes [`DECIDED`], any other value is
/// clamped to it.
pub fn white_value(v: i32, white_to_move: bool) -> i32 {
    let v = if v.abs() >= WIN - 1_000 {
        DECIDED * v.signum()
    } else {
        v.clamp(-DECIDED, DECIDED)
    };
    if white_to_move {
        v
    } else {
        -v
    }
}

/// `records` with their search values, on `s.threads` threads; `progress` is called
/// with the count done about every tenth of the way.
pub fn label(
    records: &[Record],
    s: &Settings,
    eval: Eval,
    progress: impl Fn(usize) + Sync,
) -> Vec<Record> {
    let out = Mutex::new(records.to_vec());
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let step = (records.len() / 10).max(1);
    std::thread::scope(|scope| {
        for _ in 0..s.threads.max(1) {
            scope.spawn(|| {
                let mut slots = vec![TtEntry::EMPTY; s.table_entries];
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= records.len() {
                        break;
                    }
                    let v = label_one(&records[i], s, eval, &mut slots);
                    out.lock().expect("no labeller panics")[i].search = Some(v);
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if d.is_multiple_of(step) {
                        progress(d);
                    }
                }
            });
        }
    });
    out.into_inner().expect("no labeller panics")
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::draughts::{Draughts, Rules};
    use ply_core::Game;

    fn record(fen: &str, game: u32) -> Record {
        let g = Draughts::parse_position(Rules::english(), fen).unwrap();
        Record::of(&g, game, 10)
    }

    #[test]
    fn labels_are_whites_values_and_do_not_depend_on_threads() {
        // White a man up, with either side to move; Black a man up.
        let records = vec![
            record("W:W21-32:B1-11", 0),
            record("B:W21-32:B1-11", 1),
            record("W:W22-32:B1-12", 2),
            record("B:W22-32:B1-12", 3),
        ];
        let s = |threads| Settings {
            nodes: 2_000,
            threads,
            table_entries: 1 << 10,
        };
        let one = label(&records, &s(1), Eval::LEARNED, |_| {});
        let two = label(&records, &s(2), Eval::LEARNED, |_| {});
        assert_eq!(one, two);
        let v: Vec<i32> = one.iter().map(|r| r.search.unwrap()).collect();
        assert!(v[0] > 30 && v[1] > 30, "{v:?}");
        assert!(v[2] < -30 && v[3] < -30, "{v:?}");
        // A lost position for White (no move) is decided.
        let lost = record("W:W29:B25,K22", 4);
        let mut slots = vec![TtEntry::EMPTY; 1 << 10];
        assert_eq!(label_one(&lost, &s(1), Eval::LEARNED, &mut slots), -DECIDED);
    }
}
