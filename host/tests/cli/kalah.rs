//! `ply` on Kalah end to end: perft, solve with on-disk endgame tables, AI games
//! printing "chooses pit N", the evaluation tournament and bad input.

use std::process::{Command, Output};

fn ply_env(args: &[&str], tables: &std::path::Path) -> Output {
    ply_env_with(args, tables, &[])
}

/// A directory for one test's tables, removed when the test ends.
fn tmp_dir(name: &str) -> crate::common::Scratch {
    crate::common::scratch("kalah", name)
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_6x4_depth_6() {
    let d = tmp_dir("perft");
    let o = ply_env(&["perft", "kalah", "6"], &d);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(out(&o).lines().next(), Some("23233"));
}

#[test]
fn solve_small_sizes_prints_published_values_and_saves_tables() {
    let d = tmp_dir("solve");
    for (spec, value) in [("kalah:3x3", "value: 2"), ("kalah:4x3", "value: 6")] {
        let o = ply_env(&["solve", spec], &d);
        assert!(o.status.success(), "{}", err(&o));
        let text = out(&o);
        assert_eq!(text.lines().next(), Some(value), "{}", text);
        // One line per first move, and the best moves among them.
        let pits: usize = spec[6..7].parse().unwrap();
        assert_eq!(
            text.lines().filter(|l| l.starts_with("move ")).count(),
            pits
        );
        // Small sizes get every move's exact value, no bound.
        assert!(!text.contains("<="), "{}", text);
        assert!(err(&o).contains("endgame tables: built"), "{}", err(&o));
    }
    // A second run maps the saved tables (checked) instead of building them.
    let o = ply_env(&["solve", "kalah:3x3"], &d);
    assert!(err(&o).contains("endgame tables: mapped"), "{}", err(&o));
    assert_eq!(out(&o).lines().next(), Some("value: 2"));
    // Without tables the search alone finds the same values.
    let solve = |spec: &str, table_seeds: &str| {
        Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["solve", spec])
            .env("PLY_TABLES_DIR", &d)
            .env("PLY_KALAH_TABLE_SEEDS", table_seeds)
            .output()
            .unwrap()
    };
    let o = solve("kalah:4x3", "0");
    assert_eq!(out(&o).lines().next(), Some("value: 6"), "{}", err(&o));
    assert!(out(&o).contains("move 2: 6"));
    // A solve with many more seeds in play than the tables cover (4x4 with 4-seed
    // tables: 32 - 4 = 28 beyond them, more than 24) reads them into memory of its
    // own (huge pages for its random probes) instead of mapping them, and gets
    // the published value. (The file holds the 26 seeds 4x3 built above: a prefix
    // is read.)
    let read = solve("kalah:4x4", "4");
    assert!(
        err(&read).contains("endgame tables: loaded 4 seeds in play"),
        "{}",
        err(&read)
    );
    assert!(!err(&read).contains("mapped"), "{}", err(&read));
    assert_eq!(out(&read).lines().next(), Some("value: 2"));
    let _ = std::fs::remove_dir_all(&d);
}

