//! `ply db build checkers` end to end: the files, their checks and rebuild, a build
//! going on from the files there, `ply solve` and the engine inside the databases,
//! and bad input.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::{scratch, stderr, stdout};

fn ply_db(args: &[&str], tables: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .env("PLY_TABLES_DIR", tables)
        .output()
        .expect("run ply")
}

fn build(pieces: &str, tables: &Path) -> Output {
    let o = ply_db(&["db", "build", "checkers", "--pieces", pieces], tables);
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

#[test]
fn build_writes_a_file_a_slice_and_goes_on_from_them() {
    let d = scratch("draughts-db", "build");
    let o = build("2", &d);
    let out = stdout(&o);
    // 120 + 6,972 positions (issue 47's table).
    assert!(out.contains("up to 2 pieces"), "{}", out);
    assert!(out.contains(": 7092 positions"), "{}", out);
    assert!(out.contains("built now: 7092 positions"), "{}", out);
    let files = std::fs::read_dir(d.join("checkers-db"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("cdb".as_ref()))
        .count();
    // The slices of 1 and 2 pieces: C(4, 3) + C(5, 3).
    assert_eq!(files, 4 + 10);
    // Again: everything read, nothing built; then checked against the children.
    let again = ply_db(
        &["db", "build", "checkers", "--pieces", "2", "--verify"],
        &d,
    );
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stdout(&again).contains("verified: all 7092 positions agree"),
        "{}",
        stdout(&again)
    );
    assert!(!stdout(&again).contains("built now"), "{}", stdout(&again));
    assert!(
        !stderr(&again).contains("checkers db: built"),
        "{}",
        stderr(&again)
    );
    // A slice removed (a build stopped before it): only its pair is built again.
    std::fs::remove_file(d.join("checkers-db/m0k1-m0k1.v3.cdb")).unwrap();
    let resumed = build("2", &d);
    let err = stderr(&resumed);
    assert_eq!(err.matches("checkers db: built").count(), 1, "{}", err);
    assert!(err.contains("built m0k1-m0k1.v3.cdb ("), "{}", err);
}

#[test]
fn a_damaged_file_is_found_and_rebuilt_with_a_line_saying_why() {
    let d = scratch("draughts-db", "damaged");
    build("2", &d);
    build("3", &d);
    // A slice of 3 pieces (26,040 positions: 26 blocks of up to 1,024 entries): a bit of
    // its last block's bytes flipped.
    let f = d.join("checkers-db/m1k1-m0k1.v3.cdb");
    let mut bytes = std::fs::read(&f).unwrap();
    let good = bytes.clone();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    std::fs::write(&f, &bytes).unwrap();
    let o = build("3", &d);
    let err = stderr(&o);
    let why: Vec<&str> = err.lines().filter(|l| l.contains("rebuilding")).collect();
    assert_eq!(why.len(), 1, "{}", err);
    assert!(
        why[0].contains(
            "m1k1-m0k1.v3.cdb: block 25 of 26: its checksum does not match (the file is damaged); rebuilding it"
        ),
        "{}",
        err
    );
    assert_eq!(std::fs::read(&f).unwrap(), good);
    // The players leave it out, with a line naming the command that rebuilds it.
    std::fs::write(&f, &bytes).unwrap();
    let o = ply_db(&["solve", "checkers", "--position", "W:WK32:BK26"], &d);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("m1k1-m0k1.v3.cdb: block 25 of 26: its checksum does not match")
            && err.contains("not used (ply db build checkers --pieces 3 rebuilds it)"),
        "{}",
        err
    );
    build("3", &d);
    assert_eq!(std::fs::read(&f).unwrap(), good);
    // Cut short: the block index says so.
    std::fs::write(&f, &good[..good.len() - 5]).unwrap();
    let err = stderr(&build("3", &d));
    assert!(
        err.contains("not what its block index says (the file is cut short or damaged)"),
        "{}",
        err
    );
    assert_eq!(std::fs::read(&f).unwrap(), good);
    let f = d.join("checkers-db/m1k0-m0k1.v3.cdb");
    let good = std::fs::read(&f).unwrap();
    // Another file's bytes: another slice.
    std::fs::write(
        &f,
        std::fs::read(d.join("checkers-db/m0k1-m1k0.v3.cdb")).unwrap(),
    )
    .unwrap();
    let err = stderr(&build("2", &d));
    assert!(err.contains("it holds slice"), "{}", err);
    assert_eq!(std::fs::read(&f).unwrap(), good);
}

