//! Draughts rules: the Game contract's laws on random games, both notations, the
//! refusal reasons of `apply_move`, the Calgary no-repetition rule and the English
//! draw rules.

use ply_core::games::draughts::{Colour, Draughts, Move, MoveSet, Rules, Variant};
use ply_core::{Game, Outcome, Player};

fn next(state: &mut u64) -> u64 {
    let (s, v) = ply_core::zobrist::splitmix64(*state);
    *state = s;
    v
}

fn pos(spec: &str, fen: &str) -> Draughts {
    Draughts::parse_position(Draughts::parse_rules(spec).unwrap(), fen).unwrap()
}

fn mv(g: &Draughts, text: &str) -> Move {
    g.parse_move(text)
        .unwrap_or_else(|e| panic!("{}: {} in {}", text, e, g))
}

fn play(g: Draughts, moves: &[&str]) -> Draughts {
    moves.iter().fold(g, |g, m| {
        let x = mv(&g, m);
        g.play(x).unwrap_or_else(|e| panic!("{}", e))
    })
}

fn calgary(g: &Draughts, m: Move) -> String {
    g.display_calgary(m).to_string()
}

/// Random games from the start (both variants, king-heavy endings included): every
/// law of the Game contract, both notations round trip, and positions round trip.
#[test]
fn random_games_keep_the_contract() {
    let mut seed = 0x5eed;
    for spec in ["english", "calgary", "english:unique", "english:limit=5"] {
        let rules = Draughts::parse_rules(spec).unwrap();
        for _ in 0..60 {
            let mut g = Draughts::start(rules);
            for _ in 0..300 {
                let moves = g.legal_moves();
                assert_eq!(moves.is_empty(), g.outcome().is_over(), "{:?}", g);
                assert_eq!(g.count_moves(), moves.len() as u64, "{:?}", g);
                if !moves.is_empty() {
                    assert_eq!(g.is_quiet(), !moves.iter().any(|m| m.is_capture()));
                }
                for (i, &m) in moves.iter().enumerate() {
                    assert!(!moves[..i].contains(&m), "duplicate move in {:?}", g);
                    if rules.unique_captures() {
                        assert!(!moves[..i].iter().any(|o| o.same_result(&m)));
                    }
                    assert_eq!(g.check_move(m), Ok(()));
                    let child = g.play(m).unwrap();
                    assert_eq!(child, g.play_unchecked(m));
                    // Hash: incremental equals the hash of the parsed position text.
                    let parsed = Draughts::parse_position(rules, &child.to_string()).unwrap();
                    assert_eq!(parsed.hash(), child.hash(), "{:?} after {:?}", g, m);
                    assert_eq!(parsed.to_string(), child.to_string());
                    // Notations round trip.
                    let pdn = g.display_move(m).to_string();
                    let back = g.parse_move(&pdn).unwrap();
                    assert!(back.same_result(&m), "{} in {}", pdn, g);
                    assert_eq!(g.parse_move(&calgary(&g, m)).unwrap(), m);
                }
                if moves.is_empty() {
                    break;
                }
                g = g.play_unchecked(moves[(next(&mut seed) as usize) % moves.len()]);
            }
        }
    }
}

#[test]
fn full_pdn_path_picks_the_exact_path() {
    // Two paths of a king around four pieces, back to the square it came in on.
    let g = pos("english", "W:WK1:B6,7,8,15,16");
    let moves = g.legal_moves();
    assert_eq!(moves.len(), 2);
    for &m in moves.iter() {
        assert_eq!(g.parse_move(&g.display_move(m).to_string()).unwrap(), m);
    }
    // From and destination alone: both paths have the same result, either will do.
    let m = g.parse_move("1x10").unwrap();
    assert!(m.same_result(&moves[0]));
}

