//! A property test of the whole command line (issue 17): random argument vectors and
//! `PLY_*` settings, drawn from a fixed seed (the same cases every run), each run
//! through the real binary under a time limit. Whatever the input:
//!
//! * no panic (exit status 101) and no signal (an abort, a kill);
//! * either exit status 0, or a failure status with exactly one line on standard
//!   error, and that line starts with `error:`;
//! * on a failure, nothing written to the endgame table directory;
//! * no run outlives its time limit (a hang or a huge amount of work the settings
//!   should have refused).
//!
//! The pools below mix valid values (small enough that every valid run is quick)
//! with the malformed ones probing found: empty, negative, wrapping, huge, non-ASCII,
//! flag-like and very long values; one run in twelve writes into `/dev/full`.
//!
//! By hand: `FUZZ_SEED=N FUZZ_CASES=M` run other cases, `FUZZ_DEBUG=1` prints each
//! failing run's error line.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Cases run per test run.
const CASES: usize = 300;

/// The most one case may take; every valid run in the pools takes far less.
const LIMIT: Duration = Duration::from_secs(20);

/// splitmix64: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// A value of `pool`: one of those before [`BAD`] four times in five, else one
    /// after it (a pool without [`BAD`] is all valid).
    fn pick<'a>(&mut self, pool: &[&'a str]) -> &'a str {
        let (good, bad) = match pool.iter().position(|&v| v == BAD) {
            Some(i) => (&pool[..i], &pool[i + 1..]),
            None => (pool, &pool[..0]),
        };
        if bad.is_empty() || (!good.is_empty() && self.chance(80)) {
            good[self.below(good.len())]
        } else {
            bad[self.below(bad.len())]
        }
    }
}

/// Separates a pool's valid values (before it) from its malformed ones (after it).
const BAD: &str = "\u{0}bad";

const COMMANDS: &[&str] = &[
    "perft",
    "moves",
    "search",
    "solve",
    "play",
    "bench",
    "tournament",
];

/// A game and inputs that suit it, so that most runs get past the position.
struct Profile {
    spec: &'static str,
    evals: &'static [&'static str],
    positions: &'static [&'static str],
    moves: &'static [&'static str],
}

const PROFILES: &[Profile] = &[
    Profile {
        spec: "tictactoe",
        evals: &["lines", "zero"],
        positions: &["xx.oo....", "x...o...."],
        moves: &["1", "5", "9"],
    },
    Profile {
        spec: "kalah:3x2",
        evals: &["ply", "store"],
        positions: &[
            "2 2 2 [0] / 2 2 2 [0] / first",
            "1 0 3 [5] / 0 2 0 [1] / second",
        ],
        moves: &["1", "2", "3"],
    },
    Profile {
        spec: "kalah:2x1:empty-capture",
        evals: &["ply", "store"],
        positions: &["1 1 [0] / 1 1 [0] / first"],
        moves: &["1", "2"],
    },
    Profile {
        spec: "checkers",
        evals: &["standard", "material"],
        positions: &["B:W21,22:B1,2", "W:W18:B14"],
        moves: &["9-13", "10-14"],
    },
    Profile {
        spec: "checkers:calgary",
        evals: &["standard", "material"],
        positions: &["W:W18:B14", "B:W21,22:B1,2"],
        moves: &["22-17", "23-18"],
    },
    Profile {
        spec: "halma:plies=4",
        evals: &["racer", "manhattan", "s1", "s8", "-2.5,1,1,1"],
        positions: &[],
        moves: &["a1-c3", "b1-d3"],
    },
];

/// Game specs that do not parse.
const BAD_GAMES: &[&str] = &[
    "",
    ":",
    "nosuchgame",
    "kalah:9x9",
    "kalah:6x4294967297",
    "halma:plies=0",
    "tic\ntac",
    "échecs",
];

