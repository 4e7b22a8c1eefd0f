//! Inputs the fuzz targets (fuzz/) once failed on, replayed through the public API so
//! that the bugs stay fixed in the normal test suite.

use ply_core::games::tictactoe::Square;
use ply_core::games::TicTacToe;
use ply_core::Game;

/// fuzz target `tictactoe_play`: refusing `Square(255)` overflowed `255 + 1` while
/// writing the move into the refusal message (a panic in debug builds).
#[test]
fn tictactoe_refusal_of_an_off_board_square_prints() {
    let g = TicTacToe::new();
    let err = g.play(Square(255)).unwrap_err();
    assert_eq!(err.position, g);
    assert_eq!(
        err.to_string(),
        "illegal move 256: no such square: squares are 1 to 9"
    );
}

/// fuzz targets `game_spec`, `cli_options`, `host_play`: `kalah:5x1999999999994`.
/// `parse_rules` saturates the seed count at `u32::MAX`, then `2 * pits * seeds`
/// overflows: a panic with overflow checks, and in a release build a wrapped product
/// that can pass the `<= 255` check (`5x429496730` wraps to 4) and give rules of 26
/// seeds a pit, 260 seeds in all, more than a byte-packed pit can hold.
/// Was a bug in core/src/games/kalah/notation.rs (`parse_rules`); fixed.
#[test]
fn kalah_huge_seed_counts_are_refused() {
    use ply_core::games::Kalah;
    for spec in [
        "5x1999999999994",
        "5x429496730",
        "8x4294967295",
        "4294967295x1",
    ] {
        let r = std::panic::catch_unwind(|| Kalah::parse_rules(spec));
        assert!(
            matches!(r, Ok(Err(_))),
            "{}: expected a parse error, got {:?}",
            spec,
            r.map(|x| x.map(|rules| rules.to_string()))
        );
    }
}

/// fuzz target `kalah_play`: refusing `Pit(255)` overflows `255 + 1` while writing
/// the move into the refusal message (the tic-tac-toe bug above, in Kalah).
/// Was a bug in core/src/games/kalah/notation.rs (`write_move`); fixed.
#[test]
fn kalah_refusal_of_an_off_board_pit_prints() {
    use ply_core::games::kalah::Pit;
    use ply_core::games::Kalah;
    let g = Kalah::default();
    let r = std::panic::catch_unwind(|| g.play(Pit(255)).unwrap_err().to_string());
    assert!(r.is_ok(), "printing the refusal of Pit(255) panicked");
}
