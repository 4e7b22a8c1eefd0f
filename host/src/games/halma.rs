//! Halma (8×8 and 16×16) in the `ply` tools: the adapter from the core game to the
//! host (name, evaluations, board diagram; the game spec is parsed by
//! [`crate::spec`]).
//!
//! Game specs: `halma` or `halma:8` (8×8), `halma:16` (16×16), each optionally
//! followed by rule options (`:parlett`, `:no-leave`, `:plies=N`; see
//! `ply_core::games::halma`).
//!
//! Evaluations (`--eval`): `racer` (ply's own, the default), `manhattan` (the Haskell
//! Halma report, docs/references.md), the C++ Halma README's strategies `s1`…`s8`
//! (docs/references.md), or explicit weights for its heuristics `m1,m2,m3,m4`
//! (`1,1.1,0,1`).
//!
//! A strategy of the C++ Halma README, and `racer`, value positions for the player
//! who searches (as the README's minimax does). The search passes that player to the
//! evaluation (see `ply_core::search::eval`), so every command and every strategy
//! values the same positions alike, at odd and even depths. The README's round robin
//! of strategies (`ply tournament halma --strategies ...`) is
//! [`crate::commands::tournament::round_robin`].

use ply_core::games::halma::eval::{Manhattan, Racer, Weights};
use ply_core::games::halma::{write_square, Halma, HalmaBoard};
use ply_core::search::{Evaluator, Score};
use ply_core::{Game, Player};

use crate::games::HostGame;

/// The Halma evaluations a player can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalmaEval {
    /// ply's own evaluation ([`Racer::DEFAULT`]).
    Racer,
    /// The Haskell Halma report's Manhattan distance.
    Manhattan,
    /// A strategy of the C++ Halma README (named `s1`…`s8` or explicit weights).
    Strategy(Weights),
}

impl HalmaEval {
    /// Parses an evaluation name (see the module documentation).
    pub fn parse(name: &str) -> Result<HalmaEval, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "racer" => Ok(HalmaEval::Racer),
            "manhattan" => Ok(HalmaEval::Manhattan),
            other => Weights::parse(other).map(HalmaEval::Strategy).map_err(|e| {
                format!(
                    "unknown evaluation {} for halma: expected racer, manhattan, s1 to s8 \
                     or weights m1,m2,m3,m4 ({})",
                    crate::quote::quote(name),
                    e
                )
            }),
        }
    }
}

impl<B: HalmaBoard> Evaluator<Halma<B>> for HalmaEval {
    fn evaluate(&self, g: &Halma<B>, me: Player) -> Score {
        match self {
            HalmaEval::Racer => Racer::DEFAULT.evaluate(g, me),
            HalmaEval::Manhattan => Manhattan.evaluate(g, me),
            HalmaEval::Strategy(weights) => weights.evaluate(g, me),
        }
    }
}

/// The square name of `sq` on board `B`.
pub fn square_name<B: HalmaBoard>(sq: usize) -> String {
    let mut s = String::new();
    write_square(B::SIDE, sq, &mut s).expect("writing to a String");
    s
}

impl<B: HalmaBoard + Send + Sync + 'static> HostGame for Halma<B>
where
    B::Moves: Send + Sync,
{
    const NAME: &'static str = "halma";
    type Eval = HalmaEval;

    fn evaluator(name: Option<&str>) -> Result<HalmaEval, String> {
        match name {
            None => Ok(HalmaEval::Racer),
            Some(n) => HalmaEval::parse(n),
        }
    }

    fn evaluator_names() -> &'static [&'static str] {
        &[
            "racer",
            "manhattan",
            "s1",
            "s2",
            "s3",
            "s4",
            "s5",
            "s6",
            "s7",
            "s8",
            "m1,m2,m3,m4",
        ]
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "x",
            Player::Second => "o",
        }
    }

    fn diagram(&self) -> String {
        let n = B::SIDE;
        let mut out = String::from("    ");
        for c in 0..n {
            out.push((b'a' + c as u8) as char);
            out.push(' ');
        }
        out.push('\n');
        let camps = Self::camp(Player::First) | Self::camp(Player::Second);
        for r in 0..n {
            out.push_str(&format!("{:>3} ", r + 1));
            for c in 0..n {
                let sq = r * n + c;
                out.push(match self.piece_at(sq) {
                    Some(Player::First) => 'x',
                    Some(Player::Second) => 'o',
                    None if camps.has(sq) => ':',
                    None => '.',
                });
                out.push(' ');
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "x heads for the bottom right camp, o for the top left (':' marks empty camp \
             squares); ply {} of at most {}",
            self.plies(),
            self.rules().max_plies
        ));
        out
    }

    fn describe_move(&self, mv: Self::Move) -> String {
        match self.jump_path(mv) {
            Some(path) if path.len() > 2 => {
                let hops: Vec<String> =
                    path.iter().map(|&s| square_name::<B>(s as usize)).collect();
                format!("plays {} (jumps {})", self.display_move(mv), hops.join(">"))
            }
            Some(_) => format!("plays {} (jump)", self.display_move(mv)),
            None => format!("plays {}", self.display_move(mv)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_names_parse() {
        assert_eq!(HalmaEval::parse("racer").unwrap(), HalmaEval::Racer);
        assert_eq!(HalmaEval::parse("Manhattan").unwrap(), HalmaEval::Manhattan);
        assert!(matches!(
            HalmaEval::parse("s7").unwrap(),
            HalmaEval::Strategy(_)
        ));
        assert!(HalmaEval::parse("1,1.1,0,1").is_ok());
        let e = HalmaEval::parse("s9").unwrap_err();
        assert!(e.contains("unknown evaluation 's9'"), "{}", e);
    }
}
