//! `ply perft` and `ply tournament` under `mpirun` (the `mpi` feature; run by
//! scripts/test-mpi.sh, which installs Open MPI first): 1, 2 and 3 ranks (more ranks
//! than cores: oversubscribed) print what one process prints; a killed rank ends the
//! job with a clear error and `--resume` finishes it with the right total, without
//! redoing the saved items; two "hosts" on one machine; ranks with different jobs and
//! commands that are not dealt out yet are refused.
//!
//! Every run stays on the loopback (`OMPI_MCA_*_tcp_if_include=lo`) and may run as
//! root (the CI machine's user).
#![cfg(feature = "mpi")]

mod common;
use common::{long_perft, ply, saved_items, scratch, stderr, stdout, wait_for, LONG_PERFT_TOTAL};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `mpirun` with the test settings, before its own arguments.
fn mpirun_command() -> Command {
    let mut c = Command::new("mpirun");
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_btl_tcp_if_include", "lo")
        .env("OMPI_MCA_oob_tcp_if_include", "lo")
        // No warnings about the machine's network cards or a missing InfiniBand.
        .env("OMPI_MCA_btl_base_warn_component_unused", "0")
        .stdin(Stdio::null());
    c
}

/// `mpirun -np N --oversubscribe ply ARGS...`.
fn mpirun_ply(np: usize, args: &[&str]) -> Command {
    let mut c = mpirun_command();
    c.args([
        "-np",
        &np.to_string(),
        "--oversubscribe",
        env!("CARGO_BIN_EXE_ply"),
    ])
    .args(args);
    c
}

fn run(mut c: Command) -> Output {
    c.output()
        .expect("mpirun (Open MPI) is not installed: bash scripts/setup-mpi.sh")
}

/// Standard output without the lines that hold times and table statistics (which
/// depend on how the work was split and timed).
fn results(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| {
            !l.starts_with("time: ") && !l.starts_with("leaves/s: ") && !l.starts_with("table: ")
        })
        .map(str::to_string)
        .collect()
}

/// The per-rank summary lines as (rank, host, items).
fn summary(err: &str) -> Vec<(usize, String, u64)> {
    err.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("rank ")?;
            let (rank, rest) = rest.split_once(" on ")?;
            let (host, rest) = rest.split_once(": ")?;
            let items = rest.split(' ').next()?.parse().ok()?;
            Some((rank.parse().ok()?, host.to_string(), items))
        })
        .collect()
}

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
    let mut want_games: Vec<String> = stderr(&one).lines().map(str::to_string).collect();
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

/// The pids of `mpirun`'s ranks (its children whose environment names a rank).
fn rank_pid(mpirun: u32, rank: usize) -> Option<i32> {
    let children =
        std::fs::read_to_string(format!("/proc/{}/task/{}/children", mpirun, mpirun)).ok()?;
    let want = format!("OMPI_COMM_WORLD_RANK={}", rank);
    children.split_whitespace().find_map(|pid| {
        let env = std::fs::read(format!("/proc/{}/environ", pid)).ok()?;
        env.split(|&b| b == 0)
            .any(|v| v == want.as_bytes())
            .then(|| pid.parse().ok())?
    })
}

/// Starts [`long_perft`] with a checkpoint in `ckpt` on 2 ranks (with `env`), sends
/// rank 1 `signal` once the first checkpoint is written, and returns what the job
/// printed when it ended: it must have failed without a total.
fn signal_rank_1(ckpt: &Path, env: &[(&str, &str)], signal: i32) -> Output {
    let mut cmd = mpirun_ply(2, &long_perft(ckpt.to_str().unwrap()));
    cmd.envs(env.iter().copied());
    let mut job = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun");
    wait_for(ckpt, &mut job, "the job");
    let worker = rank_pid(job.id(), 1).expect("rank 1's pid");
    unsafe {
        libc::kill(worker, signal);
    }
    let o = job.wait_with_output().unwrap();
    // A stopped rank is gone with the job; nothing to continue otherwise.
    unsafe {
        libc::kill(worker, libc::SIGCONT);
    }
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "no total from a broken job");
    o
}

