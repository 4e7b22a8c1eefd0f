//! `--checkpoint FILE` and `--resume` in one process (no MPI): the same results as
//! without, a run stopped by SIGTERM saves what it finished and a resumed run finishes
//! with the right total, and a checkpoint that is there already, of another command,
//! damaged, or where none can be written is refused with one line before any work.

use crate::common::{
    long_perft, ply, results, saved_items, scratch, stderr, stdout, wait_for, LONG_PERFT_TOTAL,
};

fn one_error_line(o: &std::process::Output, needle: &str) {
    assert!(!o.status.success());
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "{}", err);
    assert!(err.contains(needle), "{}", err);
    assert!(stdout(o).is_empty());
}

#[test]
fn perft_with_a_checkpoint_counts_the_same_and_refuses_what_is_not_its_own() {
    let dir = scratch("ckpt-cli", "perft");
    let (ckpt, c) = dir.file("perft.ckpt");
    let plain = ply(&["perft", "checkers", "7", "--divide"]);
    let with = ply(&["perft", "checkers", "7", "--divide", "--checkpoint", &c]);
    assert!(with.status.success(), "{}", stderr(&with));
    assert_eq!(results(&stdout(&with)), results(&stdout(&plain)));
    assert_eq!(results(&stdout(&with)).last().unwrap(), "179740");
    assert!(ckpt.is_file());

    // There already: refused without --resume; with it, nothing is left to count.
    one_error_line(
        &ply(&["perft", "checkers", "7", "--checkpoint", &c]),
        "exists: add --resume to go on from it, or remove it to start again",
    );
    let again = ply(&["perft", "checkers", "7", "--checkpoint", &c, "--resume"]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stderr(&again).contains("resuming: 9105 of 9105 items were done already"));
    assert_eq!(stdout(&again).lines().next(), Some("179740"));

    // Another command's checkpoint, a damaged one, none that can be written.
    one_error_line(
        &ply(&["perft", "checkers", "6", "--checkpoint", &c, "--resume"]),
        "belongs to another command ('…7; 9105 distinct positions at ply 6'; this one \
         is '…6; ",
    );
    one_error_line(
        &ply(&[
            "perft",
            "checkers",
            "7",
            "--unique",
            "--checkpoint",
            &c,
            "--resume",
        ]),
        "belongs to another command",
    );
    let mut bytes = std::fs::read(&ckpt).unwrap();
    bytes[100] ^= 4;
    std::fs::write(&ckpt, &bytes).unwrap();
    one_error_line(
        &ply(&["perft", "checkers", "7", "--checkpoint", &c, "--resume"]),
        "is damaged (its checksum or length is wrong): remove it to start again",
    );
    std::fs::write(&ckpt, b"some other file").unwrap();
    one_error_line(
        &ply(&["perft", "checkers", "7", "--checkpoint", &c, "--resume"]),
        "is not a ply checkpoint",
    );
    let missing = dir.join("no/such/dir/x.ckpt");
    one_error_line(
        &ply(&[
            "perft",
            "checkers",
            "7",
            "--checkpoint",
            missing.to_str().unwrap(),
        ]),
        "does not exist (the directory must be there already)",
    );
    one_error_line(
        &ply(&["perft", "checkers", "7", "--resume"]),
        "--checkpoint",
    );
    // --resume with no file yet starts afresh.
    let fresh = dir.join("fresh.ckpt");
    let o = ply(&[
        "perft",
        "tictactoe",
        "4",
        "--checkpoint",
        fresh.to_str().unwrap(),
        "--resume",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().next(), Some("3024"));
    assert!(stderr(&o).contains("does not exist yet: starting from the first item"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_stopped_perft_saves_its_checkpoint_and_resumes_to_the_right_total() {
    let dir = scratch("ckpt-cli", "sigterm");
    let (ckpt, c) = dir.file("run.ckpt");
    let args = long_perft(&c);
    let mut child = crate::common::spawn_ply(&args);
    wait_for(&ckpt, &mut child, "ply");
    // SIGTERM, as mpirun sends when a rank dies.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let saved = saved_items(&stderr(&o));
    assert!(stdout(&o).is_empty());

    let mut resume = args.to_vec();
    resume.push("--resume");
    let o = ply(&resume);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().next(), Some(LONG_PERFT_TOTAL));
    assert!(stdout(&o).contains("table: 64 MiB, "), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "resuming: {} of 9105 items were done already",
            saved
        )),
        "saved {}: {}",
        saved,
        err
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_tournament_with_a_checkpoint_plays_the_same_games() {
    let dir = scratch("ckpt-cli", "tournament");
    let ckpt = dir.join("t.ckpt");
    let args = [
        "tournament",
        "kalah",
        "--a",
        "depth=3",
        "--b",
        "depth=2",
        "--games",
        "4",
        "--threads",
        "1",
    ];
    let plain = ply(&args);
    assert!(plain.status.success(), "{}", stderr(&plain));
    let mut with = args.to_vec();
    with.extend(["--checkpoint", ckpt.to_str().unwrap()]);
    let o = ply(&with);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&plain));
    assert_eq!(stderr(&o), stderr(&plain), "the same game lines, in order");
    with.push("--resume");
    let o = ply(&with);
    assert_eq!(stdout(&o), stdout(&plain));
    // The Halma round robin: the same table and CSV.
    let csv = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let rr = |results: &str| {
        vec![
            "tournament".to_string(),
            "halma".into(),
            "--strategies".into(),
            "s1,s7,racer".into(),
            "--depth".into(),
            "1".into(),
            "--games-per-pair".into(),
            "4".into(),
            "--results".into(),
            results.into(),
        ]
    };
    let args = rr(&csv("plain.csv"));
    let plain = ply(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(plain.status.success(), "{}", stderr(&plain));
    let mut args = rr(&csv("with.csv"));
    args.extend([
        "--checkpoint".into(),
        csv("rr.ckpt"),
        "--threads".into(),
        "2".into(),
    ]);
    let with = ply(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(with.status.success(), "{}", stderr(&with));
    assert_eq!(
        stdout(&with).replace("with.csv", "plain.csv"),
        stdout(&plain)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("with.csv")).unwrap(),
        std::fs::read_to_string(dir.join("plain.csv")).unwrap()
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A `ply` built without the `mpi` feature that an MPI launcher started several times
/// says so instead of running the whole command in every copy.
#[cfg(not(feature = "mpi"))]
#[test]
fn several_copies_without_mpi_are_refused() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["perft", "tictactoe", "3"])
        .env("OMPI_COMM_WORLD_RANK", "0")
        .env("OMPI_COMM_WORLD_SIZE", "2")
        .output()
        .unwrap();
    one_error_line(&o, "this ply was built without MPI");
    // One copy alone runs as usual.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["perft", "tictactoe", "3"])
        .env("OMPI_COMM_WORLD_RANK", "0")
        .env("OMPI_COMM_WORLD_SIZE", "1")
        .output()
        .unwrap();
    assert_eq!(stdout(&o).lines().next(), Some("504"));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["solve", "tictactoe"])
        .env("PMI_RANK", "1")
        .env("PMI_SIZE", "2")
        .output()
        .unwrap();
    one_error_line(
        &o,
        "rank 1: error: ply solve does not run on several processes yet",
    );
}
