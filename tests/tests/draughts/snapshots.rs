//! The full legal move lists, in the Calgary assignment's notation (with PDN
//! alongside), of the assignment's published test states and of positions built for
//! each rule. Each snapshot was checked by hand against the rules when accepted.

use ply_core::games::draughts::{Draughts, MoveSet};
use ply_core::Game;
use std::fmt::Write;

/// `rules`, a FEN, and moves to play first (so that the history counts): the move
/// set as the assignment's `moves` returns it.
fn listing(spec: &str, fen: &str, after: &[&str]) -> String {
    let rules = Draughts::parse_rules(spec).unwrap();
    let mut g = Draughts::parse_position(rules, fen).unwrap();
    let mut out = String::new();
    writeln!(out, "rules: checkers:{}", spec).unwrap();
    writeln!(out, "position: {}", fen).unwrap();
    for m in after {
        let mv = g.parse_move(m).unwrap();
        writeln!(out, "played: {}  {}", g.display_calgary(mv), m).unwrap();
        g = g.apply_move(mv).unwrap();
    }
    if !after.is_empty() {
        writeln!(out, "now: {}", g).unwrap();
    }
    let (kind, list) = match g.moves() {
        MoveSet::Simple(l) => ("SM", l),
        MoveSet::Jump(l) => ("JM", l),
        MoveSet::End(o) => {
            writeln!(out, "moves: EndM ({:?})", o).unwrap();
            return out;
        }
    };
    writeln!(out, "moves: {} ({})", kind, list.len()).unwrap();
    for &m in list.iter() {
        writeln!(out, "{}  {}", g.display_calgary(m), g.display_move(m)).unwrap();
    }
    out
}

// The assignment's published states (Calgary rules, Red to move, no history).

#[test]
fn calgary_initial_state() {
    insta::assert_snapshot!(listing("calgary", "W:W21-32:B1-12", &[]));
}

#[test]
fn calgary_test1() {
    // Black king (0,1); Red kings (0,3) (2,3).
    insta::assert_snapshot!(listing("calgary", "W:WK13,K14:BK5", &[]));
}

#[test]
fn calgary_test2() {
    // Black kings (6,3) (4,3); Red king (0,1).
    insta::assert_snapshot!(listing("calgary", "W:WK5:BK15,K16", &[]));
}

#[test]
fn calgary_test3() {
    // Red man (6,5); Black kings (6,3) (4,3); Red kings (0,1) (0,5).
    insta::assert_snapshot!(listing("calgary", "W:W24,K5,K21:BK15,K16", &[]));
}

// Positions built for each rule.

#[test]
fn multi_jump_changing_direction() {
    // Red man 25 jumps up-right over 22, then up-left over 14.
    insta::assert_snapshot!(listing("calgary", "W:W25:B22,14,3", &[]));
}

#[test]
fn man_crowned_mid_capture_calgary() {
    // The notes' example: the Black man crowned on (4,7) jumps on as a king.
    insta::assert_snapshot!(listing("calgary", "B:W17,26,27:B13", &[]));
}

#[test]
fn man_crowned_mid_capture_english() {
    // Standard rules: the crowning ends the move.
    insta::assert_snapshot!(listing("english", "B:W17,26,27:B13", &[]));
}

#[test]
fn red_man_crowned_mid_capture_calgary() {
    // Red man 17 jumps 14 and 7, is crowned on 3 and jumps back over 8 as a king.
    insta::assert_snapshot!(listing("calgary", "W:W17:B14,7,8", &[]));
}

#[test]
fn king_ends_on_its_own_origin() {
    // The king on 10 goes round the four pieces either way and ends where it began.
    insta::assert_snapshot!(listing("calgary", "W:WK10:B7,8,15,16", &[]));
}

#[test]
fn duplicate_capture_paths() {
    // Two paths with the same origin, destination and captured set: both are listed.
    insta::assert_snapshot!(listing("calgary", "W:WK1:B6,7,8,15,16", &[]));
}

#[test]
fn duplicate_capture_paths_unique_convention() {
    insta::assert_snapshot!(listing("english:unique", "W:WK1:B6,7,8,15,16", &[]));
}

#[test]
fn blocked_side() {
    // Red's only man is blocked and cannot jump: Red has no move and loses.
    insta::assert_snapshot!(listing("calgary", "W:W29:B25,22", &[]));
}

#[test]
fn forced_repetition_refusal_with_permuted_kings() {
    // Red's kings rotate round the diamond 14-10-15-18 while Black's king shuttles.
    // Two king steps are missing from the list: 18-14 would recreate the first
    // position with the two Red kings swapped, and 15-10 the position after 15-18
    // (Black's king is back on 4 in both).
    insta::assert_snapshot!(listing(
        "calgary",
        "B:WK14,K15:BK4",
        &["4-8", "14-10", "8-4", "15-18", "4-8", "10-15", "8-4"],
    ));
}

#[test]
fn only_move_would_repeat_so_red_loses() {
    insta::assert_snapshot!(listing(
        "calgary",
        "B:WK4:BK29,3,11,12,15",
        &["29-25", "4-8", "25-29"],
    ));
}
