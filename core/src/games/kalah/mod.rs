//! Kalah (Mancala) on byte-packed pit counts: any number of pits from 1 to 8 a side,
//! any number of seeds per pit up to the representation's limit, and both capture
//! rules. The default rules are those of the Mancala parallelization report
//! (docs/references.md), "the report" below; docs/games/kalah.md describes the game
//! and its solving in full.
//!
//! # Rules
//! Each player owns a row of pits and a store to the right of the row. A move picks
//! up every seed of a non-empty pit of the mover's row and sows them one by one
//! counterclockwise: along the mover's row towards the store, into the mover's own
//! store, along the opponent's row, skipping the opponent's store, and around again.
//! * The last seed in the mover's own store: the mover moves again (an extra turn).
//! * The last seed in an empty pit of the mover's row (a pit holding exactly that
//!   one seed after sowing, which includes a sowing that laps the board and ends in
//!   its own emptied origin pit): if the opposite pit holds seeds, that seed and the
//!   opposite ones go to the mover's store. Under [`KalahRules::empty_capture`] (the
//!   rule of Irving, Donkers and Uiterwijk's solving of Kalah) the capture happens
//!   even if the opposite pit is empty: the last seed alone goes to the store.
//! * When either row is empty after a move the game ends and each player's remaining
//!   pit seeds go to that player's own store (the sweep, done by the move itself).
//!   The larger store wins; equal stores draw.
//!
//! # Representation
//! A row is one `u64`: byte `i` holds the seeds of pit `i + 1` counted from the
//! owner's left (the pit farthest from the owner's store), so a row holds at most 8
//! pits, and a move is a few word operations whatever the seed count ([`sow`]). A
//! byte holds 255 seeds, so the total, `2 × pits × seeds`, is limited to 255
//! ([`MAX_TOTAL_SEEDS`]): up to 21 seeds a pit with 6 pits, 15 with 8.
//!
//! # Notation
//! A move is the pit number counted from the mover's own left, `1` to `pits`: the
//! report's program's pit index for the first player plus one (its pit `0` is our
//! `1`; for the second player its pits 7–12 are our 1–6).
//!
//! The position text lists the first player's pits from its left (pit 1 first), its
//! store in brackets, a `/`, the second player's pits from its own left, its store,
//! a `/` and the side to move — the board in sowing order, the report's program's
//! array order:
//!
//! ```text
//! 4 4 4 4 4 4 [0] / 4 4 4 4 4 4 [0] / first
//! ```
//!
//! # Files
//! * `mod.rs`: the position ([`Kalah`]), its rules ([`KalahRules`]) and the
//!   [`Game`] contract;
//! * `movegen.rs`: sowing on packed rows, the whole rule of a move ([`sow`]);
//! * `notation.rs`: the text forms above, read and written;
//! * `eval.rs`: the evaluations [`StoreDifference`], [`KalahEval`] and, with endgame
//!   tables, [`TablesEval`];
//! * [`solver`]: exact solving with endgame tables.

mod eval;
mod key;
mod movegen;
mod notation;
pub mod solver;

use core::fmt;

use crate::error::ParseError;
use crate::game::{Game, Outcome, Player};
use crate::move_list::MoveList;
use crate::zobrist;

pub use eval::{KalahEval, StoreDifference, TablesEval, DECIDED_BONUS};
pub(crate) use movegen::final_margin;
pub use movegen::{non_empty, pit, row_sum, sow, Sown, ONES};

/// The most pits a row can have: a row is one `u64` of byte-sized pits.
pub const MAX_PITS: u8 = 8;

/// The most seeds a game can hold: every pit and store is a byte, and all the seeds
/// could gather in one of them.
pub const MAX_TOTAL_SEEDS: u32 = 255;

/// A Kalah move: the pit, 0-based from the mover's left (printed 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Pit(pub u8);

/// Kalah has at most 8 legal moves: a move is a non-empty pit of the mover's row,
/// and a row has at most [`MAX_PITS`] = 8 pits.
pub type KalahMoves = MoveList<Pit, 8>;

