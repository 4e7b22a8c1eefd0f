//! Why a move is refused: the reasons [`Game::check_move`](crate::Game::check_move)
//! gives for a move that is not legal in a position.

use super::board::{bit, JUMP, NEIGHBOUR, NONE};
use super::mv::{DraughtsMoves, Move};
use super::Draughts;

impl Draughts {
    /// `Ok` if `mv` is legal here, else why not: the body of
    /// [`Game::check_move`](crate::Game::check_move).
    pub(super) fn check_legality(&self, mv: Move) -> Result<(), &'static str> {
        if self.is_drawn_by_rule() {
            return Err("the game is over: it is drawn");
        }
        let colour = self.to_move;
        let me = self.pieces[colour.index()];
        if me & bit(mv.from) == 0 {
            return Err(if self.pieces[colour.other().index()] & bit(mv.from) != 0 {
                "that piece belongs to the opponent"
            } else {
                "there is no piece on the origin square"
            });
        }
        let mut legal = DraughtsMoves::new();
        self.generate_all(&mut legal);
        if legal.is_empty() {
            return Err("the game is over: the side to move has no legal move");
        }
        if legal.contains(&mv) {
            return Ok(());
        }
        let king = self.kings & bit(mv.from) != 0;
        if !mv.is_capture() {
            if self.has_capture() {
                return Err("a jump is available and must be taken");
            }
            let Some(d) = (0..4).find(|&d| NEIGHBOUR[mv.from as usize][d] == mv.to) else {
                return Err("a simple move goes one square diagonally");
            };
            if !king && !colour.is_forward(d) {
                return Err("men move forward only");
            }
            if self.empty() & bit(mv.to) == 0 {
                return Err("the destination square is occupied");
            }
            if king && self.forbidden().contains(mv.from, mv.to) {
                return Err("the king move would repeat an earlier position (Calgary rule)");
            }
            return Err("not a legal move in this position");
        }
        if self.rules.unique_captures() && legal.iter().any(|m| m.same_result(&mv)) {
            return Err("the same capture is listed by another path (unique captures)");
        }
        Err(self.explain_capture(mv))
    }

    /// Says precisely why the capture `mv` is not legal.
    fn explain_capture(&self, mv: Move) -> &'static str {
        let colour = self.to_move;
        let opp = self.pieces[colour.other().index()];
        let empty = self.empty() | bit(mv.from);
        let mut king = self.kings & bit(mv.from) != 0;
        let mut sq = mv.from;
        let mut jumped = 0u32;
        let n = mv.jumps();
        let calgary = self.rules.is_calgary();
        for k in 0..n {
            let d = ((mv.path >> (2 * k)) & 3) as usize;
            if !king && !colour.is_forward(d) {
                return "men capture forward only";
            }
            let mid = NEIGHBOUR[sq as usize][d];
            let land = JUMP[sq as usize][d];
            if mid == NONE || land == NONE {
                return "a jump would leave the board";
            }
            if jumped & bit(mid) != 0 {
                return "a piece cannot be jumped twice";
            }
            if opp & bit(mid) == 0 {
                return "a jump must go over an opponent's piece";
            }
            if empty & bit(land) == 0 {
                return "a jump must land on an empty square";
            }
            jumped |= bit(mid);
            sq = land;
            if !king && colour.crown_row() & bit(sq) != 0 {
                if !calgary && k + 1 < n {
                    return "a man crowned by a capture ends its move (English rules)";
                }
                king = true;
            }
        }
        let crowned_now = king && self.kings & bit(mv.from) == 0;
        if calgary || !crowned_now {
            for d in 0..4 {
                if !king && !colour.is_forward(d) {
                    continue;
                }
                let mid = NEIGHBOUR[sq as usize][d];
                let land = JUMP[sq as usize][d];
                if land != NONE && opp & !jumped & bit(mid) != 0 && empty & bit(land) != 0 {
                    return "the capture is not finished: the piece can jump again";
                }
            }
        }
        "not a legal capture in this position"
    }
}
