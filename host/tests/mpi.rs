//! `ply perft`, `ply tournament` and `ply solve kalah` under `mpirun` (the `mpi`
//! feature; run by scripts/test-mpi.sh, which installs Open MPI first): 1, 2 and 3
//! ranks (more ranks than cores: oversubscribed) print what one process prints; a
//! killed rank ends the job with a clear error and `--resume` finishes it with the
//! right total or values, without redoing the saved items; two "hosts" on one
//! machine; four hosts as network namespaces with latency on their links; ranks with
//! different jobs and commands that are not dealt out yet are refused.
//!
//! Every run but the namespaces' stays on the loopback
//! (`OMPI_MCA_*_tcp_if_include=lo`); every run may run as root (the CI machine's
//! user).
#![cfg(feature = "mpi")]

mod common;
use common::{
    long_perft, ply, results, saved_items, scratch, stderr, stdout, wait_for, LONG_PERFT_TOTAL,
};
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
    assert!(saved > 0 && saved < 9105, "{}", stderr(&o));
    // Resumed on 3 ranks: the right total, and only the items the checkpoint lacked.
    let err = resume_long_perft(&ckpt, 3);
    assert_resumed_only_the_rest(&err, saved as u64, 9105);
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
            && line.contains("(--rank-timeout): it is stopped, stuck or cut off")
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
    assert_eq!(s.iter().map(|r| r.2).sum::<u64>(), 9105);
}

/// The positions routed, summed over the per-rank lines (`... routed N positions ...`).
fn routed_positions(err: &str) -> u64 {
    err.lines()
        .filter_map(|l| {
            l.split_once("; routed ")?
                .1
                .split(' ')
                .next()?
                .parse::<u64>()
                .ok()
        })
        .sum()
}

#[test]
fn four_hosts_in_network_namespaces_count_the_same() {
    // Four "hosts", each a network namespace with a network stack and an address of
    // its own, joined by links that hold every packet 1 ms (scripts/netns-mpi.sh
    // makes them and removes them): one rank in each, talking TCP across the links,
    // counts through one table what one process counts. Where namespaces are not
    // permitted, the script says so in one line and exits 77.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/netns-mpi.sh");
    let tag = format!("plyt{}", std::process::id());
    let args = ["perft", "checkers", "9", "--divide", "--hash-mb", "16"];
    let one = ply(&args);
    assert!(one.status.success(), "{}", stderr(&one));
    let o = run({
        let mut c = Command::new("bash");
        c.arg(&script)
            .env("DELAY_MS", "1")
            .env("NETNS_MPI_TAG", &tag)
            // Routed two plies below the items, in small batches: many rounds of
            // messages between the hosts.
            .env("PLY_ROUTE_REST", "2")
            .env("PLY_ROUTE_BATCH", "16")
            .args(["-x", "PLY_ROUTE_REST", "-x", "PLY_ROUTE_BATCH"])
            .arg(env!("CARGO_BIN_EXE_ply"))
            .args(args)
            .stdin(Stdio::null());
        c
    });
    let err = stderr(&o);
    let netns = Command::new("ip").args(["netns", "list"]).output();
    let left: Vec<String> = netns
        .map(|n| stdout(&n))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with(&format!("{}-", tag)))
        .map(String::from)
        .collect();
    assert!(left.is_empty(), "namespaces left behind: {:?}", left);
    if o.status.code() == Some(77) {
        eprintln!("{}", err.lines().last().unwrap_or("netns-mpi: skipped"));
        return;
    }
    assert!(o.status.success(), "{}", err);
    assert_eq!(results(&stdout(&o)), results(&stdout(&one)), "{}", err);
    assert!(stdout(&o).lines().any(|l| l == "3963680"), "{}", stdout(&o));
    let s = summary(&err);
    let mut hosts: Vec<&str> = s.iter().map(|r| r.1.as_str()).collect();
    hosts.sort_unstable();
    assert_eq!(
        hosts,
        ["netns-h0", "netns-h1", "netns-h2", "netns-h3"],
        "{}",
        err
    );
    assert_eq!(s.iter().map(|r| r.2).sum::<u64>(), 9105, "{}", err);
    assert!(routed_positions(&err) > 0, "{}", err);
    let last = err.lines().last().unwrap_or("");
    assert!(last.starts_with("netns-mpi: 4 hosts, 1 ms ("), "{}", err);
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

