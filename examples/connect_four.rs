//! # A new game in one file: Connect Four
//!
//! Connect Four (7 columns × 6 rows, pieces fall to the lowest free cell, four in a
//! row wins) written against [`ply_core::Game`], on a bitboard. Nothing else in ply
//! knows this game, yet once the trait is implemented it gets perft, minimax,
//! alpha-beta, the engine, every parallel strategy and the exact solver for free.
//!
//! ```sh
//! cargo run --release --example connect_four
//! cargo test --release -p ply-examples --example connect_four   # its perft and solve checks
//! ```
//!
//! ## Writing a game: the trait methods in the order one writes them
//!
//! 1. **The state** — a small `Copy` value. Search copies it once per node
//!    (copy-make), so keep it small: here two `u64` bitboards and a move count.
//! 2. **`type Move`, `type MoveList`, `type Rules`** — the move is a small `Copy`
//!    value (a column); the move list is a [`MoveList`] whose capacity is a *proven*
//!    bound on the legal moves of any reachable position (7 columns: 7); `Rules` is
//!    `()` when the game has no variants.
//! 3. **`start`, `rules`, `parse_rules`** — the start position, and the rule text
//!    after the game name (`connect4:…`); refuse text you do not understand.
//! 4. **`side_to_move`, `outcome`** — whose turn it is, and whether the game is over.
//!    `outcome` must say `Ongoing` exactly when there is a legal move.
//! 5. **`generate_moves`** — fill the list with every legal move, none twice, none
//!    when the game is over. `count_moves` has a default; override it when counting
//!    is cheaper than listing (perft bulk-counts the last ply with it).
//! 6. **`play_unchecked`** — return the next state for a legal move. `check_move`
//!    (whose default looks the move up in the legal list) gives `play`, the checked
//!    form, its reasons.
//! 7. **`hash`** — a 64-bit hash of the position alone (side to move included);
//!    search tables key on it. Incremental Zobrist keys or computed on demand.
//! 8. **Text: `parse_position`, `Display`, `parse_move`, `write_move`** — a position
//!    text that round-trips, and a move notation; parse errors say what is wrong and
//!    where ([`ParseError`]).
//! 9. **Optional hints** — `move_order_hint` (search tries high hints first: here the
//!    centre columns), `is_quiet` (quiescence), `search_key` (when more than the
//!    position decides the future, e.g. a repetition history).
//!
//! Then test the laws every game keeps (the `tests` module below): perft against
//! counts made by an independent program, the text round trip, and a position
//! whose result is known.

use core::fmt;

use ply_core::perft::perft;
use ply_core::search::{
    alphabeta, Engine, EngineConfig, Evaluator, Limits, NoClock, Score, TtEntry, WIN,
};
use ply_core::solve::Solver;
use ply_core::zobrist;
use ply_core::{Game, MoveList, Outcome, ParseError, Player};
use ply_host::parallel::{self, Algo, Options};

/// Columns and rows of the board.
const WIDTH: u32 = 7;
const HEIGHT: u32 = 6;
/// Each column takes `HEIGHT + 1` bits (the extra bit is always 0 and stops shifts
/// from wrapping into the next column): bit `col * 7 + row`, row 0 at the bottom.
const COLUMN_BITS: u32 = HEIGHT + 1;
const BOTTOM: u64 = {
    let mut b = 0;
    let mut c = 0;
    while c < WIDTH {
        b |= 1 << (c * COLUMN_BITS);
        c += 1;
    }
    b
};
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);
const KEYS: [u64; 2 * 49 + 1] = zobrist::keys(0xC0_4EC7_F0E4);

/// The cells of column `c`.
const fn column_mask(c: u32) -> u64 {
    ((1 << HEIGHT) - 1) << (c * COLUMN_BITS)
}

/// A column, 0 (left) to 6; written 1 to 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Column(pub u8);

/// Connect Four: the first player's pieces, all pieces, and the number of moves made.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ConnectFour {
    /// The pieces of the player who moved first.
    first: u64,
    /// Every piece on the board.
    occupied: u64,
    moves: u8,
}

impl ConnectFour {
    /// The pieces of `player`.
    fn pieces(&self, player: Player) -> u64 {
        match player {
            Player::First => self.first,
            Player::Second => self.occupied ^ self.first,
        }
    }

    /// True if `b` holds four in a row in any direction.
    fn has_four(b: u64) -> bool {
        // Horizontal, the two diagonals, vertical: shifts of 7, 8, 6, 1 bits.
        [COLUMN_BITS, COLUMN_BITS + 1, COLUMN_BITS - 1, 1]
            .iter()
            .any(|&s| {
                let pairs = b & (b >> s);
                pairs & (pairs >> (2 * s)) != 0
            })
    }

