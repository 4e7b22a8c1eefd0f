//! A property test of the whole command line (issue 17): random argument vectors and
//! `PLY_*` settings, drawn from a fixed seed (the same cases every run), each run
//! through the real binary under a time limit. Whatever the input:
//!
//! * no panic (exit status 101) and no signal (an abort, a kill);
//! * either exit status 0, or a failure status with exactly one line on standard
//!   error, and that line starts with `error:`;
//! * on a failure, nothing written to the endgame table directory;
//! * no run outlives its time limit (a hang or a huge amount of work the settings
//!   should have refused);
//! * (issue 49) the file targets given as outputs ([`FILE_TARGETS`]: a directory, a
//!   fifo, links, a read-only directory) are never replaced, `/dev/full` stays a
//!   device, and no temporary or lock file is left, whatever the run's end.
//!
//! The pools below mix valid values (small enough that every valid run is quick)
//! with the malformed ones probing found: empty, negative, wrapping, huge, non-ASCII,
//! flag-like and very long values; one run in twelve writes into `/dev/full`.
//!
//! By hand: `FUZZ_SEED=N FUZZ_CASES=M` run other cases, `FUZZ_DEBUG=1` prints each
//! failing run's error line.
//!
//! The generator and the pools are in `host/tests/cli/fuzz/pools.rs`, one case drawn
//! from them in `host/tests/cli/fuzz/cases.rs`; here each case is run and checked.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod cases;
mod pools;

use cases::case;
use pools::Rng;

/// The file targets made afresh in the output directory before each case (issue
/// 49), which the cases give as output files: a directory, a fifo, a link to
/// nothing yet, a link to `/dev/full`, a link to the directory, and a directory
/// that cannot be written (where the test does not run as root).
const FILE_TARGETS: &[&str] = &["dir", "fifo", "link", "devlink", "dirlink", "ro"];

/// Makes [`FILE_TARGETS`] in `out`.
fn make_targets(out: &Path) {
    use std::os::unix::fs::{symlink, PermissionsExt};
    std::fs::create_dir(out.join("dir")).unwrap();
    let ok = Command::new("mkfifo")
        .arg(out.join("fifo"))
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo");
    symlink("target", out.join("link")).unwrap();
    symlink("/dev/full", out.join("devlink")).unwrap();
    symlink("dir", out.join("dirlink")).unwrap();
    std::fs::create_dir(out.join("ro")).unwrap();
    std::fs::set_permissions(out.join("ro"), std::fs::Permissions::from_mode(0o555)).unwrap();
}

/// What a case left in `out` that it should not have: a temporary or lock file,
/// or a file target replaced (the fifo no longer a fifo, a link no longer a link,
/// `/dev/full` no longer a device). Result files (`plot.svg`, `results.csv`, the
/// link's `target`, a checkpoint) may stay.
fn out_problems(out: &Path) -> Vec<String> {
    use std::os::unix::fs::FileTypeExt;
    let mut problems = Vec::new();
    for name in files_in(out) {
        if name.contains(".tmp") || name.ends_with(".lock") {
            problems.push(format!("{} left behind", name));
        }
    }
    let kind = |name: &str| std::fs::symlink_metadata(out.join(name)).map(|m| m.file_type());
    if !kind("fifo").is_ok_and(|t| t.is_fifo()) {
        problems.push("the fifo was replaced".into());
    }
    for link in ["link", "devlink", "dirlink"] {
        if !kind(link).is_ok_and(|t| t.is_symlink()) {
            problems.push(format!("{} was replaced", link));
        }
    }
    if !kind("dir").is_ok_and(|t| t.is_dir()) {
        problems.push("the directory was replaced".into());
    }
    let full = std::fs::symlink_metadata("/dev/full").map(|m| m.file_type());
    if !full.is_ok_and(|t| t.is_char_device()) {
        problems.push("/dev/full was replaced".into());
    }
    for dir in ["dir", "ro"] {
        for name in files_in(&out.join(dir)) {
            if name.contains(".tmp") || name.ends_with(".lock") {
                problems.push(format!("{}/{} left behind", dir, name));
            }
        }
    }
    problems
}

/// Cases run per test run.
const CASES: usize = 300;

/// The most one case may take; every valid run in the pools takes far less.
const LIMIT: Duration = Duration::from_secs(20);

/// Makes `out`'s read-only directory writable again, so that it can be removed.
fn make_writable(out: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(out.join("ro"), std::fs::Permissions::from_mode(0o755));
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
        make_writable(&out_dir);
        let _ = std::fs::remove_dir_all(&out_dir);
        std::fs::create_dir_all(&out_dir).unwrap();
        make_targets(&out_dir);
        let (args, env) = case(&mut rng, &out_dir);
        let full = cfg!(target_os = "linux") && rng.chance(8);
        let t = Instant::now();
        let checked = check(&args, &env, &tables, full).and_then(|ok| {
            let problems = out_problems(&out_dir);
            if problems.is_empty() {
                Ok(ok)
            } else {
                Err(problems.join("; "))
            }
        });
        match checked {
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
    make_writable(&out_dir);
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
