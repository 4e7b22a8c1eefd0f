//! The endgame databases against a slow independent solver (every position of up
//! to 3 pieces, a random sample of 4), against their own children (every position
//! of up to 3 pieces, a sample of 4), and against a textbook ending.
//!
//! The independent solver shares no code with the builder: it enumerates the
//! positions itself (bitboards, no index), keys them by their bitboards in a hash
//! map, tells conversions by counting pieces, and solves each group of the same
//! numbers of pieces and men by rounds of plain minimax over the group until
//! nothing changes. Only ply's move generator (verified by perft) is shared.

use std::collections::HashMap;
use std::sync::OnceLock;

use ply_core::games::draughts::db::{keys_of, slice_size, unrank, Database, Entries, Slice, Value};
use ply_core::games::draughts::{Colour, Draughts, Rules};
use ply_core::Game;

/// The database of up to 4 pieces, built once for these tests (a few seconds).
fn db() -> &'static Database<'static> {
    static DB: OnceLock<&'static Database<'static>> = OnceLock::new();
    DB.get_or_init(|| ply_host::draughts_db::build_in_memory(4, 2).unwrap().0)
}

/// A position as the independent solver keys it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Pos {
    black: u32,
    white: u32,
    kings: u32,
    black_to_move: bool,
}

impl Pos {
    fn of(g: &Draughts) -> Pos {
        Pos {
            black: g.pieces(Colour::Black),
            white: g.pieces(Colour::White),
            kings: g.kings(),
            black_to_move: g.colour_to_move() == Colour::Black,
        }
    }

    fn game(&self) -> Draughts {
        let c = if self.black_to_move {
            Colour::Black
        } else {
            Colour::White
        };
        Draughts::from_bitboards(Rules::english(), self.black, self.white, self.kings, c).unwrap()
    }

    /// (black men, black kings, white men, white kings)
    fn material(&self) -> [u32; 4] {
        [
            (self.black & !self.kings).count_ones(),
            (self.black & self.kings).count_ones(),
            (self.white & !self.kings).count_ones(),
            (self.white & self.kings).count_ones(),
        ]
    }
}

/// Every position with exactly `n` pieces, both sides to move: each set of `n`
/// squares, each piece one of four kinds, men off their crowning rows.
fn positions(n: u32) -> Vec<Pos> {
    let mut out = Vec::new();
    fn squares(from: u32, left: u32, set: u32, n: u32, out: &mut Vec<Pos>) {
        if left == 0 {
            let sq: Vec<u32> = (0..32).filter(|s| set & (1 << s) != 0).collect();
            for kinds in 0..4u32.pow(n) {
                let (mut black, mut white, mut kings) = (0, 0, 0);
                for (i, &s) in sq.iter().enumerate() {
                    let kind = (kinds >> (2 * i)) & 3;
                    let b = 1u32 << s;
                    if kind & 1 == 0 {
                        black |= b
                    } else {
                        white |= b
                    }
                    if kind & 2 != 0 {
                        kings |= b
                    }
                }
                // Black men are crowned on 29-32, White men on 1-4.
                if black & !kings & 0xF000_0000 != 0 || white & !kings & 0xF != 0 {
                    continue;
                }
                for black_to_move in [true, false] {
                    out.push(Pos {
                        black,
                        white,
                        kings,
                        black_to_move,
                    });
                }
            }
            return;
        }
        for s in from..32 {
            squares(s + 1, left - 1, set | (1 << s), n, out);
        }
    }
    squares(0, n, 0, n, &mut out);
    out
}

