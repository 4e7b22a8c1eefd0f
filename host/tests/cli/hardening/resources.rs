//! Cases 1 to 5: failed writes, memory, threads, output paths and environment values,
//! all checked before any work.

use super::*;

/// Case 1: a failed write to standard output is one error line and exit status 1,
/// never a panic (exit 101), for every command that prints.
#[cfg(target_os = "linux")]
#[test]
fn case_01_a_failed_write_to_stdout_is_one_error_line() {
    let runs: &[&[&str]] = &[
        &["perft", "checkers", "5"],
        &["perft", "tictactoe", "3", "--divide"],
        &["perft", "tictactoe", "3", "--divide", "--threads", "2"],
        &["moves", "tictactoe"],
        &["search", "tictactoe", "--depth", "2"],
        &["search", "tictactoe", "--nodes", "500"],
        &[
            "search",
            "tictactoe",
            "--depth",
            "2",
            "--algo",
            "ybwc",
            "--threads",
            "2",
        ],
        &["solve", "tictactoe"],
        &bench("tictactoe"),
        &with(&play_ai("tictactoe"), &["--depth", "1"]),
        &["--help"],
        &["--version"],
    ];
    for args in runs {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = ply_with(args, &[], Some(full));
        one_error(
            &o,
            &format!("{:?}", args),
            &["error: cannot write output: "],
        );
    }
    // A tournament reports each game on standard error as it goes; the error line
    // is still the one and last line that says error.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = ply_with(&with(TWO_CONFIGS, &["--games", "1"]), &[], Some(full));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{}", err);
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{}", err);
    assert_eq!(err.lines().last(), Some(errors[0]));
    assert!(
        errors[0].starts_with("error: cannot write output: "),
        "{}",
        err
    );
}

/// The machine's memory in MiB (Linux's MemTotal): a MiB more is past the memory
/// free whatever other tests free meanwhile (a MiB more than MemAvailable, read here,
/// could fit by the time `ply` reads it).
fn total_mib() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Case 2: a table bigger than the machine's free memory is refused with one line
/// naming the setting, before any work (it used to abort with SIGABRT, `bench`
/// after printing a row).
#[test]
fn case_02_hash_tables_beyond_the_memory_are_refused_by_name() {
    let started = Instant::now();
    match total_mib() {
        Some(total) if total < 1_048_576 => {
            let mb = (total + 1).to_string();
            let o = ply_with(
                &["search", "checkers", "--depth", "8", "--hash-mb", &mb],
                &[],
                None,
            );
            one_error(&o, "search", &["--hash-mb", &mb, "memory"]);
            assert!(stdout(&o).is_empty());
            let o = ply_with(
                &[
                    "bench",
                    "checkers",
                    "--depth",
                    "3",
                    "--runs",
                    "1",
                    "--hash-mb",
                    &mb,
                ],
                &[],
                None,
            );
            one_error(&o, "bench", &["--hash-mb", &mb, "memory"]);
            assert!(stdout(&o).is_empty(), "no row before the error");
        }
        // A machine with more: the largest size is still bounded.
        _ => {}
    }
    let tournament = with(TWO_CONFIGS, &["--hash-mb", "0"]);
    for args in [
        &["search", "tictactoe", "--hash-mb", "1048577"][..],
        &["search", "tictactoe", "--hash-mb", "0"],
        &["bench", "tictactoe", "--depth", "1", "--hash-mb", "1048577"],
        &["play", "tictactoe", "--hash-mb", "0"],
        &tournament,
        &["solve", "kalah:3x2", "--hash-mb", "0"],
    ] {
        let needles = ["--hash-mb", "expected 1 to 1048576"];
        one_error(&ply(args), &format!("{:?}", args), &needles);
    }
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// Case 3: a thread count far past the machine's is refused at once, naming the
/// bound (it used to spend a minute starting threads).
#[test]
fn case_03_thread_counts_far_past_the_machine_are_refused_at_once() {
    let d = scratch("hardening", "threads");
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: &[Case] = &[
        (
            &[
                "search",
                "kalah",
                "--depth",
                "10",
                "--algo",
                "lazysmp",
                "--threads",
                "100000",
            ],
            &[],
            "--threads 100000 is out of range: expected at least 1 and at most",
        ),
        (
            &["perft", "checkers", "9", "--threads", "100000"],
            &[],
            "--threads 100000 is out of range",
        ),
        (
            &["bench", "kalah", "--depth", "10", "--threads", "1,100000"],
            &[],
            "bad thread count '100000' in --threads",
        ),
        (
            &[
                "tournament",
                "halma",
                "--strategies",
                "s1,s2",
                "--threads",
                "100000",
            ],
            &[],
            "--threads 100000 is out of range",
        ),
        (
            &["solve", "kalah"],
            &[("PLY_THREADS", "100000")],
            "PLY_THREADS='100000' is out of range",
        ),
    ];
    for (args, env, needle) in cases {
        let started = Instant::now();
        let mut env = env.to_vec();
        let dir = d.to_string_lossy().into_owned();
        env.push(("PLY_TABLES_DIR", &dir));
        let o = ply_with(args, &env, None);
        one_error(&o, &format!("{:?}", args), &[needle, "per core"]);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?} took {:?}",
            args,
            started.elapsed()
        );
    }
    assert!(entries(&d).is_empty());
    let _ = std::fs::remove_dir_all(d);
}

