//! What the ranks refuse: different jobs, commands not dealt out yet, a checkpoint.

use super::*;

#[test]
fn ranks_with_different_jobs_are_refused() {
    // MPMD: rank 0 counts depth 5, rank 1 depth 6.
    let ply_bin = env!("CARGO_BIN_EXE_ply");
    let mut c = mpirun_command();
    c.args(["-np", "1", ply_bin, "perft", "checkers", "5", ":"])
        .args(["-np", "1", ply_bin, "perft", "checkers", "6"]);
    let o = run(c);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("error: rank 1 on ")
            && err.contains(
                "has another job: every rank must run the same ply with the same arguments"
            ),
        "{}",
        err
    );
}

#[test]
fn commands_not_dealt_out_yet_are_refused_on_several_ranks() {
    let o = run(mpirun_ply(2, &["solve", "tictactoe"]));
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("error: ply solve does not run on several processes yet"),
        "{}",
        err
    );
    assert!(stdout(&o).is_empty());
    // One rank is one process: it runs.
    let o = run(mpirun_ply(1, &["solve", "tictactoe"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().next(), Some("value: 0"));
}

#[test]
fn a_refused_checkpoint_ends_every_rank() {
    let dir = scratch("mpi", "refused");
    let ckpt = dir.join("junk.ckpt");
    std::fs::write(&ckpt, b"not a checkpoint").unwrap();
    let c = ckpt.to_str().unwrap();
    // Refused before MPI starts (it exists, no --resume) and after (not a
    // checkpoint): either way the job ends at once with rank 0's one line.
    for (args, needle) in [
        (
            &["perft", "checkers", "6", "--checkpoint", c][..],
            "exists: add --resume",
        ),
        (
            &["perft", "checkers", "6", "--checkpoint", c, "--resume"][..],
            "is not a ply checkpoint",
        ),
    ] {
        let start = Instant::now();
        let o = run(mpirun_ply(3, args));
        assert!(!o.status.success());
        let err = stderr(&o);
        assert!(err.contains(needle), "{}", err);
        assert!(stdout(&o).is_empty());
        assert!(start.elapsed() < Duration::from_secs(30), "{}", err);
    }
    let _ = std::fs::remove_dir_all(dir);
}