/// Evaluations, positions and moves that fit no game, or the wrong one.
const BAD_EVALS: &[&str] = &["s9", "1,1,1", "", "x", "lines", "store"];
const BAD_POSITIONS: &[&str] = &[
    "xx?......",
    "",
    "/",
    "ÿ",
    "B:W21,22:B1,2",
    "2 2 2 [0] / 2 2 2 [0] / first",
];
const BAD_MOVES: &[&str] = &[
    "0", "b2", "help", "1-", "a1-h8", "", "-", "--", "10", "11-15",
];

const NUMBERS: &[&str] = &[
    "1",
    "2",
    BAD,
    "0",
    "-1",
    "",
    "x",
    "4294967297",
    "18446744073709551616",
    "99999999999",
    "1e3",
    " 1",
    "٣",
];

const DEPTHS: &[&str] = &[
    "1",
    "2",
    "3",
    BAD,
    "0",
    "-1",
    "",
    "96",
    "100000",
    "4294967297",
    "x",
];

const TIMES: &[&str] = &[
    "0.01", "0.05", BAD, "0", "-1", "1e308", "nan", "inf", "", "x",
];

const THREADS: &[&str] = &[
    "1",
    "2",
    BAD,
    "0",
    "100000",
    "-2",
    "",
    "18446744073709551616",
];

/// Table sizes in MiB. No valid size past a few MiB: whether 65536 fits depends
/// on the machine, and on a big one it would be filled (host/tests/cli/hardening.rs
/// checks the memory bound with the machine's own free memory).
const HASH: &[&str] = &["1", "16", BAD, "0", "65537", "4294967297", "-1", ""];

const ALGOS: &[&str] = &[
    "engine",
    "alphabeta",
    "minimax",
    "toplevel",
    "ybwc",
    "lazysmp",
    "abdada",
    "chunked",
    BAD,
    "magic",
    "",
];

const CONFIGS: &[&str] = &[
    "depth=1",
    "depth=2,eval=lines",
    "nodes=50",
    "time=0.01",
    "algo=minimax,depth=1",
    "algo=alphabeta,depth=2",
    BAD,
    "",
    ",",
    "=",
    "depth=1,depth=2",
    "depth=0",
    "depth=x",
    "time=1e308",
    "speed=3",
    "eval=s9",
];

const STRATEGIES: &[&str] = &[
    "s1,s2",
    "racer,manhattan",
    "-1,1,1,1;s1",
    BAD,
    "s1,s1",
    "s1",
    "",
    "s9,s1",
];

const ENV_VALUES: &[&str] = &[
    "1",
    "2",
    "8",
    " 2 ",
    "max",
    BAD,
    "",
    "abc",
    "-5",
    "0",
    "64",
    "4294967297",
    "1048576",
    "99999999999999999999999",
];

/// The `PLY_*` variables ply reads (see `ply_host::settings::VARIABLES`).
const ENV_NUMBERS: &[&str] = &[
    "PLY_KALAH_TABLE_SEEDS",
    "PLY_HASH_MB",
    "PLY_THREADS",
    "PLY_GUESS_DEPTH",
    "PLY_KALAH_MOVE_NODES",
];

/// A long value, to check the quoting rule on the way.
fn long_value(rng: &mut Rng) -> String {
    "z".repeat(100 + rng.below(5000))
}

