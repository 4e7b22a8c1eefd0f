//! `ply match` end to end: two `ply engine` processes play a quick tic-tac-toe
//! match whose PDN replays; fake engines (small Python scripts) that misbehave each
//! lose every game with their reason, and nothing hangs; the referee's draws
//! (repetition and the 40-move rule) from a kings-only opening file; bad flags are one
//! line before any game.

use std::time::Duration;

use ply_core::games::draughts::Rules;
use ply_core::games::{Draughts, TicTacToe};
use ply_core::{Game, Outcome};
use ply_host::commands::r#match::pdn;

use crate::common::{scratch, stderr, stdout};
use crate::protocol::{ply_path, ply_within, script};

const LIMIT: Duration = Duration::from_secs(120);

/// A tic-tac-toe engine in Python that plays the first free square, with a hook
/// per misbehaviour (`MODE`, the script's first argument).
const FAKE: &str = r#"#!/usr/bin/env python3
import sys, time
mode = sys.argv[1]
moves = []
goes = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        if mode == "no-uciok":
            continue
        print("id name fake", flush=True)
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        moves = words[words.index("moves") + 1:] if "moves" in words else []
    elif words[0] == "go":
        goes += 1
        free = [s for s in "123456789" if s not in moves]
        if mode == "nodes-only" and words[1:] != ["nodes", "500"]:
            print("bestmove 0", flush=True)
        elif mode == "illegal" and moves:
            print("bestmove " + moves[0], flush=True)
        elif mode == "late":
            time.sleep(30)
        elif mode == "crash":
            sys.exit(3)
        elif mode == "garbage":
            print("hello there", flush=True)
        else:
            print("bestmove " + free[0], flush=True)
    elif words[0] == "quit":
        break
"#;

/// Runs a two-game tic-tac-toe match of the fake in `mode` (A) against `ply
/// engine`; its standard output.
fn against_fake(mode: &str, startup: &str) -> String {
    let dir = scratch("match", mode);
    let fake = script(&dir, "fake.py", FAKE);
    let a = format!("{} {}", fake, mode);
    let b = format!("{} engine tictactoe", ply_path());
    let args = [
        "match",
        "tictactoe",
        "--a",
        &a,
        "--b",
        &b,
        "--time",
        "0.05",
        // A grace of seconds: `ply engine` is never late, even on a busy machine.
        "--grace",
        "2",
        "--startup",
        startup,
        "--games",
        "2",
    ];
    let o = ply_within(&args, LIMIT);
    assert!(o.status.success(), "{}: {}", mode, stderr(&o));
    stdout(&o)
}

fn assert_a_lost_both(out: &str, reason: &str) {
    assert!(
        out.contains("A: 0 wins, 0 draws, 2 losses in 2 games"),
        "{}",
        out
    );
    assert!(out.contains("forfeits: A 2, B 0"), "{}", out);
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 2, "{}", out);
    for l in lines {
        assert!(l.contains("B wins, A forfeits: "), "{}", l);
        assert!(l.contains(reason), "{} lacks {:?}", l, reason);
    }
}

#[test]
fn an_illegal_move_loses() {
    let out = against_fake("illegal", "2");
    assert_a_lost_both(&out, "illegal move '");
    assert!(out.contains("the square is already taken"), "{}", out);
}

#[test]
fn an_answer_too_late_loses() {
    let out = against_fake("late", "2");
    assert_a_lost_both(&out, "no bestmove within 2.050 s");
}

#[test]
fn a_crash_mid_game_loses_and_the_engine_is_restarted() {
    let out = against_fake("crash", "2");
    // Each game's engine is a fresh process (restarted after the first game's
    // crash), and each crashes at its first move.
    assert_a_lost_both(&out, "the engine exited (status 3)");
}

#[test]
fn garbage_and_no_bestmove_loses() {
    let out = against_fake("garbage", "2");
    assert_a_lost_both(&out, "no bestmove within 2.050 s (it sent 'hello there')");
}

#[test]
fn no_uciok_loses() {
    let out = against_fake("no-uciok", "0.3");
    assert_a_lost_both(&out, "no uciok within 0.300 s");
}

#[test]
fn two_ply_engines_play_a_match_whose_pdn_replays() {
    let dir = scratch("match", "ply-vs-ply");
    let file = dir.join("games.pdn");
    let a = format!("{} engine tictactoe", ply_path());
    let b = format!("{} engine tictactoe --eval zero", ply_path());
    let o = ply_within(
        &[
            "match",
            "tictactoe",
            "--a",
            &a,
            "--b",
            &b,
            "--time",
            "0.02",
            "--grace",
            "5",
            "--games",
            "6",
            "--concurrency",
            "2",
            "--pdn",
            file.to_str().unwrap(),
            "--sprt",
            "elo0=0,elo1=10",
        ],
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 6);
    for key in [
        "in 6 games",
        "score: A ",
        "(95%, over 3 game pairs)",
        "elo: A ",
        "time A: ",
        "time B: ",
        "sprt: LLR ",
    ] {
        assert!(out.contains(key), "no {:?} in\n{}", key, out);
    }
    // Only the PDN file is left, no temporary.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["games.pdn"]);
    let games = pdn::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(games.len(), 6);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.tag("Round"), Some(&(i + 1).to_string()[..]));
        assert_eq!(g.tag("Result"), Some(&g.result[..]));
        let mut pos = TicTacToe::start(());
        for m in &g.moves {
            pos = pos.play(pos.parse_move(m).unwrap()).unwrap();
        }
        let want = match pos.outcome() {
            Outcome::Win(p) if p.index() == 0 => "1-0",
            Outcome::Win(_) => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Ongoing => panic!("game {} ends unfinished", i + 1),
        };
        assert_eq!(g.result, want, "game {}", i + 1);
    }
}

