//! Seeded pseudo-random playouts: the positions that tests, benchmarks and tournament
//! openings start from. The same seed gives the same positions on every target.

use crate::game::Game;
use crate::zobrist::splitmix64;

/// A SplitMix64 stream: small, fast and deterministic (not for cryptography).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The stream of `seed`.
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = splitmix64(self.state);
        self.state = state;
        out
    }

    /// The next output reduced to `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Plays up to `plies` legal moves from `start`, each chosen by `rng` among the legal
/// moves in generation order; stops early when the game is over.
pub fn random_playout<G: Game>(start: G, plies: usize, rng: &mut SplitMix64) -> G {
    let mut g = start;
    for _ in 0..plies {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        g = g.play_unchecked(moves[rng.below(moves.len())]);
    }
    g
}

/// `start` itself, then without end the positions after random playouts from `start`
/// of 0 to `max_plies` plies (each length drawn from the same stream as the moves).
/// Take as many as needed: `positions(start, 20, seed).take(50)`.
pub fn positions<G: Game>(start: G, max_plies: usize, seed: u64) -> impl Iterator<Item = G> {
    let mut rng = SplitMix64::new(seed);
    core::iter::once(start).chain(core::iter::from_fn(move || {
        let plies = rng.below(max_plies + 1);
        Some(random_playout(start, plies, &mut rng))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;

    #[test]
    fn the_stream_is_splitmix64() {
        let mut rng = SplitMix64::new(0);
        // The first SplitMix64 output of seed 0.
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert!((0..1000).all(|_| rng.below(7) < 7));
    }

    #[test]
    fn playouts_are_seeded_and_legal() {
        let a: [TicTacToe; 8] = {
            let mut it = positions(TicTacToe::new(), 9, 42);
            core::array::from_fn(|_| it.next().unwrap())
        };
        let b: [TicTacToe; 8] = {
            let mut it = positions(TicTacToe::new(), 9, 42);
            core::array::from_fn(|_| it.next().unwrap())
        };
        assert_eq!(a, b);
        assert_eq!(a[0], TicTacToe::new());
        assert!(a[1..].iter().any(|g| *g != TicTacToe::new()));
        // A longer playout differs from the start (9 plies always end the game).
        let end = random_playout(TicTacToe::new(), 9, &mut SplitMix64::new(1));
        assert!(end.outcome().is_over());
    }
}
