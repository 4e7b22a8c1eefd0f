//! `ply solve kalah` on several ranks: the values of one process, table entries
//! shared, a killed rank and `--resume`, the settings every rank reads.

use super::*;

/// `ply solve` with a scratch table folder `tables` and `env`, one process or `np`
/// ranks (0: one process without mpirun).
fn solve(np: usize, tables: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = if np == 0 {
        Command::new(env!("CARGO_BIN_EXE_ply"))
    } else {
        mpirun_ply(np, &[])
    };
    c.arg("solve")
        .args(args)
        .env("PLY_TABLES_DIR", tables)
        .env("PLY_THREADS", "1")
        .envs(env.iter().copied());
    run(c)
}

/// The lines of a solve's output that do not depend on how the work was split or
/// timed: the values, the best moves, the rules.
fn solve_values(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| {
            ["value: ", "best moves: ", "move ", "rules: "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn kalah_solve_on_one_two_and_three_ranks_prints_what_one_process_prints() {
    let dir = scratch("mpi", "solve");
    // 12-seed endgame tables: built by the first run, then by every rank at once
    // into the same folder (each writes its own temporary and renames it).
    let tables = [("PLY_KALAH_TABLE_SEEDS", "12")];
    for args in [
        &["kalah:6x3"][..],
        &["kalah:4x4:empty-capture"][..],
        // Two moves, one of which ends the game.
        &[
            "kalah",
            "--position",
            "0 0 0 0 2 1 [21] / 1 1 0 0 0 0 [22] / first",
        ][..],
        // The second player to move.
        &["kalah:6x3", "--after", "3"][..],
    ] {
        let _ = std::fs::remove_dir_all(&dir);
        let one = solve(0, &dir, &tables, args);
        assert!(one.status.success(), "{}", stderr(&one));
        let want = solve_values(&stdout(&one));
        assert!(want.len() >= 4, "{}", stdout(&one));
        let moves = want.iter().filter(|l| l.starts_with("move ")).count() as u64;
        for np in 1..=3 {
            let _ = std::fs::remove_dir_all(&dir);
            let o = solve(np, &dir, &tables, args);
            let err = stderr(&o);
            assert!(o.status.success(), "{:?} on {}: {}", args, np, err);
            assert_eq!(
                solve_values(&stdout(&o)),
                want,
                "{:?} on {} ranks",
                args,
                np
            );
            // A line per item as it is solved and one per first move as it is
            // settled, one summary line per rank, every item counted once.
            let s = summary(&err);
            assert_eq!(s.len(), np, "{}", err);
            let items = err
                .lines()
                .filter(|l| l.contains(" s pit ") && l.ends_with(" nodes)"))
                .count();
            assert!(items as u64 >= moves - 1, "{}", err);
            assert_eq!(s.iter().map(|r| r.2).sum::<u64>(), items as u64, "{}", err);
            let settled = err
                .lines()
                .filter(|l| l.contains(" s pit ") && !l.ends_with(" nodes)"))
                .count();
            assert_eq!(settled as u64, moves, "{}", err);
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Rank 0's line of the table entries shared: (sent by rank 0, learnt by it).
fn shared_entries(err: &str) -> Option<(u64, u64)> {
    let l = err
        .lines()
        .find_map(|l| l.strip_prefix("table entries shared: "))?;
    let w: Vec<&str> = l.split_whitespace().collect();
    Some((w[0].parse().ok()?, w[5].parse().ok()?))
}

/// The ranks pass their deep exact table entries to each other: on 2 to 4 ranks,
/// every entry shared (`--share-work 0`), the deep ones or none, with a roomy table
/// and a 1 MiB one, both capture rules, the values are one process's; with every
/// entry shared, rank 0 learns what the others proved; without sharing nothing
/// travels.
#[test]
fn ranks_sharing_table_entries_solve_what_one_process_solves() {
    let dir = scratch("mpi", "solve-share");
    let tables = [("PLY_KALAH_TABLE_SEEDS", "12")];
    for (args, runs) in [
        (
            &["kalah:6x3"][..],
            &[(2, "0", "64"), (3, "10", "1"), (4, "0", "1")][..],
        ),
        (
            &["kalah:4x4:empty-capture"][..],
            &[(2, "64", "64"), (3, "0", "64")][..],
        ),
    ] {
        let one = solve(0, &dir, &tables, args);
        assert!(one.status.success(), "{}", stderr(&one));
        let want = solve_values(&stdout(&one));
        for &(np, share, hash) in runs {
            let mut a = args.to_vec();
            a.extend(["--share-work", share, "--hash-mb", hash]);
            let o = solve(np, &dir, &tables, &a);
            let err = stderr(&o);
            assert!(o.status.success(), "{:?} on {}: {}", a, np, err);
            assert_eq!(solve_values(&stdout(&o)), want, "{:?} on {} ranks", a, np);
            let (sent, learnt) = shared_entries(&err).expect(&err);
            match share {
                "64" => assert_eq!((sent, learnt), (0, 0), "{}", err),
                "0" => assert!(sent > 0 && learnt > 0, "{:?} on {}: {}", a, np, err),
                _ => {}
            }
        }
    }
    // Out of range: refused in one line before any work.
    let o = solve(2, &dir, &tables, &["kalah:4x3", "--share-work", "65"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--share-work"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_killed_rank_ends_a_solve_and_resume_finishes_it_with_the_same_values() {
    let dir = scratch("mpi", "solve-kill");
    let (ckpt, c) = dir.file("solve.ckpt");
    // No endgame tables: each first move takes a second or more on one thread.
    let env = [("PLY_KALAH_TABLE_SEEDS", "0")];
    let one = solve(0, &dir, &env, &["kalah:6x3"]);
    assert!(one.status.success(), "{}", stderr(&one));
    let mut cmd = mpirun_ply(2, &["solve", "kalah:6x3", "--checkpoint", &c]);
    cmd.env("PLY_TABLES_DIR", &dir)
        .env("PLY_THREADS", "1")
        .envs(env)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut job = cmd.spawn().expect("mpirun");
    wait_for(&ckpt, &mut job, "the solve");
    let worker = rank_pid(job.id(), 1).expect("rank 1's pid");
    unsafe {
        libc::kill(worker, libc::SIGKILL);
    }
    let o = job.wait_with_output().unwrap();
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "no values from a broken solve");
    let saved = saved_items(&stderr(&o));
    assert!(saved >= 1, "{}", stderr(&o));
    // A one-process solve does not take the ranks' checkpoint.
    let refused = solve(
        0,
        &dir,
        &env,
        &["kalah:6x3", "--checkpoint", &c, "--resume"],
    );
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("belongs to another command"),
        "{}",
        stderr(&refused)
    );
    // Resumed on 3 ranks: the same values, from the items the checkpoint holds.
    let o = solve(
        3,
        &dir,
        &env,
        &["kalah:6x3", "--checkpoint", &c, "--resume"],
    );
    let err = stderr(&o);
    assert!(o.status.success(), "{}", err);
    assert_eq!(solve_values(&stdout(&o)), solve_values(&stdout(&one)));
    assert!(
        err.contains(&format!("resuming: {} items were done already", saved)),
        "{}",
        err
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Flags reach every rank (each parses the same command line) as their variables do:
/// the ranks lay the items out alike, and rank 0 says which setting chose the split.
#[test]
fn the_settings_reach_every_rank_as_flags_or_variables() {
    let dir = scratch("mpi", "solve-flags");
    let one = solve(0, &dir, &[], &["kalah:4x3"]);
    assert!(one.status.success(), "{}", stderr(&one));
    for (env, args) in [
        (
            &[][..],
            &["kalah:4x3", "--split-plies", "1", "--threads", "1"][..],
        ),
        (&[("PLY_KALAH_SPLIT_PLIES", "1")], &["kalah:4x3"]),
    ] {
        let o = solve(2, &dir, env, args);
        let err = stderr(&o);
        assert!(o.status.success(), "{:?} {:?}: {}", env, args, err);
        assert!(err.contains("split 1 ply down (--split-plies)"), "{}", err);
        assert_eq!(solve_values(&stdout(&o)), solve_values(&stdout(&one)));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_solve_on_several_ranks_refuses_the_settings_of_one_process() {
    let dir = scratch("mpi", "solve-settings");
    for (env, args, name) in [
        (
            &[("PLY_KALAH_MOVE_NODES", "1000")][..],
            &["kalah:4x3"][..],
            "--move-nodes (PLY_KALAH_MOVE_NODES)",
        ),
        (
            &[],
            &["kalah:4x3", "--move-nodes", "1000"],
            "--move-nodes (PLY_KALAH_MOVE_NODES)",
        ),
        (
            &[("PLY_KALAH_STOP_NODES", "1000")],
            &["kalah:4x3"],
            "PLY_KALAH_STOP_NODES",
        ),
    ] {
        let o = solve(2, &dir, env, args);
        assert!(!o.status.success());
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "error: {} applies to the solve of one process, not under mpirun",
                name
            )),
            "{}",
            err
        );
        assert!(stdout(&o).is_empty());
    }
    let _ = std::fs::remove_dir_all(dir);
}
