//! Property tests on random English draughts playouts: the laws of `ply_tests::laws`,
//! pieces removed only by captures, and every move checked by a slow rule checker
//! written here on an 8×8 array (compulsory capture, men forward only, a capture goes
//! on while it can, a crowning ends the move, a piece is jumped at most once).
//!
//! The repetition draw is off (`repeat=0`) so that legality depends on the board and
//! the move-limit count alone, both of which the slow checker reads; the Calgary
//! variant's no-repetition rule, which depends on the game's history, is left to the
//! draughts tests.

use std::collections::HashSet;

use ply_core::games::draughts::{Colour, Draughts, DraughtsMoves, Move, Rules};
use ply_core::Game;
use ply_tests::laws::{check_playout, Laws};
use proptest::prelude::*;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Man(Colour),
    King(Colour),
}

fn xy(i: u8) -> (i32, i32) {
    let y = i as i32 / 4;
    let x = 2 * (i as i32 % 4) + if y % 2 == 0 { 1 } else { 0 };
    (x, y)
}

fn at(x: i32, y: i32) -> Option<u8> {
    if !(0..8).contains(&x) || !(0..8).contains(&y) || (x + y) % 2 == 0 {
        None
    } else {
        Some((y * 4 + x / 2) as u8)
    }
}

fn cells(g: &Draughts) -> [Cell; 32] {
    let mut c = [Cell::Empty; 32];
    for (i, cell) in c.iter_mut().enumerate() {
        let bit = 1u32 << i;
        for colour in [Colour::Black, Colour::White] {
            if g.pieces(colour) & bit != 0 {
                *cell = if g.kings() & bit != 0 {
                    Cell::King(colour)
                } else {
                    Cell::Man(colour)
                };
            }
        }
    }
    c
}

/// The rows a man of `colour` moves towards: Black down (+1), White up (-1).
fn forward(colour: Colour) -> i32 {
    match colour {
        Colour::Black => 1,
        Colour::White => -1,
    }
}

fn crown_row(colour: Colour) -> i32 {
    match colour {
        Colour::Black => 7,
        Colour::White => 0,
    }
}

fn dirs(cell: Cell) -> Vec<(i32, i32)> {
    match cell {
        Cell::King(_) => vec![(-1, -1), (1, -1), (-1, 1), (1, 1)],
        Cell::Man(c) => vec![(-1, forward(c)), (1, forward(c))],
        Cell::Empty => vec![],
    }
}

fn opponent_on(c: &[Cell; 32], sq: u8, me: Colour) -> bool {
    matches!(c[sq as usize], Cell::Man(o) | Cell::King(o) if o != me)
}

/// Every complete capture of the piece on `from`, as landing sequences and captured
/// sets, by depth-first search on the array.
fn captures_from(c: &[Cell; 32], from: u8) -> Vec<(Vec<u8>, u32)> {
    let piece = c[from as usize];
    let me = match piece {
        Cell::Man(m) | Cell::King(m) => m,
        Cell::Empty => return vec![],
    };
    let mut board = *c;
    board[from as usize] = Cell::Empty;
    let mut out = Vec::new();
    fn walk(
        board: &[Cell; 32],
        piece: Cell,
        me: Colour,
        path: &mut Vec<u8>,
        taken: u32,
        out: &mut Vec<(Vec<u8>, u32)>,
    ) {
        let (x, y) = xy(*path.last().unwrap());
        let mut extended = false;
        for (dx, dy) in dirs(piece) {
            let (Some(mid), Some(land)) = (at(x + dx, y + dy), at(x + 2 * dx, y + 2 * dy)) else {
                continue;
            };
            if opponent_on(board, mid, me)
                && taken & (1 << mid) == 0
                && board[land as usize] == Cell::Empty
            {
                extended = true;
                path.push(land);
                let crowned = matches!(piece, Cell::Man(_)) && xy(land).1 == crown_row(me);
                if crowned {
                    // English rules: a crowning ends the move.
                    out.push((path.clone(), taken | 1 << mid));
                } else {
                    walk(board, piece, me, path, taken | 1 << mid, out);
                }
                path.pop();
            }
        }
        if !extended && path.len() > 1 {
            out.push((path.clone(), taken));
        }
    }
    walk(&board, piece, me, &mut vec![from], 0, &mut out);
    out
}

/// Every legal move of the side to move as PDN text with its captured set, by the
/// slow rules.
fn slow_moves(g: &Draughts) -> Vec<(String, u32)> {
    if g.reversible_plies() >= 2 * u32::from(g.rules().move_limit()) {
        return vec![];
    }
    let c = cells(g);
    let me = g.colour_to_move();
    let mine: Vec<u8> = (0..32u8)
        .filter(|&i| matches!(c[i as usize], Cell::Man(o) | Cell::King(o) if o == me))
        .collect();
    let mut caps = Vec::new();
    for &from in &mine {
        for (path, taken) in captures_from(&c, from) {
            let text: Vec<String> = path.iter().map(|s| (s + 1).to_string()).collect();
            caps.push((text.join("x"), taken));
        }
    }
    if !caps.is_empty() {
        return caps;
    }
    let mut simple = Vec::new();
    for &from in &mine {
        let (x, y) = xy(from);
        for (dx, dy) in dirs(c[from as usize]) {
            if let Some(to) = at(x + dx, y + dy) {
                if c[to as usize] == Cell::Empty {
                    simple.push((format!("{}-{}", from + 1, to + 1), 0));
                }
            }
        }
    }
    simple
}