/// [`long_perft`] with `--resume`, on `np` ranks: the right total.
fn resume_long_perft(ckpt: &Path, np: usize) -> String {
    let mut resume = long_perft(ckpt.to_str().unwrap()).to_vec();
    resume.push("--resume");
    let o = run(mpirun_ply(np, &resume));
    let err = stderr(&o);
    assert!(o.status.success(), "{}", err);
    assert_eq!(stdout(&o).lines().next(), Some(LONG_PERFT_TOTAL));
    assert!(stdout(&o).contains("table: 64 MiB, "), "{}", stdout(&o));
    err
}

#[test]
fn a_killed_rank_ends_the_job_and_resume_finishes_without_redoing_items() {
    let dir = scratch("mpi", "kill");
    let ckpt = dir.join("run.ckpt");
    let o = signal_rank_1(&ckpt, &[], libc::SIGKILL);
    // Rank 0 saved what was finished and says how to go on.
    let saved = saved_items(&stderr(&o));
    assert!(saved > 0 && saved < 4628, "{}", stderr(&o));
    // Resumed on 3 ranks: the right total, and only the items the checkpoint lacked.
    let err = resume_long_perft(&ckpt, 3);
    assert!(
        err.contains(&format!(
            "resuming: {} of 4628 items were done already",
            saved
        )),
        "{}",
        err
    );
    let computed: u64 = summary(&err).iter().map(|r| r.2).sum();
    assert_eq!(computed, 4628 - saved as u64, "{}", err);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_rank_that_stops_answering_ends_the_job_and_resume_finishes() {
    let dir = scratch("mpi", "stopped");
    let ckpt = dir.join("run.ckpt");
    let started = Instant::now();
    // SIGSTOP: the rank neither dies nor answers (as a hung machine or a cut link).
    let o = signal_rank_1(&ckpt, &[("PLY_RANK_TIMEOUT", "2")], libc::SIGSTOP);
    let err = stderr(&o);
    assert!(started.elapsed() < Duration::from_secs(60), "{}", err);
    let line = err
        .lines()
        .find(|l| l.starts_with("error: rank 1 on "))
        .unwrap_or_else(|| panic!("{}", err));
    assert!(
        line.contains("has sent nothing for 2 s while it held")
            && line.contains("(PLY_RANK_TIMEOUT): it is stopped, stuck or cut off")
            && line.ends_with("rerun the same command with --resume to finish)"),
        "{}",
        line
    );
    resume_long_perft(&ckpt, 2);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn two_hosts_on_one_machine_count_the_same() {
    // Each "host" gets a host name of its own (a UTS namespace): where that is not
    // allowed, there is nothing to test.
    if !Command::new("unshare")
        .args(["--uts", "true"])
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("skipped: unshare --uts is not allowed here");
        return;
    }
    let agent = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/common/fake-ssh.sh");
    let mut c = mpirun_command();
    c.args(["--host", "127.0.0.1:2,127.0.0.2:2", "-np", "4"])
        .arg("--mca")
        .arg("plm_rsh_agent")
        .arg(&agent)
        .arg(env!("CARGO_BIN_EXE_ply"))
        .args(["perft", "checkers", "9"]);
    let o = run(c);
    let err = stderr(&o);
    assert!(o.status.success(), "{}", err);
    assert_eq!(stdout(&o).lines().next(), Some("3963680"));
    let s = summary(&err);
    assert_eq!(s.len(), 4, "{}", err);
    assert_eq!(
        s.iter().filter(|r| r.1 == "fake-127.0.0.2").count(),
        2,
        "{}",
        err
    );
    assert_eq!(s.iter().map(|r| r.2).sum::<u64>(), 4628);
}

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

#[test]
fn the_halma_round_robin_on_three_ranks_writes_the_same_table_and_csv() {
    let dir = scratch("mpi", "round-robin");
    let run_rr = |np: usize| {
        let csv = dir.join(format!("np{}.csv", np));
        let args = [
            "tournament",
            "halma",
            "--strategies",
            "s1,s7,racer",
            "--depth",
            "1",
            "--games-per-pair",
            "4",
            "--threads",
            "1",
            "--results",
            csv.to_str().unwrap(),
        ];
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
