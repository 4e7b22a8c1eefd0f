//! What the page draws: each game's board as cells on a grid, and each move as the
//! cells it starts and ends on. One implementation of [`WebGame`] a game, through the
//! core's public API only.

use ply_core::games::draughts::db::{small, DbEval};
use ply_core::games::draughts::{
    square_x, square_y, Colour, Draughts, Move as DraughtsMove, Variant,
};
use ply_core::games::halma::{write_square, Halma, HalmaBoard, HalmaMove};
use ply_core::games::kalah::{Kalah, Pit};
use ply_core::games::tictactoe::{Square, TicTacToe};
use ply_core::search::{Evaluator, Recommended};
use ply_core::{Game, Player};

use crate::json::Json;

/// One cell of a board: a square, a pit or a store, placed on the page's grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Row on the grid, from the top (0-based).
    pub row: u8,
    /// Column on the grid, from the left (0-based).
    pub col: u8,
    /// Rows the cell spans (a Kalah store spans both rows).
    pub rows: u8,
    /// What stands on it, as a CSS class: `x`, `o`, `black`, `white`, `red`
    /// (`-king` added for a draughts king), `seeds`, or empty.
    pub piece: &'static str,
    /// Text shown on the cell (a Kalah pit's seed count), often empty.
    pub text: String,
    /// The cell's shading, as a CSS class: `light`/`dark` draughts squares, the
    /// Halma camps `camp-x`/`camp-o`, `pit`/`store` in Kalah.
    pub shade: &'static str,
    /// The cell's name in the game's notation (`a1`, `12`, `pit 3`): a tooltip and
    /// the small label of numbered squares.
    pub name: String,
}

/// A board: the grid's size and its cells; moves name cells by their index here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Grid rows.
    pub rows: u8,
    /// Grid columns.
    pub cols: u8,
    /// The cells, addressed by index.
    pub cells: Vec<Cell>,
}

/// Where a move acts on the board, for highlighting and for playing it by clicks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveCells {
    /// The cell a piece leaves; `None` for a move that only puts or picks (a
    /// tic-tac-toe mark, a Kalah pit) or a pass.
    pub from: Option<usize>,
    /// The cell clicked to play the move (a piece's destination, the marked square,
    /// the pit sown); `None` for a pass.
    pub to: Option<usize>,
    /// Every cell the move passes through, `from` and `to` included (jump chains).
    pub path: Vec<usize>,
}

/// What the page needs of a game beyond [`Game`] and what the engine plays it with
/// ([`Recommended`]: the core's default evaluation and switches, as on the host and
/// the firmware; for English draughts with the endgame databases of up to 3 pieces
/// compiled in, [`WebGame::page_evaluation`]).
pub trait WebGame: Recommended {
    /// The evaluation the page's engine plays with.
    type PageEval: Evaluator<Self>;
    /// [`Recommended::evaluation`], with what the page adds to it.
    fn page_evaluation() -> Self::PageEval;
    /// What `player` is called in this game ("X", "Black", "Player 1").
    fn player_name(&self, player: Player) -> &'static str;
    /// The board as the page draws it.
    fn board(&self) -> Board;
    /// The cells `mv` (legal here) acts on.
    fn move_cells(&self, mv: Self::Move) -> MoveCells;
}

impl Board {
    /// The board as JSON: `{"rows":R,"cols":C,"cells":[{"r","c","rs","p","t","s","n"}…]}`.
    pub fn to_json(&self) -> String {
        let mut j = Json::new();
        j.open('{');
        j.key("rows").num(self.rows as i64);
        j.key("cols").num(self.cols as i64);
        j.key("cells").open('[');
        for c in &self.cells {
            j.open('{');
            j.key("r").num(c.row as i64);
            j.key("c").num(c.col as i64);
            j.key("rs").num(c.rows as i64);
            j.key("p").str(c.piece);
            j.key("t").str(&c.text);
            j.key("s").str(c.shade);
            j.key("n").str(&c.name);
            j.close('}');
        }
        j.close(']');
        j.close('}');
        j.finish()
    }
}

fn cell(row: usize, col: usize, piece: &'static str, shade: &'static str, name: String) -> Cell {
    Cell {
        row: row as u8,
        col: col as u8,
        rows: 1,
        piece,
        text: String::new(),
        shade,
        name,
    }
}

// Tic-tac-toe: nine cells, row by row; cell i is square i.
impl WebGame for TicTacToe {
    type PageEval = Self::Evaluation;
    fn page_evaluation() -> Self::PageEval {
        Self::evaluation()
    }
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "X",
            Player::Second => "O",
        }
    }
    fn board(&self) -> Board {
        let (x, o) = (self.marks(Player::First), self.marks(Player::Second));
        let cells = (0..9)
            .map(|i| {
                let piece = if x >> i & 1 == 1 {
                    "x"
                } else if o >> i & 1 == 1 {
                    "o"
                } else {
                    ""
                };
                cell(i / 3, i % 3, piece, "", (i + 1).to_string())
            })
            .collect();
        Board {
            rows: 3,
            cols: 3,
            cells,
        }
    }
    fn move_cells(&self, mv: Square) -> MoveCells {
        let sq = mv.0 as usize;
        MoveCells {
            from: None,
            to: Some(sq),
            path: vec![sq],
        }
    }
}