/// The landing squares of a move, PDN-numbered, from its public accessors.
fn move_text(mv: &Move) -> String {
    let mut sq = [0u8; 14];
    let n = mv.squares(&mut sq);
    let parts: Vec<String> = sq[..n].iter().map(|s| (s + 1).to_string()).collect();
    parts.join(if mv.is_capture() { "x" } else { "-" })
}

fn slow_legal(g: &Draughts, mv: Move) -> bool {
    let text = move_text(&mv);
    slow_moves(g)
        .iter()
        .any(|(t, taken)| *t == text && *taken == mv.captured())
}

fn candidates(g: &Draughts) -> Vec<Move> {
    // The slow rules' moves, read through the game's parser, plus every one-step
    // diagonal of every square (legal or not), so that a move the generator misses
    // or invents shows up.
    let mut texts: HashSet<String> = slow_moves(g).into_iter().map(|(t, _)| t).collect();
    for i in 0..32u8 {
        let (x, y) = xy(i);
        for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
            if let Some(j) = at(x + dx, y + dy) {
                texts.insert(format!("{}-{}", i + 1, j + 1));
            }
            if let Some(j) = at(x + 2 * dx, y + 2 * dy) {
                texts.insert(format!("{}x{}", i + 1, j + 1));
            }
        }
    }
    texts.iter().filter_map(|t| g.parse_move(t).ok()).collect()
}

fn conserved(before: &Draughts, mv: Move, after: &Draughts) -> Result<(), String> {
    let me = before.colour_to_move();
    let opp = me.other();
    let taken = mv.captured();
    if taken & !before.pieces(opp) != 0 {
        return Err("captured a square without an opposing piece".into());
    }
    if after.pieces(opp) != before.pieces(opp) & !taken {
        return Err("the opponent's pieces changed other than by the captures".into());
    }
    if after.kings_of(opp) != before.kings_of(opp) & !taken {
        return Err("the opponent's kings changed other than by the captures".into());
    }
    if after.pieces(me).count_ones() != before.pieces(me).count_ones() {
        return Err("the mover's piece count changed".into());
    }
    let moved = before.pieces(me) ^ after.pieces(me);
    let expected_moved = if mv.from() == mv.to() {
        0
    } else {
        1 << mv.from() | 1 << mv.to()
    };
    if moved != expected_moved {
        return Err("pieces other than the moving one moved".into());
    }
    let kings_gained =
        after.kings_of(me).count_ones() as i32 - before.kings_of(me).count_ones() as i32;
    if kings_gained != i32::from(mv.crowns()) {
        return Err(format!(
            "{} kings gained, crowns() = {}",
            kings_gained,
            mv.crowns()
        ));
    }
    if after.colour_to_move() != opp {
        return Err("the turn did not pass".into());
    }
    Ok(())
}

fn same_position(a: &Draughts, b: &Draughts) -> bool {
    a.pieces(Colour::Black) == b.pieces(Colour::Black)
        && a.pieces(Colour::White) == b.pieces(Colour::White)
        && a.kings() == b.kings()
        && a.colour_to_move() == b.colour_to_move()
}

fn laws() -> Laws<Draughts> {
    Laws {
        capacity: DraughtsMoves::CAPACITY,
        candidates,
        slow_legal,
        conserved,
        same_position,
    }
}

fn rules() -> Rules {
    Rules::english()
        .with_repetition(0)
        .expect("no repetition draw")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_playouts_keep_every_law(choices in prop::collection::vec(0usize..1000, 0..300)) {
        let r = check_playout(Draughts::new(rules()), &choices, &laws());
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

#[test]
fn the_slow_rules_are_not_vacuous() {
    // A capture is compulsory: with a jump on the board the slow rules allow no
    // simple move, and a man never moves backwards.
    let g = Draughts::parse_position(rules(), "B:W18:B14,1").unwrap();
    let slow: Vec<String> = slow_moves(&g).into_iter().map(|(t, _)| t).collect();
    assert_eq!(slow, vec!["14x23".to_string()]);
    let g = Draughts::parse_position(rules(), "W:W18:B1").unwrap();
    let mut slow: Vec<String> = slow_moves(&g).into_iter().map(|(t, _)| t).collect();
    slow.sort();
    assert_eq!(slow, vec!["18-14".to_string(), "18-15".to_string()]);
}
