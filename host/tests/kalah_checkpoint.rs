//! Long Kalah solves that survive interruption: `ply solve --checkpoint FILE` stopped
//! at several points (the `PLY_KALAH_STOP_NODES` hook, and Ctrl-C) and resumed with
//! `--resume` gives the values and best moves of an uninterrupted solve; a damaged or
//! foreign checkpoint is refused in one line; a damaged endgame-table file is found by
//! its checksums and rebuilt, never used.

mod common;
use common::scratch;
use std::path::Path;
use std::process::{Command, Output};

/// `ply` with small tables (8 seeds in play, so the search has work to do) in
/// `dir`, a small transposition table, `threads` solvers and `env` on top.
fn ply(dir: &Path, threads: &str, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ply"));
    c.args(args)
        .env("PLY_TABLES_DIR", dir)
        .env("PLY_KALAH_TABLE_SEEDS", "8")
        .env("PLY_HASH_MB", "16")
        .env("PLY_THREADS", threads)
        .env_remove("PLY_KALAH_STOP_NODES")
        .env_remove("PLY_KALAH_MOVE_NODES");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run ply")
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The answer of a solve: the value, best moves and move lines.
fn answer(o: &Output) -> Vec<String> {
    assert!(o.status.success(), "{}", err(o));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| {
            l.starts_with("value:") || l.starts_with("best moves:") || l.starts_with("move ")
        })
        .map(str::to_string)
        .collect()
}

const SPEC: &str = "kalah:5x3";

