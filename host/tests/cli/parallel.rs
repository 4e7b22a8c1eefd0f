//! `ply search --algo <parallel> --threads N`, `ply perft --threads N` and `ply bench`
//! end to end.

use crate::common::{ply, stderr, stdout, with};
use std::process::Output;

fn line<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no line '{key}' in\n{out}"))
        .trim()
}

/// A tic-tac-toe search at depth 6 after the move 5.
const SEARCH_AFTER_5: &[&str] = &["search", "tictactoe", "--depth", "6", "--after", "5"];

#[test]
fn parallel_search_agrees_with_alphabeta() {
    let seq = ply(&with(SEARCH_AFTER_5, &["--algo", "alphabeta"]));
    assert!(seq.status.success(), "{}", stderr(&seq));
    let expected = line(&stdout(&seq), "value:").to_string();
    for algo in ["toplevel", "chunked", "ybwc", "lazysmp", "abdada"] {
        for threads in ["1", "3", "8"] {
            let o = ply(&with(
                SEARCH_AFTER_5,
                &["--algo", algo, "--threads", threads],
            ));
            assert!(o.status.success(), "{algo}: {}", stderr(&o));
            let out = stdout(&o);
            assert_eq!(line(&out, "value:"), expected, "{algo} {threads}");
            assert_eq!(line(&out, "algo:"), format!("{algo} threads: {threads}"));
            assert!(line(&out, "nodes:").parse::<u64>().unwrap() > 0);
        }
    }
    let o = ply(&[
        "search",
        "tictactoe",
        "--depth",
        "6",
        "--algo",
        "ybwc",
        "--threads",
        "2",
        "--parallel-depth",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn parallel_perft_prints_the_same_counts() {
    let o = ply(&["perft", "tictactoe", "9", "--threads", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().next(), Some("127872"));
    let seq = ply(&["perft", "tictactoe", "5", "--divide", "--after", "1"]);
    // `--after` takes every following word, so `--threads` comes first.
    let par = ply(&[
        "perft",
        "tictactoe",
        "5",
        "--divide",
        "--threads",
        "4",
        "--after",
        "1",
    ]);
    let lines = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .take_while(|l| !l.starts_with("time:"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(lines(&seq), lines(&par));
    assert_eq!(lines(&par).len(), 9);
}

#[test]
fn bench_prints_a_row_per_configuration_and_plots() {
    let dir = std::env::temp_dir().join(format!("ply-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("speedup.svg");
    let o = ply(&[
        "bench",
        "tictactoe",
        "--depth",
        "5",
        "--algo",
        "minimax,alphabeta,toplevel,chunked,ybwc,lazysmp,abdada",
        "--threads",
        "1,2,3",
        "--runs",
        "2",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| algo"))
        .collect();
    // minimax and alphabeta once, each parallel strategy at 3 thread counts.
    assert_eq!(rows.len(), 2 + 5 * 3, "{out}");
    assert!(rows[1].starts_with("| alphabeta | 1 |") && rows[1].contains("| 1.00 | 1.00 |"));
    assert!(rows.iter().any(|r| r.starts_with("| ybwc | 3 |")));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.contains("abdada"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_parallel_options_give_one_clear_error() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "search",
                "tictactoe",
                "--algo",
                "ybwc",
                "--threads",
                "0",
                "--depth",
                "3",
            ],
            "--threads must be at least 1",
        ),
        (
            &[
                "search",
                "tictactoe",
                "--algo",
                "alphabeta",
                "--threads",
                "2",
            ],
            "is sequential",
        ),
        (
            &[
                "search",
                "tictactoe",
                "--algo",
                "toplevel",
                "--parallel-depth",
                "2",
            ],
            "applies to --algo ybwc",
        ),
        (
            &["search", "tictactoe", "--algo", "ybwc", "--time", "1"],
            "fixed depth",
        ),
        (
            &[
                "search",
                "tictactoe",
                "--algo",
                "toplevel",
                "--nodes",
                "100",
            ],
            "fixed depth",
        ),
        (&["search", "tictactoe", "--algo", "warp"], "lazysmp"),
        (&["perft", "tictactoe", "3", "--threads", "0"], "at least 1"),
        (
            &["bench", "tictactoe", "--depth", "3", "--threads", "1,x"],
            "'x'",
        ),
        (
            &[
                "bench",
                "tictactoe",
                "--depth",
                "3",
                "--algo",
                "toplevel,zz",
            ],
            "zz",
        ),
        (&["bench", "tictactoe", "--depth", "0"], "out of range"),
        (
            &["bench", "tictactoe", "--depth", "3", "--runs", "0"],
            "--runs",
        ),
    ];
    for (args, needle) in cases {
        let o = ply(args);
        assert!(!o.status.success(), "{args:?} succeeded");
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// The engine on several threads takes every budget (it is Lazy SMP over one shared
/// table): `--threads` with `--time`, `--nodes` and `--depth`, for `engine`, `lazysmp`
/// and `abdada`.
#[test]
fn the_engine_runs_on_several_threads_under_every_budget() {
    for algo in ["engine", "lazysmp", "abdada"] {
        for budget in [["--time", "0.2"], ["--nodes", "20000"], ["--depth", "5"]] {
            let o = ply(&[
                "search",
                "checkers",
                "--algo",
                algo,
                "--threads",
                "2",
                budget[0],
                budget[1],
                "--hash-mb",
                "4",
            ]);
            assert!(o.status.success(), "{algo} {budget:?}: {}", stderr(&o));
            let out = stdout(&o);
            assert!(line(&out, "best move:").contains('-'), "{out}");
            assert!(line(&out, "depth:").parse::<u32>().unwrap() >= 1, "{out}");
            assert_eq!(line(&out, "algo:"), format!("{algo} threads: 2"));
        }
    }
}

/// Every evaluation `--eval` accepts, per game spec (Halma's explicit weights with a
/// negative and a fractional one standing for the `m1,m2,m3,m4` form).
const NAMED: [(&str, &str); 5] = [
    ("tictactoe", "lines zero"),
    ("kalah", "tables ply store"),
    ("checkers", "learned standard material"),
    (
        "halma:8",
        "racer manhattan s1 s2 s3 s4 s5 s6 s7 s8 1,-2.5,0.5,1",
    ),
    ("halma:16", "racer s7 1,-2.5,0.5,1"),
];

fn value_of(args: &[&str]) -> String {
    let o = ply(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    line(&stdout(&o), "value:").to_string()
}

/// `ply search GAME --depth D --algo X [--threads N]` prints `--algo alphabeta`'s
/// value for every strategy, thread count, named evaluation and game, at an odd and
/// an even depth. (On the old entry points the Halma evaluations that are not
/// antisymmetric were bound to the root player for sequential search only: at depth
/// 1 and 3 `--algo ybwc` printed 720 and 726 where alpha-beta printed -486 and
/// -638.) `lazysmp` at one thread is the core engine in its exact mode.
#[test]
fn every_strategy_agrees_with_alphabeta_through_the_binary() {
    for (spec, evals) in NAMED {
        let depths: &[&str] = if spec == "halma:16" {
            &["1", "2"]
        } else {
            &["2", "3"]
        };
        for eval in evals.split(' ') {
            for depth in depths {
                let eval_arg = format!("--eval={eval}");
                let base = [
                    "search",
                    spec,
                    "--depth",
                    depth,
                    &eval_arg,
                    "--hash-mb",
                    "1",
                ];
                let run = |extra: &[&str]| -> String {
                    let args: Vec<&str> = base.iter().chain(extra.iter()).copied().collect();
                    value_of(&args)
                };
                let expected = run(&["--algo", "alphabeta"]);
                for algo in ["toplevel", "chunked", "ybwc", "lazysmp", "abdada"] {
                    for threads in ["1", "2", "3", "8"] {
                        let got = run(&["--algo", algo, "--threads", threads]);
                        assert_eq!(
                            got, expected,
                            "{spec} --eval {eval} --depth {depth} --algo {algo} --threads {threads}"
                        );
                    }
                }
            }
        }
    }
}
