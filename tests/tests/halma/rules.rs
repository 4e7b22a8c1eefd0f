//! Halma's rules: the shared helpers and the move-list snapshots here (insta keeps
//! them under this file's name); the flood-fill generator against a plain recursive
//! path search in `rules/generator.rs`, notation, errors and rule options in
//! `rules/options.rs`, whole games and minimax against alpha-beta in `rules/games.rs`.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use ply_core::games::halma::eval::{Manhattan, Racer, Weights};
use ply_core::games::halma::{
    Bitboard, Bits256, Halma, HalmaBoard, HalmaMove, HalmaRules, WinRule,
};
use ply_core::games::{Halma16, Halma8};
use ply_core::search::{alphabeta, minimax, Evaluator, TtEntry};
use ply_core::solve::Solver;
use ply_core::{Game, Outcome, Player};
use proptest::prelude::*;

mod games;
mod generator;
mod options;

use generator::{check_generator_against_reference, position_from_cells};

// ---------------------------------------------------------------------------
// Helpers

fn pos8(text: &str) -> Halma8 {
    Halma8::parse_position(HalmaRules::default(), text).unwrap()
}

fn pos16(text: &str) -> Halma16 {
    Halma16::parse_position(HalmaRules::default(), text).unwrap()
}

/// A board diagram and the legal moves, one line per piece, jump paths shown.
fn describe<B: HalmaBoard>(g: &Halma<B>) -> String {
    let n = B::SIDE;
    let mut s = String::new();
    write!(s, "   ").unwrap();
    for c in 0..n {
        write!(s, "{}", (b'a' + c as u8) as char).unwrap();
    }
    writeln!(s).unwrap();
    for r in 0..n {
        write!(s, "{:>2} ", r + 1).unwrap();
        for c in 0..n {
            s.push(match g.piece_at(r * n + c) {
                Some(Player::First) => 'x',
                Some(Player::Second) => 'o',
                None => '.',
            });
        }
        writeln!(s).unwrap();
    }
    let moves = g.legal_moves();
    writeln!(
        s,
        "{} to move, {} moves",
        if g.side_to_move() == Player::First {
            "x"
        } else {
            "o"
        },
        moves.len()
    )
    .unwrap();
    let mut from = None;
    for &mv in moves.iter() {
        if mv.is_pass() {
            writeln!(s, "pass").unwrap();
            continue;
        }
        if from != Some(mv.from) {
            if from.is_some() {
                writeln!(s).unwrap();
            }
            let mut name = String::new();
            ply_core::games::halma::write_square(n, mv.from as usize, &mut name).unwrap();
            write!(s, "{}:", name).unwrap();
            from = Some(mv.from);
        }
        let mut to = String::new();
        ply_core::games::halma::write_square(n, mv.to as usize, &mut to).unwrap();
        match g.jump_path(mv) {
            Some(path) => {
                let names: Vec<String> = path
                    .iter()
                    .map(|&sq| {
                        let mut t = String::new();
                        ply_core::games::halma::write_square(n, sq as usize, &mut t).unwrap();
                        t
                    })
                    .collect();
                write!(s, " {}(jump {})", to, names.join(">")).unwrap();
            }
            None => write!(s, " {}", to).unwrap(),
        }
    }
    if from.is_some() {
        writeln!(s).unwrap();
    }
    s
}

// ---------------------------------------------------------------------------
// Snapshots

#[test]
fn snapshot_start_8x8() {
    insta::assert_snapshot!(describe(&Halma8::default()));
}

#[test]
fn snapshot_start_16x16() {
    insta::assert_snapshot!(describe(&Halma16::default()));
}

#[test]
fn snapshot_chain_changing_direction_many_times() {
    // The x on a1 can zigzag: over b2 to c3, over d3 to e3, over e4 to e5, over
    // d6 to c7, over c8? (off board) ... every hop turns.
    let g = pos8("x......./.o....../...o..../...xo.../...x..../..o...../.o...o../........ x");
    insta::assert_snapshot!(describe(&g));
}

#[test]
fn snapshot_surrounded_piece_has_no_move() {
    // x on a1 is boxed in: its three neighbours and the three squares beyond them
    // are taken; the other x piece still moves.
    let g = pos8("xoo...../oo....../o.o...../......../......../......../......../......xo x");
    let s = describe(&g);
    assert!(!s.contains("a1:"));
    insta::assert_snapshot!(s);
}

#[test]
fn snapshot_blocked_player_passes() {
    // x's only piece is boxed in: x has no move and passes.
    let g = pos8("xoo...../oo....../o.o...../......../......../......../......../.......o x");
    assert_eq!(&g.legal_moves()[..], &[HalmaMove::PASS]);
    assert_eq!(g.outcome(), Outcome::Ongoing);
    insta::assert_snapshot!(describe(&g));
}

#[test]
fn snapshot_jump_chain_through_the_opponents_camp() {
    // x on d5 runs a chain of jumps across o's camp (bottom right) and out again.
    let g = pos8("......../......../......../......x./...x..../....o.o./......../......oo x");
    insta::assert_snapshot!(describe(&g));
}

#[test]
fn snapshot_16x16_corners_and_edges_do_not_wrap() {
    // Pieces on all four corners and on the edges, with pieces placed where a shift
    // that wrapped across a row would find a jump: x on p5 with o on a6 (the square
    // after p5 in square order) and a6's neighbour b6 empty; x on a9 with o on p8.
    let mut rows = vec![String::from("................"); 16];
    let put = |rows: &mut Vec<String>, sq: &str, ch: &str| {
        let c = (sq.as_bytes()[0] - b'a') as usize;
        let r: usize = sq[1..].parse::<usize>().unwrap() - 1;
        rows[r].replace_range(c..c + 1, ch);
    };
    for (sq, ch) in [
        ("a1", "x"),
        ("b2", "o"),
        ("p1", "x"),
        ("o1", "o"),
        ("a16", "x"),
        ("a15", "o"),
        ("p16", "x"),
        ("o15", "o"),
        ("p5", "x"),
        ("a6", "o"),
        ("a9", "x"),
        ("p8", "o"),
        ("h1", "x"),
        ("h2", "o"),
        ("a12", "x"),
        ("b12", "o"),
    ] {
        put(&mut rows, sq, ch);
    }
    let g = pos16(&format!("{} x", rows.join("/")));
    check_generator_against_reference(&g);
    let s = describe(&g);
    // No wrapped jumps: p5 cannot reach b7 (p5 -> a6 -> b7 would wrap), a9 cannot
    // reach o7 (a9 -> p8 -> o7 would wrap).
    let p5 = s.lines().find(|l| l.starts_with("p5:")).unwrap();
    assert!(!p5.contains("b7"));
    let a9 = s.lines().find(|l| l.starts_with("a9:")).unwrap();
    assert!(!a9.contains("o7"));
    insta::assert_snapshot!(s);
}

// ---------------------------------------------------------------------------
// Property tests

// ---------------------------------------------------------------------------
// Move notation, errors and rule options

// ---------------------------------------------------------------------------
// Complete games, both sizes, every rule option