/// The size and capture rule of a Kalah game: `kalah[:PITSxSEEDS][:empty-capture]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct KalahRules {
    /// Pits per row, 1 to [`MAX_PITS`].
    pub pits: u8,
    /// Seeds in each pit at the start, at least 1, with `2 × pits × seeds` at most
    /// [`MAX_TOTAL_SEEDS`].
    pub seeds: u8,
    /// Capture with the last seed even when the opposite pit is empty.
    pub empty_capture: bool,
}

impl KalahRules {
    /// Rules for `pits` × `seeds` under the report's capture rule, if the size fits.
    pub const fn new(pits: u8, seeds: u8) -> Option<Self> {
        if pits == 0
            || pits > MAX_PITS
            || seeds == 0
            || 2 * pits as u32 * seeds as u32 > MAX_TOTAL_SEEDS
        {
            return None;
        }
        Some(KalahRules {
            pits,
            seeds,
            empty_capture: false,
        })
    }

    /// The same size under the empty-capture rule (`on`) or the report's rule.
    pub const fn with_empty_capture(self, on: bool) -> Self {
        KalahRules {
            empty_capture: on,
            ..self
        }
    }

    /// Seeds in the whole game: `2 × pits × seeds`.
    pub const fn total_seeds(&self) -> u32 {
        2 * self.pits as u32 * self.seeds as u32
    }
}

impl Default for KalahRules {
    /// `kalah:6x4`, the report's rules.
    fn default() -> Self {
        KalahRules {
            pits: 6,
            seeds: 4,
            empty_capture: false,
        }
    }
}

const KEYS: [u64; 4] = zobrist::keys(0x6b61_6c61_6800_0003);

/// A Kalah position: both rows packed, both stores, the side to move, the rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Kalah {
    rows: [u64; 2],
    stores: [u8; 2],
    side: Player,
    rules: KalahRules,
}

impl Kalah {
    /// The start position of `rules`: `seeds` in every pit, empty stores, the first
    /// player to move.
    pub const fn new(rules: KalahRules) -> Self {
        let row = ONES[rules.pits as usize] * rules.seeds as u64;
        Kalah {
            rows: [row, row],
            stores: [0, 0],
            side: Player::First,
            rules,
        }
    }

    /// The packed row of `player` (byte `i` = pit `i + 1` from the player's left).
    #[inline]
    pub const fn row(&self, player: Player) -> u64 {
        self.rows[player.index()]
    }

    /// The seeds in pit `i` (0-based from the owner's left) of `player`'s row.
    #[inline]
    pub const fn pit(&self, player: Player, i: usize) -> u32 {
        pit(self.rows[player.index()], i as u32)
    }

    /// The seeds in `player`'s store.
    #[inline]
    pub const fn store(&self, player: Player) -> u32 {
        self.stores[player.index()] as u32
    }

    /// Seeds still on the board (in pits).
    #[inline]
    pub const fn seeds_in_play(&self) -> u32 {
        row_sum(self.rows[0]) + row_sum(self.rows[1])
    }

    /// The side to move's store minus the opponent's.
    #[inline]
    pub const fn store_difference(&self) -> i32 {
        let me = self.side.index();
        self.stores[me] as i32 - self.stores[1 - me] as i32
    }

    /// The side to move's row and the opponent's: the position as a Kalah solver
    /// sees it (the future margin depends on these alone).
    #[inline]
    pub const fn rows_for_mover(&self) -> (u64, u64) {
        let me = self.side.index();
        (self.rows[me], self.rows[1 - me])
    }

    /// What playing `mv` would do, from the mover's point of view.
    #[inline]
    pub fn sowing(&self, mv: Pit) -> Sown {
        let (own, opp) = self.rows_for_mover();
        sow(
            own,
            opp,
            u32::from(self.rules.pits),
            u32::from(mv.0),
            self.rules.empty_capture,
        )
    }

