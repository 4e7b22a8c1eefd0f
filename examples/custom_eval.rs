//! # An evaluation of one's own
//!
//! An evaluation values a position for the player the search names (`me`, the side
//! to move at the root): implement [`Evaluator::evaluate`] for your game and hand the
//! value to the engine. The search, never the caller, supplies `me`, so an evaluation
//! need not be symmetric between the players.
//!
//! This one, for Kalah, adds to the store difference (weighted 4) the seeds each player still has
//! on its own side of the board (seeds a player may keep at the end). The program
//! plays it against the built-in store difference, both at the same depth, from
//! seeded openings with colours swapped, and prints the score.
//!
//! ```sh
//! cargo run --release --example custom_eval
//! ```

use ply_core::games::kalah::{Kalah, KalahRules, StoreDifference};
use ply_core::playout::random_playout;
use ply_core::playout::SplitMix64;
use ply_core::search::{Engine, EngineConfig, Evaluator, Limits, NoClock, Score, TtEntry};
use ply_core::{Game, Outcome, Player};

/// Four times the store difference plus the difference of the seeds on each side.
#[derive(Clone, Copy, Debug)]
pub struct StoresAndSides;

impl Evaluator<Kalah> for StoresAndSides {
    fn evaluate(&self, g: &Kalah, me: Player) -> Score {
        let side = |p: Player| (0..6).map(|i| g.pit(p, i) as Score).sum::<Score>();
        let stores = g.store(me) as Score - g.store(me.opponent()) as Score;
        4 * stores + (side(me) - side(me.opponent()))
    }
}

/// Plays one game from `start`: `first` moves for the first player. Returns the result.
fn play<A: Evaluator<Kalah>, B: Evaluator<Kalah>>(start: Kalah, first: A, second: B) -> Outcome {
    let (mut t1, mut t2) = (vec![TtEntry::EMPTY; 1 << 16], vec![TtEntry::EMPTY; 1 << 16]);
    let mut e1 = Engine::new(&mut t1, first, NoClock, EngineConfig::default());
    let mut e2 = Engine::new(&mut t2, second, NoClock, EngineConfig::default());
    let mut g = start;
    while !g.outcome().is_over() {
        let limits = Limits::depth(6);
        let report = match g.side_to_move() {
            Player::First => e1.search(&g, limits),
            Player::Second => e2.search(&g, limits),
        };
        g = g.play(report.best_move.expect("a move")).expect("legal");
    }
    g.outcome()
}

fn main() {
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for seed in 0..10u64 {
        let start = random_playout(
            Kalah::start(KalahRules::default()),
            2,
            &mut SplitMix64::new(seed),
        );
        for ours in [Player::First, Player::Second] {
            let result = if ours == Player::First {
                play(start, StoresAndSides, StoreDifference)
            } else {
                play(start, StoreDifference, StoresAndSides)
            };
            match result.sign_for(ours) {
                Some(1) => wins += 1,
                Some(-1) => losses += 1,
                _ => draws += 1,
            }
        }
    }
    println!("StoresAndSides against the store difference, depth 6, 20 games: {wins} won, {draws} drawn, {losses} lost");
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::playout::positions;
    use ply_core::search::alphabeta;
    use ply_host::parallel::{self, Algo, Options};

    /// The evaluation is antisymmetric (one player's gain is the other's loss), and
    /// every search strategy gives alpha-beta's value with it, at odd and even depths.
    #[test]
    fn the_evaluation_works_with_every_strategy() {
        for g in positions(Kalah::start(KalahRules::default()), 12, 7).take(6) {
            let e = StoresAndSides;
            assert_eq!(
                e.evaluate(&g, Player::First),
                -e.evaluate(&g, Player::Second)
            );
            for depth in [3, 4] {
                let ab = alphabeta(&g, depth, &e).value;
                for algo in [Algo::Engine, Algo::Ybwc, Algo::Abdada] {
                    let r = parallel::search(algo, &g, depth, &e, &Options::threads(2)).unwrap();
                    assert_eq!(r.value, ab, "{algo} at depth {depth} on {g}");
                }
            }
        }
    }
}
