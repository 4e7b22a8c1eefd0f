//! Property tests on random Halma playouts on both boards and under every rule option:
//! the laws of `ply_tests::laws`, piece counts conserved, and every move checked by a
//! slow rule checker written here on a plain array (steps to the 8 neighbours, jump
//! chains by breadth-first search with the moving piece lifted, the camps from their
//! definitions, the win rules, the pass, the draw limit).

use std::collections::VecDeque;

use ply_core::games::halma::{
    Halma, Halma16, Halma16Moves, Halma8, Halma8Moves, HalmaBoard, HalmaMove, HalmaRules, WinRule,
};
use ply_core::{Game, Player};
use ply_tests::laws::{check_playout, equal, Laws};
use proptest::prelude::*;

/// The side of the board of `Halma<B>`.
fn side<B: HalmaBoard>(_: &Halma<B>) -> usize {
    Halma::<B>::side()
}

/// Whether (r, c) is in the first player's home camp on an `n`×`n` board.
fn in_first_camp(n: usize, r: usize, c: usize) -> bool {
    if n == 8 {
        r + c <= 3
    } else {
        r + c <= 5 && (r, c) != (0, 5) && (r, c) != (5, 0)
    }
}

/// Whether square `sq` is in `player`'s target camp (the other player's home).
fn in_target(n: usize, player: Player, sq: usize) -> bool {
    let (r, c) = (sq / n, sq % n);
    match player {
        // The first player's target is the second's home, the point reflection.
        Player::First => in_first_camp(n, n - 1 - r, n - 1 - c),
        Player::Second => in_first_camp(n, r, c),
    }
}

fn board<B: HalmaBoard>(g: &Halma<B>) -> Vec<Option<Player>> {
    let n = side(g);
    (0..n * n).map(|sq| g.piece_at(sq)).collect()
}

fn has_won(n: usize, b: &[Option<Player>], rules: &HalmaRules, p: Player) -> bool {
    let mine: Vec<usize> = (0..n * n).filter(|&s| b[s] == Some(p)).collect();
    match rules.win {
        WinRule::AllInCamp => !mine.is_empty() && mine.iter().all(|&s| in_target(n, p, s)),
        WinRule::Parlett => {
            let target: Vec<usize> = (0..n * n).filter(|&s| in_target(n, p, s)).collect();
            target.iter().all(|&s| b[s].is_some()) && target.iter().any(|&s| b[s] == Some(p))
        }
    }
}

