//! One random invocation of `ply` drawn from the pools: a command, its arguments and
//! `PLY_*` settings.

use super::pools::*;
use super::*;

/// A long value, to check the quoting rule on the way.
pub(super) fn long_value(rng: &mut Rng) -> String {
    "z".repeat(100 + rng.below(5000))
}

/// One random invocation: the arguments and the environment (PLY_TABLES_DIR is added
/// by the caller).
pub(super) fn case(rng: &mut Rng, out_dir: &Path) -> (Vec<String>, Vec<(String, String)>) {
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
    // Issue 49: the file targets the caller made in out_dir (FILE_TARGETS), each
    // once as it is and once as a directory path (`dir/`).
    let targets: Vec<String> = FILE_TARGETS
        .iter()
        .flat_map(|t| {
            let p = out_dir.join(t).to_string_lossy().into_owned();
            [p.clone(), format!("{}/", p)]
        })
        .collect();
    let mut paths: Vec<&str> = vec![&plot, &results, BAD, "/nonexistent/dir/x", "", "."];
    paths.extend(targets.iter().map(String::as_str));
    let checkpoints: Vec<&str> = paths[3..].to_vec();
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
                    4 if rng.chance(3) => {
                        flag(rng, &mut args, "--checkpoint", &checkpoints);
                        if rng.chance(2) {
                            args.push("--resume".into());
                        }
                    }
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
                    match rng.below(4) {
                        0 => flag(rng, &mut args, "--threads", THREADS),
                        1 => flag(rng, &mut args, "--results", &paths),
                        2 => flag(rng, &mut args, "--checkpoint", &paths),
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
    for name in env_numbers() {
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
