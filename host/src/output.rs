//! Everything `ply` prints on standard output goes through here, so that a failed
//! write (`ply perft checkers 5 > /dev/full`) becomes one error line and a failure
//! status instead of a panic.
//!
//! [`outln!`](crate::outln) and [`out!`](crate::out) format like `println!` and
//! `print!` but return `Result<(), String>`; the error reads
//! `cannot write output: REASON`. The first failure is also remembered: later writes
//! fail at once with the same error, and [`finish`] (called by `main` after the
//! command) flushes standard output and returns it, so a write inside a callback that
//! cannot return an error is never lost. A closed pipe (`ply … | head -1`) does not
//! come here: `main` restores SIGPIPE, and `ply` ends quietly like any Unix tool.

use std::fmt;
use std::io::Write;
use std::sync::Mutex;

/// The first write error, as the error line's text.
static FAILED: Mutex<Option<String>> = Mutex::new(None);

fn failed() -> Option<String> {
    FAILED.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

fn record(e: std::io::Error) -> String {
    let msg = format!("cannot write output: {}", e);
    let mut slot = FAILED.lock().unwrap_or_else(|e| e.into_inner());
    slot.get_or_insert(msg).clone()
}

/// Writes `args` to standard output (no newline added). Used by [`out!`](crate::out).
pub fn write(args: fmt::Arguments<'_>) -> Result<(), String> {
    if let Some(e) = failed() {
        return Err(e);
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_fmt(args).map_err(record)
}

/// Writes `args` and a newline to standard output. Used by [`outln!`](crate::outln).
pub fn write_line(args: fmt::Arguments<'_>) -> Result<(), String> {
    if let Some(e) = failed() {
        return Err(e);
    }
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_fmt(args)
        .and_then(|()| stdout.write_all(b"\n"))
        .map_err(record)
}

/// Flushes standard output now; the first write error of the run, if any. A line
/// protocol (`ply engine`) flushes after every line, so that the program at the
/// other end of a pipe sees each line as it is written.
pub fn flush() -> Result<(), String> {
    finish()
}

/// Flushes standard output; the first write error of the run, if any.
pub fn finish() -> Result<(), String> {
    if let Some(e) = failed() {
        return Err(e);
    }
    std::io::stdout().lock().flush().map_err(record)
}

/// Like `print!`, to standard output through [`write()`]: returns
/// `Result<(), String>` instead of panicking when the write fails.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write(format_args!($($arg)*))
    };
}

/// Like `println!`, to standard output through [`write_line()`]: returns
/// `Result<(), String>` instead of panicking when the write fails.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::output::write_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::output::write_line(format_args!($($arg)*))
    };
}

/// Like `eprintln!`, but a failed write to standard error is ignored (there is no
/// better place left to report it), never a panic; and the line goes out in one
/// write, its newline included: standard error is unbuffered, and a line written in
/// pieces can be cut by another process's output into the same pipe (an MPI
/// launcher's abort banner after rank 0's last error line).
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {{
        let _ = $crate::output::line_to(&mut std::io::stderr(), format_args!($($arg)*));
    }};
}

/// Writes `args` and a newline to `to` in one `write_all` (one write where `to` is
/// unbuffered, as standard error is): the line of [`errln!`].
pub fn line_to(to: &mut impl Write, args: fmt::Arguments<'_>) -> std::io::Result<()> {
    let mut line = fmt::format(args);
    line.push('\n');
    to.write_all(line.as_bytes())
}

/// Formats a count of seconds for humans (`0.123 s`).
pub fn secs(s: f64) -> String {
    format!("{:.3} s", s)
}

/// `n / s` as an integer rate, 0 when no time was measured.
pub fn rate(n: u64, s: f64) -> u64 {
    if s > 0.0 {
        (n as f64 / s) as u64
    } else {
        0
    }
}

/// `part` as a percentage of `whole` (0 of nothing).
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records each call of `write`.
    #[derive(Default)]
    struct Calls(Vec<Vec<u8>>);

    impl Write for Calls {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn an_error_line_goes_out_in_one_write_with_its_newline() {
        let mut to = Calls::default();
        let (rank, what) = (1, "has sent nothing");
        line_to(
            &mut to,
            format_args!("error: rank {} {}: {}", rank, what, 2.5),
        )
        .unwrap();
        assert_eq!(
            to.0,
            vec![b"error: rank 1 has sent nothing: 2.5\n".to_vec()]
        );
    }
}
