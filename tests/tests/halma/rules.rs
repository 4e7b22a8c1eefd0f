//! Halma: move-list snapshots, property tests of the flood-fill generator against a
//! plain recursive path search, rule options, passes, the draw limit, and minimax
//! against alpha-beta at three stages of a 16×16 game.

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

/// Destinations of the piece on (r, c) by plain recursion over jump paths, as the
/// Haskell Halma report's `getJumpMoves` does (docs/references.md), plus the steps:
/// the reference for the flood fill.
fn reference_destinations(
    n: usize,
    occ: &[bool],
    r: usize,
    c: usize,
) -> (BTreeSet<usize>, BTreeSet<usize>) {
    let mut occ = occ.to_vec();
    occ[r * n + c] = false; // the moving piece has left its square
    let inb = |r: i32, c: i32| r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n;
    let dirs: Vec<(i32, i32)> = (-1..=1)
        .flat_map(|dr| (-1..=1).map(move |dc| (dr, dc)))
        .filter(|&d| d != (0, 0))
        .collect();
    let mut steps = BTreeSet::new();
    for &(dr, dc) in &dirs {
        let (rr, cc) = (r as i32 + dr, c as i32 + dc);
        if inb(rr, cc) && !occ[rr as usize * n + cc as usize] {
            steps.insert(rr as usize * n + cc as usize);
        }
    }
    fn rec(
        n: usize,
        occ: &[bool],
        dirs: &[(i32, i32)],
        r: i32,
        c: i32,
        visited: &mut BTreeSet<usize>,
        out: &mut BTreeSet<usize>,
    ) {
        let inb = |r: i32, c: i32| r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n;
        for &(dr, dc) in dirs {
            let (mr, mc) = (r + dr, c + dc);
            let (lr, lc) = (r + 2 * dr, c + 2 * dc);
            if !inb(lr, lc) {
                continue;
            }
            let mid = mr as usize * n + mc as usize;
            let land = lr as usize * n + lc as usize;
            if occ[mid] && !occ[land] && !visited.contains(&land) {
                visited.insert(land);
                out.insert(land);
                rec(n, occ, dirs, lr, lc, visited, out);
            }
        }
    }
    let mut jumps = BTreeSet::new();
    let mut visited = BTreeSet::from([r * n + c]);
    rec(n, &occ, &dirs, r as i32, c as i32, &mut visited, &mut jumps);
    jumps.remove(&(r * n + c));
    (steps, jumps)
}

fn set_of<B: Bitboard>(b: B) -> BTreeSet<usize> {
    b.squares().collect()
}

/// A random position: `cells` holds 0 (empty), 1 (x) or 2 (o) per square; piece
/// counts are cut to the board's maximum and each side keeps at least one piece.
fn position_from_cells<B: HalmaBoard>(cells: &[u8], x_to_move: bool) -> Halma<B> {
    let n = B::SIDE;
    let mut rows = Vec::new();
    let (mut nx, mut no) = (0, 0);
    for r in 0..n {
        let mut row = String::new();
        for c in 0..n {
            let ch = match cells[r * n + c] {
                1 if nx < B::PIECES => {
                    nx += 1;
                    'x'
                }
                2 if no < B::PIECES => {
                    no += 1;
                    'o'
                }
                _ => '.',
            };
            row.push(ch);
        }
        rows.push(row);
    }
    if nx == 0 {
        rows[0].replace_range(0..1, "x");
    }
    if no == 0 {
        rows[n - 1].replace_range(n - 1..n, "o");
    }
    let text = format!("{} {}", rows.join("/"), if x_to_move { "x" } else { "o" });
    Halma::<B>::parse_position(HalmaRules::default(), &text).unwrap()
}