/// One random invocation: the arguments and the environment (PLY_TABLES_DIR is added
/// by the caller).
fn case(rng: &mut Rng, out_dir: &Path) -> (Vec<String>, Vec<(String, String)>) {
    let mut args: Vec<String> = Vec::new();
    let cmd = if rng.chance(3) {
        "frobnicate"
    } else {
        rng.pick(COMMANDS)
    };
    args.push(cmd.into());
    let profile = &PROFILES[rng.below(PROFILES.len())];
    if rng.chance(97) {
        let game = if rng.chance(2) {
            long_value(rng)
        } else if rng.chance(8) {
            rng.pick(BAD_GAMES).to_string()
        } else {
            profile.spec.to_string()
        };
        args.push(game);
    }
    // The game's own inputs, then (after BAD) the malformed ones.
    let suited = |good: &[&'static str], bad: &[&'static str]| -> Vec<&'static str> {
        good.iter().chain(&[BAD]).chain(bad).copied().collect()
    };
    let evals = suited(profile.evals, BAD_EVALS);
    let positions = suited(profile.positions, BAD_POSITIONS);
    let moves = suited(profile.moves, BAD_MOVES);
    let flag = |rng: &mut Rng, args: &mut Vec<String>, name: &str, pool: &[&str]| {
        // Mostly each flag once (clap refuses a repeated one).
        if args.iter().any(|a| a == name) && rng.chance(90) {
            return;
        }
        args.push(name.to_string());
        if rng.chance(2) {
            args.push(long_value(rng));
        } else if rng.chance(95) {
            args.push(rng.pick(pool).to_string());
        }
    };
    let plot = out_dir.join("plot.svg").to_string_lossy().into_owned();
    let results = out_dir.join("results.csv").to_string_lossy().into_owned();
    let paths: Vec<&str> = vec![&plot, &results, BAD, "/nonexistent/dir/x", "", "."];
    match cmd {
        "perft" => {
            if rng.chance(90) {
                args.push(rng.pick(DEPTHS).into());
            }
            for _ in 0..rng.below(3) {
                match rng.below(5) {
                    0 => flag(rng, &mut args, "--threads", THREADS),
                    1 => args.push("--divide".into()),
                    2 => args.push("--unique".into()),
                    3 => flag(rng, &mut args, "--position", &positions),
                    _ => flag(rng, &mut args, "--after", &moves),
                }
            }
        }
        "moves" => {
            for _ in 0..rng.below(3) {
                match rng.below(3) {
                    0 => flag(
                        rng,
                        &mut args,
                        "--notation",
                        &["pdn", "calgary", BAD, "x", ""],
                    ),
                    1 => flag(rng, &mut args, "--position", &positions),
                    _ => flag(rng, &mut args, "--after", &moves),
                }
            }
        }
        "search" => {
            // A budget, so that a valid run is short.
            if rng.chance(80) {
                flag(rng, &mut args, "--depth", DEPTHS);
            } else {
                flag(
                    rng,
                    &mut args,
                    "--nodes",
                    &["100", "1000", BAD, "0", "-1", "x"],
                );
            }
            for _ in 0..rng.below(4) {
                match rng.below(8) {
                    0 => flag(rng, &mut args, "--algo", ALGOS),
                    1 => flag(rng, &mut args, "--threads", THREADS),
                    2 => flag(rng, &mut args, "--hash-mb", HASH),
                    3 => flag(rng, &mut args, "--eval", &evals),
                    4 => flag(rng, &mut args, "--parallel-depth", NUMBERS),
                    5 => flag(rng, &mut args, "--time", TIMES),
                    6 => flag(rng, &mut args, "--position", &positions),
                    _ => flag(rng, &mut args, "--after", &moves),
                }
            }
        }
        "solve" => {
            if rng.chance(30) {
                flag(rng, &mut args, "--position", &positions);
            }
            if rng.chance(30) {
                flag(rng, &mut args, "--after", &moves);
            }
        }
        "play" => {
            flag(
                rng,
                &mut args,
                "--first",
                &["ai", BAD, "human", "robot", ""],
            );
            flag(rng, &mut args, "--second", &["ai", BAD, "human", ""]);
            flag(rng, &mut args, "--depth", &["1", "2", BAD, "0", "-1", ""]);
            flag(
                rng,
                &mut args,
                "--max-plies",
                &["6", "10", BAD, "0", "-1", "x"],
            );
            if rng.chance(30) {
                flag(rng, &mut args, "--eval", &evals);
            }
            if rng.chance(20) {
                flag(rng, &mut args, "--time", TIMES);
            }
            if rng.chance(20) {
                flag(rng, &mut args, "--position", &positions);
            }
        }
        "bench" => {
            flag(rng, &mut args, "--depth", &["1", "2", BAD, "0", "-1", "x"]);
            flag(rng, &mut args, "--runs", &["1", "2", BAD, "0", "-1"]);
            for _ in 0..rng.below(4) {
                match rng.below(5) {
                    0 => flag(
                        rng,
                        &mut args,
                        "--algo",
                        &[
                            "alphabeta",
                            "alphabeta,toplevel",
                            "ybwc",
                            BAD,
                            "ybwc,zz",
                            "",
                        ],
                    ),
                    1 => flag(
                        rng,
                        &mut args,
                        "--threads",
                        &["1,2", "1", "2", BAD, "0", "100000", "", "1,,2"],
                    ),
                    2 => flag(rng, &mut args, "--hash-mb", HASH),
                    3 => flag(rng, &mut args, "--plot", &paths),
                    _ => flag(rng, &mut args, "--eval", &evals),
                }
            }
        }
        _ => {
            if rng.chance(40) {
                flag(rng, &mut args, "--strategies", STRATEGIES);
                flag(
                    rng,
                    &mut args,
                    "--games-per-pair",
                    &["1", "2", BAD, "0", "4000000000"],
                );
                flag(rng, &mut args, "--depth", &["1", BAD, "0", "9"]);
                for _ in 0..rng.below(3) {
                    match rng.below(3) {
                        0 => flag(rng, &mut args, "--threads", THREADS),
                        1 => flag(rng, &mut args, "--results", &paths),
                        _ => args.push("--minimax".into()),
                    }
                }
            } else {
                flag(rng, &mut args, "--a", CONFIGS);
                flag(rng, &mut args, "--b", CONFIGS);
                flag(rng, &mut args, "--games", &["1", "2", BAD, "0", "-1"]);
                flag(rng, &mut args, "--max-plies", &["20", "40", BAD, "0", "x"]);
                if rng.chance(30) {
                    flag(
                        rng,
                        &mut args,
                        "--random-plies",
                        &["0", "2", BAD, "4294967295"],
                    );
                }
            }
        }
    }
    if rng.chance(5) {
        args.insert(
            1 + rng.below(args.len()),
            rng.pick(&["--frobnicate", "-", "--", "-x"]).into(),
        );
    }
    let mut env = Vec::new();
    for name in ENV_NUMBERS {
        if rng.chance(10) {
            env.push((name.to_string(), rng.pick(ENV_VALUES).to_string()));
        }
    }
    if rng.chance(3) {
        // In place of the scratch table directory: empty, or a file.
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        let dir = if rng.chance(50) { "" } else { file };
        env.push(("PLY_TABLES_DIR".to_string(), dir.to_string()));
    }
    (args, env)
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Runs one case under [`LIMIT`]; `Err` says what property it broke.
/// `Ok(true)`: the run succeeded; `Ok(false)`: it failed as it should. With `full`,
/// standard output is `/dev/full`: every write fails, so the run must fail, and its
/// one error line must be the last line on standard error (progress lines, such as a
/// tournament's games, may come before it; tables built before the failed write may
/// stay).
fn check(
    args: &[String],
    env: &[(String, String)],
    tables: &Path,
    full: bool,
) -> Result<bool, String> {
    let _ = std::fs::remove_dir_all(tables);
    std::fs::create_dir_all(tables).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ply"));
    cmd.args(args)
        .env("PLY_TABLES_DIR", tables)
        // Solves and table building on one thread unless the case says otherwise.
        .env("PLY_THREADS", "1")
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    if full {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .map_err(|e| format!("cannot open /dev/full: {}", e))?;
        cmd.stdout(f);
    } else {
        cmd.stdout(Stdio::null());
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let started = Instant::now();
    let mut child = cmd.spawn().map_err(|e| format!("cannot run ply: {}", e))?;
    // Standard error is read on a thread, so a chatty child never blocks on a full pipe.
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut pipe, &mut s);
        s
    });
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {:?}", LIMIT));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let err = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let lines: Vec<&str> = err.lines().collect();
    match status.code() {
        None => {
            return Err(format!(
                "killed by a signal: {:?}; stderr {:?}",
                status, err
            ))
        }
        Some(101) => return Err(format!("panicked: {}", err)),
        Some(0) if full => return Err("exit status 0 with every write failing".into()),
        Some(0) => return Ok(true),
        Some(_) => {}
    }
    if std::env::var_os("FUZZ_DEBUG").is_some() {
        eprintln!("{}", lines.first().unwrap_or(&""));
    }
    if err.contains("panicked") {
        return Err(format!("panic message: {}", err));
    }
    if full {
        let errors = lines.iter().filter(|l| l.starts_with("error")).count();
        let last = lines.last().copied().unwrap_or("");
        if errors != 1 || !last.starts_with("error: ") {
            return Err(format!(
                "output failure reported as {:?}",
                err.chars().take(600).collect::<String>()
            ));
        }
        return Ok(false);
    }
    if lines.len() != 1 || !lines[0].starts_with("error:") {
        return Err(format!(
            "failure with {} lines on stderr: {:?}",
            lines.len(),
            err.chars().take(600).collect::<String>()
        ));
    }
    if lines[0].chars().count() > 400 {
        return Err(format!(
            "an error line of {} characters",
            lines[0].chars().count()
        ));
    }
    let left = files_in(tables);
    if !left.is_empty() {
        return Err(format!("files left in the table directory: {:?}", left));
    }
    Ok(false)
}

