//! Search over a game where the same side may move twice in a row (as in Kalah's
//! extra turns): every algorithm must only negate a child's score when the side to
//! move changes. The game is a small test-only take-away game.

use core::fmt;

use ply_core::search::{
    alphabeta, minimax, Engine, EngineConfig, Limits, NoClock, RandomEval, TtEntry,
};
use ply_core::solve::Solver;
use ply_core::{Game, MoveList, Outcome, ParseError, Player};

/// Take 1–3 stones from one of two piles; taking exactly 2 earns another turn.
/// Whoever takes the last stone wins.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
struct Nim {
    piles: [u8; 2],
    side: Player,
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {:?}", self.piles[0], self.piles[1], self.side)
    }
}

impl Game for Nim {
    type Move = (u8, u8);
    type MoveList = MoveList<(u8, u8), 6>;
    type Rules = ();
    fn start(_: ()) -> Self {
        Nim {
            piles: [7, 5],
            side: Player::First,
        }
    }
    fn parse_rules(_: &str) -> Result<(), ParseError> {
        Ok(())
    }
    fn rules(&self) {}
    fn parse_position(_: (), _: &str) -> Result<Self, ParseError> {
        Err(ParseError::new("not supported", 0))
    }
    fn side_to_move(&self) -> Player {
        self.side
    }
    fn outcome(&self) -> Outcome {
        if self.piles == [0, 0] {
            // The player who just moved took the last stone. After a take of 2 the
            // mover keeps the turn, so "side to move" is the winner then; we record
            // the winner in `side` when the game ends (see play_unchecked).
            Outcome::Win(self.side)
        } else {
            Outcome::Ongoing
        }
    }
    fn hash(&self) -> u64 {
        ply_core::zobrist::mix64(
            u64::from(self.piles[0]) << 8 | u64::from(self.piles[1]) | (self.side as u64) << 16,
        )
    }
    fn generate_moves(&self, moves: &mut Self::MoveList) {
        moves.clear();
        for pile in 0..2u8 {
            for take in 1..=3u8 {
                if self.piles[pile as usize] >= take {
                    moves.push((pile, take));
                }
            }
        }
    }
    fn play_unchecked(&self, (pile, take): (u8, u8)) -> Self {
        let mut n = *self;
        n.piles[pile as usize] -= take;
        if n.piles == [0, 0] {
            n.side = self.side; // winner recorded as side
        } else if take != 2 {
            n.side = self.side.opponent();
        }
        n
    }
    fn parse_move(&self, _: &str) -> Result<(u8, u8), ParseError> {
        Err(ParseError::new("not supported", 0))
    }
    fn write_move(&self, (p, t): (u8, u8), out: &mut dyn fmt::Write) -> fmt::Result {
        write!(out, "{}:{}", p, t)
    }
}

fn all_positions() -> Vec<Nim> {
    let mut v = Vec::new();
    for a in 0..=7 {
        for b in 0..=5 {
            for side in [Player::First, Player::Second] {
                if a + b > 0 {
                    v.push(Nim {
                        piles: [a, b],
                        side,
                    });
                }
            }
        }
    }
    v
}

#[test]
fn algorithms_agree_when_the_same_side_moves_twice() {
    let mut slots = vec![TtEntry::EMPTY; 256];
    for p in all_positions() {
        for depth in 1..=6 {
            for seed in 0..3 {
                let eval = RandomEval { seed };
                let mm = minimax(&p, depth, &eval);
                let ab = alphabeta(&p, depth, &eval);
                assert_eq!(mm.value, ab.value, "{} depth {}", p, depth);
                assert_eq!(mm.best_move, ab.best_move, "{} depth {}", p, depth);
                let mut engine = Engine::new(&mut slots, eval, NoClock, EngineConfig::exact());
                assert_eq!(
                    engine.search(&p, Limits::depth(depth)).value,
                    mm.value,
                    "engine at {} depth {}",
                    p,
                    depth
                );
            }
        }
    }
}

/// The exact value by brute force over the full tree (no pruning, no table).
fn brute(p: &Nim) -> i32 {
    if p.outcome().is_over() {
        return p.outcome().sign_for(p.side_to_move()).unwrap();
    }
    let mut best = -2;
    for &m in p.legal_moves().iter() {
        let c = p.play_unchecked(m);
        let v = brute(&c);
        best = best.max(if c.side_to_move() == p.side_to_move() {
            v
        } else {
            -v
        });
    }
    best
}

#[test]
fn solver_matches_brute_force_with_extra_turns() {
    let mut slots = vec![TtEntry::EMPTY; 1024];
    for p in all_positions() {
        let mut solver = Solver::new(&mut slots);
        assert_eq!(solver.solve(&p).unwrap().value, brute(&p), "{}", p);
    }
}
