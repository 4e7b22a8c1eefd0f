//! The controller's end of the protocol: an engine process started from a command
//! line, spoken to on its standard input and heard on its standard output.
//!
//! Nothing here waits without a limit: a thread reads the engine's lines into a
//! channel, and every read is a receive with a deadline ([`Engine::recv`]). The engine
//! runs as the leader of a process group of its own, registered with the Ctrl-C
//! handler ([`crate::interrupt::ChildGuard`]): dropping an [`Engine`], or Ctrl-C,
//! kills it and whatever it started. Its standard error is not part of the protocol
//! and goes nowhere.

use std::fmt;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::interrupt::ChildGuard;
use crate::quote::quote;

/// Why an engine could not go on: each loses the game it was playing (`ply match`)
/// or ends the check (`ply verify`).
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// The process ended (or closed its output) while an answer was awaited.
    Exited(String),
    /// The awaited line did not come within the limit.
    Timeout {
        /// What was awaited (`uciok`, `bestmove`).
        awaited: String,
        /// The limit, in seconds.
        seconds: f64,
        /// The last line the engine sent meanwhile that was not part of the answer.
        last: Option<String>,
    },
    /// The engine said something that breaks the protocol.
    Protocol(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Exited(how) => write!(f, "{}", how),
            Failure::Timeout {
                awaited,
                seconds,
                last,
            } => {
                write!(f, "no {} within {:.3} s", awaited, seconds)?;
                if let Some(l) = last {
                    write!(f, " (it sent {})", quote(l))?;
                }
                Ok(())
            }
            Failure::Protocol(what) => write!(f, "{}", what),
        }
    }
}

/// What an engine said of itself in its `uci` answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hello {
    /// `id name …`.
    pub name: Option<String>,
    /// `game …` lines: the games it plays (empty: it does not say).
    pub games: Vec<String>,
}

/// A running engine process.
pub struct Engine {
    command: String,
    // Declared before `child`: dropped (the process group killed) before the child
    // is reaped, so its pid cannot have been reused by then.
    guard: Option<ChildGuard>,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Set once the output ended.
    closed: bool,
}

impl Engine {
    /// Starts `words` (a program and its arguments, [`super::command_words`]). The
    /// error names the command and why it did not start.
    pub fn start(words: &[String]) -> Result<Engine, String> {
        let command = words.join(" ");
        let (program, args) = words
            .split_first()
            .ok_or("an empty command cannot be started")?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {}", quote(&command), e))?;
        let guard = ChildGuard::new(child.id());
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = sync_channel::<String>(1024);
        let reader = std::thread::Builder::new()
            .name("ply-engine-reader".into())
            .spawn(move || {
                let mut input = BufReader::new(stdout);
                while let Ok(Some(line)) = super::read_line(&mut input) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        if let Err(e) = reader {
            return Err(format!("cannot start a thread to read the engine: {}", e));
        }
        Ok(Engine {
            command,
            guard: Some(guard),
            stdin: child.stdin.take(),
            child,
            lines,
            closed: false,
        })
    }

    /// The command line it was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Writes `line` and a newline to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.exited());
        };
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        if written.is_err() {
            self.stdin = None;
            return Err(self.exited());
        }
        Ok(())
    }

    /// The next line the engine sends, by `deadline`. `awaited` names what the
    /// caller waits for, for the timeout's reason.
    pub fn recv(&mut self, deadline: Instant, awaited: &str) -> Result<String, Failure> {
        if self.closed {
            return Err(self.exited());
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout {
                awaited: awaited.to_string(),
                seconds: 0.0,
                last: None,
            }),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(self.exited())
            }
        }
    }

    /// Reads lines until one for which `done` says yes, by `deadline`; returns it and
    /// the lines before it. `info` lines are passed over; the last other line is named
    /// in a timeout's reason.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        limit: Duration,
        awaited: &str,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(String, Vec<String>), Failure> {
        let mut before = Vec::new();
        loop {
            match self.recv(deadline, awaited) {
                Ok(line) if done(&line) => return Ok((line, before)),
                Ok(line) => {
                    // What precedes the answer is kept for the caller, the latest
                    // lines of a long stream only.
                    if before.len() == 4096 {
                        before.drain(..2048);
                    }
                    before.push(line)
                }
                Err(Failure::Timeout { awaited, .. }) => {
                    return Err(Failure::Timeout {
                        awaited,
                        seconds: limit.as_secs_f64(),
                        last: before
                            .iter()
                            .rev()
                            .find(|l| !l.starts_with("info"))
                            .cloned(),
                    })
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// `uci` … `uciok` within `limit`.
    pub fn handshake(&mut self, limit: Duration) -> Result<Hello, Failure> {
        self.send("uci")?;
        let (_, lines) = self.wait_for(Instant::now() + limit, limit, "uciok", |l| {
            l.trim() == "uciok"
        })?;
        let mut hello = Hello::default();
        for l in &lines {
            let l = l.trim();
            if let Some(name) = l.strip_prefix("id name ") {
                hello.name = Some(name.trim().to_string());
            } else if let Some(game) = l.strip_prefix("game ") {
                hello.games.push(game.trim().to_string());
            }
        }
        Ok(hello)
    }

    /// `isready` … `readyok` within `limit`; returns the `error …` lines the engine
    /// sent before it (its answers to what was sent since the last sync).
    pub fn sync(&mut self, limit: Duration) -> Result<Vec<String>, Failure> {
        self.send("isready")?;
        let (_, lines) = self.wait_for(Instant::now() + limit, limit, "readyok", |l| {
            l.trim() == "readyok"
        })?;
        Ok(lines
            .into_iter()
            .filter(|l| l.trim_start().starts_with("error"))
            .collect())
    }

    /// Asks the engine to `quit` and gives it `grace` to do so before it is killed.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// How the process ended, as a failure's reason (waiting a moment for its exit
    /// status once its output closed).
    fn exited(&mut self) -> Failure {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Failure::Exited(describe_exit(status)),
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                _ => return Failure::Exited("the engine closed its output".into()),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        // Kill the group first (the guard), then reap the child.
        self.guard = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `the engine exited (status 3)`, `the engine was killed by signal 9`.
pub fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("the engine exited (status {})", code);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("the engine was killed by signal {}", sig);
        }
    }
    "the engine exited".into()
}