/// A resumed run's stderr says it read `saved` of `items` items from the checkpoint,
/// and its per-rank summary shows that the ranks computed exactly the rest.
fn assert_resumed_only_the_rest(err: &str, saved: u64, items: u64) {
    assert!(
        err.contains(&format!(
            "resuming: {} of {} items were done already",
            saved, items
        )),
        "{}",
        err
    );
    let computed: u64 = summary(err).iter().map(|r| r.2).sum();
    assert_eq!(computed, items - saved, "{}", err);
}

/// `ply db build checkers` with `args`, its files in `tables`: one process without
/// mpirun (`np` 0) or `np` ranks.
fn db_build_with(np: usize, tables: &Path, args: &[&str]) -> Command {
    let mut c = if np == 0 {
        Command::new(env!("CARGO_BIN_EXE_ply"))
    } else {
        mpirun_ply(np, &[])
    };
    c.args(["db", "build", "checkers"])
        .args(args)
        .env("PLY_TABLES_DIR", tables);
    c
}

/// `ply db build checkers --pieces 4 --threads 1` with `extra` ([`db_build_with`]).
fn db_build(np: usize, tables: &Path, extra: &[&str]) -> Command {
    db_build_with(
        np,
        tables,
        &[&["--pieces", "4", "--threads", "1"], extra].concat(),
    )
}

/// The pairs of slices of up to 4 pieces: the items of the build.
const DB_PAIRS: u64 = 2 + 6 + 10 + 19;

