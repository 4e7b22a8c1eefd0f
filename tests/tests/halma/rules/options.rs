//! Move notation, errors with reasons, rule options, the win and no-leave rules, the
//! ply limit, passes and the move-list bound.

use super::*;

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