    /// The lowest free cell of each column that is not full.
    fn playable(&self) -> u64 {
        (self.occupied + BOTTOM) & BOARD
    }
}

impl Game for ConnectFour {
    type Move = Column;
    type MoveList = MoveList<Column, 7>;
    type Rules = ();

    fn start(_: ()) -> Self {
        ConnectFour {
            first: 0,
            occupied: 0,
            moves: 0,
        }
    }

    fn parse_rules(params: &str) -> Result<(), ParseError> {
        if params.is_empty() {
            Ok(())
        } else {
            Err(ParseError::new("connect four takes no parameters", 0))
        }
    }

    fn rules(&self) {}

    fn side_to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn outcome(&self) -> Outcome {
        // Only the player who just moved can have made four.
        let last = self.side_to_move().opponent();
        if Self::has_four(self.pieces(last)) {
            Outcome::Win(last)
        } else if u32::from(self.moves) == WIDTH * HEIGHT {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }

    fn hash(&self) -> u64 {
        // On demand: one key per occupied cell and owner, and the side to move.
        let mut h = if self.moves % 2 == 1 { KEYS[98] } else { 0 };
        let mut b = self.occupied;
        while b != 0 {
            let sq = b.trailing_zeros() as usize;
            let owner = usize::from(self.first & (1 << sq) == 0);
            h ^= KEYS[owner * 49 + sq];
            b &= b - 1;
        }
        h
    }

    fn generate_moves(&self, moves: &mut Self::MoveList) {
        moves.clear();
        if self.outcome().is_over() {
            return;
        }
        let playable = self.playable();
        for c in 0..WIDTH {
            if playable & column_mask(c) != 0 {
                moves.push(Column(c as u8));
            }
        }
    }

    fn count_moves(&self) -> u64 {
        if self.outcome().is_over() {
            0
        } else {
            u64::from(self.playable().count_ones())
        }
    }

    fn play_unchecked(&self, mv: Column) -> Self {
        let cell = self.playable() & column_mask(u32::from(mv.0));
        ConnectFour {
            first: if self.moves.is_multiple_of(2) {
                self.first | cell
            } else {
                self.first
            },
            occupied: self.occupied | cell,
            moves: self.moves + 1,
        }
    }

    /// Position text: the six rows from the top, `/` between rows, `x` (first
    /// player), `o`, `.` — the side to move follows from the counts.
    fn parse_position(_: (), text: &str) -> Result<Self, ParseError> {
        let mut g = ConnectFour::start(());
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != HEIGHT as usize {
            return Err(ParseError::new("a position is 6 rows separated by '/'", 0));
        }
        let (mut xs, mut os) = (0u32, 0u32);
        let mut offset = 0;
        for (i, row) in rows.iter().enumerate() {
            let r = HEIGHT - 1 - i as u32;
            if row.chars().count() != WIDTH as usize {
                return Err(ParseError::new("a row is 7 cells", offset));
            }
            for (c, ch) in row.chars().enumerate() {
                let bit = 1u64 << (c as u32 * COLUMN_BITS + r);
                match ch {
                    'x' => {
                        g.first |= bit;
                        g.occupied |= bit;
                        xs += 1;
                    }
                    'o' => {
                        g.occupied |= bit;
                        os += 1;
                    }
                    '.' => {}
                    _ => {
                        return Err(ParseError::at_char(
                            "a cell is 'x', 'o' or '.'",
                            offset + c,
                            ch,
                        ))
                    }
                }
            }
            offset += row.len() + 1;
        }
        // Adding the bottom row to a column's pieces lands on an occupied cell only
        // when there is a gap below a piece.
        if (g.occupied + BOTTOM) & g.occupied != 0 {
            return Err(ParseError::new("a piece floats above an empty cell", 0));
        }
        if xs != os && xs != os + 1 {
            return Err(ParseError::new(
                "x moves first: x has as many pieces as o or one more",
                0,
            ));
        }
        g.moves = (xs + os) as u8;
        Ok(g)
    }

    fn parse_move(&self, text: &str) -> Result<Column, ParseError> {
        match text.trim() {
            t @ ("1" | "2" | "3" | "4" | "5" | "6" | "7") => Ok(Column(t.as_bytes()[0] - b'1')),
            _ => Err(ParseError::new("a move is a column from 1 to 7", 0)),
        }
    }

    fn write_move(&self, mv: Column, out: &mut dyn fmt::Write) -> fmt::Result {
        write!(out, "{}", u16::from(mv.0) + 1)
    }

    fn move_order_hint(&self, mv: Column) -> i32 {
        // Centre columns take part in more lines.
        3 - (i32::from(mv.0) - 3).abs()
    }
}

impl fmt::Display for ConnectFour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..HEIGHT).rev() {
            for c in 0..WIDTH {
                let bit = 1u64 << (c * COLUMN_BITS + r);
                let ch = if self.first & bit != 0 {
                    'x'
                } else if self.occupied & bit != 0 {
                    'o'
                } else {
                    '.'
                };
                write!(f, "{ch}")?;
            }
            if r > 0 {
                write!(f, "/")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for ConnectFour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ConnectFour({self})")
    }
}