/// Case 4: output files are checked before the work: nothing is printed, nothing
/// is played, and nothing is left behind.
#[test]
fn case_04_output_paths_are_checked_before_the_work() {
    let d = scratch("hardening", "paths");
    let missing = d.join("no/such/dir/x.svg");
    let missing = missing.to_str().unwrap();
    let o = ply(&[
        "bench",
        "kalah",
        "--depth",
        "4",
        "--runs",
        "1",
        "--algo",
        "alphabeta",
        "--plot",
        missing,
    ]);
    one_error(&o, "bench --plot", &["--plot", "does not exist"]);
    assert!(stdout(&o).is_empty(), "the bench ran first: {}", stdout(&o));
    let o = ply(&[
        "bench",
        "tictactoe",
        "--depth",
        "1",
        "--plot",
        d.to_str().unwrap(),
    ]);
    one_error(&o, "bench --plot DIR", &["--plot", "is a directory"]);
    let csv = d.join("no/such/dir/r.csv");
    let o = ply(&with(
        ROUND_ROBIN,
        &["--games-per-pair", "2", "--results", csv.to_str().unwrap()],
    ));
    one_error(&o, "tournament --results", &["--results", "does not exist"]);
    assert!(stdout(&o).is_empty(), "the games were played first");
    assert!(entries(&d).is_empty(), "{:?}", entries(&d));
    // A writable path still works, and holds the whole file.
    let plot = d.join("s.svg");
    let o = ply(&with(
        &bench("tictactoe")[..6],
        &[
            "--algo",
            "alphabeta,toplevel",
            "--plot",
            plot.to_str().unwrap(),
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(entries(&d), vec!["s.svg"]);
    let _ = std::fs::remove_dir_all(d);
}

/// Case 5: bad settings in the environment are refused before any work (it used to
/// build endgame tables for 19 s first).
#[test]
fn case_05_environment_settings_are_checked_before_any_work() {
    let d = scratch("hardening", "env");
    let dir = d.to_string_lossy().into_owned();
    for (var, value, needle) in [
        ("PLY_HASH_MB", "abc", "PLY_HASH_MB='abc' is not a number: expected a whole number 1 to 1048576"),
        ("PLY_HASH_MB", "-5", "PLY_HASH_MB='-5' is not a number"),
        ("PLY_HASH_MB", "", "PLY_HASH_MB is empty"),
        ("PLY_KALAH_MOVE_NODES", "-1", "PLY_KALAH_MOVE_NODES='-1' is not a number: expected a whole number 0 to 18446744073709551615, or max"),
        ("PLY_KALAH_TABLE_SEEDS", "x", "PLY_KALAH_TABLE_SEEDS='x' is not a number: expected a whole number 0 to 126"),
        ("PLY_THREADS", "two", "PLY_THREADS='two' is not a number"),
    ] {
        let started = Instant::now();
        let o = ply_with(
            &["solve", "kalah"],
            &[("PLY_TABLES_DIR", &dir), (var, value)],
            None,
        );
        one_error(&o, &format!("{}={:?}", var, value), &[needle]);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{}={:?} took {:?}",
            var,
            value,
            started.elapsed()
        );
        assert!(entries(&d).is_empty(), "tables written before the error");
    }
    // A value that is not text at all.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let o = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["solve", "kalah"])
            .env("PLY_TABLES_DIR", &d)
            .env("PLY_HASH_MB", std::ffi::OsStr::from_bytes(b"\xff8"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        one_error(
            &o,
            "PLY_HASH_MB=\\xff8",
            &["PLY_HASH_MB is not valid UTF-8 text"],
        );
        assert!(entries(&d).is_empty());
    }
    let _ = std::fs::remove_dir_all(d);
}