/// Every slice file of the databases in `tables`, by name.
fn db_files(tables: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(tables.join("checkers-db"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension() == Some("cdb".as_ref()))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

/// The files and the standard output of a one-process build of up to 4 pieces,
/// built once for the tests that compare with it.
fn one_process_db() -> &'static (std::collections::BTreeMap<String, Vec<u8>>, String) {
    static ONE: std::sync::OnceLock<(std::collections::BTreeMap<String, Vec<u8>>, String)> =
        std::sync::OnceLock::new();
    ONE.get_or_init(|| {
        let dir = scratch("mpi", "db-one");
        let o = run(db_build(0, &dir, &[]));
        assert!(o.status.success(), "{}", stderr(&o));
        let files = db_files(&dir);
        // The slices of 1 to 4 pieces: C(4, 3) + C(5, 3) + C(6, 3) + C(7, 3).
        assert_eq!(files.len(), 4 + 10 + 20 + 35);
        let out = stdout(&o).replace(&dir.to_string_lossy().into_owned(), "DIR");
        (files, out)
    })
}

/// A build's summary without the line of what was built now (its time and rate).
fn db_summary(out: &str, dir: &Path) -> Vec<String> {
    out.replace(&dir.to_string_lossy().into_owned(), "DIR")
        .lines()
        .filter(|l| !l.starts_with("built now: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_db_build_on_two_and_three_ranks_writes_the_files_of_one_process() {
    let (want, out) = one_process_db();
    for np in [2, 3] {
        let dir = scratch("mpi", &format!("db-{}", np));
        let o = run(db_build(np, &dir, &[]));
        let err = stderr(&o);
        assert!(o.status.success(), "{} ranks: {}", np, err);
        // The same bytes, file by file: every block and checksum.
        assert!(db_files(&dir) == *want, "{} ranks: other files", np);
        // The same summary, counted from the ranks' answers.
        assert_eq!(
            db_summary(&stdout(&o), &dir),
            db_summary(out, Path::new("DIR"))
        );
        assert!(
            stdout(&o).contains("built now: 7361090 positions in ")
                && stdout(&o).contains(&format!("summed over {} ranks of 1 threads", np)),
            "{}",
            stdout(&o)
        );
        // A line per pair built, one summary line per rank, every pair once.
        assert_eq!(
            err.matches("checkers db: built ").count() as u64,
            DB_PAIRS,
            "{}",
            err
        );
        let s = summary(&err);
        assert_eq!(s.len(), np, "{}", err);
        assert_eq!(s.iter().map(|r| r.2).sum::<u64>(), DB_PAIRS, "{}", err);
    }
}

#[test]
fn a_db_build_stopped_midway_resumes_with_the_same_files() {
    let (want, _) = one_process_db();
    let dir = scratch("mpi", "db-kill");
    let (ckpt, c) = dir.file("db.ckpt");
    let mut job = db_build(2, &dir, &["--checkpoint", &c])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun");
    wait_for(&ckpt, &mut job, "the build");
    let worker = rank_pid(job.id(), 1).expect("rank 1's pid");
    unsafe {
        libc::kill(worker, libc::SIGKILL);
    }
    let o = job.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(
        !o.status.success(),
        "the build ended before the kill: {}",
        err
    );
    assert!(stdout(&o).is_empty(), "no summary from a broken build");
    let saved = saved_items(&err);
    assert!(saved > 0 && (saved as u64) < DB_PAIRS, "{}", err);
    // Resumed on 3 ranks: only the pairs the checkpoint lacks, the same files.
    let o = run(db_build(3, &dir, &["--checkpoint", &c, "--resume"]));
    let err = stderr(&o);
    assert!(o.status.success(), "{}", err);
    assert!(
        err.contains(&format!("resuming: {} items were done already", saved)),
        "{}",
        err
    );
    let computed: u64 = summary(&err).iter().map(|r| r.2).sum();
    assert_eq!(computed, DB_PAIRS - saved as u64, "{}", err);
    assert!(db_files(&dir) == *want, "other files after --resume");
    // No temporary of the killed rank is left.
    for e in std::fs::read_dir(dir.join("checkers-db")).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(!name.contains(".tmp"), "{}", name);
    }
}

#[test]
fn a_bad_db_build_is_refused_in_one_line_before_any_work() {
    let dir = scratch("mpi", "db-bad");
    let (ckpt, c) = dir.file("other.ckpt");
    std::fs::write(&ckpt, b"not a checkpoint").unwrap();
    let tables = dir.join("tables");
    for (args, needle) in [
        (
            &["--verify"][..],
            "--verify checks the databases in one process, not under mpirun",
        ),
        (
            &["--pieces", "9"],
            "--pieces 9 is out of range: expected 1 to 8",
        ),
        (&["--pieces", "3", "--threads", "0"], "--threads"),
        (&["--checkpoint", &c], "exists: add --resume"),
        (&["--checkpoint", &c, "--resume"], "is not a ply checkpoint"),
    ] {
        let args = if args.contains(&"--pieces") {
            args.to_vec()
        } else {
            [&["--pieces", "4"], args].concat()
        };
        let o = run(db_build_with(2, &tables, &args));
        assert!(!o.status.success(), "{:?}", args);
        let err = stderr(&o);
        // Rank 0's line, and at most the same line from rank 1.
        let lines: Vec<&str> = err.lines().filter(|l| l.contains("error: ")).collect();
        assert!(
            lines.iter().filter(|l| l.starts_with("error: ")).count() == 1
                && lines.iter().all(|l| l.contains(needle)),
            "{:?}: {}",
            args,
            err
        );
        assert!(stdout(&o).is_empty(), "{:?}", args);
        assert!(!err.contains("checkers db: built"), "{:?}: {}", args, err);
        assert!(
            !tables.join("checkers-db").exists() || db_files(&tables).is_empty(),
            "{:?}: files written",
            args
        );
    }
}