// Kalah: the first player's pits are cells 0..P (bottom row, left to right towards
// its store), the second player's P..2P (top row, right to left), then the first
// player's store (right) and the second's (left), each spanning both rows: the
// board of `ply play`.
impl WebGame for Kalah {
    type PageEval = Self::Evaluation;
    fn page_evaluation() -> Self::PageEval {
        Self::evaluation()
    }
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "Player 1",
            Player::Second => "Player 2",
        }
    }
    fn board(&self) -> Board {
        let p = self.rules().pits as usize;
        let mut cells = Vec::with_capacity(2 * p + 2);
        for (side, row) in [(Player::First, 1), (Player::Second, 0)] {
            for i in 0..p {
                let col = if side == Player::First { i + 1 } else { p - i };
                let mut c = cell(
                    row,
                    col,
                    "seeds",
                    "pit",
                    format!("{} pit {}", self.player_name(side), i + 1),
                );
                c.text = self.pit(side, i).to_string();
                cells.push(c);
            }
        }
        for (side, col) in [(Player::First, p + 1), (Player::Second, 0)] {
            let mut c = cell(
                0,
                col,
                "seeds",
                "store",
                format!("{} store", self.player_name(side)),
            );
            c.rows = 2;
            c.text = self.store(side).to_string();
            cells.push(c);
        }
        Board {
            rows: 2,
            cols: (p + 2) as u8,
            cells,
        }
    }
    fn move_cells(&self, mv: Pit) -> MoveCells {
        let p = self.rules().pits as usize;
        let id = match self.side_to_move() {
            Player::First => mv.0 as usize,
            Player::Second => p + mv.0 as usize,
        };
        MoveCells {
            from: None,
            to: Some(id),
            path: vec![id],
        }
    }
}

/// The cell (row × 8 + column) of draughts square index `sq` (0–31).
fn draughts_cell(sq: u8) -> usize {
    square_y(sq) as usize * 8 + square_x(sq) as usize
}

// Draughts: all 64 squares row by row from the top, so cell = row × 8 + column;
// the playable (dark) ones are named by their PDN number 1–32.
impl WebGame for Draughts {
    /// The core's evaluation with every position of up to 3 pieces exact
    /// ([`small::DATABASE`], compiled in: 53,937 bytes): the engine plays those
    /// endings as `ply --eval network-db` does, the quickest win and the longest
    /// loss. Under the Calgary rules nothing is probed (their values depend on the
    /// positions before).
    type PageEval = DbEval<'static, <Draughts as Recommended>::Evaluation, { small::SLOTS }>;
    fn page_evaluation() -> Self::PageEval {
        DbEval {
            db: &small::DATABASE,
            eval: Self::evaluation(),
        }
    }
    fn player_name(&self, player: Player) -> &'static str {
        match (self.rules().variant(), self.rules().colour_of(player)) {
            (_, Colour::Black) => "Black",
            (Variant::English, Colour::White) => "White",
            (Variant::Calgary, Colour::White) => "Red",
        }
    }
    fn board(&self) -> Board {
        let calgary = self.rules().variant() == Variant::Calgary;
        let mut cells: Vec<Cell> = (0..64)
            .map(|i| cell(i / 8, i % 8, "", "light", String::new()))
            .collect();
        let (black, white, kings) = (
            self.pieces(Colour::Black),
            self.pieces(Colour::White),
            self.kings(),
        );
        for sq in 0..32u8 {
            let bit = 1u32 << sq;
            let c = &mut cells[draughts_cell(sq)];
            c.shade = "dark";
            c.name = (sq + 1).to_string();
            let king = kings & bit != 0;
            c.piece = match (black & bit != 0, white & bit != 0, king, calgary) {
                (true, _, false, _) => "black",
                (true, _, true, _) => "black-king",
                (_, true, false, false) => "white",
                (_, true, true, false) => "white-king",
                (_, true, false, true) => "red",
                (_, true, true, true) => "red-king",
                _ => "",
            };
        }
        Board {
            rows: 8,
            cols: 8,
            cells,
        }
    }
    fn move_cells(&self, mv: DraughtsMove) -> MoveCells {
        let mut squares = [0u8; 14];
        let n = mv.squares(&mut squares);
        MoveCells {
            from: Some(draughts_cell(mv.from())),
            to: Some(draughts_cell(mv.to())),
            path: squares[..n].iter().map(|&s| draughts_cell(s)).collect(),
        }
    }
}

// Halma: N × N cells row by row from the top left, cell = square; the home camps
// shaded.
impl<B: HalmaBoard> WebGame for Halma<B> {
    type PageEval = Self::Evaluation;
    fn page_evaluation() -> Self::PageEval {
        Self::evaluation()
    }
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "x",
            Player::Second => "o",
        }
    }
    fn board(&self) -> Board {
        let n = B::SIDE;
        let (camp_x, camp_o) = (Self::camp(Player::First), Self::camp(Player::Second));
        let cells = (0..n * n)
            .map(|sq| {
                let piece = match self.piece_at(sq) {
                    Some(Player::First) => "x",
                    Some(Player::Second) => "o",
                    None => "",
                };
                let shade = if camp_x.has(sq) {
                    "camp-x"
                } else if camp_o.has(sq) {
                    "camp-o"
                } else {
                    ""
                };
                let mut name = String::new();
                let _ = write_square(n, sq, &mut name);
                cell(sq / n, sq % n, piece, shade, name)
            })
            .collect();
        Board {
            rows: n as u8,
            cols: n as u8,
            cells,
        }
    }
    fn move_cells(&self, mv: HalmaMove) -> MoveCells {
        if mv.is_pass() {
            return MoveCells::default();
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let path = match self.jump_path(mv) {
            Some(chain) => chain.iter().map(|&s| s as usize).collect(),
            None => vec![from, to],
        };
        MoveCells {
            from: Some(from),
            to: Some(to),
            path,
        }
    }
}