/// With no node budget for the moves that are not best, `ply solve` still prints
/// the exact root value and best moves, and a proved upper bound below the root
/// value for each other move, which the exact values respect.
#[test]
fn solve_over_the_move_node_budget_prints_exact_best_moves_and_bounds() {
    let d = tmp_dir("budget");
    let run = |budget: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["solve", "kalah:4x3"])
            .env("PLY_TABLES_DIR", &d)
            .env("PLY_KALAH_TABLE_SEEDS", "0")
            .env("PLY_KALAH_MOVE_NODES", budget)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", err(&o));
        out(&o)
    };
    let exact = run("max");
    let bounded = run("0");
    assert_eq!(exact.lines().next(), Some("value: 6"), "{}", exact);
    assert_eq!(bounded.lines().next(), Some("value: 6"), "{}", bounded);
    assert_eq!(exact.lines().nth(1), Some("best moves: 2"), "{}", exact);
    assert_eq!(bounded.lines().nth(1), Some("best moves: 2"), "{}", bounded);
    assert!(bounded.contains("move 2: 6\n"), "{}", bounded);
    let mut bounds = 0;
    for pit in ["1", "3", "4"] {
        let value = |text: &str| -> Option<String> {
            let prefix = format!("move {}: ", pit);
            text.lines()
                .find(|l| l.starts_with(&prefix))
                .map(|l| l[prefix.len()..].to_string())
        };
        let v: i64 = value(&exact).unwrap().parse().unwrap();
        let b = value(&bounded).unwrap();
        if let Some(rest) = b.strip_prefix("<= ") {
            let ub: i64 = rest.split(' ').next().unwrap().parse().unwrap();
            assert!(v <= ub && ub < 6, "pit {}: {} vs bound {}", pit, v, ub);
            bounds += 1;
        } else {
            assert_eq!(b.parse::<i64>().unwrap(), v, "pit {}", pit);
        }
    }
    assert!(bounds > 0, "{}", bounded);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn solve_from_a_position_with_the_second_player_to_move() {
    let d = tmp_dir("pos");
    // After pit 2 of kalah:3x3 the second player moves; values are its margins.
    // (Pit 1 would be an extra turn: 3 seeds reach the store.)
    let o = ply_env(&["solve", "kalah:3x3", "--after", "2"], &d);
    assert!(o.status.success(), "{}", err(&o));
    let first = ply_env(&["solve", "kalah:3x3"], &d);
    let move2 = out(&first)
        .lines()
        .find(|l| l.starts_with("move 2: "))
        .unwrap()
        .trim_start_matches("move 2: ")
        .to_string();
    let v: i64 = move2.parse().unwrap();
    assert_eq!(
        out(&o).lines().next(),
        Some(format!("value: {}", -v).as_str())
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn play_ai_against_ai_prints_boards_and_chosen_pits() {
    let d = tmp_dir("play");
    let o = ply_env(
        &[
            "play", "kalah", "--first", "ai", "--second", "ai", "--depth", "4",
        ],
        &d,
    );
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("Player 1 chooses pit "), "{}", text);
    assert!(text.contains("Player 2 chooses pit "), "{}", text);
    assert!(text.contains("(Player 2's pits)"));
    assert!(text.contains("result: "));
    // The final position has every seed in the stores.
    let last = text.lines().rfind(|l| l.starts_with("position: ")).unwrap();
    assert!(last.starts_with("position: 0 0 0 0 0 0 ["), "{}", last);
}

#[test]
fn own_evaluation_wins_a_tournament_against_the_seeds() {
    let d = tmp_dir("tour");
    let o = ply_env(
        &[
            "tournament",
            "kalah",
            "--a",
            "depth=4,eval=ply",
            "--b",
            "depth=4,eval=store",
            "--games",
            "40",
            "--random-plies",
            "2",
        ],
        &d,
    );
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let line = text.lines().find(|l| l.starts_with("A wins ")).unwrap();
    let nums: Vec<u32> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(nums[0] > nums[2], "{}", line);
}

#[test]
fn bad_kalah_input_gives_one_clear_line() {
    let d = tmp_dir("bad");
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "kalah:9x4", "2"], "pits per row must be 1 to 8"),
        (&["perft", "kalah:6x22", "2"], "at most 255"),
        (&["perft", "kalah:6x4:emptycapture", "2"], "empty-capture"),
        (&["moves", "kalah", "--after", "7"], "pit number"),
        (
            &["moves", "kalah", "--after", "1", "1", "1"],
            "the pit is empty",
        ),
        (
            &[
                "perft",
                "kalah",
                "1",
                "--position",
                "4 4 4 4 4 4 [1] / 4 4 4 4 4 4 [0] / first",
            ],
            "add up",
        ),
        (
            &[
                "play", "kalah", "--first", "ai", "--second", "ai", "--eval", "x",
            ],
            "expected tables, ply or store",
        ),
    ];
    for (args, needle) in cases {
        let o = ply_env(args, &d);
        assert!(!o.status.success(), "{:?} succeeded", args);
        let e = err(&o);
        assert!(e.contains(needle), "{:?}: {}", args, e);
        assert!(!e.contains("panicked"), "{:?}: {}", args, e);
    }
}

