//! The checkpoint of `ply solve kalah --checkpoint FILE`: what a solve has proved so
//! far (bounds on the root's value and on each first move's, and which tasks are
//! finished), so that `--resume` goes on from there after Ctrl-C, a kill or a crash.
//!
//! The transposition table is not saved (gigabytes, and refilled by the search); the
//! endgame tables are in their own files. What is saved is every bound a finished
//! null-window pass proved: a resumed task starts its MTD(f) passes inside them, so
//! the work of the passes that finished is never repeated.
//!
//! The file is a checkpoint of numbered work items of `ply`'s distributed jobs
//! ([`crate::distributed::checkpoint`]: magic `PLYCKPT1`, the fingerprint, one record
//! an item, a checksum; written whole through a temporary, a damaged, foreign or
//! non-checkpoint file refused with one line naming it). Item 0 is the root, item
//! `k` the `k`-th legal move in generation order; an item has a record once
//! something is proved about it ([`TaskState`]).

use ply_core::games::kalah::Kalah;
use ply_core::Game;

use crate::distributed::Record;

/// Bounds standing for "nothing known" on a value (beyond any Kalah margin).
pub(super) const UNKNOWN: (i32, i32) = (-1000, 1000);

/// What is proved about one task (the root or a first move); values for the root's
/// side to move. As a record: `[flags, lower, upper, nodes]`, bit 0 of `flags` set
/// when the task is finished, the bounds as `i64` in two's complement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskState {
    /// The value is at least this.
    pub lo: i32,
    /// The value is at most this.
    pub hi: i32,
    /// The task is finished (exact, or out of its node budget).
    pub done: bool,
    /// Nodes the task has searched, over every run.
    pub nodes: u64,
}

impl Record for TaskState {
    const WORDS: usize = 4;

    fn encode(&self) -> Vec<u64> {
        vec![
            u64::from(self.done),
            i64::from(self.lo) as u64,
            i64::from(self.hi) as u64,
            self.nodes,
        ]
    }

    fn decode(words: &[u64]) -> Option<Self> {
        let bound = |w: u64| i32::try_from(w as i64).ok();
        match *words {
            [flags @ (0 | 1), lo, hi, nodes] => {
                let (lo, hi) = (bound(lo)?, bound(hi)?);
                (lo <= hi).then_some(TaskState {
                    lo,
                    hi,
                    done: flags == 1,
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

/// Refuses a checkpoint (at `shown`, quoted) whose records hold a bound no game
/// from `game` can score: each bound is a store difference, at most the seeds on
/// the board either way, or the "nothing proved yet" of
/// [`UNKNOWN`]. A file with a good checksum can still have been
/// written by hand: its values would otherwise be printed as the solve's.
pub fn check_ranges(
    records: &[Option<TaskState>],
    game: &Kalah,
    shown: &str,
) -> Result<(), String> {
    use ply_core::Player;
    let total =
        (game.seeds_in_play() + game.store(Player::First) + game.store(Player::Second)) as i32;
    let (unknown_lo, unknown_hi) = UNKNOWN;
    let fits = |v: i32| (-total..=total).contains(&v);
    for t in records.iter().flatten() {
        for (v, unknown) in [(t.lo, unknown_lo), (t.hi, unknown_hi)] {
            if v != unknown && !fits(v) {
                return Err(format!(
                    "checkpoint {} holds the value {}, outside what this board can score \
                     (-{} to {}): it is damaged, remove it to start again",
                    shown, v, total, total
                ));
            }
        }
    }
    Ok(())
}

/// What a solve of `game` is, for the checkpoint: another game, rule, position or
/// node budget is another solve. Threads, table sizes and the like change how fast a
/// solve goes, never what it finds, so a solve can resume with other ones.
pub fn fingerprint(game: &Kalah, move_nodes: u64) -> String {
    let budget = if move_nodes == u64::MAX {
        "max".to_string()
    } else {
        move_nodes.to_string()
    };
    format!(
        "solve kalah:{}; position {}; move nodes {}",
        game.rules(),
        game,
        budget
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributed::checkpoint::{decode, encode, load, save, Refused};

    fn items() -> Vec<Option<TaskState>> {
        vec![
            Some(TaskState {
                lo: 8,
                hi: 12,
                done: false,
                nodes: 1 << 40,
            }),
            None,
            Some(TaskState {
                lo: -1000,
                hi: -14,
                done: true,
                nodes: 0,
            }),
            Some(TaskState {
                lo: 4,
                hi: 4,
                done: true,
                nodes: 77,
            }),
        ]
    }

    #[test]
    fn records_round_trip_and_bad_ones_are_refused() {
        for t in items().into_iter().flatten() {
            assert_eq!(TaskState::decode(&t.encode()), Some(t));
        }
        assert_eq!(TaskState::decode(&[2, 0, 0, 0]), None);
        assert_eq!(TaskState::decode(&[0, 5, 4, 0]), None, "lower above upper");
        assert_eq!(TaskState::decode(&[0, 1 << 40, 1 << 41, 0]), None);
        assert_eq!(TaskState::decode(&[0, 0, 0]), None);
        let b = encode("solve kalah:6x4", &items());
        assert_eq!(decode(&b, "solve kalah:6x4", 4), Ok(items()));
        assert!(matches!(
            decode::<TaskState>(&b, "solve kalah:6x5", 4),
            Err(Refused::OtherJob(_))
        ));
    }

    #[test]
    fn a_solve_checkpoint_saves_and_loads() {
        let dir = std::env::temp_dir().join(format!("ply-solve-ckpt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.ckpt");
        assert_eq!(load::<TaskState>(&path, "f", 4), Ok(None));
        save(&path, "f", &items()).unwrap();
        assert_eq!(load(&path, "f", 4), Ok(Some(items())));
        let e = load::<TaskState>(&path, "g", 4).unwrap_err();
        assert!(
            e.contains("belongs to another command") && !e.contains('\n'),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn fingerprints_tell_solves_apart() {
        let r = ply_core::games::kalah::KalahRules::new(6, 4).unwrap();
        let g = Kalah::new(r);
        let f = fingerprint(&g, u64::MAX);
        assert_eq!(
            f,
            "solve kalah:6x4; position 4 4 4 4 4 4 [0] / 4 4 4 4 4 4 [0] / first; move nodes max"
        );
        assert_ne!(f, fingerprint(&g, 0));
        assert_ne!(
            f,
            fingerprint(&Kalah::new(r.with_empty_capture(true)), u64::MAX)
        );
        assert_ne!(
            f,
            fingerprint(&g.play_unchecked(g.legal_moves()[2]), u64::MAX)
        );
    }
}
