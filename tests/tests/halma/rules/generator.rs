//! The flood-fill generator against a plain recursive path search (the Haskell Halma
//! report's `getJumpMoves`), as property tests on both boards.

use super::*;

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
pub(super) fn position_from_cells<B: HalmaBoard>(cells: &[u8], x_to_move: bool) -> Halma<B> {
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

pub(super) fn check_generator_against_reference<B: HalmaBoard>(g: &Halma<B>) {
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