/// Tables bigger than the machine's memory are refused with a line that names the
/// setting, not an allocation failure (the process used to abort).
#[test]
fn solve_refuses_tables_larger_than_memory() {
    let d = tmp_dir("memory");
    for (var, value, needle) in [
        ("PLY_KALAH_TABLE_SEEDS", "60", "PLY_KALAH_TABLE_SEEDS"),
        ("PLY_HASH_MB", "1048576", "PLY_HASH_MB"),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["solve", "kalah:6x5"])
            .env("PLY_TABLES_DIR", &d)
            .env("PLY_KALAH_TABLE_SEEDS", "8")
            .env(var, value)
            .output()
            .expect("run ply");
        assert!(!o.status.success(), "{}={} succeeded", var, value);
        let e = err(&o);
        let last = e.lines().last().unwrap_or("");
        assert!(
            last.starts_with("error: ") && last.contains(needle) && last.contains("memory"),
            "{}={}: {}",
            var,
            value,
            e
        );
        assert!(
            !e.contains("panicked") && !e.contains("allocation"),
            "{}",
            e
        );
    }
}

/// The first guesses are shared out among the threads, each move's guess kept for
/// that move: with guesses deep enough to reach every game's end (64 plies on
/// these small boards) each guess is the move's exact value, so the guesses line
/// must give every pit the value `ply solve` prints for it. Three threads, more
/// moves than threads.
#[test]
fn first_guesses_on_several_threads_belong_to_their_moves() {
    let d = tmp_dir("guesses");
    for spec in ["kalah:4x2", "kalah:5x1", "kalah:3x3"] {
        let o = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["solve", spec])
            .env("PLY_TABLES_DIR", &d)
            .env("PLY_THREADS", "3")
            .env("PLY_KALAH_TABLE_SEEDS", "0")
            .env("PLY_GUESS_DEPTH", "64")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", err(&o));
        let stderr = err(&o);
        let line = stderr
            .lines()
            .find(|l| l.contains("first guesses (64 plies"))
            .unwrap_or_else(|| panic!("no guesses line: {}", stderr));
        let guesses = &line[line.find("): ").expect("guesses") + 3..];
        let mut guessed: Vec<(String, String)> = guesses
            .split(", ")
            .map(|g| {
                let f: Vec<&str> = g.split(' ').collect();
                assert_eq!(f.len(), 3, "{}", line);
                (f[1].to_string(), f[2].to_string())
            })
            .collect();
        guessed.sort();
        let mut exact: Vec<(String, String)> = out(&o)
            .lines()
            .filter_map(|l| l.strip_prefix("move "))
            .map(|l| {
                let (pit, v) = l.split_once(": ").expect("move line");
                (pit.to_string(), v.to_string())
            })
            .collect();
        exact.sort();
        assert_eq!(guessed, exact, "{}: {}", spec, line);
    }
}

/// `ply` with `args`, the tables in `tables`, and `env` set besides.
fn ply_env_with(args: &[&str], tables: &std::path::Path, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ply"));
    c.args(args)
        .env("PLY_TABLES_DIR", tables)
        .env_remove("PLY_THREADS");
    // Two solver threads; a search keeps its default, one reproducible thread.
    if args.first() == Some(&"solve") {
        c.args(["--threads", "2"]);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run ply")
}

/// The value after `key: ` on the line that starts with it.
fn field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key} line in {text}"))
        .trim()
}

