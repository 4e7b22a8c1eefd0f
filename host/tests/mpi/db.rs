//! `ply db build checkers` on several ranks: the files of one process, a build
//! stopped and resumed, bad input refused.

use super::*;

/// `ply db build checkers` with `args`, its files in `tables`: one process without
/// mpirun (`np` 0) or `np` ranks.
fn db_build_with(np: usize, tables: &Path, args: &[&str]) -> Command {
    let mut c = if np == 0 {
        Command::new(env!("CARGO_BIN_EXE_ply"))
    } else {
        mpirun_ply(np, &[])
    };
    c.args(["db", "build", "checkers"])
        .args(args)
        .env("PLY_TABLES_DIR", tables);
    c
}

/// `ply db build checkers --pieces 4 --threads 1` with `extra` ([`db_build_with`]).
fn db_build(np: usize, tables: &Path, extra: &[&str]) -> Command {
    db_build_with(
        np,
        tables,
        &[&["--pieces", "4", "--threads", "1"], extra].concat(),
    )
}

/// The pairs of slices of up to 4 pieces: the items of the build.
const DB_PAIRS: u64 = 2 + 6 + 10 + 19;

/// Every slice file of the databases in `tables`, by name.
fn db_files(tables: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(tables.join("checkers-db"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension() == Some("cdb".as_ref()))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

/// The files and the standard output of a one-process build of up to 4 pieces,
/// built once for the tests that compare with it.
fn one_process_db() -> &'static (std::collections::BTreeMap<String, Vec<u8>>, String) {
    static ONE: std::sync::OnceLock<(std::collections::BTreeMap<String, Vec<u8>>, String)> =
        std::sync::OnceLock::new();
    ONE.get_or_init(|| {
        let dir = scratch("mpi", "db-one");
        let o = run(db_build(0, &dir, &[]));
        assert!(o.status.success(), "{}", stderr(&o));
        let files = db_files(&dir);
        // The slices of 1 to 4 pieces: C(4, 3) + C(5, 3) + C(6, 3) + C(7, 3).
        assert_eq!(files.len(), 4 + 10 + 20 + 35);
        let out = stdout(&o).replace(&dir.to_string_lossy().into_owned(), "DIR");
        (files, out)
    })
}

/// A build's summary without the line of what was built now (its time and rate).
fn db_summary(out: &str, dir: &Path) -> Vec<String> {
    out.replace(&dir.to_string_lossy().into_owned(), "DIR")
        .lines()
        .filter(|l| !l.starts_with("built now: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_db_build_on_two_and_three_ranks_writes_the_files_of_one_process() {
    let (want, out) = one_process_db();
    for np in [2, 3] {
        let dir = scratch("mpi", &format!("db-{}", np));
        let o = run(db_build(np, &dir, &[]));
        let err = stderr(&o);
        assert!(o.status.success(), "{} ranks: {}", np, err);
        // The same bytes, file by file: every block and checksum.
        assert!(db_files(&dir) == *want, "{} ranks: other files", np);
        // The same summary, counted from the ranks' answers.
        assert_eq!(
            db_summary(&stdout(&o), &dir),
            db_summary(out, Path::new("DIR"))
        );
        assert!(
            stdout(&o).contains("built now: 7361090 positions in ")
                && stdout(&o).contains(&format!("summed over {} ranks of 1 threads", np)),
            "{}",
            stdout(&o)
        );
        // A line per pair built, one summary line per rank, every pair once.
        assert_eq!(
            err.matches("checkers db: built ").count() as u64,
            DB_PAIRS,
            "{}",
            err
        );
        let s = summary(&err);
        assert_eq!(s.len(), np, "{}", err);
        assert_eq!(s.iter().map(|r| r.2).sum::<u64>(), DB_PAIRS, "{}", err);
    }
}

#[test]
fn a_db_build_stopped_midway_resumes_with_the_same_files() {
    let (want, _) = one_process_db();
    let dir = scratch("mpi", "db-kill");
    let (ckpt, c) = dir.file("db.ckpt");
    let mut job = db_build(2, &dir, &["--checkpoint", &c])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun");
    wait_for(&ckpt, &mut job, "the build");
    let worker = rank_pid(job.id(), 1).expect("rank 1's pid");
    unsafe {
        libc::kill(worker, libc::SIGKILL);
    }
    let o = job.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(
        !o.status.success(),
        "the build ended before the kill: {}",
        err
    );
    assert!(stdout(&o).is_empty(), "no summary from a broken build");
    let saved = saved_items(&err);
    assert!(saved > 0 && (saved as u64) < DB_PAIRS, "{}", err);
    // Resumed on 3 ranks: only the pairs the checkpoint lacks, the same files.
    let o = run(db_build(3, &dir, &["--checkpoint", &c, "--resume"]));
    let err = stderr(&o);
    assert!(o.status.success(), "{}", err);
    assert!(
        err.contains(&format!("resuming: {} items were done already", saved)),
        "{}",
        err
    );
    let computed: u64 = summary(&err).iter().map(|r| r.2).sum();
    assert_eq!(computed, DB_PAIRS - saved as u64, "{}", err);
    assert!(db_files(&dir) == *want, "other files after --resume");
    // No temporary of the killed rank is left.
    for e in std::fs::read_dir(dir.join("checkers-db")).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(!name.contains(".tmp"), "{}", name);
    }
}

#[test]
fn a_bad_db_build_is_refused_in_one_line_before_any_work() {
    let dir = scratch("mpi", "db-bad");
    let (ckpt, c) = dir.file("other.ckpt");
    std::fs::write(&ckpt, b"not a checkpoint").unwrap();
    let tables = dir.join("tables");
    for (args, needle) in [
        (
            &["--verify"][..],
            "--verify checks the databases in one process, not under mpirun",
        ),
        (
            &["--pieces", "9"],
            "--pieces 9 is out of range: expected 1 to 8",
        ),
        (&["--pieces", "3", "--threads", "0"], "--threads"),
        (&["--checkpoint", &c], "exists: add --resume"),
        (&["--checkpoint", &c, "--resume"], "is not a ply checkpoint"),
    ] {
        let args = if args.contains(&"--pieces") {
            args.to_vec()
        } else {
            [&["--pieces", "4"], args].concat()
        };
        let o = run(db_build_with(2, &tables, &args));
        assert!(!o.status.success(), "{:?}", args);
        let err = stderr(&o);
        // Rank 0's line, and at most the same line from rank 1.
        let lines: Vec<&str> = err.lines().filter(|l| l.contains("error: ")).collect();
        assert!(
            lines.iter().filter(|l| l.starts_with("error: ")).count() == 1
                && lines.iter().all(|l| l.contains(needle)),
            "{:?}: {}",
            args,
            err
        );
        assert!(stdout(&o).is_empty(), "{:?}", args);
        assert!(!err.contains("checkers db: built"), "{:?}: {}", args, err);
        assert!(
            !tables.join("checkers-db").exists() || db_files(&tables).is_empty(),
            "{:?}: files written",
            args
        );
    }
}