fn show(args: &[String], env: &[(String, String)]) -> String {
    let short = |s: &String| {
        if s.chars().count() > 40 {
            format!(
                "{}…({} chars)",
                s.chars().take(40).collect::<String>(),
                s.chars().count()
            )
        } else {
            s.clone()
        }
    };
    format!(
        "{} ply {}",
        env.iter()
            .map(|(k, v)| format!("{}={:?}", k, v))
            .collect::<Vec<_>>()
            .join(" "),
        args.iter()
            .map(|a| format!("{:?}", short(a)))
            .collect::<Vec<_>>()
            .join(" ")
    )
}

#[test]
fn random_command_lines_never_panic_and_fail_with_one_line() {
    let base: PathBuf = std::env::temp_dir().join(format!("ply-cli-fuzz-{}", std::process::id()));
    let tables = base.join("tables");
    let out_dir = base.join("out");
    // A fixed seed: the same cases every run. FUZZ_SEED and FUZZ_CASES explore
    // further by hand.
    let seed = std::env::var("FUZZ_SEED").ok().and_then(|v| v.parse().ok());
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok());
    let cases: usize = cases.unwrap_or(CASES);
    let mut rng = Rng(seed.unwrap_or(0x5eed_0017));
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut successes = 0;
    for i in 0..cases {
        let _ = std::fs::remove_dir_all(&out_dir);
        std::fs::create_dir_all(&out_dir).unwrap();
        let (args, env) = case(&mut rng, &out_dir);
        let full = cfg!(target_os = "linux") && rng.chance(8);
        let t = Instant::now();
        match check(&args, &env, &tables, full) {
            Ok(ok) => successes += usize::from(ok),
            Err(problem) => {
                let to = if full { " > /dev/full" } else { "" };
                failures.push(format!(
                    "case {}: {}\n  {}{}",
                    i,
                    problem,
                    show(&args, &env),
                    to
                ))
            }
        }
        if t.elapsed() > Duration::from_secs(3) {
            println!("slow case {} ({:?}): {}", i, t.elapsed(), show(&args, &env));
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    println!(
        "{} cases in {:?}, {} succeeded",
        cases,
        started.elapsed(),
        successes
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases,
        failures.join("\n")
    );
}
