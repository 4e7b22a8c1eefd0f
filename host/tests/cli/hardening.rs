//! Issue 17: every failure found by probing the CLI, kept as a test through the real
//! binary. Each test is named after the numbered case it checks; each failed on the
//! code before the fix (a panic, an abort, work done before an error, an input
//! accepted or an error worded as described in the issue). The cases are grouped by
//! subject: `hardening/resources.rs` (1 to 5), `hardening/arguments.rs` (6 to 10),
//! `hardening/play.rs` (11, 12); the helpers they share are here.

use crate::common::{
    bench, play_ai, ply, ply_stdin, scratch, stderr, stdout, with, ROUND_ROBIN, TWO_CONFIGS,
};

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod arguments;
mod files;
mod options;
mod play;
mod resources;

/// Runs `ply` with `args` and the environment `env`, standard input empty and
/// standard output into `out` (`None`: collected).
fn ply_with(args: &[&str], env: &[(&str, &str)], out: Option<std::fs::File>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ply"));
    cmd.args(args).stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    if let Some(f) = out {
        cmd.stdout(f);
    }
    cmd.output().expect("run ply")
}

/// A fresh, empty scratch directory.
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Asserts `o` failed with exit status 1 and exactly one line on standard error,
/// `error: ...`, that contains every one of `needles`; returns that line.
fn one_error(o: &Output, what: &str, needles: &[&str]) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{}: {:?} {}", what, o.status, err);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{}: {:?}", what, err);
    assert!(lines[0].starts_with("error: "), "{}: {}", what, err);
    for n in needles {
        assert!(
            lines[0].contains(n),
            "{}: {:?} lacks {:?}",
            what,
            lines[0],
            n
        );
    }
    lines[0].to_string()
}