#[test]
fn start_positions_and_players() {
    let e = Draughts::start(Rules::english());
    assert_eq!(e.colour_to_move(), Colour::Black);
    assert_eq!(e.side_to_move(), Player::First);
    assert_eq!(
        e.to_string(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    let c = Draughts::start(Rules::calgary());
    assert_eq!(c.colour_to_move(), Colour::White);
    assert_eq!(c.side_to_move(), Player::First);
    assert_eq!(c.rules().variant(), Variant::Calgary);
    assert_eq!(pos("calgary", "W:W21-32:B1-12"), c);
    assert_eq!(pos("english", "[FEN \"B:W21-32:B1-12\"]"), e);
}

#[test]
fn fen_errors_say_what_is_wrong() {
    let r = Rules::english();
    let err = |t: &str| Draughts::parse_position(r, t).unwrap_err();
    assert_eq!(
        err("X:W1:B2").reason,
        "expected the side to move, 'B' or 'W'"
    );
    assert_eq!(err("X:W1:B2").found, Some('X'));
    assert_eq!(err("W:W33:B2").reason, "squares are numbered 1 to 32");
    assert_eq!(err("W:W5,5:B2").reason, "a square is listed twice");
    assert_eq!(err("W:W5:B5").reason, "a square is listed twice");
    assert_eq!(
        err("W:W1:B9").reason,
        "a white man on row 1 (squares 1-4) would be a king"
    );
    assert_eq!(
        err("W:W9:B30").reason,
        "a black man on row 8 (squares 29-32) would be a king"
    );
    assert_eq!(err("W:W5-18:B1").reason, "a side has more than 12 pieces");
    assert_eq!(err("W:W5;6:B1").reason, "expected ',' between squares");
    assert_eq!(err("W:W5:W6").reason, "a side is listed twice");
    assert_eq!(
        err("").reason,
        "empty position: expected a FEN like B:W21,...:B1,..."
    );
    assert_eq!(
        err("W:W7:B1:X").reason,
        "unexpected text after the position"
    );
    assert_eq!(err("W:W7:B1 junk").reason, "expected ',' between squares");
    // Kings and an empty side are fine.
    let g = Draughts::parse_position(r, "W:WK1,K2:B").unwrap();
    assert_eq!(g.to_string(), "W:WK1,K2:B");
    assert_eq!(g.outcome(), Outcome::Ongoing);
}

#[test]
fn rule_spec_errors_and_options() {
    assert_eq!(Draughts::parse_rules("").unwrap(), Rules::english());
    assert_eq!(Draughts::parse_rules("english").unwrap(), Rules::english());
    assert_eq!(Draughts::parse_rules("calgary").unwrap(), Rules::calgary());
    let r = Draughts::parse_rules("english:limit=25:repeat=0").unwrap();
    assert_eq!((r.move_limit(), r.repetition()), (25, 0));
    assert!(Draughts::parse_rules("polish").is_err());
    assert!(Draughts::parse_rules("english:limit=65").is_err());
    assert!(Draughts::parse_rules("english:limit=0").is_err());
    assert!(Draughts::parse_rules("calgary:repeat=3").is_err());
    assert!(Draughts::parse_rules("english:fast").is_err());
}

#[test]
fn move_parse_errors() {
    let g = Draughts::start(Rules::english());
    let err = |t: &str| g.parse_move(t).unwrap_err().reason;
    assert_eq!(err(""), "empty move: expected squares like 11-15 or 22x15");
    assert_eq!(err("0-4"), "squares are numbered 1 to 32");
    assert_eq!(err("11/15"), "expected '-' or 'x' between squares");
    assert_eq!(err("11-"), "unexpected end: expected a number");
    assert_eq!(
        err("1-19"),
        "the two squares are neither a diagonal step nor a jump apart"
    );
    assert_eq!(
        err("9-14-18"),
        "every step of a capture must be a jump two squares diagonally"
    );
    assert_eq!(err("[P (1,2)]"), "a move needs at least two squares");
    assert_eq!(
        err("[P (1,2),X (0,3)]"),
        "expected 'P' (a man) or 'K' (a king)"
    );
    assert_eq!(
        err("[P (1,1),P (1,2)]"),
        "not a playable square: x and y are 0 to 7 with x + y odd"
    );
    assert_eq!(
        err("[P (1,2),K (2,3)]"),
        "wrong tag: the piece is a man there (P), not a king (K)"
    );
    // The Calgary notation reads the same move as PDN.
    assert_eq!(g.parse_move("[P (1,2), P (2,3)]").unwrap(), mv(&g, "9-14"));
}

#[test]
fn apply_move_refusals_name_the_reason_and_keep_the_state() {
    let g = Draughts::start(Rules::english());
    let refuse = |g: &Draughts, t: &str| {
        let e = g.apply_move(mv(g, t)).unwrap_err();
        assert_eq!(e.position, *g);
        e.reason
    };
    assert_eq!(refuse(&g, "21-17"), "that piece belongs to the opponent");
    assert_eq!(
        refuse(&g, "13-17"),
        "there is no piece on the origin square"
    );
    assert_eq!(refuse(&g, "5-9"), "the destination square is occupied");
    // A jump is available and must be taken.
    let g = play(g, &["11-15", "24-19"]);
    assert_eq!(refuse(&g, "9-13"), "a jump is available and must be taken");
    assert!(g.apply_move(mv(&g, "15x24")).is_ok());
    // Men move forward only; kings may go back.
    let g = pos("english", "B:W30:B14,K10");
    assert_eq!(refuse(&g, "14-9"), "men move forward only");
    assert!(g.apply_move(mv(&g, "10-6")).is_ok());
    // A capture must be finished; men capture forward only.
    let g = pos("english", "B:W14,23,22:B9");
    assert_eq!(
        refuse(&g, "9x18"),
        "the capture is not finished: the piece can jump again"
    );
    assert!(g.apply_move(mv(&g, "9x18x27")).is_ok());
    let g = pos("english", "B:W10,26:B14");
    assert_eq!(refuse(&g, "14x7"), "men capture forward only");
    // Jumps over nothing, over one's own piece, or twice over the same piece.
    let g = pos("english", "B:W30:B14,K10");
    assert_eq!(
        refuse(&g, "10x19"),
        "a jump must go over an opponent's piece"
    );
    assert_eq!(
        refuse(&g, "10x17"),
        "a jump must go over an opponent's piece"
    );
    let g = pos("english", "B:W18,27:B9,K14");
    assert_eq!(refuse(&g, "14x23x14"), "a piece cannot be jumped twice");
    let g = pos("english", "B:W18:B14,23");
    assert_eq!(refuse(&g, "14x23"), "a jump must land on an empty square");
}

#[test]
fn crowning_by_capture_ends_the_move_in_english_but_not_in_calgary() {
    let fen = "B:W17,26,27:B13";
    let e = pos("english", fen);
    let c = pos("calgary", fen);
    let em: Vec<_> = e.legal_moves().iter().map(|&m| calgary(&e, m)).collect();
    let cm: Vec<_> = c.legal_moves().iter().map(|&m| calgary(&c, m)).collect();
    assert_eq!(em, ["[P (0,3),P (2,5),K (4,7)]"]);
    assert_eq!(cm, ["[P (0,3),P (2,5),K (4,7),K (6,5)]"]);
    let ce = c.apply_move(c.legal_moves()[0]).unwrap();
    assert_eq!(ce.to_string(), "W:W:BK24");
    // Playing on past the crowning is refused in English with the reason.
    let x = e.parse_move("13x22x31x24").unwrap();
    assert_eq!(
        e.apply_move(x).unwrap_err().reason,
        "a man crowned by a capture ends its move (English rules)"
    );
    assert_eq!(
        e.apply_move(e.legal_moves()[0]).unwrap().to_string(),
        "W:W27:BK31"
    );
}

#[test]
fn simple_crowning_is_printed_with_k_on_the_last_square() {
    let g = pos("calgary", "W:W5:B20");
    let m = mv(&g, "5-1");
    assert!(m.crowns());
    assert_eq!(calgary(&g, m), "[P (0,1),K (1,0)]");
    assert_eq!(g.play(m).unwrap().to_string(), "B:WK1:B20");
}

/// The diamond: Red kings on 14 and 15 rotate round 10, 15, 18, 14 while the Black
/// king steps 4-8-4. After seven plies the Red move 18-14 would recreate the first
/// position with the two Red kings swapped.
const DIAMOND: &str = "B:WK14,K15:BK4";
const DIAMOND_MOVES: [&str; 7] = ["4-8", "14-10", "8-4", "15-18", "4-8", "10-15", "8-4"];

#[test]
fn calgary_refuses_a_permuted_repetition() {
    let start = pos("calgary", DIAMOND);
    let g = play(start, &DIAMOND_MOVES);
    let m = mv(&g, "18-14");
    let e = g.apply_move(m).unwrap_err();
    assert_eq!(
        e.reason,
        "the king move would repeat an earlier position (Calgary rule)"
    );
    assert!(!g.legal_moves().contains(&m));
    // The position it would create is the start position: same squares, other kings.
    let would = g.play_unchecked(m);
    assert_eq!(would.to_string(), start.to_string());
    // Without the history (the same position parsed fresh) the move is legal.
    let fresh = pos("calgary", &g.to_string());
    assert!(fresh.legal_moves().contains(&m));
    // English has no such rule.
    let eg = play(pos("english", DIAMOND), &DIAMOND_MOVES);
    assert!(eg.apply_move(mv(&eg, "18-14")).is_ok());
}

#[test]
fn calgary_side_whose_only_move_repeats_loses() {
    // Red's king can only shuttle 4-8; Black's king shuttles 29-25.
    let g = pos("calgary", "B:WK4:BK29,3,11,12,15");
    let g = play(g, &["29-25", "4-8", "25-29"]);
    assert_eq!(g.moves(), MoveSet::End(Outcome::Win(Player::Second)));
    assert_eq!(g.outcome(), Outcome::Win(Player::Second));
    assert_eq!(g.count_moves(), 0);
    let m = mv(&g, "8-4");
    assert_eq!(
        g.apply_move(m).unwrap_err().reason,
        "the game is over: the side to move has no legal move"
    );
}

#[test]
fn english_third_repetition_draws() {
    let start = pos("english", DIAMOND);
    let cycle = [
        "4-8", "14-10", "8-4", "15-18", "4-8", "10-15", "8-4", "18-14",
    ];
    let once = play(start, &cycle);
    assert_eq!(once.to_string(), start.to_string());
    assert_eq!(once.outcome(), Outcome::Ongoing);
    let twice = play(once, &cycle[..7]);
    assert_eq!(twice.outcome(), Outcome::Ongoing);
    let twice = play(twice, &cycle[7..]);
    assert_eq!(twice.outcome(), Outcome::Draw);
    assert!(twice.legal_moves().is_empty());
    assert_eq!(
        twice.apply_move(mv(&twice, "4-8")).unwrap_err().reason,
        "the game is over: it is drawn"
    );
    assert_eq!(twice.moves(), MoveSet::End(Outcome::Draw));
    // repeat=0: no repetition draw; repeat=2 draws at the first return.
    let off = play(
        pos("english:repeat=0", DIAMOND),
        &[&cycle[..], &cycle[..]].concat(),
    );
    assert_eq!(off.outcome(), Outcome::Ongoing);
    let two = play(pos("english:repeat=2", DIAMOND), &cycle);
    assert_eq!(two.outcome(), Outcome::Draw);
}

#[test]
fn move_limit_draws_and_man_moves_reset_it() {
    let g = pos("english:limit=2", "B:WK14,26:BK4,1");
    let g = play(g, &["4-8", "14-10", "8-4"]);
    assert_eq!(g.reversible_plies(), 3);
    assert_eq!(g.outcome(), Outcome::Ongoing);
    let drawn = play(g, &["10-14"]);
    assert_eq!(drawn.outcome(), Outcome::Draw);
    let reset = play(g, &["26-22"]);
    assert_eq!(reset.reversible_plies(), 0);
    assert_eq!(reset.outcome(), Outcome::Ongoing);
    // The default English limit is 40 moves each: 80 plies.
    let mut g = pos("english:repeat=0", "B:WK29:BK4");
    let shuttle = [["4-8", "29-25"], ["8-4", "25-29"]];
    for i in 0..80 {
        assert_eq!(g.outcome(), Outcome::Ongoing, "ply {}", i);
        g = play(g, &[shuttle[(i / 2) % 2][i % 2]]);
    }
    assert_eq!(g.outcome(), Outcome::Draw);
}

#[test]
fn blocked_side_loses() {
    let g = pos("english", "W:W29:B25,22");
    assert_eq!(g.outcome(), Outcome::Win(Player::First));
    assert_eq!(g.moves(), MoveSet::End(Outcome::Win(Player::First)));
    let g = pos("calgary", "W:W29:B25,22");
    assert_eq!(g.outcome(), Outcome::Win(Player::Second));
    // No pieces at all is a loss too.
    assert_eq!(
        pos("calgary", "W:W:B1").outcome(),
        Outcome::Win(Player::Second)
    );
}

#[test]
fn unique_convention_keeps_one_path_per_result() {
    let fen = "W:WK1:B6,7,8,15,16";
    assert_eq!(pos("english", fen).legal_moves().len(), 2);
    assert_eq!(pos("english:unique", fen).legal_moves().len(), 1);
    assert_eq!(pos("english:unique", fen).count_moves(), 1);
    assert_eq!(pos("english", fen).count_moves(), 2);
}

/// The most captures a random search (hill climbing over positions) found in one
/// position: 34, in a position of kings and men woven through each other. The list's
/// capacity (68, proved in `DraughtsMoves`' documentation) must hold it, and bulk
/// counting must agree with the list.
#[test]
fn many_captures_fit_the_move_list() {
    let g = pos(
        "english",
        "W:WK2,K4,K6,K8,K30,K32:B3,K9,K10,11,K12,K17,K18,K19,K25,K26,K27,K28",
    );
    let moves = g.legal_moves();
    assert!(moves.iter().all(|m| m.is_capture()));
    assert_eq!(moves.len(), 34);
    assert!(moves.len() <= ply_core::games::draughts::DraughtsMoves::CAPACITY);
    assert_eq!(g.count_moves(), 34);
    let calgary = pos("calgary", &g.to_string());
    assert_eq!(calgary.count_moves(), calgary.legal_moves().len() as u64);
}
