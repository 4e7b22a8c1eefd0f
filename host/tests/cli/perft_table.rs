//! `ply perft` with its table of exact counts, end to end: the counts of the plain
//! perft with `--hash-mb`, on threads, with `--divide`, in every draughts convention;
//! one line for a bad `--hash-mb` before any work (Ctrl-C during a tabled count:
//! `bad_input.rs`).

use crate::common::{ply, stderr, stdout};

/// The first line of standard output, after checking the run succeeded.
fn count(args: &[&str]) -> String {
    let o = ply(args);
    assert!(o.status.success(), "{:?}: {}", args, stderr(&o));
    stdout(&o).lines().next().unwrap_or("").to_string()
}

#[test]
fn tabled_counts_are_the_published_counts() {
    for (args, expected) in [
        (
            &["perft", "checkers", "10", "--hash-mb", "16"][..],
            "18391564",
        ),
        (
            &[
                "perft",
                "checkers",
                "10",
                "--hash-mb",
                "1",
                "--threads",
                "2",
            ],
            "18391564",
        ),
        (
            &["perft", "checkers", "11", "--unique", "--hash-mb", "8"],
            "85242128",
        ),
        (
            &["perft", "checkers:calgary", "9", "--hash-mb", "4"],
            "3963629",
        ),
        (&["perft", "tictactoe", "9", "--hash-mb", "1"], "127872"),
        (
            &["perft", "kalah", "8", "--hash-mb", "4", "--threads", "2"],
            "563055",
        ),
        (&["perft", "halma", "4", "--hash-mb", "2"], "700034"),
    ] {
        assert_eq!(count(args), expected, "{:?}", args);
    }
}

#[test]
fn the_table_line_reports_size_and_hits() {
    let o = ply(&["perft", "checkers", "9", "--hash-mb", "3"]);
    let out = stdout(&o);
    let table = out.lines().find(|l| l.starts_with("table: ")).unwrap();
    // 3 MiB rounds down to the power of two of buckets below.
    assert!(table.starts_with("table: 2 MiB, "), "{}", table);
    assert!(table.ends_with("% hits"), "{}", table);
}

#[test]
fn tabled_divide_lists_each_root_move() {
    let plain = ply(&["perft", "checkers", "6", "--divide", "--threads", "2"]);
    let tabled = ply(&["perft", "checkers", "6", "--divide", "--hash-mb", "1"]);
    let lines = |o: &std::process::Output| -> Vec<String> {
        stdout(o).lines().take(8).map(str::to_string).collect()
    };
    assert_eq!(lines(&tabled), lines(&plain));
    assert_eq!(lines(&tabled)[7], "36768");
}

#[test]
fn a_bad_hash_size_is_one_line_before_any_work() {
    for (args, needle) in [
        (
            &["perft", "checkers", "30", "--hash-mb", "0"][..],
            "--hash-mb 0 is out of range: expected 1 to 1048576",
        ),
        (
            &["perft", "checkers", "30", "--hash-mb", "1048577"],
            "--hash-mb 1048577 is out of range",
        ),
        (
            &["perft", "halma:16", "30", "--hash-mb", "16"],
            "--hash-mb is not available for halma: its positions have no exact perft key",
        ),
    ] {
        let started = std::time::Instant::now();
        let o = ply(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{:?}: {}", args, err);
        assert_eq!(err.lines().count(), 1, "{:?}: {}", args, err);
        assert!(err.contains(needle), "{:?}: {}", args, err);
        assert!(stdout(&o).is_empty());
        assert!(started.elapsed().as_secs() < 10, "{:?}", args);
    }
    // Past the memory free: refused by name (where the machine has less than the
    // largest size). A MiB more than the machine's whole memory is past what is free
    // whatever the other tests free meanwhile (a MiB more than the memory free when
    // this test looked was not: memory freed before ply looked let it start), and a
    // shallow count ends soon should it start anyway.
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|i| {
        let line = i.lines().find(|l| l.starts_with("MemTotal:"))?.to_string();
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    });
    if let Some(kib) = total.filter(|&k| k / 1024 < 1_048_576) {
        let mb = (kib / 1024 + 1).to_string();
        let o = ply(&["perft", "checkers", "2", "--hash-mb", &mb]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{}", err);
        assert_eq!(err.lines().count(), 1, "{}", err);
        assert!(
            err.contains("--hash-mb") && err.contains("memory"),
            "{}",
            err
        );
    }
}

#[test]
fn a_game_without_a_key_counts_without_a_table() {
    let o = ply(&["perft", "halma:16", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("table: "), "{}", stdout(&o));
}

#[test]
fn no_table_counts_with_the_plain_generator() {
    // Depth 9 of draughts takes a table by default; --no-table counts without one,
    // on one thread and on two, and the counts agree.
    let tabled = ply(&["perft", "checkers", "9"]);
    assert!(stdout(&tabled).contains("\ntable: "), "{}", stdout(&tabled));
    for threads in ["1", "2"] {
        let o = ply(&["perft", "checkers", "9", "--no-table", "--threads", threads]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o).lines().next(), Some("3963680"));
        assert!(!stdout(&o).contains("table: "), "{}", stdout(&o));
    }
    // With a size for the table it cannot have: one line, nothing counted.
    let o = ply(&["perft", "checkers", "9", "--no-table", "--hash-mb", "8"]);
    assert!(!o.status.success());
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("--no-table"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
}