/// A draughts engine in Python that steps its king back and forth: Black 4-8 and
/// 8-4, White 29-25 and 25-29, from the opening `fen B:WK29:BK4`.
const SHUFFLER: &str = r#"#!/usr/bin/env python3
import sys
n = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        n = len(words[words.index("moves") + 1:]) if "moves" in words else 0
    elif words[0] == "go":
        black = n % 2 == 0
        out = (n // 2) % 2 == 0
        if black:
            print("bestmove " + ("4-8" if out else "8-4"), flush=True)
        else:
            print("bestmove " + ("29-25" if out else "25-29"), flush=True)
"#;

fn shuffle(spec: &str) -> (String, Vec<pdn::ParsedGame>) {
    let dir = scratch("match", &spec.replace([':', '='], "-"));
    let engine = script(&dir, "shuffler.py", SHUFFLER);
    let openings = dir.join("kings.txt");
    std::fs::write(&openings, "fen B:WK29:BK4  # two kings\n").unwrap();
    let file = dir.join("draws.pdn");
    let o = ply_within(
        &[
            "match",
            spec,
            "--a",
            &engine,
            "--b",
            &engine,
            "--games",
            "1",
            "--grace",
            "5",
            "--openings",
            openings.to_str().unwrap(),
            "--pdn",
            file.to_str().unwrap(),
        ],
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let games = pdn::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    (stdout(&o), games)
}

#[test]
fn the_referee_draws_by_repetition() {
    let (out, games) = shuffle("checkers");
    assert!(
        out.contains("(two kings): A Black, B White: draw, drawn: the same position for the third time; 8 plies"),
        "{}",
        out
    );
    assert_eq!(games[0].result, "1/2-1/2");
    assert_eq!(games[0].tag("FEN"), Some("B:WK29:BK4"));
    // The moves replay from the set-up position to the draw.
    let mut g = Draughts::parse_position(Rules::english(), "B:WK29:BK4").unwrap();
    for m in &games[0].moves {
        g = g.play(g.parse_move(m).unwrap()).unwrap();
    }
    assert_eq!(g.outcome(), Outcome::Draw);
}

#[test]
fn the_referee_draws_by_the_40_move_rule() {
    let (out, games) = shuffle("checkers:repeat=0");
    assert!(
        out.contains(
            "draw, drawn: 40 moves by each side without a man move or a capture; 80 plies"
        ),
        "{}",
        out
    );
    assert_eq!(games[0].moves.len(), 80);
}

/// `--nodes N` sends `go nodes N` (the fake answers anything else illegally), has no
/// time budget in the report, and refuses 0 and `--time` beside it.
#[test]
fn a_match_by_nodes_sends_go_nodes() {
    let dir = scratch("match", "nodes");
    let fake = script(&dir, "fake.py", FAKE);
    let a = format!("{} nodes-only", fake);
    let b = format!("{} engine tictactoe", ply_path());
    let args = [
        "match",
        "tictactoe",
        "--a",
        &a,
        "--b",
        &b,
        "--nodes",
        "500",
        "--grace",
        "5",
        "--games",
        "2",
    ];
    let o = ply_within(&args, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("2 games of tictactoe, 500 nodes a move (forfeit after 5.000 s)"),
        "{out}"
    );
    assert!(out.contains("forfeits: A 0, B 0"), "{out}");
    assert!(!out.contains("budget"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("time A: ") && l.ends_with(" moves")),
        "{out}"
    );
    for (extra, want) in [
        (&["--nodes", "0"][..], "--nodes must be at least 1"),
        (
            &["--nodes", "5", "--time", "0.1"][..],
            "cannot be used with",
        ),
    ] {
        let mut v = vec!["match", "tictactoe", "--a", &b, "--b", &b];
        v.extend_from_slice(extra);
        let o = ply_within(&v, LIMIT);
        assert!(!o.status.success(), "{extra:?} accepted");
        assert!(stderr(&o).contains(want), "{extra:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{extra:?}: {}", stdout(&o));
    }
}

#[test]
fn bad_match_flags_are_one_line_before_any_game() {
    let dir = scratch("match", "bad-flags");
    let ply_engine = format!("{} engine tictactoe", ply_path());
    let pdn_file = dir.join("x.pdn");
    let pdn_file = pdn_file.to_str().unwrap();
    let base = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["match", "tictactoe", "--a", &ply_engine, "--b", &ply_engine]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (base(&["--time", "0"]), "--time 0 is out of range"),
        (base(&["--grace", "0"]), "--grace 0 is out of range"),
        (
            base(&["--concurrency", "0"]),
            "--concurrency must be at least 1",
        ),
        (base(&["--games", "0"]), "--games must be at least 1"),
        (
            base(&["--sprt", "elo0=5,elo1=0"]),
            "elo0 must be less than elo1",
        ),
        (base(&["--openings", "ballots"]), "English draughts"),
        (base(&["--openings", "random:x"]), "random:PLIES"),
        (base(&["--openings", "/nonexistent/deck"]), "cannot read it"),
        (base(&["--pdn", "/nonexistent/dir/x.pdn"]), "does not exist"),
        (
            vec![
                "match".into(),
                "tictactoe".into(),
                "--a".into(),
                "".into(),
                "--b".into(),
                ply_engine.clone(),
            ],
            "--a is empty",
        ),
        (
            vec![
                "match".into(),
                "tictactoe".into(),
                "--a".into(),
                ply_engine.clone(),
                "--b".into(),
                "ply 'engine".into(),
            ],
            "unbalanced quotes",
        ),
        (
            [
                vec![
                    "match".into(),
                    "tictactoe".into(),
                    "--a".into(),
                    "/nonexistent/engine".into(),
                    "--b".into(),
                    ply_engine.clone(),
                ],
                vec!["--pdn".into(), pdn_file.into()],
            ]
            .concat(),
            "cannot start '/nonexistent/engine'",
        ),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = ply_within(&args, LIMIT);
        let err = stderr(&o);
        assert!(!o.status.success(), "{:?} succeeded", args);
        assert_eq!(err.lines().count(), 1, "{:?}: {}", args, err);
        assert!(err.contains(needle), "{:?}: {}", args, err);
        assert!(stdout(&o).is_empty(), "{:?} printed {}", args, stdout(&o));
    }
    // Nothing written, no temporary left.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// Ctrl-C (SIGINT) ends a match at once, and the engine it was waiting for goes
/// with it (killed with its process group, not left running).
#[test]
fn ctrl_c_kills_the_engines() {
    use std::process::{Command, Stdio};
    let dir = scratch("match", "ctrl-c");
    let pids = dir.join("pids");
    // An engine that says nothing: each one started appends its pid.
    let hang = script(
        &dir,
        "hang.sh",
        "#!/bin/sh\necho $$ >> \"$1\"\nexec sleep 600\n",
    );
    let cmd = format!("{} {}", hang, pids.display());
    let mut child = Command::new(ply_path())
        .args([
            "match",
            "tictactoe",
            "--a",
            &cmd,
            "--b",
            &cmd,
            "--startup",
            "600",
            "--games",
            "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Two engines started and ended by the check that each command runs, then the
    // first game's A, waiting for its uciok.
    let waited = std::time::Instant::now();
    let third = loop {
        let text = std::fs::read_to_string(&pids).unwrap_or_default();
        if let Some(pid) = text.lines().nth(2) {
            break pid.trim().parse::<i32>().unwrap();
        }
        assert!(waited.elapsed() < LIMIT, "the engines did not start");
        std::thread::sleep(Duration::from_millis(10));
    };
    // SAFETY: signals to the processes this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let gone = std::time::Instant::now();
    while unsafe { libc::kill(third, 0) } == 0 {
        assert!(gone.elapsed() < LIMIT, "engine {} outlived ply", third);
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A draughts capture written by its origin and destination alone (`6x22` for
/// `6x15x22`, the one capture from there to there) is taken, and written in full.
#[test]
fn a_capture_by_origin_and_destination_is_taken() {
    let dir = scratch("match", "short-capture");
    let engine = script(
        &dir,
        "short.py",
        "#!/usr/bin/env python3\nimport sys\nfor line in sys.stdin:\n    w = line.split()\n    \
         if w[:1] == ['uci']: print('uciok', flush=True)\n    \
         elif w[:1] == ['isready']: print('readyok', flush=True)\n    \
         elif w[:1] == ['go']: print('bestmove 6x22', flush=True)\n",
    );
    let openings = dir.join("double.txt");
    std::fs::write(&openings, "fen B:W10,18:B6\n").unwrap();
    let file = dir.join("short.pdn");
    let o = ply_within(
        &[
            "match",
            "checkers",
            "--a",
            &engine,
            "--b",
            &engine,
            "--games",
            "1",
            "--grace",
            "5",
            "--openings",
            openings.to_str().unwrap(),
            "--pdn",
            file.to_str().unwrap(),
        ],
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("A Black, B White: A wins, White has no legal move; 1 plies"),
        "{}",
        stdout(&o)
    );
    let games = pdn::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(games[0].moves, ["6x15x22"]);
    assert_eq!(games[0].result, "1-0");
}