/// Exact play (docs/games/kalah/play.md): on Kalah(4,3) the default evaluation, `tables`,
/// builds the board's endgame tables on the spot (24 seeds in play: all of them) and
/// `ply search` then plays one of `ply solve`'s best moves and values it as the
/// solved final margin (`4 × margin + 4096` for a win), under a depth budget (the
/// engine over the tables) and a time budget (the solver at the root, before the
/// search on one thread, beside it on two); `--eval ply` and
/// `PLY_KALAH_TABLE_SEEDS=0` turn the tables off.
#[test]
fn search_with_tables_plays_the_solved_best_move() {
    let d = tmp_dir("exact");
    let first = ply_env(&["search", "kalah:4x3", "--depth", "1"], &d);
    assert!(first.status.success(), "{}", err(&first));
    assert!(
        err(&first).contains("endgame tables: built 24 seeds in play"),
        "{}",
        err(&first)
    );
    assert!(d.join("kalah-4pits-seed-rules.v3.tbl").exists());
    let afters: [&[&str]; 5] = [
        &[],
        &["1"],
        &["2", "3"],
        &["4", "1", "2"],
        &["3", "1", "4", "2"],
    ];
    for after in afters {
        let with_after = |args: &[&str]| -> Vec<String> {
            let mut v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            if !after.is_empty() {
                v.push("--after".into());
                v.extend(after.iter().map(|s| s.to_string()));
            }
            v
        };
        let run = |args: &[&str], env: &[(&str, &str)]| -> Output {
            let args = with_after(args);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            ply_env_with(&args, &d, env)
        };
        let solved = run(&["solve", "kalah:4x3"], &[]);
        assert!(solved.status.success(), "{}", err(&solved));
        let solved = out(&solved);
        let value: i32 = field(&solved, "value:").parse().unwrap();
        let best: Vec<&str> = field(&solved, "best moves:").split(' ').collect();
        let want = 4 * value + 4096 * value.signum();
        let budgets: [&[&str]; 4] = [
            &["--depth", "1"],
            &["--depth", "4"],
            &["--time", "0.3"],
            // The solver beside the search, on a thread of its own.
            &["--time", "0.3", "--threads", "2"],
        ];
        for budget in budgets {
            let args: Vec<&str> = ["search", "kalah:4x3"]
                .iter()
                .chain(budget)
                .copied()
                .collect();
            let o = run(&args, &[]);
            assert!(o.status.success(), "{}", err(&o));
            let text = out(&o);
            let mv = field(&text, "best move:");
            assert!(
                best.contains(&mv),
                "{after:?} {budget:?}: {mv} not in {best:?}"
            );
            assert_eq!(
                field(&text, "value:"),
                want.to_string(),
                "{after:?} {budget:?}"
            );
            // Mapped from the file built by the first run, not built again.
            assert!(!err(&o).contains("built"), "{}", err(&o));
        }
        // With tables of half the seeds the engine alone is not exact; the solver
        // proves the move (its report: the one move, at the deepest depth).
        for threads in ["1", "2"] {
            let args = ["search", "kalah:4x3", "--time", "0.3", "--threads", threads];
            let o = run(&args, &[("PLY_KALAH_TABLE_SEEDS", "12")]);
            assert!(o.status.success(), "{}", err(&o));
            let text = out(&o);
            assert!(
                best.contains(&field(&text, "best move:")),
                "{after:?}: {text}"
            );
            assert_eq!(
                field(&text, "value:"),
                want.to_string(),
                "{after:?}: {text}"
            );
            assert_eq!(field(&text, "pv:"), field(&text, "best move:"), "{text}");
            assert_eq!(field(&text, "depth:"), "95", "{text}");
        }
        // Without the tables the engine values the position by its heuristic.
        let heuristic = run(
            &["search", "kalah:4x3", "--depth", "1", "--eval", "ply"],
            &[],
        );
        let off = run(
            &["search", "kalah:4x3", "--depth", "1"],
            &[("PLY_KALAH_TABLE_SEEDS", "0")],
        );
        for o in [&heuristic, &off] {
            assert!(o.status.success(), "{}", err(o));
            assert!(!err(o).contains("endgame tables"), "{}", err(o));
            assert_ne!(field(&out(o), "value:"), want.to_string(), "{after:?}");
        }
        assert_eq!(
            field(&out(&heuristic), "value:"),
            field(&out(&off), "value:")
        );
    }
}