    /// A position from its parts, checked the way `parse_position` checks text.
    pub fn from_parts(
        rules: KalahRules,
        rows: [[u8; MAX_PITS as usize]; 2],
        stores: [u8; 2],
        side: Player,
    ) -> Result<Self, &'static str> {
        let p = rules.pits as usize;
        let mut packed = [0u64; 2];
        let mut total = u32::from(stores[0]) + u32::from(stores[1]);
        for s in 0..2 {
            for (i, &c) in rows[s].iter().enumerate() {
                if i >= p && c != 0 {
                    return Err("seeds in a pit beyond the board's size");
                }
                total += u32::from(c);
                packed[s] |= u64::from(c) << (8 * i);
            }
        }
        if total != rules.total_seeds() {
            return Err("the seeds do not add up to 2 x pits x seeds of the rules");
        }
        if (packed[0] == 0) != (packed[1] == 0) {
            return Err("one row is empty and the other is not: the game would have ended with both rows swept into the stores");
        }
        Ok(Kalah {
            rows: packed,
            stores,
            side,
            rules,
        })
    }
}

impl Default for Kalah {
    fn default() -> Self {
        Self::new(KalahRules::default())
    }
}

impl Game for Kalah {
    type Move = Pit;
    type MoveList = KalahMoves;
    type Rules = KalahRules;

    fn start(rules: KalahRules) -> Self {
        Self::new(rules)
    }

    /// `""` (6×4), `PxS`, `empty-capture`, `PxS:empty-capture`.
    fn parse_rules(params: &str) -> Result<KalahRules, ParseError> {
        notation::parse_rules(params)
    }

    fn rules(&self) -> KalahRules {
        self.rules
    }

