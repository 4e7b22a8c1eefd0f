//! Running the real `ply` binary from the integration tests.
// Each test file uses the helpers it needs.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The quickest bench of `game`: depth 1, one run of alpha-beta.
pub fn bench(game: &str) -> Vec<&str> {
    with(
        &["bench", game],
        &["--depth", "1", "--runs", "1", "--algo", "alphabeta"],
    )
}

/// `ply play game` with the AI on both sides (a budget to follow).
pub fn play_ai(game: &str) -> Vec<&str> {
    with(&["play", game], &["--first", "ai", "--second", "ai"])
}

/// The Halma round robin of two strategies (`--games-per-pair` to follow).
pub const ROUND_ROBIN: &[&str] = &["tournament", "halma", "--strategies", "s1,s2"];

/// Two configurations of depth 1 playing tic-tac-toe.
pub const TWO_CONFIGS: &[&str] = &[
    "tournament",
    "tictactoe",
    "--a",
    "depth=1",
    "--b",
    "depth=1",
];

/// `base` with `rest` after it: a command line from one of the builders above.
pub fn with<'a>(base: &[&'a str], rest: &[&'a str]) -> Vec<&'a str> {
    [base, rest].concat()
}

/// The Halma round robin of three strategies at depth 1 (more options to follow).
pub const HALMA_ROUND_ROBIN: &[&str] = &[
    "tournament",
    "halma",
    "--strategies",
    "s1,s7,racer",
    "--depth",
    "1",
];

/// Starts `ply` with `args`, its standard output and error piped.
pub fn spawn_ply(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ply")
}

/// Runs `ply` with `args` and collects its output.
pub fn ply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .output()
        .expect("run ply")
}

/// Runs `ply` with `args`, typing `input` (text, or any bytes) on its standard input.
pub fn ply_stdin(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ply");
    // ply may finish (or fail) before reading everything: a closed pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_ref());
    child.wait_with_output().unwrap()
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A test's own directory, removed with everything in it when dropped (at the end
/// of the test, passed or failed), so that test runs leave nothing behind.
pub struct Scratch(PathBuf);

impl Scratch {
    /// The path of `name` in the directory, and the same as a command-line argument.
    pub fn file(&self, name: &str) -> (PathBuf, String) {
        let path = self.0.join(name);
        let arg = path
            .to_str()
            .expect("a UTF-8 temporary directory")
            .to_string();
        (path, arg)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh, empty directory for one test, `ply-GROUP-NAME-PID` in the temporary
/// directory (what an earlier run left there is removed first).
pub fn scratch(group: &str, name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("ply-{}-{}-{}", group, name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// Waits, a minute at most, for `path` to appear while `child` (named `who` in the
/// failure) runs: its first checkpoint.
pub fn wait_for(path: &Path, child: &mut Child, who: &str) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{} ended before its first checkpoint",
            who
        );
        assert!(start.elapsed() < Duration::from_secs(60), "no checkpoint");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A perft long enough to be stopped midway, with a checkpoint in `ckpt`: 36,263,167,175
/// leaves of draughts in 9105 items, several seconds on one thread with a 64 MiB
/// table; the first checkpoint is written after one.
pub fn long_perft(ckpt: &str) -> [&str; 9] {
    [
        "perft",
        "checkers",
        "15",
        "--threads",
        "1",
        "--hash-mb",
        "64",
        "--checkpoint",
        ckpt,
    ]
}

/// The total of [`long_perft`].
pub const LONG_PERFT_TOTAL: &str = "36263167175";

/// Standard output without the lines that hold times and table statistics (which
/// depend on how the work was split and timed): what two runs of one count share.
pub fn results(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| {
            !l.starts_with("time: ") && !l.starts_with("leaves/s: ") && !l.starts_with("table: ")
        })
        .map(str::to_string)
        .collect()
}

/// The items a stopped run saved, from its `stopped: N of M items are saved in ...:
/// rerun the same command with --resume to finish` line on standard error `err`.
pub fn saved_items(err: &str) -> usize {
    let line = err
        .lines()
        .find(|l| l.starts_with("stopped: "))
        .unwrap_or_else(|| panic!("no stopped: line in {}", err));
    assert!(
        line.ends_with("rerun the same command with --resume to finish"),
        "{}",
        line
    );
    line["stopped: ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", line))
}