/// With no table file for its board, the default evaluation builds the tables that
/// take about a second (Kalah(6,4): 14 seeds in play), says how to get the default
/// ones, and a later run maps the file.
#[test]
fn search_builds_small_tables_once_and_names_the_default_ones() {
    let d = tmp_dir("cheap");
    let o = ply_env(&["search", "kalah", "--depth", "6"], &d);
    assert!(o.status.success(), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("endgame tables: built 14 seeds in play"), "{e}");
    assert!(
        e.contains("PLY_KALAH_TABLE_SEEDS=20 builds the default tables"),
        "{e}"
    );
    let again = ply_env(&["search", "kalah", "--depth", "6"], &d);
    assert!(
        err(&again).contains("endgame tables: mapped 14 seeds in play"),
        "{}",
        err(&again)
    );
    // The first line is the same search: the same depth, value, nodes and line.
    // Only its elapsed time may differ.
    let first = |o: &std::process::Output| -> Vec<String> {
        let line = out(o).lines().next().unwrap_or_default().to_string();
        let mut words: Vec<String> = line.split_whitespace().map(String::from).collect();
        if let Some(i) = words.iter().position(|w| w == "time") {
            words.drain(i..(i + 3).min(words.len()));
        }
        words
    };
    assert!(first(&o).iter().any(|w| w == "pv"), "{}", out(&o));
    assert_eq!(first(&o), first(&again));
}

/// `ply engine` plays Kalah exactly too: `isready` loads the tables (built here: half
/// of Kalah(4,3)'s seeds, so that the engine alone is not exact), and a `go movetime`
/// sent after `readyok` answers with the solver's proved move, reported at the
/// deepest depth, on one thread (the solver first) and on two (beside the search).
#[test]
fn engine_protocol_plays_the_solved_best_move() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::Stdio;
    let d = tmp_dir("engine");
    for threads in ["1", "2"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["engine", "kalah:4x3", "--threads", threads])
            .env("PLY_TABLES_DIR", &*d)
            .env("PLY_KALAH_TABLE_SEEDS", "12")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run ply");
        let mut input = child.stdin.take().unwrap();
        let mut output = BufReader::new(child.stdout.take().unwrap());
        input.write_all(b"uci\nisready\n").unwrap();
        input.flush().unwrap();
        // A controller sends `go` once the engine is ready (a `go movetime` counts
        // from the moment it is read).
        let mut text = String::new();
        while !text.ends_with("readyok\n") {
            let before = text.len();
            output.read_line(&mut text).unwrap();
            assert!(text.len() > before, "no readyok: {text}");
        }
        input
            .write_all(b"position startpos\ngo movetime 500\n")
            .unwrap();
        drop(input);
        output.read_to_string(&mut text).unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", err(&o));
        let e = err(&o);
        assert!(
            e.contains("endgame tables: ") && e.contains("12 seeds in play"),
            "{e}"
        );
        assert!(text.contains("info depth 95 "), "{threads} threads: {text}");
        // The only best first move of Kalah(4,3) (docs/games/kalah/solve.md), +6 proved.
        assert!(text.contains("bestmove 2"), "{threads} threads: {text}");
        let want = format!("score cp {}", 4 * 6 + 4096);
        assert!(text.contains(&want), "{threads} threads: {text}");
    }
}

/// `ply play` under a time budget loads the tables beside its first moves (its first
/// move counts from the process start: it does not wait for them) and plays on with
/// them: the game ends, and moves after the first few are proved.
#[test]
fn play_under_a_time_budget_loads_the_tables_beside_the_game() {
    let d = tmp_dir("play-tables");
    // The tables built once (a search waits for them).
    let built = ply_env(&["search", "kalah:4x3", "--depth", "1"], &d);
    let e = err(&built);
    assert!(e.contains("endgame tables: built 24 seeds in play"), "{e}");
    let args = [
        "play",
        "kalah:4x3",
        "--first",
        "ai",
        "--second",
        "ai",
        "--time",
        "0.2",
    ];
    let o = ply_env(&args, &d);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("result: "), "{}", out(&o));
    let e = err(&o);
    assert!(e.contains("endgame tables: mapped 24 seeds in play"), "{e}");
    // Proved moves report the deepest depth.
    assert!(out(&o).contains("depth 95"), "{}", out(&o));
}
