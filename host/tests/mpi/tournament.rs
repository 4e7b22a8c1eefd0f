//! `ply tournament` on several ranks: the results of one process.

use super::*;

#[test]
fn a_tournament_on_one_two_and_three_ranks_has_the_same_results() {
    let args = [
        "tournament",
        "kalah",
        "--a",
        "depth=4",
        "--b",
        "depth=3,eval=store",
        "--games",
        "6",
        "--threads",
        "1",
    ];
    let one = ply(&args);
    assert!(one.status.success(), "{}", stderr(&one));
    // The games' lines (Kalah's default evaluation also says where its endgame tables
    // came from).
    let mut want_games: Vec<String> = stderr(&one)
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(str::to_string)
        .collect();
    assert_eq!(want_games.len(), 6, "{}", stderr(&one));
    want_games.sort();
    for np in 1..=3 {
        let o = run(mpirun_ply(np, &args));
        assert!(o.status.success(), "{} ranks: {}", np, stderr(&o));
        assert_eq!(stdout(&o), stdout(&one), "{} ranks", np);
        // The same games (in the order they finished).
        let mut games: Vec<String> = stderr(&o)
            .lines()
            .filter(|l| l.starts_with("game "))
            .map(str::to_string)
            .collect();
        games.sort();
        assert_eq!(games, want_games, "{} ranks", np);
        let s = summary(&stderr(&o));
        assert_eq!(s.iter().map(|r| r.2).sum::<u64>(), 6, "{}", stderr(&o));
    }
}

#[test]
fn the_halma_round_robin_on_three_ranks_writes_the_same_table_and_csv() {
    let dir = scratch("mpi", "round-robin");
    let run_rr = |np: usize| {
        let csv = dir.join(format!("np{}.csv", np));
        let args = common::with(
            common::HALMA_ROUND_ROBIN,
            &[
                "--games-per-pair",
                "4",
                "--threads",
                "1",
                "--results",
                csv.to_str().unwrap(),
            ],
        );
        let o = if np == 0 {
            ply(&args)
        } else {
            run(mpirun_ply(np, &args))
        };
        assert!(o.status.success(), "{} ranks: {}", np, stderr(&o));
        (
            stdout(&o).replace(&format!("np{}.csv", np), "RESULTS"),
            std::fs::read_to_string(&csv).unwrap(),
        )
    };
    let one = run_rr(0);
    assert!(one.0.contains("| racer |"), "{}", one.0);
    for np in [1, 3] {
        assert_eq!(run_rr(np), one, "{} ranks", np);
    }
    let _ = std::fs::remove_dir_all(dir);
}