/// The independent values: sign (1 win, -1 loss, 0 draw) and distance to
/// conversion, of every position with 1 to `max` pieces.
fn independent(max: u32) -> HashMap<Pos, (i8, u32)> {
    let mut values: HashMap<Pos, (i8, u32)> = HashMap::new();
    for n in 1..=max {
        let all = positions(n);
        for men in 0..=n {
            let group: Vec<Pos> = all
                .iter()
                .copied()
                .filter(|p| (p.black | p.white).count_ones() == n)
                .filter(|p| ((p.black | p.white) & !p.kings).count_ones() == men)
                .collect();
            // Each position's children: (child, conversion).
            let children: Vec<Vec<(Pos, bool)>> = group
                .iter()
                .map(|p| {
                    let g = p.game();
                    g.legal_moves()
                        .iter()
                        .map(|&m| {
                            let c = Pos::of(&g.play_unchecked(m));
                            (c, c.material() != p.material())
                        })
                        .collect()
                })
                .collect();
            let mut solved: HashMap<Pos, (i8, u32)> = HashMap::new();
            for (p, ch) in group.iter().zip(&children) {
                if ch.is_empty() {
                    solved.insert(*p, (-1, 0));
                }
            }
            for round in 1.. {
                let mut new = Vec::new();
                for (p, ch) in group.iter().zip(&children) {
                    if solved.contains_key(p) {
                        continue;
                    }
                    let value = |(c, conversion): &(Pos, bool)| -> Option<i8> {
                        if *conversion {
                            Some(values[c].0)
                        } else {
                            solved.get(c).map(|v| v.0)
                        }
                    };
                    if ch.iter().any(|c| value(c) == Some(-1)) {
                        new.push((*p, (1, round)));
                    } else if ch.iter().all(|c| value(c) == Some(1)) {
                        new.push((*p, (-1, round)));
                    }
                }
                if new.is_empty() {
                    break;
                }
                solved.extend(new);
            }
            for p in group {
                let v = solved.get(&p).copied().unwrap_or((0, 0));
                values.insert(p, v);
            }
        }
    }
    values
}

fn as_pair(v: Value) -> (i8, u32) {
    match v {
        Value::Win(d) => (1, u32::from(d)),
        Value::Loss(d) => (-1, u32::from(d)),
        Value::Draw => (0, 0),
    }
}

#[test]
fn every_position_of_up_to_three_pieces_matches_the_independent_solver() {
    let ind = independent(3);
    assert_eq!(ind.len(), 2 * (120 + 6_972 + 261_224));
    let db = db();
    let mut decided = 0;
    for (p, v) in &ind {
        let got = db.probe(&p.game()).map(as_pair);
        assert_eq!(got, Some(*v), "{:?}", p);
        decided += (v.0 != 0) as u32;
    }
    // Not a table of draws.
    assert!(decided > ind.len() as u32 / 2, "{} decided", decided);
}

/// The value of `p` (4 pieces) by a depth-limited search whose leaves are the
/// independent values of up to 3 pieces: `Some` where `depth` plies of 4-piece
/// positions settle it.
fn bounded(p: &Pos, depth: u32, three: &HashMap<Pos, (i8, u32)>) -> Option<i8> {
    if (p.black | p.white).count_ones() <= 3 {
        return Some(three[p].0);
    }
    let g = p.game();
    let moves = g.legal_moves();
    if moves.is_empty() {
        return Some(-1);
    }
    if depth == 0 {
        return None;
    }
    let mut all_known = true;
    let mut all_won = true;
    for &m in moves.iter() {
        match bounded(&Pos::of(&g.play_unchecked(m)), depth - 1, three) {
            Some(-1) => return Some(1),
            Some(1) => {}
            Some(_) => all_won = false,
            None => {
                all_known = false;
                all_won = false;
            }
        }
    }
    if all_won {
        Some(-1)
    } else if all_known {
        Some(0)
    } else {
        None
    }
}

