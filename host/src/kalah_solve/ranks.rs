//! `ply solve kalah` under `mpirun` or `srun` (the `mpi` feature): each first move is
//! a work item of [`crate::distributed`], solved exactly by one rank on all its
//! threads (the scheduler's root-only job on the position after the move), over that
//! rank's own transposition table and endgame tables; the root's value is the best
//! of the moves' values. Rank 0 prints what one process prints.
//!
//! What this gives up against one process: the ranks share no table (what one rank
//! proved about a position, another proves again), and each move is solved to its
//! exact value on its own, without the root's value to search it below (one
//! process proves the root first, then each move below it). `docs/mpi.md` has the
//! figures. `--checkpoint` keeps the finished moves (a move under way is solved
//! again after `--resume`), in a checkpoint of its own: one written by a
//! one-process solve is refused here, and the other way round.

use std::sync::atomic::AtomicBool;

use ply_core::games::kalah::Kalah;
use ply_core::search::for_player;
use ply_core::Game;

use super::proved::Proved;
use super::scheduler::Solved;
use super::{checkpoint, output, Memory};
use crate::distributed::{Job, Options, Record};
use crate::games::{SolveOptions, SolveOutput};

/// One first move's exact value for the root's side to move, and the nodes its
/// solve took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct MoveValue {
    pub(super) value: i32,
    pub(super) nodes: u64,
}

/// The largest margin a Kalah board can give: a record claiming more is refused.
const MAX_MARGIN: i64 = ply_core::games::kalah::MAX_TOTAL_SEEDS as i64;

impl Record for MoveValue {
    const WORDS: usize = 2;
    fn encode(&self) -> Vec<u64> {
        vec![i64::from(self.value) as u64, self.nodes]
    }
    fn decode(words: &[u64]) -> Option<Self> {
        match *words {
            [value, nodes] if (value as i64).abs() <= MAX_MARGIN => Some(MoveValue {
                value: value as i64 as i32,
                nodes,
            }),
            _ => None,
        }
    }
    fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// The first moves of a position, each an item.
struct FirstMoves<'a> {
    root: &'a Kalah,
    moves: Vec<(String, Kalah)>,
    memory: &'a Memory,
    env: &'a crate::settings::Environment,
    start: std::time::Instant,
}

impl Job for FirstMoves<'_> {
    type Output = MoveValue;

    fn fingerprint(&self) -> String {
        format!(
            "{}; each first move solved alone",
            checkpoint::fingerprint(self.root, u64::MAX)
        )
    }

    fn items(&self) -> usize {
        self.moves.len()
    }

    fn slots(&self) -> usize {
        // A move's solve uses every thread of the process.
        1
    }

    fn run(&self, index: usize) -> Result<MoveValue, String> {
        let (_, child) = self
            .moves
            .get(index)
            .ok_or_else(|| format!("no first move {}", index))?;
        let me = self.root.side_to_move();
        if child.legal_moves().is_empty() {
            // The move ends the game.
            return Ok(MoveValue {
                value: for_player(child, me, child.store_difference()),
                nodes: 0,
            });
        }
        let proved = Proved::new(1 + child.legal_moves().len(), None);
        let stopped = AtomicBool::new(false);
        let save = || Ok(());
        let job = self
            .memory
            .job(child, self.env, &proved, &save, &stopped, true)?;
        let solved = job.run(&mut |_| {})?;
        Ok(MoveValue {
            value: for_player(child, me, solved.value),
            nodes: solved.nodes,
        })
    }

    fn ahead(&self) -> usize {
        // A move can take minutes: none waits queued behind a busy rank.
        0
    }

    fn finished(&self, index: usize, output: &MoveValue) {
        crate::errln!(
            "{:>7.1} s pit {}: value {} ({} nodes)",
            self.start.elapsed().as_secs_f64(),
            self.moves[index].0,
            output.value,
            output.nodes
        );
    }

    fn label(&self) -> Option<&str> {
        None
    }
}

/// [`super::solve`] on the ranks of an MPI run (or one process started by a
/// launcher): rank 0 gets the output, the other ranks `None`.
pub(super) fn solve(
    game: &Kalah,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Option<SolveOutput>, String> {
    let env = crate::settings::environment()?;
    for (set, name) in [
        (env.move_nodes.is_some(), "PLY_KALAH_MOVE_NODES"),
        (env.stop_nodes.is_some(), "PLY_KALAH_STOP_NODES"),
    ] {
        if set {
            return Err(format!(
                "{} applies to the solve of one process, not under mpirun or srun \
                 (where every first move is solved exactly): unset it",
                name
            ));
        }
    }
    let memory = Memory::prepare(game, &env, progress)?;
    let t1 = std::time::Instant::now();
    let moves = game
        .legal_moves()
        .iter()
        .map(|&m| (game.display_move(m).to_string(), game.play_unchecked(m)))
        .collect();
    let job = FirstMoves {
        root: game,
        moves,
        memory: &memory,
        env: &env,
        start: t1,
    };
    let distributed = Options {
        checkpoint: options.checkpoint.clone(),
        resume: options.resume,
        command: String::new(),
    };
    let Some(values) = crate::distributed::run(&job, &distributed)? else {
        return Ok(None);
    };
    let legal = game.legal_moves();
    let solved = Solved {
        value: values.iter().map(|v| v.value).max().unwrap_or(0),
        moves: legal
            .iter()
            .zip(&values)
            .map(|(&mv, v)| (mv, (v.value, v.value)))
            .collect(),
        nodes: values.iter().map(|v| v.nodes).sum(),
    };
    Ok(Some(output(
        game,
        &solved,
        &memory,
        t1.elapsed().as_secs_f64(),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_values_round_trip_and_refuse_impossible_words() {
        for v in [
            MoveValue {
                value: -14,
                nodes: 303_579,
            },
            MoveValue {
                value: 255,
                nodes: 0,
            },
        ] {
            assert_eq!(MoveValue::decode(&v.encode()), Some(v));
        }
        assert_eq!(MoveValue::decode(&[256, 1]), None);
        assert_eq!(MoveValue::decode(&[(-256i64) as u64, 1]), None);
        assert_eq!(MoveValue::decode(&[1]), None);
        assert_eq!(MoveValue::decode(&[1, 2, 3]), None);
    }
}
