//! `ply engine` and `ply verify` end to end: a scripted session answered as
//! docs/protocol.md says (its moves and perft divide those of `ply moves` and `ply
//! perft --divide`), `stop` ending a deep search, and `ply verify` agreeing with `ply
//! engine` and finding the position where a lying wrapper of it drops a move.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use crate::common::{ply, ply_stdin, scratch, stderr, stdout};

/// The ply binary's path, for command lines given to `ply match` and `ply verify`.
pub fn ply_path() -> &'static str {
    env!("CARGO_BIN_EXE_ply")
}

/// Runs `ply args`, failing the test (instead of hanging it) if it has not ended
/// after `limit`: the guard of tests whose point is that nothing hangs.
pub fn ply_within(args: &[&str], limit: Duration) -> std::process::Output {
    let child = Command::new(ply_path())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ply");
    let (tx, rx) = channel();
    let pid = child.id();
    let out = std::thread::spawn(move || {
        let o = child.wait_with_output();
        let _ = tx.send(());
        o
    });
    if rx.recv_timeout(limit).is_err() {
        // SAFETY: kill(2) of the child this test started.
        unsafe {
            libc::kill(pid as i32, libc::SIGKILL);
        }
        panic!("ply {:?} still ran after {:?}", args, limit);
    }
    out.join().unwrap().expect("ply's output")
}

/// Writes an executable script `name` with `body` into `dir`; its path.
pub fn script(dir: &std::path::Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_scripted_session_is_answered_as_the_protocol_says() {
    let session = "uci\nisready\nucinewgame checkers\n\
                   position startpos moves 11-15 23-19\n\
                   go depth 5\nmoves\ngo perft 3\n\
                   bogus\nsetoption name Hash value 0\nsetoption name Eval value nope\n\
                   setoption name Threads value 1\n\
                   position startpos moves 11-15 11-15\nucinewgame kalah\n\
                   moves\nposition fen W:W18:B14 moves 18x9\nmoves\ngo movetime 50\n";
    let o = ply_stdin(&["engine", "checkers"], session);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        &lines[..5],
        &[
            &format!("id name ply {}", env!("CARGO_PKG_VERSION"))[..],
            "id author the ply developers",
            "game checkers",
            "uciok",
            "readyok"
        ]
    );
    // An info line an iteration, the pv last, then the move: one of ply's moves.
    let legal = stdout(&ply(&["moves", "checkers", "--after", "11-15", "23-19"]));
    let legal: Vec<&str> = legal.lines().collect();
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info depth 5 score cp ")));
    let best = lines
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    assert!(legal.contains(&best), "{} is not among {:?}", best, legal);
    assert!(lines.contains(&&format!("moves {}", legal.join(" "))[..]));
    // The divide of `go perft 3` is `ply perft --divide`'s, then the total.
    let divide = stdout(&ply(&[
        "perft", "checkers", "3", "--divide", "--after", "11-15", "23-19",
    ]));
    let divide: Vec<&str> = divide.lines().collect();
    let at = lines.iter().position(|l| *l == divide[0]).unwrap();
    assert_eq!(&lines[at..at + legal.len()], &divide[..legal.len()]);
    assert_eq!(
        lines[at + legal.len()],
        format!("nodes {}", divide[legal.len()])
    );
    // Every bad line is one error line, and the session goes on.
    let errors: Vec<&&str> = lines.iter().filter(|l| l.starts_with("error ")).collect();
    assert_eq!(errors.len(), 5, "{:?}", errors);
    assert!(errors[0].contains("unknown command 'bogus'"));
    assert!(errors[1].contains("Hash 0 is out of range"));
    assert!(errors[2].contains("unknown evaluation 'nope'"));
    assert!(errors[3].contains("move 2 '11-15'"), "{}", errors[3]);
    assert!(errors[4].starts_with("error unsupported game 'kalah'"));
    // A refused position (or game) leaves the last good position.
    let moves_lines: Vec<&&str> = lines.iter().filter(|l| l.starts_with("moves")).collect();
    assert_eq!(moves_lines[0], moves_lines[1]);
    // After the fen position's capture Black has no piece: no moves, and a `go`
    // answers `bestmove none`.
    assert_eq!(*moves_lines[2], "moves");
    assert_eq!(lines.last(), Some(&"bestmove none"));
}