fn check_generator_against_reference<B: HalmaBoard>(g: &Halma<B>) {
    let n = B::SIDE;
    let occ: Vec<bool> = (0..n * n).map(|sq| g.piece_at(sq).is_some()).collect();
    let me = g.side_to_move();
    let mut expected = BTreeSet::new();
    for sq in g.pieces(me).squares() {
        let (steps, jumps) = reference_destinations(n, &occ, sq / n, sq % n);
        assert_eq!(
            set_of(g.step_targets(sq)),
            steps,
            "steps of {} in {}",
            sq,
            g
        );
        assert_eq!(
            set_of(g.jump_targets(sq)),
            jumps,
            "jumps of {} in {}",
            sq,
            g
        );
        assert!(
            steps.is_disjoint(&jumps),
            "steps and jumps overlap at {}",
            g
        );
        for &t in steps.iter().chain(jumps.iter()) {
            expected.insert((sq, t));
        }
        // Every jump target has a valid path of single jumps.
        for &t in &jumps {
            let mv = HalmaMove::new(sq as u8, t as u8);
            let path = g.jump_path(mv).expect("a jump target has a path");
            assert_eq!(path.first().copied(), Some(sq as u8));
            assert_eq!(path.last().copied(), Some(t as u8));
            let mut occ2 = occ.clone();
            occ2[sq] = false;
            for w in path.windows(2) {
                let (a, b) = (w[0] as usize, w[1] as usize);
                let (ar, ac, br, bc) = (a / n, a % n, b / n, b % n);
                let (dr, dc) = (br as i32 - ar as i32, bc as i32 - ac as i32);
                assert!(dr.abs() <= 2 && dc.abs() <= 2 && dr % 2 == 0 && dc % 2 == 0);
                assert!((dr, dc) != (0, 0));
                let mid = ((ar as i32 + dr / 2) as usize) * n + (ac as i32 + dc / 2) as usize;
                assert!(occ2[mid] && !occ2[b], "bad hop {}->{} in {}", a, b, g);
            }
        }
        for &t in &steps {
            assert!(g.jump_path(HalmaMove::new(sq as u8, t as u8)).is_none());
        }
    }
    if g.outcome().is_over() {
        assert!(g.legal_moves().is_empty());
        return;
    }
    let generated: BTreeSet<(usize, usize)> = g
        .legal_moves()
        .iter()
        .filter(|m| !m.is_pass())
        .map(|m| (m.from as usize, m.to as usize))
        .collect();
    assert_eq!(generated, expected, "moves of {}", g);
    assert_eq!(g.count_moves(), g.legal_moves().len() as u64);
    if expected.is_empty() {
        assert_eq!(&g.legal_moves()[..], &[HalmaMove::PASS]);
    }
    for &mv in g.legal_moves().iter() {
        assert_eq!(g.check_move(mv), Ok(()), "{:?} in {}", mv, g);
        let child = g.play(mv).unwrap();
        let reparsed = Halma::<B>::parse_position(g.rules(), &child.to_string()).unwrap();
        assert_eq!(reparsed, child);
        assert_eq!(reparsed.hash(), child.hash());
    }
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn flood_fill_equals_recursive_search_8x8(
        cells in proptest::collection::vec(prop_oneof![6 => Just(0u8), 2 => Just(1u8), 2 => Just(2u8)], 64),
        x_to_move in any::<bool>(),
    ) {
        let g = position_from_cells::<u64>(&cells, x_to_move);
        check_generator_against_reference(&g);
    }

    #[test]
    fn flood_fill_equals_recursive_search_16x16(
        cells in proptest::collection::vec(prop_oneof![12 => Just(0u8), 3 => Just(1u8), 3 => Just(2u8)], 256),
        x_to_move in any::<bool>(),
    ) {
        let g = position_from_cells::<Bits256>(&cells, x_to_move);
        check_generator_against_reference(&g);
    }

    #[test]
    fn games_from_random_playouts_keep_the_laws(seed in any::<u64>(), plies in 0usize..120) {
        let mut g = Halma8::default();
        let mut s = seed;
        for _ in 0..plies {
            let moves = g.legal_moves();
            if moves.is_empty() { break; }
            let (ns, r) = ply_core::zobrist::splitmix64(s);
            s = ns;
            g = g.play_unchecked(moves[(r as usize) % moves.len()]);
        }
        check_generator_against_reference(&g);
    }
}

