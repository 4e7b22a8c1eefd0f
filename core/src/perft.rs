//! Perft: the number of move paths of exactly `depth` plies from a position.
//!
//! The standard check of a move generator against published counts. A finished game
//! is a leaf with no children (it contributes nothing below its own ply). The last
//! ply is bulk-counted through [`Game::count_moves`], the last two through
//! [`Game::count_two_plies`] (after each move of the third-last:
//! [`Game::count_two_plies_after`]).
//!
//! [`perft_tabled`] counts the same leaves with a table of exact counts in caller
//! memory ([`table`]).

pub mod table;

pub use table::{
    deserves_an_entry, perft_tabled, perft_tabled_below, BucketTable, PerftBucket, PerftKey,
    PerftTable, Slot,
};

use crate::game::Game;

/// Counts the leaves `depth` plies below `game`.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves(),
        2 => game.count_two_plies(),
        3 => {
            let mut moves = G::MoveList::default();
            game.generate_moves(&mut moves);
            moves.iter().map(|&mv| game.count_two_plies_after(mv)).sum()
        }
        _ => {
            // Generated in place: returning the list by value would copy it.
            let mut moves = G::MoveList::default();
            game.generate_moves(&mut moves);
            let mut total = 0;
            for &mv in moves.iter() {
                total += perft(&game.play_unchecked(mv), depth - 1);
            }
            total
        }
    }
}

/// Perft split by root move: calls `per_move(move, count)` for each legal move of
/// `game` in generation order and returns the total.
pub fn perft_divide<G: Game>(game: &G, depth: u32, mut per_move: impl FnMut(G::Move, u64)) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.legal_moves();
    let mut total = 0;
    for &mv in moves.iter() {
        let n = perft(&game.play_unchecked(mv), depth - 1);
        per_move(mv, n);
        total += n;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;

    #[test]
    fn tictactoe_published_counts() {
        let expected = [
            1u64, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872, 0,
        ];
        for (depth, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&TicTacToe::new(), depth as u32), n, "depth {}", depth);
        }
    }

    #[test]
    fn divide_sums_to_total() {
        let mut sum = 0;
        let mut lines = 0;
        let total = perft_divide(&TicTacToe::new(), 4, |_, n| {
            sum += n;
            lines += 1;
        });
        assert_eq!((total, sum, lines), (3024, 3024, 9));
    }
}