#[test]
fn a_solve_stopped_at_several_points_and_resumed_gives_the_same_answer() {
    let d = scratch("kalah-ckpt", "resume");
    let o = ply(&d, "1", &[], &["solve", SPEC]);
    let whole = answer(&o);
    assert_eq!(whole[0], "value: 6");
    assert_eq!(whole.len(), 2 + 5);
    let nodes: u64 = String::from_utf8_lossy(&o.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("nodes: "))
        .expect("a nodes line")
        .parse()
        .unwrap();
    // Stopped once at each sixth of the uninterrupted solve's nodes up to two
    // thirds (one solver, so the point is the same every run; the solvers look at
    // the count every 65,536 nodes, so a point near the end may not be reached),
    // then resumed to the end.
    for k in 1..=4 {
        let stop = &(nodes * k / 6).to_string();
        let ckpt = d.join(format!("at-{}.ckpt", stop));
        let ck = ckpt.to_str().unwrap();
        let o = ply(
            &d,
            "1",
            &[("PLY_KALAH_STOP_NODES", stop)],
            &["solve", SPEC, "--checkpoint", ck],
        );
        assert!(!o.status.success(), "stop {}: {}", stop, err(&o));
        let last = err(&o).lines().last().unwrap_or("").to_string();
        assert!(
            last.starts_with("error: stopped after") && last.contains("checkpoint saved"),
            "stop {}: {}",
            stop,
            err(&o)
        );
        let o = ply(
            &d,
            "1",
            &[],
            &["solve", SPEC, "--checkpoint", ck, "--resume"],
        );
        assert!(
            err(&o).contains("resuming; proved before: root "),
            "{}",
            err(&o)
        );
        assert_eq!(answer(&o), whole, "stopped at {} nodes", stop);
        // A finished checkpoint resumes at once to the same answer.
        let o = ply(
            &d,
            "1",
            &[],
            &["solve", SPEC, "--checkpoint", ck, "--resume"],
        );
        assert_eq!(answer(&o), whole);
    }
    // Stopped again and again (a quarter of the solve's nodes a run), each run
    // going a little further, on two solvers. The first resumed run gets a
    // sixteenth, less than the next pass needs, so that it stops too and a
    // resumed checkpoint is resumed again: how far a run of two solvers gets
    // depends on how the threads happen to run, and a quarter once finished
    // the whole solve in the first resumed run of a busy CI machine.
    let ckpt = d.join("chain.ckpt");
    let ck = ckpt.to_str().unwrap();
    let mut args = vec!["solve", SPEC, "--checkpoint", ck];
    let mut stops = 0;
    let quarter = (nodes / 4).to_string();
    let sixteenth = (nodes / 16).to_string();
    loop {
        let budget = if stops == 1 { &sixteenth } else { &quarter };
        let o = ply(&d, "2", &[("PLY_KALAH_STOP_NODES", budget)], &args);
        if o.status.success() {
            assert_eq!(answer(&o), whole);
            break;
        }
        assert!(err(&o).contains("checkpoint saved"), "{}", err(&o));
        stops += 1;
        assert!(stops < 40, "no progress: {}", err(&o));
        if stops == 1 {
            args.push("--resume");
        }
    }
    assert!(stops >= 2, "stopped only {} times", stops);
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn damaged_and_foreign_checkpoints_are_refused_in_one_line() {
    let d = scratch("kalah-ckpt", "refuse");
    let ckpt = d.join("s.ckpt");
    let ck = ckpt.to_str().unwrap();
    let o = ply(
        &d,
        "1",
        &[("PLY_KALAH_STOP_NODES", "250000")],
        &["solve", SPEC, "--checkpoint", ck],
    );
    assert!(!o.status.success());
    let good = std::fs::read(&ckpt).unwrap();
    let refused = |bytes: &[u8], spec: &str, needle: &str| {
        std::fs::write(&ckpt, bytes).unwrap();
        let o = ply(
            &d,
            "1",
            &[],
            &["solve", spec, "--checkpoint", ck, "--resume"],
        );
        assert!(!o.status.success(), "{}", err(&o));
        let e = err(&o);
        assert_eq!(e.lines().count(), 1, "{}", e);
        assert!(
            e.starts_with("error: checkpoint ") && e.contains(needle),
            "{}",
            e
        );
    };
    // A flipped byte, a file cut short, one of another solve, not a checkpoint.
    let mut bad = good.clone();
    bad[good.len() / 2] ^= 0x20;
    refused(&bad, SPEC, "is damaged");
    refused(&good[..good.len() - 3], SPEC, "is damaged");
    refused(
        &good,
        "kalah:5x3:empty-capture",
        "belongs to another command",
    );
    refused(&good, "kalah:4x3", "belongs to another command");
    refused(b"not a checkpoint at all", SPEC, "is not a ply checkpoint");
    // A checkpoint that exists is not overwritten without --resume.
    std::fs::write(&ckpt, &good).unwrap();
    let o = ply(&d, "1", &[], &["solve", SPEC, "--checkpoint", ck]);
    assert!(err(&o).contains("exists: add --resume"), "{}", err(&o));
    assert_eq!(std::fs::read(&ckpt).unwrap(), good);
    // Other positions are other solves.
    let o = ply(
        &d,
        "1",
        &[],
        &[
            "solve",
            SPEC,
            "--checkpoint",
            ck,
            "--resume",
            "--after",
            "3",
        ],
    );
    assert!(
        err(&o).contains("belongs to another command"),
        "{}",
        err(&o)
    );
    // --resume needs --checkpoint; games without a checkpointing solve refuse it.
    let o = ply(&d, "1", &[], &["solve", SPEC, "--resume"]);
    assert!(!o.status.success());
    let o = ply(
        &d,
        "1",
        &[],
        &[
            "solve",
            "tictactoe",
            "--checkpoint",
            d.join("t.ckpt").to_str().unwrap(),
        ],
    );
    assert!(
        err(&o).contains("--checkpoint is not available"),
        "{}",
        err(&o)
    );
    let _ = std::fs::remove_dir_all(d);
}

/// Ctrl-C (SIGINT) saves the checkpoint before `ply` exits with status 130.
#[cfg(unix)]
#[test]
fn ctrl_c_saves_the_checkpoint() {
    let d = scratch("kalah-ckpt", "sigint");
    let ckpt = d.join("s.ckpt");
    // The values of docs/games/kalah/solve.md.
    let whole: Vec<String> = ["value: 2", "best moves: 5"]
        .into_iter()
        .map(str::to_string)
        .chain(
            [-14, -16, -10, -2, 2, 0]
                .iter()
                .enumerate()
                .map(|(i, v)| format!("move {}: {}", i + 1, v)),
        )
        .collect();
    let child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["solve", "kalah:6x3", "--checkpoint", ckpt.to_str().unwrap()])
        .env("PLY_TABLES_DIR", &d)
        .env("PLY_KALAH_TABLE_SEEDS", "8")
        .env("PLY_HASH_MB", "16")
        .env("PLY_THREADS", "2")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Once the first progress line is out, the solve is under way.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let o = child.wait_with_output().unwrap();
    let e = err(&o);
    if o.status.success() {
        // The machine was fast enough to finish first: nothing to check.
        return;
    }
    assert_eq!(o.status.code(), Some(130), "{}", e);
    assert!(e.contains("checkpoint saved to"), "{}", e);
    let o = ply(
        &d,
        "2",
        &[],
        &[
            "solve",
            "kalah:6x3",
            "--checkpoint",
            ckpt.to_str().unwrap(),
            "--resume",
        ],
    );
    assert_eq!(answer(&o), whole);
    let _ = std::fs::remove_dir_all(d);
}