// ---------------------------------------------------------------------------
// Move notation, errors and rule options

#[test]
fn notation_round_trips_on_both_sizes() {
    let g = Halma8::default();
    for &mv in g.legal_moves().iter() {
        let text = g.display_move(mv).to_string();
        assert_eq!(g.parse_move(&text).unwrap(), mv);
    }
    let g = Halma16::default();
    for &mv in g.legal_moves().iter() {
        let text = g.display_move(mv).to_string();
        assert_eq!(g.parse_move(&text).unwrap(), mv);
    }
    assert_eq!(g.parse_move("p16-o15").unwrap(), HalmaMove::new(255, 238));
    assert_eq!(g.parse_move(" pass ").unwrap(), HalmaMove::PASS);
}

#[test]
fn bad_moves_and_positions_give_reasons() {
    let g = Halma8::default();
    let e = g.parse_move("i1-a2").unwrap_err();
    assert_eq!(
        (e.reason, e.offset, e.found),
        ("a column is a letter a to h", 0, Some('i'))
    );
    let e = g.parse_move("a1-a9").unwrap_err();
    assert_eq!((e.reason, e.offset), ("a row number is 1 to 8", 4));
    assert!(g.parse_move("a1a2").is_err());
    assert!(g.parse_move("a1-a1").is_err());
    let reason = |t: &str| g.check_move(g.parse_move(t).unwrap()).unwrap_err();
    assert_eq!(reason("e1-f1"), "there is no piece on the from square");
    assert_eq!(reason("e4-e5"), "there is no piece on the from square");
    assert_eq!(reason("h5-g4"), "the piece on the from square is not yours");
    assert_eq!(reason("a1-b1"), "the destination square is occupied");
    assert_eq!(
        reason("a4-a7"),
        "the destination is neither a neighbouring square nor reachable by a chain of jumps"
    );
    assert_eq!(
        g.check_move(HalmaMove::PASS).unwrap_err(),
        "a pass is legal only when no other move is"
    );
    let err = g.play(g.parse_move("a4-a7").unwrap()).unwrap_err();
    assert_eq!(err.position, g);

    let bad = |t: &str| Halma8::parse_position(HalmaRules::default(), t).unwrap_err();
    let e = bad("xxxx..../xxx...../xx....../x......./.......o/......oo/.....ooo/....oooz x");
    assert_eq!(
        (e.found, e.reason),
        (Some('z'), "unknown square: expected '.', 'x' or 'o'")
    );
    assert!(
        bad("xxxx.../xxx...../xx....../x......./.......o/......oo/.....ooo/....oooo x")
            .reason
            .contains("too short")
    );
    assert!(
        bad("xxxx..../xxx...../xx....../x......./.......o/......oo/.....ooo/....oooo")
            .reason
            .contains("missing side to move")
    );
    assert!(
        bad("xxxx..../xxx...../xx....../x......./.......o/......oo/.....ooo/....oooo q")
            .reason
            .contains("'x' or 'o'")
    );
    assert!(
        bad("xxxxxxxx/xxx...../xx....../x......./.......o/......oo/.....ooo/....oooo x")
            .reason
            .contains("1 to 10 pieces")
    );
    assert!(
        bad("xxxx..../xxx...../xx....../x......./.......o/......oo/.....ooo/....oooo x -3")
            .reason
            .contains("ply count")
    );
    // Line breaks work as row separators too, and a ply count is read back.
    let g = Halma8::parse_position(
        HalmaRules::default(),
        "xxxx....\nxxx.....\nxx......\nx.......\n.......o\n......oo\n.....ooo\n....oooo\no 17",
    )
    .unwrap();
    assert_eq!(g.plies(), 17);
    assert_eq!(g.side_to_move(), Player::Second);
    assert!(g.to_string().ends_with(" o 17"));
}