/// Every square the piece on `from` may end its move on, by the slow rules.
fn slow_destinations(
    n: usize,
    b: &[Option<Player>],
    rules: &HalmaRules,
    from: usize,
) -> Vec<usize> {
    let Some(p) = b[from] else { return vec![] };
    let mut board = b.to_vec();
    board[from] = None;
    let (r0, c0) = ((from / n) as i32, (from % n) as i32);
    let on = |r: i32, c: i32| r >= 0 && c >= 0 && r < n as i32 && c < n as i32;
    let dirs = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];
    let mut out = Vec::new();
    for (dr, dc) in dirs {
        let (r, c) = (r0 + dr, c0 + dc);
        if on(r, c) && board[(r as usize) * n + c as usize].is_none() {
            out.push(r as usize * n + c as usize);
        }
    }
    let mut seen = vec![false; n * n];
    seen[from] = true;
    let mut queue = VecDeque::from([(r0, c0)]);
    while let Some((r, c)) = queue.pop_front() {
        for (dr, dc) in dirs {
            let (mr, mc, lr, lc) = (r + dr, c + dc, r + 2 * dr, c + 2 * dc);
            if !on(lr, lc) {
                continue;
            }
            let (mid, land) = (mr as usize * n + mc as usize, lr as usize * n + lc as usize);
            if board[mid].is_some() && board[land].is_none() && !seen[land] {
                seen[land] = true;
                out.push(land);
                queue.push_back((lr, lc));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    if rules.no_leave && in_target(n, p, from) {
        out.retain(|&s| in_target(n, p, s));
    }
    out
}

fn slow_legal<B: HalmaBoard>(g: &Halma<B>, mv: HalmaMove) -> bool {
    let n = side(g);
    let b = board(g);
    let rules = g.rules();
    let me = g.side_to_move();
    let over = has_won(n, &b, &rules, Player::First)
        || has_won(n, &b, &rules, Player::Second)
        || g.plies() >= rules.max_plies;
    if over {
        return false;
    }
    let mine: Vec<usize> = (0..n * n).filter(|&s| b[s] == Some(me)).collect();
    let any = mine
        .iter()
        .any(|&s| !slow_destinations(n, &b, &rules, s).is_empty());
    if mv.is_pass() {
        return !any;
    }
    let (from, to) = (mv.from as usize, mv.to as usize);
    from < n * n
        && to < n * n
        && b[from] == Some(me)
        && slow_destinations(n, &b, &rules, from).contains(&to)
}

fn candidates<B: HalmaBoard>(g: &Halma<B>) -> Vec<HalmaMove> {
    // Every own piece to every square within two rows and columns, plus the slow
    // destinations (long jump chains) and the pass: a superset of the legal moves,
    // with many illegal ones.
    let n = side(g);
    let b = board(g);
    let me = g.side_to_move();
    let mut out = vec![HalmaMove::PASS];
    for from in (0..n * n).filter(|&s| b[s] == Some(me)) {
        let (r, c) = ((from / n) as i32, (from % n) as i32);
        for dr in -2..=2 {
            for dc in -2..=2 {
                let (tr, tc) = (r + dr, c + dc);
                if tr >= 0 && tc >= 0 && tr < n as i32 && tc < n as i32 {
                    out.push(HalmaMove::new(
                        from as u8,
                        (tr as usize * n + tc as usize) as u8,
                    ));
                }
            }
        }
        for to in slow_destinations(n, &b, &g.rules(), from) {
            out.push(HalmaMove::new(from as u8, to as u8));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn conserved<B: HalmaBoard>(
    before: &Halma<B>,
    mv: HalmaMove,
    after: &Halma<B>,
) -> Result<(), String> {
    let (b, a) = (board(before), board(after));
    for p in [Player::First, Player::Second] {
        let (nb, na) = (
            b.iter().filter(|&&x| x == Some(p)).count(),
            a.iter().filter(|&&x| x == Some(p)).count(),
        );
        if nb != na {
            return Err(format!("{:?} had {} pieces, has {}", p, nb, na));
        }
    }
    let mut expected = b.clone();
    if !mv.is_pass() {
        expected[mv.to as usize] = expected[mv.from as usize].take();
    }
    if a != expected {
        return Err("the board is not the old one with the piece moved".into());
    }
    if after.side_to_move() != before.side_to_move().opponent() {
        return Err("the turn did not pass".into());
    }
    if after.plies() != before.plies() + 1 {
        return Err("the ply count did not advance by one".into());
    }
    Ok(())
}

/// The laws on board `B`, whose move list holds `capacity` moves.
fn laws<B: HalmaBoard>(capacity: usize) -> Laws<Halma<B>> {
    Laws {
        capacity,
        candidates,
        slow_legal,
        conserved,
        same_position: equal,
    }
}

fn rules() -> impl Strategy<Value = HalmaRules> {
    (
        prop_oneof![Just(WinRule::AllInCamp), Just(WinRule::Parlett)],
        any::<bool>(),
        prop_oneof![Just(1000u16), 1u16..80],
    )
        .prop_map(|(win, no_leave, max_plies)| HalmaRules {
            win,
            no_leave,
            max_plies,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_playouts_on_8x8_keep_every_law(
        rules in rules(),
        choices in prop::collection::vec(0usize..10_000, 0..200),
    ) {
        let r = check_playout(Halma8::new(rules), &choices, &laws(Halma8Moves::CAPACITY));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn random_playouts_on_16x16_keep_every_law(
        rules in rules(),
        choices in prop::collection::vec(0usize..10_000, 0..60),
    ) {
        let r = check_playout(Halma16::new(rules), &choices, &laws(Halma16Moves::CAPACITY));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

#[test]
fn the_slow_rules_are_not_vacuous() {
    // From the 8x8 start the first player has steps and jumps, and no piece may move
    // onto an occupied square or off the board.
    let g = Halma8::new(HalmaRules::default());
    let moves: Vec<HalmaMove> = candidates(&g)
        .into_iter()
        .filter(|&m| slow_legal(&g, m))
        .collect();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| g.piece_at(m.to as usize).is_none()));
    // A jump over the piece on b1 (square 1) from a1 lands on c1 only if c1 is empty:
    // at the start it is not, so a1-c1 is illegal, and so is the pass.
    assert!(!slow_legal(&g, HalmaMove::new(0, 2)));
    assert!(!slow_legal(&g, HalmaMove::PASS));
}