#[test]
fn a_random_sample_of_four_pieces_matches_an_independent_search() {
    let three = independent(3);
    let db = db();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (mut tried, mut decided) = (0, 0);
    while tried < 400 {
        // Four distinct squares, each a piece of a random kind.
        let (mut black, mut white, mut kings, mut used) = (0u32, 0u32, 0u32, 0u32);
        while used.count_ones() < 4 {
            let s = 1u32 << (next() % 32);
            if used & s != 0 {
                continue;
            }
            used |= s;
            let kind = next() % 4;
            if kind & 1 == 0 {
                black |= s
            } else {
                white |= s
            }
            if kind & 2 != 0 {
                kings |= s
            }
        }
        if black & !kings & 0xF000_0000 != 0 || white & !kings & 0xF != 0 {
            continue;
        }
        let p = Pos {
            black,
            white,
            kings,
            black_to_move: next() % 2 == 0,
        };
        tried += 1;
        let want = bounded(&p, 4, &three);
        let got = db.probe(&p.game()).unwrap();
        if let Some(w) = want {
            assert_eq!(got.sign() as i8, w, "{:?}", p);
            decided += 1;
        }
    }
    // The search settles a good share of the sample (measured: see the assertion).
    assert!(decided >= 100, "only {} of 400 settled", decided);
}

/// Checks the value of `g` against its children's: a loss in 0 has no move, a win
/// in `d` has a losing child at distance `d - 1` (a conversion counts as 0) and
/// none nearer, a loss in `d` has only winning children, the farthest at `d - 1`,
/// a draw has no losing child and not only winning ones.
fn consistent(db: &Database, g: &Draughts) {
    let v = db.probe(g).unwrap();
    let mut nearest_loss = None::<u32>;
    let mut farthest_win = None::<u32>;
    let mut all_won = true;
    let moves = g.legal_moves();
    for &m in moves.iter() {
        let c = g.play_unchecked(m);
        let cv = db.probe(&c).unwrap();
        let conversion = m.is_capture() || m.crowns();
        let d = |x: u16| if conversion { 0 } else { u32::from(x) };
        match cv {
            Value::Loss(x) => nearest_loss = Some(nearest_loss.map_or(d(x), |n| n.min(d(x)))),
            Value::Win(x) => farthest_win = Some(farthest_win.map_or(d(x), |n| n.max(d(x)))),
            Value::Draw => {}
        }
        all_won &= matches!(cv, Value::Win(_));
    }
    let want = if moves.is_empty() {
        Value::Loss(0)
    } else if let Some(n) = nearest_loss {
        Value::Win(n as u16 + 1)
    } else if all_won {
        Value::Loss(farthest_win.unwrap() as u16 + 1)
    } else {
        Value::Draw
    };
    assert_eq!(v, want, "{:?}", Pos::of(g));
}

#[test]
fn every_value_agrees_with_its_children_up_to_three_pieces_and_on_a_sample_of_four() {
    let db = db();
    for n in 1..=4 {
        for key in keys_of(n) {
            let step = if n <= 3 { 1 } else { 31 };
            for i in (0..slice_size(key)).step_by(step) {
                let g = unrank(key, i).game_with(Rules::english());
                consistent(db, &g);
            }
        }
    }
}

#[test]
fn the_consistency_check_finds_a_wrong_value() {
    use ply_core::games::draughts::db::check::check_range;
    let db = db();
    let mut copy = Database::new();
    let mut wrong = None;
    for n in 1..=3 {
        for key in keys_of(n) {
            let Some(Slice::Plain(entries)) = db.slice(key) else {
                panic!("a slice built in memory is plain")
            };
            assert_eq!(check_range(db, key, 0..entries.len() as u64), Ok(()));
            if n == 3 && wrong.is_none() {
                // The first won position of a 3-piece slice made a draw.
                let i = (0..entries.len()).find(|&i| matches!(entries.get(i), Some(Value::Win(_))));
                if let Some(i) = i {
                    assert_eq!(entries.width(), 1);
                    let mut bad = entries.bytes().to_vec();
                    bad[i] = Value::Draw.code() as u8;
                    wrong = Some((key, i as u64));
                    copy.set(key, Entries::new(Vec::leak(bad), 1).unwrap())
                        .unwrap();
                    continue;
                }
            }
            copy.set(key, entries).unwrap();
        }
    }
    let (key, i) = wrong.unwrap();
    let e = check_range(&copy, key, 0..slice_size(key)).unwrap_err();
    assert_eq!(e.position, unrank(key, i));
    assert_eq!(e.found, Some(Value::Draw));
    assert!(matches!(e.expected, Some(Value::Win(_))));
}