#[test]
fn rule_options_parse_and_reject_unknowns() {
    let r = Halma16::parse_rules("16:parlett:no-leave:plies=300").unwrap();
    assert_eq!(r.win, WinRule::Parlett);
    assert!(r.no_leave);
    assert_eq!(r.max_plies, 300);
    assert_eq!(Halma8::parse_rules("").unwrap(), HalmaRules::default());
    assert_eq!(Halma8::parse_rules("8").unwrap(), HalmaRules::default());
    assert_eq!(HalmaRules::default().max_plies, 1000);
    assert!(Halma8::parse_rules("16").is_err());
    assert!(Halma16::parse_rules("8").is_err());
    assert!(Halma8::parse_rules("8:plies=0").is_err());
    assert!(Halma8::parse_rules("8:plies=x").is_err());
    let e = Halma8::parse_rules("8:fast").unwrap_err();
    assert_eq!(e.offset, 2);
    assert_eq!(ply_core::games::halma::board_side("16:parlett"), 16);
    assert_eq!(ply_core::games::halma::board_side(""), 8);
}

#[test]
fn all_in_camp_win_and_the_spoiler() {
    // x has 9 pieces in o's camp and one step from the tenth square.
    let g = pos8("....o.../......../......../......../.......x/......xx/.....xxx/...x.xxx x");
    let mv = g.parse_move("d8-e8").unwrap();
    let after = g.play(mv).unwrap();
    assert_eq!(after.outcome(), Outcome::Win(Player::First));
    assert!(after.legal_moves().is_empty());
    // A spoiler: o keeps a piece in its own camp (h8), so x can never win by the
    // default rule, but wins under Parlett's rule once the camp is full.
    let spoiled = "o......./......../......../x......./.......x/......xx/....xxxx/....x.xo x";
    let g = pos8(spoiled);
    let mv = g.parse_move("e7-f8").unwrap();
    assert_eq!(g.play(mv).unwrap().outcome(), Outcome::Ongoing);
    let parlett = Halma8::parse_rules("parlett").unwrap();
    let g = Halma8::parse_position(parlett, spoiled).unwrap();
    let after = g.play(mv).unwrap();
    assert_eq!(after.outcome(), Outcome::Win(Player::First));
}

#[test]
fn no_leave_keeps_pieces_in_the_target_camp() {
    let text = "....o.../......../......../x......./......../......../......../....x... x";
    let free = pos8(text);
    let g7 = free.parse_move("e8-d8").unwrap();
    assert!(free.legal_moves().contains(&g7));
    let rules = Halma8::parse_rules("no-leave").unwrap();
    let g = Halma8::parse_position(rules, text).unwrap();
    assert!(!g.legal_moves().contains(&g7));
    assert!(g.legal_moves().contains(&g.parse_move("e8-f8").unwrap()));
    assert_eq!(
        g.check_move(g7).unwrap_err(),
        "a piece in its target camp may not leave it (rule no-leave)"
    );
    check_generator_against_reference(&free);
}

#[test]
fn ply_limit_draws() {
    let rules = Halma8::parse_rules("plies=3").unwrap();
    let mut g = Halma8::start(rules);
    for _ in 0..3 {
        assert_eq!(g.outcome(), Outcome::Ongoing);
        g = g.play_unchecked(g.legal_moves()[0]);
    }
    assert_eq!(g.outcome(), Outcome::Draw);
    assert!(g.legal_moves().is_empty());
}