/// An endgame-table file cut short or damaged is found by its checksums: the layers
/// before the damage are used, the rest rebuilt and the file rewritten.
#[test]
fn damaged_endgame_table_files_are_rebuilt_not_used() {
    let d = scratch("kalah-ckpt", "tables");
    let run = |d: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["solve", "kalah:3x3"])
            .env("PLY_TABLES_DIR", d)
            .env("PLY_KALAH_TABLE_SEEDS", "18")
            .env("PLY_THREADS", "2")
            .output()
            .unwrap();
        (answer(&o), err(&o))
    };
    let (whole, e) = run(&d);
    assert!(e.contains("endgame tables: built 18 seeds"), "{}", e);
    let file = d.join("kalah-3pits-seed-rules.v3.tbl");
    let good = std::fs::read(&file).unwrap();
    let (again, e) = run(&d);
    assert_eq!(again, whole);
    // The file holds every layer asked for, all good: it is mapped, not read.
    assert!(e.contains("mapped 18 seeds in play"), "{}", e);
    // A byte of the entries flipped near the end (in the last layer).
    let mut bad = good.clone();
    let at = bad.len() - 10;
    bad[at] ^= 0x7f;
    std::fs::write(&file, &bad).unwrap();
    let (answer_now, e) = run(&d);
    assert_eq!(answer_now, whole);
    assert!(
        e.contains("the layer of 18 seeds in play fails its checksum (damaged file)")
            && e.contains("rebuilding from 18 seeds")
            && e.contains("built 18 seeds"),
        "{}",
        e
    );
    assert_eq!(
        std::fs::read(&file).unwrap(),
        good,
        "the file is rewritten whole"
    );
    // Cut short, and a damaged header.
    for bytes in [&good[..good.len() / 2], &good[..20]] {
        std::fs::write(&file, bytes).unwrap();
        let (answer_now, e) = run(&d);
        assert_eq!(answer_now, whole);
        assert!(e.contains("rebuilding from"), "{}", e);
        assert_eq!(std::fs::read(&file).unwrap(), good);
    }
    let mut bad = good.clone();
    bad[30] ^= 1;
    std::fs::write(&file, &bad).unwrap();
    let (answer_now, e) = run(&d);
    assert_eq!(answer_now, whole);
    assert!(e.contains("header fails its checksum"), "{}", e);
    assert_eq!(std::fs::read(&file).unwrap(), good);
    let _ = std::fs::remove_dir_all(d);
}