#[test]
fn solve_and_search_are_exact_inside_the_databases() {
    let d = scratch("draughts-db", "solve");
    // Lasker's diagram 88 (docs/references.md): White to move wins by 32-27 only.
    let pos = ["--position", "W:WK32:BK26"];
    let none = ply_db(&[&["solve", "checkers"][..], &pos].concat(), &d);
    assert!(!none.status.success());
    let e = stderr(&none);
    assert_eq!(e.lines().count(), 1, "{}", e);
    assert!(e.contains("no endgame database of 2 pieces"), "{}", e);
    assert!(e.contains("ply db build checkers --pieces 2"), "{}", e);
    build("2", &d);
    let o = ply_db(&[&["solve", "checkers"][..], &pos].concat(), &d);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("value: 1\nbest moves: 32-27\n"), "{}", out);
    assert!(out.contains("move 32-28: 0\n"), "{}", out);
    assert!(out.contains("best move: 32-27\n"), "{}", out);
    // The engine probes the databases below the root: it finds the only win at
    // depth 1, which the evaluation alone does not see there.
    let search = |eval: &str| {
        let o = ply_db(
            &[
                &["search", "checkers", "--depth", "1", "--eval", eval][..],
                &pos,
            ]
            .concat(),
            &d,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    assert!(search("learned-db").contains("best move: 32-27\n"));
    assert!(search("learned").contains("best move: 32-28\n"));
}

#[test]
fn bad_input_gets_one_line_before_any_work() {
    let d = scratch("draughts-db", "bad");
    let (ckpt, c) = d.file("there.ckpt");
    std::fs::write(&ckpt, b"a file").unwrap();
    for (args, want) in [
        (
            &["db", "build", "checkers", "--pieces", "0"][..],
            "--pieces 0 is out of range",
        ),
        (
            &["db", "build", "checkers", "--pieces", "9"][..],
            "--pieces 9 is out of range",
        ),
        (
            &["db", "build", "kalah", "--pieces", "2"][..],
            "not available for kalah",
        ),
        (
            &["db", "build", "checkers:calgary", "--pieces", "2"][..],
            "English rules only",
        ),
        (
            &["db", "build", "checkers", "--pieces", "2", "--threads", "0"][..],
            "--threads",
        ),
        (
            &["solve", "checkers:calgary", "--position", "W:WK32:BK26"][..],
            "English rules only",
        ),
        (
            &[
                "db",
                "build",
                "checkers",
                "--pieces",
                "2",
                "--checkpoint",
                &c,
            ][..],
            "exists: add --resume",
        ),
        (
            &["db", "build", "checkers", "--pieces", "2", "--resume"][..],
            "--checkpoint",
        ),
    ] {
        let o = ply_db(args, &d);
        assert!(!o.status.success(), "{:?}", args);
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{:?}: {}", args, e);
        assert!(e.contains(want), "{:?}: {}", args, e);
    }
    assert!(!d.join("checkers-db").exists());
}

/// With a checkpoint, the build is a job of pairs of slices (as under mpirun): the
/// same files and summary as without, `--verify` after it, and `--resume` builds
/// nothing more.
#[test]
fn a_build_with_a_checkpoint_is_a_job_of_pairs_with_the_same_files() {
    let (plain, job) = (
        scratch("draughts-db", "plain"),
        scratch("draughts-db", "job"),
    );
    let want = build("3", &plain);
    let (_, c) = job.file("db.ckpt");
    let args = [
        "db",
        "build",
        "checkers",
        "--pieces",
        "3",
        "--checkpoint",
        &c,
    ];
    let o = ply_db(&[&args[..], &["--verify"]].concat(), &job);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = |o: &Output, d: &Path| -> Vec<String> {
        stdout(o)
            .replace(d.to_str().unwrap(), "DIR")
            .lines()
            .filter(|l| !l.starts_with("built now") && !l.starts_with("verified"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(summary(&o, &job), summary(&want, &plain));
    assert!(
        stdout(&o).contains("verified: all 268316 positions agree"),
        "{}",
        stdout(&o)
    );
    let names: Vec<_> = std::fs::read_dir(plain.join("checkers-db"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().ends_with(".cdb"))
        .collect();
    assert_eq!(names.len(), 4 + 10 + 20);
    for n in &names {
        assert_eq!(
            std::fs::read(job.join("checkers-db").join(n)).unwrap(),
            std::fs::read(plain.join("checkers-db").join(n)).unwrap(),
            "{:?}",
            n
        );
    }
    let again = ply_db(&[&args[..], &["--resume"]].concat(), &job);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("resuming: 18 items were done already"),
        "{}",
        stderr(&again)
    );
    assert!(!stdout(&again).contains("built now"), "{}", stdout(&again));
}

#[test]
fn a_killed_build_goes_on_from_the_slices_it_wrote() {
    let d = scratch("draughts-db", "killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["db", "build", "checkers", "--pieces", "4", "--threads", "1"])
        .env("PLY_TABLES_DIR", &*d)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The first pair of 4 pieces (four kings) is written before the other 33 slices.
    let first = d.join("checkers-db/m0k4-m0k0.v3.cdb");
    crate::common::wait_for(&first, &mut child, "ply db build");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the build ended before the kill"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let o = ply_db(
        &["db", "build", "checkers", "--pieces", "4", "--verify"],
        &d,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    // Nothing of 1 to 3 pieces nor the first pair again; the rest built.
    assert!(
        err.contains("checkers db: 3 pieces done (0 positions built now)"),
        "{}",
        err
    );
    assert!(!err.contains("built m0k0-m0k4.v3.cdb"), "{}", err);
    assert!(err.contains("built m2k0-m2k0.v3.cdb ("), "{}", err);
    let out = stdout(&o);
    assert!(out.contains(": 7361090 positions"), "{}", out);
    assert!(
        out.contains("verified: all 7361090 positions agree"),
        "{}",
        out
    );
    // No temporary of the killed build is left.
    for e in std::fs::read_dir(d.join("checkers-db")).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(!name.contains(".tmp"), "{}", name);
    }
}

/// A player whose databases (2 pieces) are mapped and probed once (two kings:
/// Lasker's diagram 88), then `change` done to a file of a slice it has not probed
/// (a White man against a Black king, White to move), then that slice probed: the
/// exit status, the lines of standard output after the change, and standard error.
#[cfg(target_os = "linux")]
fn probe_after(name: &str, change: impl FnOnce(&Path)) -> (Option<i32>, Vec<String>, String) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let d = scratch("draughts-db", name);
    build("2", &d);
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["engine", "checkers", "--eval", "learned-db"])
        .env("PLY_TABLES_DIR", &d)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap()).lines();
    // The first search maps the databases and checks every block.
    writeln!(input, "position fen W:WK32:BK26\ngo depth 2").unwrap();
    let best = out
        .by_ref()
        .map(|l| l.unwrap())
        .find(|l| l.starts_with("bestmove"));
    assert_eq!(best.as_deref(), Some("bestmove 32-27"));
    change(&d.join("checkers-db/m1k0-m0k1.v3.cdb"));
    // Black to move, its children White to move with a man on 10.
    writeln!(input, "position fen B:W10:BK20\ngo depth 2").unwrap();
    drop(input);
    let rest: Vec<String> = out.map(|l| l.unwrap()).collect();
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    (status.code(), rest, err)
}

/// The slice files are mapped, not read: one cut short by another process while a
/// player uses it ends the player with one error line naming it and exit status 1
/// (`memory::FileMap`'s guard), not a silent death by SIGBUS or a wrong value.
#[cfg(target_os = "linux")]
#[test]
fn a_mapped_slice_cut_short_is_one_error_line() {
    let (status, rest, err) = probe_after("sigbus", |f| {
        std::fs::OpenOptions::new()
            .write(true)
            .open(f)
            .unwrap()
            .set_len(0)
            .unwrap()
    });
    assert_one_error_line(
        status,
        &rest,
        &err,
        "m1k0-m0k1.v3.cdb was cut short while in use",
    );
}

/// A probe that ended in one error line containing `needle`, exit status 1, and no
/// move.
fn assert_one_error_line(status: Option<i32>, rest: &[String], err: &str, needle: &str) {
    assert_eq!(status, Some(1), "{:?} {}", rest, err);
    assert!(
        !rest.iter().any(|l| l.starts_with("bestmove")),
        "{:?}",
        rest
    );
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(lines.len(), 1, "{}", err);
    assert!(lines[0].contains(needle), "{}", err);
}

/// A block changed in place after its file was opened and checked is found when
/// it is inflated (its checksum): one error line naming the file and the block,
/// exit status 1, no value from it.
#[cfg(target_os = "linux")]
#[test]
fn a_block_damaged_while_in_use_is_one_error_line() {
    let (status, rest, err) = probe_after("damaged-in-use", |f| {
        use std::io::{Seek, SeekFrom, Write};
        let last = std::fs::read(f).unwrap().last().copied().unwrap();
        let mut w = std::fs::OpenOptions::new().write(true).open(f).unwrap();
        w.seek(SeekFrom::End(-1)).unwrap();
        w.write_all(&[last ^ 0x10]).unwrap();
    });
    assert_one_error_line(
        status,
        &rest,
        &err,
        "m1k0-m0k1.v3.cdb: block 0 of 1 does not check out",
    );
}