/// Tables are keyed by `Game::search_key`: the same board with fewer plies left
/// before the draw limit must not take a result found with more left. x (e5) is two
/// steps from o's camp, o (a8) far from x's: x wins in 3 plies with 6 plies left, but
/// with 2 left the game is drawn. One solver, one table, both positions in turn.
#[test]
fn a_shared_table_keeps_apart_positions_with_different_plies_left() {
    let rules = Halma8::parse_rules("plies=10").unwrap();
    let board = "......../......../......../......../....x.../......../......../o....... x";
    let early = Halma8::parse_position(rules, &format!("{} 4", board)).unwrap();
    let late = Halma8::parse_position(rules, &format!("{} 8", board)).unwrap();
    assert_eq!(early.hash(), late.hash());
    let mut slots = vec![TtEntry::EMPTY; 1 << 16];
    let mut solver = Solver::new(&mut slots);
    let e = solver.solve(&early).unwrap();
    assert_eq!((e.value, e.plies_to_end), (1, Some(3)));
    let l = solver.solve(&late).unwrap();
    assert_eq!((l.value, l.plies_to_end), (0, None), "drawn by the limit");
}

#[test]
fn passing_hands_the_turn_over() {
    let g = pos8("xoo...../oo....../o.o...../......../......../......../......../.......o x");
    let after = g.play(HalmaMove::PASS).unwrap();
    assert_eq!(after.side_to_move(), Player::Second);
    assert_eq!(after.plies(), 1);
    assert!(!after.legal_moves().contains(&HalmaMove::PASS));
}

#[test]
fn move_list_bound_holds_on_a_dense_lattice() {
    // Pieces on every other square of every other row give every piece long jump
    // chains: the densest jump positions. The generated count stays within the
    // proven capacity (the list would panic otherwise).
    let mut best = 0;
    for off in 0..4 {
        let cells: Vec<u8> = (0..64)
            .map(|sq| {
                let (r, c) = (sq / 8, sq % 8);
                if (r + off / 2) % 2 == 1 && (c + off % 2) % 2 == 1 {
                    if sq < 32 {
                        1
                    } else {
                        2
                    }
                } else {
                    0
                }
            })
            .collect();
        for x_to_move in [true, false] {
            let g = position_from_cells::<u64>(&cells, x_to_move);
            let n = g.legal_moves().len();
            best = best.max(n);
            assert!(n <= ply_core::games::halma::Halma8Moves::CAPACITY);
        }
    }
    assert!(best > 50, "lattice positions have many moves: {}", best);
    println!("lattice best {}", best);
}

// ---------------------------------------------------------------------------
// Complete games, both sizes, every rule option

fn play_out<B: HalmaBoard, E1: Evaluator<Halma<B>>, E2: Evaluator<Halma<B>>>(
    mut g: Halma<B>,
    depth: u32,
    first: &E1,
    second: &E2,
) -> Halma<B> {
    while !g.outcome().is_over() {
        let r = if g.side_to_move() == Player::First {
            alphabeta(&g, depth, first)
        } else {
            alphabeta(&g, depth, second)
        };
        g = g.play(r.best_move.unwrap()).unwrap();
    }
    g
}

#[test]
fn complete_games_end_under_every_rule_option() {
    for params in [
        "8",
        "8:parlett",
        "8:no-leave",
        "8:plies=40",
        "8:parlett:no-leave",
    ] {
        let g = Halma8::start(Halma8::parse_rules(params).unwrap());
        let end = play_out(g, 1, &Manhattan, &Manhattan);
        assert!(end.outcome().is_over(), "{}", params);
        assert!(end.plies() <= end.rules().max_plies);
        if params == "8:plies=40" {
            assert_eq!((end.outcome(), end.plies()), (Outcome::Draw, 40));
        } else {
            assert!(
                matches!(end.outcome(), Outcome::Win(_)),
                "{} {}",
                params,
                end
            );
        }
    }
    for params in ["16", "16:parlett:no-leave"] {
        let g = Halma16::start(Halma16::parse_rules(params).unwrap());
        let end = play_out(g, 1, &Racer::DEFAULT, &Manhattan);
        assert!(end.outcome().is_over(), "{}", params);
    }
}