#[test]
fn lasker_diagram_88_king_against_king() {
    // Lasker, Chess and Checkers: The Way to Mastership, diagram 88
    // (docs/references.md): White king 32, Black king 26. White to move wins by
    // 32-27 (taking the opposition); Black to move draws by 26-31.
    let db = db();
    let white = Draughts::parse_position(Rules::english(), "W:WK32:BK26").unwrap();
    assert!(matches!(db.probe(&white), Some(Value::Win(_))));
    let out = ply_host::games::draughts::solve_in(&white, db).unwrap();
    assert!(
        out.details.iter().any(|l| l == "best move: 32-27"),
        "{:?}",
        out.details
    );
    let black = Draughts::parse_position(Rules::english(), "B:WK32:BK26").unwrap();
    assert_eq!(db.probe(&black), Some(Value::Draw));
    let out = ply_host::games::draughts::solve_in(&black, db).unwrap();
    assert!(
        out.move_values.contains(&("26-31".to_string(), 0)),
        "{:?}",
        out
    );
    // White to move has one winning move; the other draws.
    let out = ply_host::games::draughts::solve_in(&white, db).unwrap();
    assert_eq!(
        out.move_values,
        [("32-27".to_string(), 1), ("32-28".to_string(), 0)]
    );
}

#[test]
fn the_engine_stops_at_database_positions_and_plays_the_quickest_win() {
    use ply_core::games::draughts::db::{eval::DB_WIN, DbEval};
    use ply_core::games::draughts::DraughtsEvaluation;
    use ply_core::search::{Engine, EngineConfig, Limits, NoClock, TtEntry};
    let db = db();
    let g = Draughts::parse_position(Rules::english(), "W:WK32:BK26").unwrap();
    let eval = DbEval {
        db,
        eval: DraughtsEvaluation::LEARNED,
    };
    let mut table = vec![TtEntry::EMPTY; 1 << 12];
    let mut engine = Engine::new(&mut table, eval, NoClock, EngineConfig::default());
    let report = engine.search(&g, Limits::depth(5));
    assert_eq!(
        g.display_move(report.best_move.unwrap()).to_string(),
        "32-27"
    );
    // 32-27 leaves Black lost, next conversion in 8 plies: the value of a win in 9
    // plies, one searched and eight in the database.
    let Some(Value::Loss(d)) = db.probe(&g.play(report.best_move.unwrap()).unwrap()) else {
        panic!("32-27 does not leave Black lost");
    };
    let child = g.play(report.best_move.unwrap()).unwrap();
    let still = 1024 * ply_core::games::draughts::db::eval::progress(&child) as i32;
    assert_eq!(report.value, DB_WIN - still - i32::from(d) - 1);
    // Every child is exact: each of the 5 iterations visits the root and its two
    // moves, no deeper.
    assert!(report.nodes <= 3 * 5, "{} nodes", report.nodes);
    // Without probes the same engine searches on.
    let mut table = vec![TtEntry::EMPTY; 1 << 12];
    let config = EngineConfig {
        probes: false,
        ..EngineConfig::default()
    };
    let report = Engine::new(&mut table, eval, NoClock, config).search(&g, Limits::depth(5));
    assert!(report.nodes > 3 * 5 && report.value < DB_WIN / 2);
}

#[test]
fn no_calgary_position_is_probed() {
    let g = Draughts::parse_position(Rules::calgary(), "W:WK32:BK26").unwrap();
    assert_eq!(db().probe(&g), None);
}

