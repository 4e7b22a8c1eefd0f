//! `ply perft` on 1 to 4 ranks: the counts of one process, with private tables and
//! with one table across the ranks.

use super::*;

#[test]
fn perft_on_one_two_and_three_ranks_prints_what_one_process_prints() {
    for args in [
        &["perft", "checkers", "9", "--divide"][..],
        &["perft", "kalah", "7", "--threads", "2"][..],
        &["perft", "tictactoe", "9", "--divide", "--after", "5"][..],
    ] {
        let one = ply(args);
        assert!(one.status.success(), "{}", stderr(&one));
        for np in 1..=3 {
            let o = run(mpirun_ply(np, args));
            assert!(o.status.success(), "{:?} on {}: {}", args, np, stderr(&o));
            assert_eq!(
                results(&stdout(&o)),
                results(&stdout(&one)),
                "{:?} on {} ranks",
                args,
                np
            );
            assert!(stdout(&o).contains("leaves/s: "));
            // A table on every rank where one process has one.
            assert_eq!(
                stdout(&o).contains("\ntable: "),
                stdout(&one).contains("\ntable: "),
                "{:?} on {} ranks",
                args,
                np
            );
            // One summary line per rank, the items adding up.
            let s = summary(&stderr(&o));
            assert_eq!(s.len(), np, "{}", stderr(&o));
            assert!(s.iter().enumerate().all(|(i, r)| r.0 == i));
        }
    }
}

/// The probes of a perft's `table: M MiB, P probes, H% hits` line.
fn probes(out: &str) -> u64 {
    out.lines()
        .find_map(|l| l.strip_prefix("table: "))
        .and_then(|l| l.split(", ").nth(1))
        .and_then(|p| p.strip_suffix(" probes"))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no table line in {}", out))
}

#[test]
fn perft_with_one_table_across_ranks_counts_what_one_process_counts() {
    // Every game with a table, a roomy one and a small one: routed as by default on
    // 1 to 4 ranks; routed down to the last ply (smaller batches, a ply's cap
    // reached) on 2 and 4; down to the last table depth on 3; with private tables on 3.
    let routings: [&[(&str, &str)]; 3] = [
        &[],
        &[
            ("PLY_ROUTE_REST", "1"),
            ("PLY_ROUTE_BATCH", "32"),
            ("PLY_ROUTE_NODES", "300"),
        ],
        &[("PLY_ROUTE_REST", "3")],
    ];
    for args in [
        &["perft", "checkers", "9", "--divide", "--hash-mb", "16"][..],
        &["perft", "checkers", "9", "--hash-mb", "1"][..],
        &["perft", "kalah", "7", "--hash-mb", "4", "--threads", "2"][..],
        &["perft", "tictactoe", "9", "--divide", "--hash-mb", "1"][..],
        &["perft", "halma:8", "4", "--hash-mb", "2"][..],
    ] {
        let one = ply(args);
        assert!(one.status.success(), "{}", stderr(&one));
        for np in 1..=4 {
            // The default on every number of ranks, the others on some.
            let some = match np {
                1 => 1,
                2 | 4 => 2,
                _ => 3,
            };
            for (k, env) in routings.iter().enumerate().filter(|&(k, _)| k < some) {
                let mut c = mpirun_command();
                c.args(["-np", &np.to_string(), "--oversubscribe"]);
                for (name, value) in env.iter() {
                    c.env(name, value).args(["-x", name]);
                }
                c.arg(env!("CARGO_BIN_EXE_ply")).args(args);
                let o = run(c);
                let err = stderr(&o);
                assert!(
                    o.status.success(),
                    "{:?} on {} ranks, {:?}: {}",
                    args,
                    np,
                    env,
                    err
                );
                assert_eq!(
                    results(&stdout(&o)),
                    results(&stdout(&one)),
                    "{:?} on {} ranks, routing {}",
                    args,
                    np,
                    k
                );
                let s = summary(&err);
                assert_eq!(s.len(), np, "{}", err);
                assert!(err.contains(" routed "), "{}", err);
            }
        }
        let mut private = args.to_vec();
        private.push("--private-tables");
        let o = run(mpirun_ply(3, &private));
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(results(&stdout(&o)), results(&stdout(&one)));
        assert!(!stderr(&o).contains(" routed "), "{}", stderr(&o));
    }
}

