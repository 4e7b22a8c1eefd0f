//! English draughts against OpenSpiel's `checkers`: the same positions reachable in
//! one turn (a whole chain of jumps; OpenSpiel plays each jump as an action and the
//! fixture script composes them) from every position of the fixture, and the same
//! results at the end (fixtures: `tests/fixtures/checkers.txt`, see
//! `tests/fixtures/README.md`, which also lists OpenSpiel's differences: White moves
//! first there, and a game is drawn after 40 plies without a capture).

use ply_core::games::draughts::{Colour, Draughts, Rules};
use ply_core::{Game, Outcome};
use ply_tests::differential::{compare, load, Adapter, End, Pos};

/// Square index (0–31, PDN square `i + 1`) of the `i`-th character of a fixture
/// board: both number the dark squares row by row from the top, left to right.
fn parse_board(board: &str) -> (u32, u32, u32) {
    assert_eq!(board.len(), 32, "a board has 32 squares: {}", board);
    let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
    for (i, c) in board.chars().enumerate() {
        let bit = 1u32 << i;
        match c {
            '.' => {}
            'b' => black |= bit,
            'B' => {
                black |= bit;
                kings |= bit
            }
            'w' => white |= bit,
            'W' => {
                white |= bit;
                kings |= bit
            }
            other => panic!("unknown fixture square {:?}", other),
        }
    }
    (black, white, kings)
}

fn colour(side: &str) -> Colour {
    match side {
        "white" => Colour::White,
        "black" => Colour::Black,
        other => panic!("unknown side {:?}", other),
    }
}

fn build(pos: &Pos) -> Draughts {
    let (black, white, kings) = parse_board(&pos.board);
    Draughts::from_bitboards(Rules::english(), black, white, kings, colour(&pos.side))
        .unwrap_or_else(|e| panic!("fixture position {}: {}", pos, e))
}

struct CheckersAdapter;

impl Adapter for CheckersAdapter {
    type G = Draughts;

    fn to_ply(&self, pos: &Pos) -> Draughts {
        build(pos)
    }

    fn position_of(&self, g: &Draughts) -> Pos {
        let board: String = (0..32)
            .map(|i| {
                let bit = 1u32 << i;
                let king = g.kings() & bit != 0;
                if g.pieces(Colour::Black) & bit != 0 {
                    if king {
                        'B'
                    } else {
                        'b'
                    }
                } else if g.pieces(Colour::White) & bit != 0 {
                    if king {
                        'W'
                    } else {
                        'w'
                    }
                } else {
                    '.'
                }
            })
            .collect();
        let side = match g.colour_to_move() {
            Colour::White => "white",
            Colour::Black => "black",
        };
        Pos::new(board, side)
    }

    fn check_end(&self, end: &End) -> Result<(), String> {
        let g = build(&end.position);
        let rules = Rules::english();
        match end.result.as_str() {
            "white" | "black" => {
                let winner = colour(&end.result);
                let expected = Outcome::Win(rules.player_of(winner));
                if g.outcome() != expected {
                    return Err(format!("ply says {:?}", g.outcome()));
                }
                if winner == g.colour_to_move() {
                    return Err("the winner is the side to move".into());
                }
                if !g.legal_moves().is_empty() {
                    return Err("ply has legal moves for the loser".into());
                }
                Ok(())
            }
            // OpenSpiel's own draw rule, which ply does not have: by the board alone
            // the game goes on.
            "draw-no-capture-40" => {
                if g.outcome() != Outcome::Ongoing || g.legal_moves().is_empty() {
                    return Err(format!("ply says {:?}", g.outcome()));
                }
                Ok(())
            }
            other => Err(format!("unknown result {:?}", other)),
        }
    }
}

#[test]
fn successor_sets_and_results_match_openspiel() {
    let fx = load("checkers.txt");
    let n = compare(&CheckersAdapter, &fx).unwrap_or_else(|e| panic!("{}", e));
    println!(
        "checkers vs OpenSpiel: {} positions, {} successors, {} final positions compared",
        n.positions, n.successors, n.ends
    );
    assert!(n.positions >= 7000 && n.ends >= 100, "{:?}", n);
}

#[test]
fn the_fixture_exercises_multi_jumps_crowning_and_kings() {
    let fx = load("checkers.txt");
    let (mut multi, mut crowned, mut king_positions) = (0, 0, 0);
    for rec in &fx.records {
        let before = rec.position.board.chars().filter(|&c| c != '.').count();
        if rec.position.board.contains(['B', 'W']) {
            king_positions += 1;
        }
        let kings_before = rec.position.board.matches(['B', 'W']).count();
        for s in &rec.successors {
            let after = s.board.chars().filter(|&c| c != '.').count();
            if before >= after + 2 {
                multi += 1;
            }
            if s.board.matches(['B', 'W']).count() > kings_before {
                crowned += 1;
            }
        }
    }
    assert!(
        multi > 50 && crowned > 100 && king_positions > 1000,
        "{} {} {}",
        multi,
        crowned,
        king_positions
    );
}

#[test]
fn a_missing_successor_would_be_caught() {
    // Not vacuous: a record with one successor removed (the first multi-jump's) fails.
    let mut fx = load("checkers.txt");
    let rec = fx
        .records
        .iter_mut()
        .find(|r| {
            let n = r.position.board.chars().filter(|&c| c != '.').count();
            r.successors
                .iter()
                .any(|s| s.board.chars().filter(|&c| c != '.').count() + 2 <= n)
        })
        .expect("a position with a multi-jump");
    let n = rec.position.board.chars().filter(|&c| c != '.').count();
    let jump = rec
        .successors
        .iter()
        .find(|s| s.board.chars().filter(|&c| c != '.').count() + 2 <= n)
        .unwrap()
        .clone();
    rec.successors.remove(&jump);
    let err = compare(&CheckersAdapter, &fx).unwrap_err();
    assert!(err.contains("OpenSpiel does not"), "{}", err);
}
