//! Running the real `ply` binary from the integration tests.
// Each test file uses the helpers it needs.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

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

/// A fresh, empty directory for one test, `ply-GROUP-NAME-PID` in the temporary
/// directory (what an earlier run left there is removed first).
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-{}-{}-{}", group, name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