#[test]
fn one_table_across_four_ranks_looks_up_what_one_rank_looks_up() {
    // Routed down to the last ply a table holds: 4 ranks look up as often as 1
    // (within 2 %); with private tables they look up more. Each rank counts a fixed
    // run of neighbouring items through its own table (however loaded the machine:
    // no rank takes over another's run), so what they repeat does not depend on
    // which rank was faster.
    let args = [
        "perft",
        "checkers",
        "11",
        "--threads",
        "1",
        "--hash-mb",
        "16",
    ];
    let routed = |np: usize| {
        let mut c = mpirun_command();
        c.env("PLY_ROUTE_REST", "3")
            .args([
                "-np",
                &np.to_string(),
                "--oversubscribe",
                "-x",
                "PLY_ROUTE_REST",
            ])
            .arg(env!("CARGO_BIN_EXE_ply"))
            .args(args);
        let o = run(c);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o).lines().next(), Some("85242128"));
        probes(&stdout(&o))
    };
    let (one, four) = (routed(1), routed(4));
    assert!(
        four * 100 <= one * 102,
        "{} probes on 4 ranks, {} on 1",
        four,
        one
    );
    let mut private = args.to_vec();
    private.push("--private-tables");
    let o = run(mpirun_ply(4, &private));
    assert!(o.status.success(), "{}", stderr(&o));
    let items: Vec<u64> = summary(&stderr(&o)).iter().map(|r| r.2).collect();
    let (least, most) = (items.iter().min(), items.iter().max());
    assert!(
        items.len() == 4 && most.zip(least).is_some_and(|(m, l)| m - l <= 1),
        "each rank its own quarter of the items: {}",
        stderr(&o)
    );
    let apart = probes(&stdout(&o));
    assert!(
        apart * 100 > four * 105,
        "{} probes with private tables, {} joined",
        apart,
        four
    );
}

#[test]
fn a_checkpoint_of_private_tables_resumes_with_one_table_and_the_other_way() {
    let dir = scratch("mpi", "tables-checkpoint");
    let base = [
        "perft",
        "checkers",
        "10",
        "--threads",
        "1",
        "--hash-mb",
        "8",
    ];
    for (first, then) in [(true, false), (false, true)] {
        let ckpt = dir.join(format!("{}.ckpt", first));
        let c = ckpt.to_str().unwrap();
        let with = |private: bool, resume: bool| {
            let mut a = base.to_vec();
            a.extend(["--checkpoint", c]);
            if private {
                a.push("--private-tables");
            }
            if resume {
                a.push("--resume");
            }
            let o = run(mpirun_ply(2, &a));
            assert!(o.status.success(), "{}", stderr(&o));
            assert_eq!(stdout(&o).lines().next(), Some("18391564"));
            stderr(&o)
        };
        with(first, false);
        let err = with(then, true);
        assert_resumed_only_the_rest(&err, 9105, 9105);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_routing_settings_and_ranks_routing_apart_are_refused() {
    let mut c = mpirun_command();
    c.env("PLY_ROUTE_REST", "0")
        .args(["-np", "2", "--oversubscribe", "-x", "PLY_ROUTE_REST"])
        .arg(env!("CARGO_BIN_EXE_ply"))
        .args(["perft", "checkers", "9"]);
    let o = run(c);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains(
            "error: PLY_ROUTE_REST='0' is out of range: expected a whole number 1 to 30 (plies)"
        ),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    // MPMD: rank 1 routes deeper than rank 0.
    let ply_bin = env!("CARGO_BIN_EXE_ply");
    let mut c = mpirun_command();
    c.args(["-np", "1", ply_bin, "perft", "checkers", "9", ":"])
        .args([
            "-np",
            "1",
            "-x",
            "PLY_ROUTE_REST=2",
            ply_bin,
            "perft",
            "checkers",
            "9",
        ]);
    let o = run(c);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("has another job: every rank must run the same ply with the same arguments (and the same --route-* settings)"),
        "{}",
        stderr(&o)
    );
}
