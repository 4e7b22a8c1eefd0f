//! The tasks of the threaded solve — the root and each first move — and the one place
//! that converts a first move's values between its own side to move and the root's
//! ([`FirstMove`], [`Task::conversion`]).

use ply_core::games::kalah::solver::{
    bounds_for_player, Interrupted, KalahSolver, SharedSolverTable,
};
use ply_core::games::kalah::{Kalah, Pit};
use ply_core::search::for_player;
use ply_core::{Game, Player};

use super::reporter::{Conversion, Reporter};

/// One of the root's moves, and the conversion of its values between its own
/// side to move and the root's.
pub(super) struct FirstMove {
    pub(super) mv: Pit,
    pub(super) child: Kalah,
    /// The root's side to move.
    pub(super) me: Player,
}

impl FirstMove {
    /// The first guess for the move: a `depth`-ply estimate.
    pub(super) fn estimate(
        &self,
        solver: &mut KalahSolver<'_, SharedSolverTable<'_>>,
        depth: u32,
        rep: &mut Reporter<'_>,
    ) -> Result<i32, Interrupted> {
        let e = solver.estimate(&self.child, depth, 0, rep)?;
        Ok(for_player(&self.child, self.me, e))
    }

    /// Bounds on the move's value, known to lie in `bounds`, searched from `guess`
    /// and within `max_nodes` after the first pass ([`KalahSolver::solve_bounded`]).
    pub(super) fn solve_bounded(
        &self,
        solver: &mut KalahSolver<'_, SharedSolverTable<'_>>,
        bounds: (i32, i32),
        guess: i32,
        max_nodes: u64,
        rep: &mut Reporter<'_>,
    ) -> Result<(i32, i32), Interrupted> {
        let (lower, upper) = bounds_for_player(&self.child, self.me, bounds);
        let guess = for_player(&self.child, self.me, guess);
        let found = solver.solve_bounded(&self.child, lower, upper, guess, max_nodes, rep)?;
        Ok(bounds_for_player(&self.child, self.me, found))
    }

    /// One pass: is the move's value (known to lie in `bounds`) at least `beta`?
    /// The bounds narrowed by it ([`KalahSolver::test`]).
    pub(super) fn test(
        &self,
        solver: &mut KalahSolver<'_, SharedSolverTable<'_>>,
        bounds: (i32, i32),
        beta: i32,
        rep: &mut Reporter<'_>,
    ) -> Result<(i32, i32), Interrupted> {
        let (lower, upper) = bounds_for_player(&self.child, self.me, bounds);
        // For the opponent to move, "at least beta" for the root's mover is "at most
        // -beta", that is "not at least 1 - beta", for the opponent.
        let beta = if self.child.side_to_move() == self.me {
            beta
        } else {
            1 - beta
        };
        let found = solver.test(&self.child, lower, upper, beta, rep)?;
        Ok(bounds_for_player(&self.child, self.me, found))
    }
}

/// A task for a solver thread.
#[derive(Clone, Copy)]
pub(super) enum Task {
    Root,
    /// The first move of this index (generation order).
    Move(usize),
}

impl Task {
    /// The task's item in [`Proved`].
    pub(super) fn item(self) -> usize {
        match self {
            Task::Root => 0,
            Task::Move(i) => i + 1,
        }
    }

    /// How this task's margins become values for the root's side to move.
    pub(super) fn conversion(self, root: &Kalah, moves: &[FirstMove]) -> Conversion {
        let (game, flip) = match self {
            Task::Root => (root, false),
            Task::Move(i) => (
                &moves[i].child,
                moves[i].child.side_to_move() != root.side_to_move(),
            ),
        };
        Conversion {
            item: self.item(),
            stores: game.store_difference(),
            flip,
        }
    }
}