/// An evaluation of our own: for every line of four cells still open to one player
/// only, its pieces there squared — the player's minus the opponent's. It values the
/// position for `me`, the player the search names (the `Evaluator` contract).
#[derive(Clone, Copy, Debug)]
pub struct OpenLines;

impl Evaluator<ConnectFour> for OpenLines {
    fn evaluate(&self, g: &ConnectFour, me: Player) -> Score {
        let (mine, theirs) = (g.pieces(me), g.pieces(me.opponent()));
        let mut score = 0;
        for &s in &[COLUMN_BITS, COLUMN_BITS + 1, COLUMN_BITS - 1, 1] {
            for start in 0..(WIDTH * COLUMN_BITS) {
                if start + 3 * s >= 64 {
                    continue;
                }
                let line = (1u64 << start)
                    | (1u64 << (start + s))
                    | (1u64 << (start + 2 * s))
                    | (1u64 << (start + 3 * s));
                if line & !BOARD != 0 {
                    continue;
                }
                let (m, t) = ((line & mine).count_ones(), (line & theirs).count_ones());
                if t == 0 {
                    score += (m * m) as Score;
                } else if m == 0 {
                    score -= (t * t) as Score;
                }
            }
        }
        score
    }
}

fn main() {
    let start = ConnectFour::start(());
    println!("Connect Four, perft from the empty board:");
    for depth in 1..=8 {
        println!("  perft {depth}: {}", perft(&start, depth));
    }

    let depth = 8;
    let ab = alphabeta(&start, depth, &OpenLines);
    println!(
        "alpha-beta depth {depth}: value {}, move {}, {} nodes",
        ab.value,
        start.display_move(ab.best_move.expect("moves")),
        ab.nodes
    );

    let mut table = vec![TtEntry::EMPTY; 1 << 20];
    let mut engine = Engine::new(&mut table, OpenLines, NoClock, EngineConfig::default());
    let report = engine.search(&start, Limits::depth(12));
    println!(
        "engine depth {}: value {}, move {}, {} nodes",
        report.depth,
        report.value,
        start.display_move(report.best_move.expect("moves")),
        report.nodes
    );

    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    for algo in [Algo::Ybwc, Algo::LazySmp] {
        let r = parallel::search(algo, &start, depth, &OpenLines, &Options::threads(threads))
            .expect("threads");
        println!(
            "{algo} on {threads} threads, depth {depth}: value {}",
            r.value
        );
        assert_eq!(r.value, ab.value, "every strategy agrees with alpha-beta");
    }

    // A win the engine proves: x to move wins in three plies.
    let threat = ConnectFour::parse_position((), WIN_IN_THREE).expect("valid position");
    let mut engine = Engine::new(&mut table, OpenLines, NoClock, EngineConfig::default());
    let report = engine.search(&threat, Limits::depth(5));
    println!(
        "engine on {threat}: value {} (WIN - {}), move {}",
        report.value,
        WIN - report.value,
        threat.display_move(report.best_move.expect("moves"))
    );

    // Exact solving: a position with 14 empty cells, solved to the end of the game.
    let late = ConnectFour::parse_position((), LATE_POSITION).expect("valid position");
    let mut solver_table = vec![TtEntry::EMPTY; 1 << 16];
    let solution = Solver::new(&mut solver_table)
        .solve(&late)
        .expect("solvable");
    println!(
        "solve {late}: value {} for {:?} to move, best move {}",
        solution.value,
        late.side_to_move(),
        late.display_move(solution.best_move.expect("moves"))
    );
}

/// A position x, to move, wins in three plies: x plays column 3 (or 6), which makes
/// three in the bottom row with both ends open, and o can block only one end.
const WIN_IN_THREE: &str = "......./......./......./......./...oo../...xx..";

/// Four full rows without four in a row, x to move, 14 empty cells: small enough to
/// solve to the end of the game.
const LATE_POSITION: &str = "......./......./xoxxoxx/oxoxxoo/ooxxoox/xxooxoo";

#[cfg(test)]
mod tests {
    use super::*;

    /// Published counts of Connect Four perft from the empty board (a won position
    /// has no moves).
    const PERFT: [u64; 9] = [
        7, 49, 343, 2_401, 16_807, 117_649, 823_536, 5_673_234, 39_394_572,
    ];