#[test]
fn unsupported_games_and_bad_settings_are_refused() {
    let o = ply_stdin(&["engine", "checkers"], "ucinewgame kalah\nisready\n");
    assert_eq!(
        stdout(&o),
        "error unsupported game 'kalah': this engine plays checkers, not kalah\nreadyok\n"
    );
    for (args, needle) in [
        (
            &["engine", "tictactoe", "--eval", "nope"][..],
            "unknown evaluation",
        ),
        (
            &["engine", "tictactoe", "--threads", "0"][..],
            "--threads must be",
        ),
        (
            &["engine", "tictactoe", "--hash-mb", "0"][..],
            "--hash-mb 0",
        ),
        (
            &["engine", "checkers", "--search", "lmr=maybe"][..],
            "lmr='maybe': expected on or off",
        ),
        (
            &["engine", "checkers", "--search", "nope=1"][..],
            "unknown search switch 'nope'",
        ),
    ] {
        let o = ply_stdin(args, "uci\n");
        assert!(!o.status.success());
        assert!(
            stdout(&o).is_empty(),
            "{:?} answered before the check",
            args
        );
        assert_eq!(stderr(&o).lines().count(), 1);
        assert!(stderr(&o).contains(needle), "{}", stderr(&o));
    }
}

/// The nodes of the last `info` line of a session.
fn last_nodes(out: &str) -> u64 {
    let info = out.lines().rfind(|l| l.starts_with("info")).unwrap();
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

#[test]
fn search_switches_change_the_search_from_the_command_line_or_setoption() {
    let go = "position startpos moves 11-15 23-19 8-11\ngo depth 9\n";
    let default = ply_stdin(&["engine", "checkers"], go);
    let off = ply_stdin(&["engine", "checkers", "--search", "lmr=off"], go);
    let on = ply_stdin(&["engine", "checkers", "--search", "lmr=on"], go);
    let option = ply_stdin(
        &["engine", "checkers", "--search", "lmr=off"],
        format!("setoption name LMR value on\n{go}"),
    );
    let back = ply_stdin(
        &["engine", "checkers", "--search", "lmr=on"],
        format!("setoption name lmr value off\n{go}"),
    );
    let (d, f, n, o, b) = (
        last_nodes(&stdout(&default)),
        last_nodes(&stdout(&off)),
        last_nodes(&stdout(&on)),
        last_nodes(&stdout(&option)),
        last_nodes(&stdout(&back)),
    );
    // Reductions search fewer nodes to the same depth; checkers turns them on by
    // default; the flag and the option are the same switch, and the option turns it
    // off again.
    assert!(n < f, "lmr=on {n} nodes, off {f}");
    assert_eq!(d, n, "checkers reduces by default");
    assert_eq!(o, n);
    assert_eq!(b, f);
    // The futility margins, on by default for checkers: pruning near the horizon
    // searches fewer nodes; the flag and the option turn it off alike.
    let unpruned = ply_stdin(&["engine", "checkers", "--search", "futility=0,rfp=0"], go);
    let by_option = ply_stdin(
        &["engine", "checkers"],
        format!("setoption name futility value 0\nsetoption name RFP value 0\n{go}"),
    );
    let u = last_nodes(&stdout(&unpruned));
    assert!(d < u, "default {d} nodes, futility=0,rfp=0 {u}");
    assert_eq!(last_nodes(&stdout(&by_option)), u);
    let bad = ply_stdin(
        &["engine", "checkers"],
        "setoption name Aspiration value -1\n",
    );
    assert!(
        stdout(&bad).starts_with("error setoption aspiration='-1'"),
        "{}",
        stdout(&bad)
    );
}

#[test]
fn stop_ends_a_deep_search_with_a_move() {
    let mut child = Command::new(ply_path())
        .args(["engine", "checkers"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let output = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    // Depth 90 would take far longer than the test's limit.
    writeln!(input, "go depth 90").unwrap();
    let next = || rx.recv_timeout(Duration::from_secs(60)).expect("an answer");
    while !next().starts_with("info depth 2 ") {}
    writeln!(input, "stop").unwrap();
    let best = loop {
        let l = next();
        if let Some(m) = l.strip_prefix("bestmove ") {
            break m.to_string();
        }
    };
    assert!(!best.is_empty());
    writeln!(input, "isready").unwrap();
    assert_eq!(next(), "readyok");
    drop(input);
    assert!(child.wait().unwrap().success());
}

#[test]
fn verify_agrees_with_ply_engine() {
    let engine = format!("{} engine checkers", ply_path());
    let o = ply_within(
        &[
            "verify",
            "checkers",
            &engine,
            "--depth",
            "3",
            "--positions",
            "3",
        ],
        Duration::from_secs(120),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("all 4 positions agree\n"),
        "{}",
        stdout(&o)
    );
}

/// A wrapper of `ply engine tictactoe` that lies: from the start its perft divide
/// counts one path less below 5, and after 5 its `moves` and its divide leave out 1.
const LIAR: &str = r#"#!/usr/bin/env python3
import subprocess, sys, threading
engine = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
position = [""]
def answers():
    dropped = 0
    for line in engine.stdout:
        line = line.rstrip("\n")
        words = line.split()
        if position[0] == "position startpos":
            if line.startswith("5: "):
                line = "5: %d" % (int(words[1]) - 1)
                dropped = 1
        if position[0] == "position startpos moves 5":
            if words[:1] == ["moves"]:
                line = " ".join(w for w in words if w != "1")
            if line.startswith("1: "):
                dropped = int(words[1])
                continue
        if words[:1] == ["nodes"]:
            line = "nodes %d" % (int(words[1]) - dropped)
            dropped = 0
        print(line, flush=True)
threading.Thread(target=answers, daemon=True).start()
for line in sys.stdin:
    if line.startswith("position"):
        position[0] = line.strip()
    engine.stdin.write(line)
    engine.stdin.flush()
engine.stdin.close()
engine.wait()
"#;

#[test]
fn verify_walks_down_to_the_position_a_liar_gets_wrong() {
    let dir = scratch("verify", "liar");
    let liar = script(&dir, "liar.py", LIAR);
    let cmd = format!("{} {} engine tictactoe", liar, ply_path());
    let o = ply_within(
        &[
            "verify",
            "tictactoe",
            &cmd,
            "--depth",
            "3",
            "--positions",
            "0",
        ],
        Duration::from_secs(60),
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{}{}", out, stderr(&o));
    assert!(out.contains("position fen "), "{}", out);
    assert!(out.contains("moves from the start: 5\n"), "{}", out);
    assert!(out.contains("only ply has: 1\n"), "{}", out);
    assert!(out.contains("only the program has: (none)\n"), "{}", out);
}

#[test]
fn verify_refuses_bad_input_and_broken_programs_with_status_2() {
    for (args, needle) in [
        (
            vec!["verify", "tictactoe", "/nonexistent/engine"],
            "cannot start '/nonexistent/engine'",
        ),
        (
            vec!["verify", "tictactoe", "ply 'engine"],
            "unbalanced quotes",
        ),
        (
            vec!["verify", "tictactoe", "python3 -c 'pass'"],
            "the program broke the protocol",
        ),
        (
            vec!["verify", "tictactoe", ply_path(), "--depth", "65"],
            "--depth 65 is out of range",
        ),
        (vec!["verify", "tictactoe"], "COMMAND"),
    ] {
        let o = ply_within(&args, Duration::from_secs(30));
        assert_eq!(o.status.code(), Some(2), "{:?}: {}", args, stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{:?}: {}", args, stderr(&o));
    }
}