// ---------------------------------------------------------------------------
// Minimax and alpha-beta at three stages (the C++ Halma README's experiment,
// docs/references.md)

/// Opening, middle and ending positions of a 16×16 game of s7 against s5 at depth 1.
fn three_stages() -> [Halma16; 3] {
    let s7 = Weights::parse("s7").unwrap();
    let s5 = Weights::parse("s5").unwrap();
    let mut g = Halma16::default();
    let mut stages = [g; 3];
    let mut found_middle = false;
    while !g.outcome().is_over() {
        let in_target = |g: &Halma16| {
            (g.pieces(Player::First) & Halma16::target(Player::First)).count()
                + (g.pieces(Player::Second) & Halma16::target(Player::Second)).count()
        };
        if g.plies() == 6 {
            stages[0] = g;
        }
        if !found_middle && in_target(&g) >= 2 {
            stages[1] = g;
            found_middle = true;
        }
        if in_target(&g) >= 28 {
            stages[2] = g;
            break;
        }
        let w = if g.side_to_move() == Player::First {
            s7
        } else {
            s5
        };
        g = g.play_unchecked(alphabeta(&g, 1, &w).best_move.unwrap());
    }
    assert!(found_middle && stages[2] != stages[1]);
    stages
}

#[test]
fn minimax_and_alphabeta_agree_at_opening_middle_and_ending() {
    for (i, p) in three_stages().iter().enumerate() {
        for name in ["s1", "s7", "s8"] {
            let eval = Weights::parse(name).unwrap();
            let mm = minimax(p, 2, &eval);
            let ab = alphabeta(p, 2, &eval);
            assert_eq!(mm.best_move, ab.best_move, "stage {} {}", i, name);
            assert_eq!(mm.value, ab.value);
            // Far fewer nodes: at most a third of minimax's at depth 2.
            assert!(
                ab.nodes * 3 < mm.nodes,
                "stage {} {}: {} vs {}",
                i,
                name,
                ab.nodes,
                mm.nodes
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The recorded 8×8 middle-game position of the depth-3 benchmark

const MIDDLE: &str = include_str!("../../../benches/data/halma8_middle.txt");

#[test]
fn recorded_middle_game_position_has_many_moves() {
    let g = pos8(MIDDLE.trim());
    assert_eq!(g.outcome(), Outcome::Ongoing);
    let n = g.legal_moves().len();
    assert_eq!(n, 146);
    // Neither side has a piece in its target camp yet: a middle game.
    for p in [Player::First, Player::Second] {
        assert!((g.pieces(p) & Halma8::target(p)).is_empty());
    }
    check_generator_against_reference(&g);
}

/// Rebuilds the middle-game position: the position with the most legal moves among
/// those met in 20,000 playouts of 40 plies from the start (plies 16 to 40, no piece
/// in a target camp yet), each move picked at random among the moves that do not go
/// backwards (SplitMix64 seed 1), and checks that it is the recorded one
/// (`--nocapture` prints it).
#[test]
fn regenerate_middle_game_position() {
    let mut s = 1u64;
    let mut next = || {
        let (ns, r) = ply_core::zobrist::splitmix64(s);
        s = ns;
        r
    };
    let mut best = (0, Halma8::default());
    for _ in 0..20_000 {
        let mut g = Halma8::default();
        for ply in 0..40 {
            let moves: Vec<HalmaMove> = g
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| g.move_order_hint(m) >= 0)
                .collect();
            if moves.is_empty() {
                break;
            }
            g = g.play_unchecked(moves[next() as usize % moves.len()]);
            let clean = [Player::First, Player::Second]
                .iter()
                .all(|&p| (g.pieces(p) & Halma8::target(p)).is_empty());
            if ply >= 15 && clean {
                let n = g.legal_moves().len();
                if n > best.0 {
                    best = (n, g);
                }
            }
        }
    }
    println!("{} moves: {}", best.0, best.1);
    assert_eq!(best.1.to_string(), MIDDLE.trim());
}