    /// An independent count on a plain 7×6 array, written from the rules.
    fn slow_perft(cells: &mut [[u8; 6]; 7], to_move: u8, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for c in 0..7 {
            let Some(r) = (0..6).find(|&r| cells[c][r] == 0) else {
                continue;
            };
            cells[c][r] = to_move;
            total += if slow_four(cells, c, r) {
                u64::from(depth == 1)
            } else {
                slow_perft(cells, 3 - to_move, depth - 1)
            };
            cells[c][r] = 0;
        }
        total
    }

    fn slow_four(cells: &[[u8; 6]; 7], c: usize, r: usize) -> bool {
        let p = cells[c][r];
        [(1i32, 0i32), (0, 1), (1, 1), (1, -1)]
            .iter()
            .any(|&(dc, dr)| {
                let run = |sign: i32| {
                    (1..4)
                        .take_while(|&k| {
                            let (x, y) = (c as i32 + sign * k * dc, r as i32 + sign * k * dr);
                            (0..7).contains(&x)
                                && (0..6).contains(&y)
                                && cells[x as usize][y as usize] == p
                        })
                        .count()
                };
                run(1) + run(-1) >= 3
            })
    }

    #[test]
    fn perft_matches_the_published_counts_and_an_independent_count() {
        let start = ConnectFour::start(());
        for (i, &n) in PERFT.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(perft(&start, depth), n, "perft {depth}");
            if depth <= 7 {
                assert_eq!(
                    slow_perft(&mut [[0; 6]; 7], 1, depth),
                    n,
                    "slow perft {depth}"
                );
            }
        }
    }

    #[test]
    fn text_round_trips_and_bad_text_is_refused() {
        let g = [3, 3, 2, 4, 0]
            .iter()
            .fold(ConnectFour::start(()), |g, &c| g.play(Column(c)).unwrap());
        let text = g.to_string();
        assert_eq!(ConnectFour::parse_position((), &text).unwrap(), g);
        assert_eq!(
            ConnectFour::parse_position((), &text).unwrap().hash(),
            g.hash()
        );
        assert!(ConnectFour::parse_position((), "x......").is_err());
        assert!(
            ConnectFour::parse_position((), "x....../......./......./......./......./.......")
                .is_err()
        );
    }

    #[test]
    fn the_engine_proves_a_win_in_three() {
        let g = ConnectFour::parse_position((), WIN_IN_THREE).unwrap();
        let mut table = vec![TtEntry::EMPTY; 1 << 12];
        let mut engine = Engine::new(&mut table, OpenLines, NoClock, EngineConfig::default());
        let report = engine.search(&g, Limits::depth(5));
        assert_eq!(report.value, WIN - 3);
        assert!(matches!(report.best_move, Some(Column(2 | 5))));
    }

    /// The value of the side to move on a plain 7×6 array by alpha-beta to the end of
    /// the game (+1 win, 0 draw, -1 loss): an independent solver, written from the rules.
    fn slow_solve(cells: &mut [[u8; 6]; 7], to_move: u8, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -2;
        let mut any = false;
        for c in [3, 2, 4, 1, 5, 0, 6] {
            let Some(r) = (0..6).find(|&r| cells[c][r] == 0) else {
                continue;
            };
            any = true;
            cells[c][r] = to_move;
            let v = if slow_four(cells, c, r) {
                1
            } else {
                -slow_solve(cells, 3 - to_move, -beta, -alpha)
            };
            cells[c][r] = 0;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        if any {
            best
        } else {
            0
        }
    }

    #[test]
    fn the_solver_agrees_with_an_independent_solver() {
        let g = ConnectFour::parse_position((), LATE_POSITION).unwrap();
        let mut cells = [[0u8; 6]; 7];
        for (i, row) in LATE_POSITION.split('/').enumerate() {
            for (c, ch) in row.chars().enumerate() {
                cells[c][5 - i] = match ch {
                    'x' => 1,
                    'o' => 2,
                    _ => 0,
                };
            }
        }
        let expected = slow_solve(&mut cells, 1, -1, 1);
        let mut table = vec![TtEntry::EMPTY; 1 << 16];
        let s = Solver::new(&mut table).solve(&g).unwrap();
        assert_eq!(s.value, expected);
    }

    #[test]
    fn every_strategy_agrees_with_alpha_beta() {
        let g = ConnectFour::parse_position((), "......./......./......./...o.../...x.../..xxo..")
            .unwrap();
        for depth in [3, 4] {
            let ab = alphabeta(&g, depth, &OpenLines).value;
            for algo in [Algo::Minimax, Algo::Ybwc, Algo::LazySmp, Algo::Abdada] {
                let r =
                    parallel::search(algo, &g, depth, &OpenLines, &Options::threads(2)).unwrap();
                assert_eq!(r.value, ab, "{algo} depth {depth}");
            }
        }
    }
}