    fn parse_position(rules: KalahRules, text: &str) -> Result<Self, ParseError> {
        notation::parse_position(rules, text)
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Outcome {
        if self.rows[0] != 0 {
            return Outcome::Ongoing;
        }
        match self.stores[0].cmp(&self.stores[1]) {
            core::cmp::Ordering::Greater => Outcome::Win(Player::First),
            core::cmp::Ordering::Less => Outcome::Win(Player::Second),
            core::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// Computed from the packed words in a few multiplications (a sowing changes up
    /// to every pit, so a per-pit Zobrist update would cost more than this).
    #[inline]
    fn hash(&self) -> u64 {
        let stores = u64::from(self.stores[0]) | u64::from(self.stores[1]) << 8;
        let side = match self.side {
            Player::First => 0,
            Player::Second => KEYS[3],
        };
        zobrist::mix64(self.rows[0] ^ KEYS[0])
            ^ zobrist::mix64(self.rows[1] ^ KEYS[1]).rotate_left(17)
            ^ zobrist::mix64(stores ^ KEYS[2]).rotate_left(41)
            ^ side
    }

    fn generate_moves(&self, moves: &mut KalahMoves) {
        moves.clear();
        if self.rows[0] == 0 {
            return;
        }
        let mut bits = non_empty(self.rows[self.side.index()]);
        while bits != 0 {
            moves.push(Pit((bits.trailing_zeros() / 8) as u8));
            bits &= bits - 1;
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        if self.rows[0] == 0 {
            return 0;
        }
        u64::from(non_empty(self.rows[self.side.index()]).count_ones())
    }

    #[inline]
    fn play_unchecked(&self, mv: Pit) -> Self {
        let s = self.sowing(mv);
        let me = self.side.index();
        let mut next = *self;
        next.rows[me] = s.own;
        next.rows[1 - me] = s.opp;
        next.stores[me] += s.gain as u8;
        next.stores[1 - me] += s.opp_gain as u8;
        if !s.extra_turn {
            next.side = self.side.opponent();
        }
        next
    }

    fn check_move(&self, mv: Pit) -> Result<(), &'static str> {
        if mv.0 >= self.rules.pits {
            return Err("no such pit: pits are numbered 1 to the number of pits a row");
        }
        if self.outcome().is_over() {
            return Err("the game is over");
        }
        if self.pit(self.side, mv.0 as usize) == 0 {
            return Err("the pit is empty");
        }
        Ok(())
    }

    fn parse_move(&self, text: &str) -> Result<Pit, ParseError> {
        notation::parse_move(self.rules.pits, text)
    }

    fn write_move(&self, mv: Pit, out: &mut dyn fmt::Write) -> fmt::Result {
        notation::write_move(mv, out)
    }

    /// Extra turns first (the pit nearest the store first, since sowing it leaves
    /// the other extra-turn pits intact), then captures by size.
    fn move_order_hint(&self, mv: Pit) -> i32 {
        let s = self.sowing(mv);
        if s.extra_turn {
            1000 + i32::from(mv.0)
        } else if s.captured > 0 {
            100 + s.captured as i32
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;

    /// The rules of `p` pits a row and `s` seeds a pit (the tests of the other
    /// files use it too).
    pub(super) fn rules(p: u8, s: u8) -> KalahRules {
        KalahRules::new(p, s).unwrap()
    }

    #[test]
    fn move_is_one_byte() {
        assert_eq!(core::mem::size_of::<Pit>(), 1);
    }

    #[test]
    fn perft_6x4_published_counts() {
        let expected = [6u64, 35, 185, 942, 4690, 23233, 114430, 563055];
        let start = Kalah::default();
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&start, d as u32 + 1), n, "depth {}", d + 1);
        }
    }

    #[test]
    fn moves_checked_and_named_from_the_movers_left() {
        let g = Kalah::default();
        assert_eq!(g.parse_move("1").unwrap(), Pit(0));
        assert_eq!(g.parse_move(" 6 ").unwrap(), Pit(5));
        assert!(g.parse_move("0").is_err());
        assert!(g.parse_move("7").is_err());
        assert!(g.parse_move("a").is_err());
        assert_eq!(
            g.check_move(Pit(6)),
            Err("no such pit: pits are numbered 1 to the number of pits a row")
        );
        let h = g.play_unchecked(Pit(0));
        // Second to move now; its pit 1 is full, First's pit 1 is empty.
        assert!(h.check_move(Pit(0)).is_ok());
        let h2 = g.play_unchecked(Pit(2)); // extra turn: pit 3 holds 4, reaches the store
        assert_eq!(h2.side_to_move(), Player::First);
        assert_eq!(h2.check_move(Pit(2)), Err("the pit is empty"));
    }

    /// Every position reachable in `depth` plies from `g` with its hash, one entry
    /// per line of play (a position reached by two lines is there twice).
    fn lines(g: Kalah, depth: u32, out: &mut heapless::Vec<(Kalah, u64), 4096>) {
        out.push((g, g.hash())).unwrap();
        if depth > 0 {
            for &mv in g.legal_moves().iter() {
                lines(g.play_unchecked(mv), depth - 1, out);
            }
        }
    }

    /// The hash is computed on demand from the position (what the `Game` contract
    /// allows besides an incremental hash): positions reached by different lines
    /// hash equally, and equal the hash of the position rebuilt from its parts;
    /// the side to move and the stores are part of it.
    #[test]
    fn hash_is_the_positions_whatever_the_line() {
        let mut all = heapless::Vec::new();
        lines(Kalah::new(rules(4, 2)), 5, &mut all);
        let mut transpositions = 0;
        for (i, &(g, h)) in all.iter().enumerate() {
            let mut rows = [[0u8; MAX_PITS as usize]; 2];
            for (s, p) in [Player::First, Player::Second].into_iter().enumerate() {
                for (k, c) in rows[s].iter_mut().enumerate().take(4) {
                    *c = g.pit(p, k) as u8;
                }
            }
            let stores = [g.store(Player::First) as u8, g.store(Player::Second) as u8];
            let rebuilt = Kalah::from_parts(g.rules, rows, stores, g.side).unwrap();
            assert_eq!(rebuilt.hash(), h, "{:?}", g);
            let other_side = Kalah::from_parts(g.rules, rows, stores, g.side.opponent());
            assert_ne!(other_side.unwrap().hash(), h, "{:?}", g);
            for &(q, qh) in &all[..i] {
                if q == g {
                    transpositions += 1;
                    assert_eq!(qh, h, "{:?}", g);
                } else {
                    assert_ne!(qh, h, "{:?} and {:?}", q, g);
                }
            }
        }
        assert!(transpositions > 0);
    }

    #[test]
    fn capacity_worst_case_eight_non_empty_pits() {
        let g = Kalah::new(rules(8, 15));
        assert_eq!(g.legal_moves().len(), KalahMoves::CAPACITY);
    }
}