/// A won position where a crowning keeps the win: the engine crowns at once, at every
/// depth. With the distance to conversion alone it waited (13-17 keeps "conversion in
/// 2 plies", which scored above crowning into a slice whose distance counts again),
/// move after move, until a repetition drew the game (Simple Checkers match,
/// docs/games/draughts-databases.md).
#[test]
fn the_engine_takes_a_conversion_that_keeps_the_win() {
    use ply_core::games::draughts::db::DbEval;
    use ply_core::games::draughts::DraughtsEvaluation;
    use ply_core::search::{Engine, EngineConfig, Limits, NoClock, TtEntry};
    let db = db();
    let g = Draughts::parse_position(Rules::english(), "B:WK5:B27,K13").unwrap();
    assert_eq!(db.probe(&g), Some(Value::Win(1)));
    let eval = DbEval {
        db,
        eval: DraughtsEvaluation::LEARNED,
    };
    for depth in [1, 3, 6] {
        let mut table = vec![TtEntry::EMPTY; 1 << 12];
        let mut engine = Engine::new(&mut table, eval, NoClock, EngineConfig::default());
        let report = engine.search(&g, Limits::depth(depth));
        let mv = g.display_move(report.best_move.unwrap()).to_string();
        assert!(mv == "27-31" || mv == "27-32", "depth {depth}: {mv}");
        let child = g.play(report.best_move.unwrap()).unwrap();
        assert!(
            matches!(db.probe(&child), Some(Value::Loss(_))),
            "depth {depth}"
        );
    }
}

#[test]
fn first_position_and_a_first_position_without() {
    // First Position (the ACF's standard positions, "Winning 1st Position"): White's
    // king on 15 and man on 20 against Black's king on 28 and man on 12, White to
    // move: White crowns the man and wins.
    let first = Draughts::parse_position(Rules::english(), "W:WK15,20:BK28,12").unwrap();
    assert!(
        matches!(db().probe(&first), Some(Value::Win(_))),
        "{:?}",
        db().probe(&first)
    );
    // A "first position without" (Bob Newell's checkers column, after Call's Midget
    // problems): the side with two kings wins without having the move.
    let without = Draughts::parse_position(Rules::english(), "B:W22,K5:BK15,K6").unwrap();
    assert!(
        matches!(db().probe(&without), Some(Value::Win(_))),
        "{:?}",
        db().probe(&without)
    );
}

/// The databases compiled into the web page and the firmware (`db::small`, read
/// from the files in the core when it is compiled): every position of up to 3
/// pieces, both sides to move, has the independent solver's value and distance —
/// every block inflated once — and a sample is probed through `Database::probe`
/// as the engines probe it.
#[test]
fn the_compiled_in_databases_match_the_independent_solver() {
    use ply_core::games::draughts::db::packed::MAX_BLOCK_BYTES;
    use ply_core::games::draughts::db::{
        rank, small, Inflater, Lookup, Placement, SliceKey, BLOCK_ENTRIES,
    };
    let db = &small::DATABASE;
    assert_eq!(db.pieces(), 3);
    let mut codes: HashMap<SliceKey, Vec<u8>> = HashMap::new();
    let mut state = Inflater::default();
    for n in 1..=3 {
        for key in keys_of(n) {
            let Some(Slice::Packed(p)) = db.slice(key) else {
                panic!("{:?}: not a compressed slice", key)
            };
            assert_eq!(p.width(), 1, "{:?}", key);
            let mut all = Vec::new();
            let mut out = [0u8; MAX_BLOCK_BYTES];
            for b in 0..p.blocks() {
                let n = p.unpack(b, &mut out, &mut state).unwrap();
                assert_eq!(n, p.block_len(b));
                all.extend_from_slice(&out[..n]);
            }
            assert_eq!(all.len() as u64, slice_size(key));
            assert_eq!(p.blocks(), all.len().div_ceil(BLOCK_ENTRIES));
            codes.insert(key, all);
        }
    }
    let ind = independent(3);
    for (i, (p, v)) in ind.iter().enumerate() {
        let g = p.game();
        let pl = Placement::of(&g);
        let key = SliceKey::of(&pl);
        let code = codes[&key][rank(key, &pl) as usize];
        let got = Value::from_code(u16::from(code)).map(as_pair);
        assert_eq!(got, Some(*v), "{:?}", p);
        if i % 101 == 0 {
            assert_eq!(db.probe(&g).map(as_pair), Some(*v), "{:?}", p);
            assert_eq!(
                db.value(key, rank(key, &pl)).map(as_pair),
                Some(*v),
                "{:?}",
                p
            );
        }
    }
}
