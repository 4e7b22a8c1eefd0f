//! Issue 49, the second round: the files ply writes and reads. Each test is named
//! after the numbered case it checks and failed on the code before the fix
//! (`ply_host::files` is the one place these rules live).

use super::*;
use crate::common::{long_perft, wait_for};

/// `path` as a `&str` argument.
fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Makes a fifo at `path` (with the system's `mkfifo`).
fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

/// Whether `path` is a character device (`/dev/full` still is after a refusal).
fn char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path)
        .map(|m| m.file_type().is_char_device())
        .unwrap_or(false)
}

/// The commands that write a file to `path`, each quick: (what, arguments).
fn writers(path: &str) -> Vec<(&'static str, Vec<String>)> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        (
            "--results",
            v(&with(
                ROUND_ROBIN,
                &["--games-per-pair", "1", "--threads", "1", "--results", path],
            )),
        ),
        (
            "--plot",
            v(&with(
                &bench("tictactoe"),
                &["--threads", "1", "--plot", path],
            )),
        ),
        (
            "--checkpoint",
            v(&["perft", "tictactoe", "3", "--checkpoint", path]),
        ),
    ]
}

fn run(args: &[String]) -> Output {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    ply(&a)
}

/// Case 1: a tournament of more games than the round robin's limit is refused
/// before any allocation (it aborted, asking for 32 GB).
#[test]
fn case49_01_a_huge_games_count_is_refused_up_front() {
    let o = ply(&with(TWO_CONFIGS, &["--games", "1000000000"]));
    one_error(
        &o,
        "--games 1e9",
        &["--games 1000000000", "expected 1 to 1000000"],
    );
}

/// Case 2: devices and fifos are refused with one line before any work and are
/// never replaced; a symbolic link is followed (the link stays, its target gets the
/// file).
#[test]
fn case49_02_only_regular_files_are_written_and_links_are_followed() {
    let d = scratch("issue49", "special");
    let fifo = d.join("fifo");
    mkfifo(&fifo);
    // The device through a link of the test's own: code that replaced what it was
    // given (as before the fix) replaces the link, never the machine's /dev/full.
    let device = d.join("device");
    std::os::unix::fs::symlink("/dev/full", &device).unwrap();
    for special in [device.as_path(), fifo.as_path()] {
        for (what, args) in writers(arg(special)) {
            let o = run(&args);
            let line = one_error(&o, what, &[what, "expected a regular file"]);
            assert!(stdout(&o).is_empty(), "{}: work before {}", what, line);
        }
    }
    assert!(
        char_device(Path::new("/dev/full")),
        "/dev/full was replaced"
    );
    assert!(std::fs::symlink_metadata(&device)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(entries(&d), vec!["device", "fifo"]);
    // A checkpoint that is a fifo is never opened to be read (it would block).
    let o = ply(&[
        "perft",
        "tictactoe",
        "3",
        "--checkpoint",
        arg(&fifo),
        "--resume",
    ]);
    one_error(&o, "--resume on a fifo", &["a fifo"]);
    // Nor is a device, which would be read without end (`/dev/zero`).
    let o = ply(&[
        "perft",
        "tictactoe",
        "3",
        "--checkpoint",
        "/dev/zero",
        "--resume",
    ]);
    one_error(
        &o,
        "--resume on /dev/zero",
        &["'/dev/zero'", "a character device"],
    );
    for (what, args) in writers("link") {
        let dir = d.join(what.trim_start_matches('-'));
        std::fs::create_dir(&dir).unwrap();
        std::os::unix::fs::symlink("target", dir.join("link")).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}: {}", what, stderr(&o));
        let link = std::fs::symlink_metadata(dir.join("link")).unwrap();
        assert!(
            link.file_type().is_symlink(),
            "{}: the link was replaced",
            what
        );
        assert!(
            dir.join("target").is_file(),
            "{}: the target was not written",
            what
        );
        assert_eq!(entries(&dir), vec!["link", "target"], "{}", what);
    }
}

/// Case 3: a path that names a directory (`newdir/`) is refused before any work,
/// and no `.newdir.tmpPID` is left behind.
#[test]
fn case49_03_a_directory_path_is_refused_before_the_work() {
    let d = scratch("issue49", "dirs");
    for (what, args) in writers("newdir/") {
        let o = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(&args)
            .current_dir(&d)
            .output()
            .unwrap();
        one_error(&o, what, &[what, "'newdir/'", "names a directory"]);
        assert!(stdout(&o).is_empty(), "{}: the work ran first", what);
        assert_eq!(entries(&d), Vec::<String>::new(), "{}", what);
    }
    // The long perft of the issue is refused at once.
    let start = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(long_perft("newdir/"))
        .current_dir(&d)
        .output()
        .unwrap();
    one_error(&o, "perft --checkpoint newdir/", &["names a directory"]);
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(entries(&d), Vec::<String>::new());
}

/// Case 5: a directory where the Kalah table file should be is named as such (not
/// "too short"), the solve still right, and no temporary is left.
#[test]
fn case49_05_a_directory_in_place_of_a_table_file() {
    let d = scratch("issue49", "tabledir");
    std::fs::create_dir(d.join("kalah-3pits-seed-rules.v3.tbl")).unwrap();
    let o = ply_with(
        &["solve", "kalah:3x3"],
        &[("PLY_TABLES_DIR", arg(&d)), ("PLY_THREADS", "1")],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().next(), Some("value: 2"));
    assert!(
        stderr(&o).contains("it is a directory, not a table file"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("too short"), "{}", stderr(&o));
    assert_eq!(entries(&d), vec!["kalah-3pits-seed-rules.v3.tbl"]);
}

/// Case 6: a temporary that a killed run left (its process gone) is removed by
/// the next run that writes the same file, a checkpoint or a table file; a live
/// process's is left alone.
#[test]
fn case49_06_stale_temporaries_of_dead_processes_are_swept() {
    let d = scratch("issue49", "stale");
    // No process has a pid above Linux's largest (4194304).
    let dead = d.join(".s.ckpt.tmp4194305");
    let live = d.join(format!(".s.ckpt.tmp{}", std::process::id()));
    std::fs::write(&dead, b"half a checkpoint").unwrap();
    std::fs::write(&live, b"being written").unwrap();
    let ckpt = d.join("s.ckpt");
    let o = ply(&["perft", "tictactoe", "3", "--checkpoint", arg(&ckpt)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let left = entries(&d);
    assert!(
        !left.contains(&".s.ckpt.tmp4194305".to_string()),
        "{:?}",
        left
    );
    assert!(live.exists(), "a live process's temporary was removed");
    // A lock file a killed holder left (no lock held on it) is taken over and
    // removed at the end.
    std::fs::write(d.join(".s.ckpt.lock"), b"4194305\n").unwrap();
    let o = ply(&[
        "perft",
        "tictactoe",
        "3",
        "--checkpoint",
        arg(&ckpt),
        "--resume",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_file(&live).unwrap();
    assert_eq!(entries(&d), vec!["s.ckpt"]);
    // A table file likewise: the solve that builds the Kalah table sweeps what a run
    // killed while saving it left.
    let tables = scratch("issue49", "stale-table");
    let table = "kalah-3pits-seed-rules.v3.tbl";
    std::fs::write(tables.join(format!(".{table}.tmp4194305")), b"half a table").unwrap();
    let env = [("PLY_TABLES_DIR", arg(&tables)), ("PLY_THREADS", "1")];
    let o = ply_with(&["solve", "kalah:3x3"], &env, None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(entries(&tables), vec![table]);
}

/// Where the Kalah tables go without `PLY_TABLES_DIR`, as docs/games/kalah/tables.md
/// says: `$XDG_CACHE_HOME/ply`, and with neither `XDG_CACHE_HOME` nor `HOME` set,
/// `.ply-tables` in the current directory (it was undocumented).
#[test]
fn case49_tables_go_where_the_docs_say_without_home() {
    let d = scratch("issue49", "nohome");
    let table = "kalah-3pits-seed-rules.v3.tbl";
    for xdg in [None, Some(d.join("xdg"))] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ply"));
        cmd.args(["solve", "kalah:3x3", "--threads", "1"])
            .current_dir(&d)
            .env_remove("PLY_TABLES_DIR")
            .env_remove("HOME")
            .env_remove("XDG_CACHE_HOME");
        let expected = match &xdg {
            Some(dir) => {
                cmd.env("XDG_CACHE_HOME", dir);
                dir.join("ply").join(table)
            }
            None => d.join(".ply-tables").join(table),
        };
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(expected.is_file(), "{}: {}", expected.display(), stderr(&o));
    }
    assert_eq!(entries(&d), vec![".ply-tables", "xdg"]);
}

/// Case 7: a second run on a checkpoint in use is refused with one line naming
/// the first run's pid, with or without --resume; the first is undisturbed.
#[test]
fn case49_07_a_checkpoint_is_used_by_one_run_at_a_time() {
    let d = scratch("issue49", "lock");
    let ckpt = d.join("s.ckpt");
    let mut first = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(long_perft(arg(&ckpt)))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&d.join(".s.ckpt.lock"), &mut first, "the first run");
    let holder = format!("pid {}", first.id());
    for resume in [false, true] {
        let mut args = long_perft(arg(&ckpt)).to_vec();
        if resume {
            args.push("--resume");
        }
        let o = ply(&args);
        one_error(&o, "second run", &["is in use by", &holder]);
    }
    assert!(first.try_wait().unwrap().is_none(), "the first run ended");
    // SAFETY: kill(2) on the child this test started.
    unsafe {
        libc::kill(first.id() as i32, libc::SIGINT);
    }
    let _ = first.wait_with_output();
    // Stopped: its checkpoint saved, its lock file and temporaries gone.
    assert_eq!(entries(&d), vec!["s.ckpt"]);
}

/// The same file for two outputs is refused, a link and its target included.
#[test]
fn case49_the_same_path_for_two_outputs_is_refused() {
    let d = scratch("issue49", "twice");
    let f = d.join("out");
    std::os::unix::fs::symlink("out", d.join("link")).unwrap();
    for other in [f.clone(), d.join("link")] {
        let o = ply(&with(
            ROUND_ROBIN,
            &[
                "--games-per-pair",
                "1",
                "--results",
                arg(&f),
                "--checkpoint",
                arg(&other),
            ],
        ));
        one_error(&o, "--results F --checkpoint F", &["are the same file"]);
    }
    assert_eq!(entries(&d), vec!["link"]);
}

/// Words of a checkpoint record, written as a forger would.
struct Forged([u64; 4]);

impl ply_host::distributed::Record for Forged {
    const WORDS: usize = 4;
    fn encode(&self) -> Vec<u64> {
        self.0.to_vec()
    }
    fn decode(words: &[u64]) -> Option<Self> {
        Some(Forged(words.try_into().ok()?))
    }
    fn nodes(&self) -> u64 {
        0
    }
}

/// A checkpoint with a good checksum but a value no board can score (the root
/// "proved" 1000) is refused with one line, not printed as the solve's value.
#[test]
fn case49_a_checkpoint_value_outside_the_board_is_refused() {
    let d = scratch("issue49", "forged");
    let ckpt = d.join("s.ckpt");
    let env = [
        ("PLY_TABLES_DIR", arg(&d)),
        ("PLY_KALAH_TABLE_SEEDS", "0"),
        ("PLY_THREADS", "1"),
    ];
    let solve = |resume: bool| {
        let mut args = vec!["solve", "kalah:3x2", "--checkpoint", arg(&ckpt)];
        if resume {
            args.push("--resume");
        }
        ply_with(&args, &env, None)
    };
    let o = solve(false);
    assert!(o.status.success(), "{}", stderr(&o));
    // The fingerprint and the number of items, from the file the solve wrote.
    let bytes = std::fs::read(&ckpt).unwrap();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let len = word(8);
    let fingerprint = std::str::from_utf8(&bytes[16..16 + len])
        .unwrap()
        .to_string();
    let items = word(16 + len);
    let mut records: Vec<Option<Forged>> = (0..items).map(|_| None).collect();
    records[0] = Some(Forged([1, 1000, 1000, 5]));
    let forged = ply_host::distributed::checkpoint::encode(&fingerprint, &records);
    std::fs::write(&ckpt, forged).unwrap();
    let o = solve(true);
    one_error(
        &o,
        "forged value",
        &["the value 1000", "-12 to 12", "damaged"],
    );
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

/// `PLY_TABLES_DIR` a link to nothing is refused up front, naming the link's
/// target (the solve said "File exists" when it saved).
#[test]
fn case49_a_dangling_tables_dir_link_is_refused() {
    let d = scratch("issue49", "dangling");
    let link = d.join("tables");
    std::os::unix::fs::symlink(d.join("gone"), &link).unwrap();
    let o = ply_with(
        &["solve", "kalah:3x2"],
        &[("PLY_TABLES_DIR", arg(&link))],
        None,
    );
    one_error(
        &o,
        "dangling PLY_TABLES_DIR",
        &["PLY_TABLES_DIR", "gone", "does not exist"],
    );
    assert_eq!(entries(&d), vec!["tables"]);
}

/// Case 7, the table build: a second solve that would build the same endgame table
/// file waits for the first (saying for whom) and then uses what that one saved
/// instead of building it again.
#[test]
fn case49_07_a_second_table_build_waits_for_the_first() {
    let d = scratch("issue49", "tablelock");
    let solve = || {
        Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["solve", "kalah:6x4"])
            .env("PLY_TABLES_DIR", &*d)
            .env("PLY_KALAH_TABLE_SEEDS", "18")
            .env("PLY_THREADS", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let interrupt = |child: &std::process::Child| {
        // SAFETY: kill(2) on a child this test started.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGINT);
        }
    };
    let mut first = solve();
    let first_id = first.id();
    wait_for(
        &d.join(".kalah-6pits-seed-rules.v3.tbl.lock"),
        &mut first,
        "the first solve",
    );
    let second = solve();
    // The first saves its tables (and lets go of the lock) before it searches.
    let table = d.join("kalah-6pits-seed-rules.v3.tbl");
    let start = Instant::now();
    while !table.exists() {
        assert!(start.elapsed() < Duration::from_secs(120), "no table file");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Time for the second to map the file and start its search.
    std::thread::sleep(Duration::from_millis(500));
    interrupt(&first);
    interrupt(&second);
    let _ = first.wait_with_output().unwrap();
    let second = second.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&second.stderr).into_owned();
    assert!(
        err.contains(&format!(
            "waiting for another ply process (pid {}), which is building",
            first_id
        )),
        "{}",
        err
    );
    assert!(
        !err.contains("endgame tables: built"),
        "built again: {}",
        err
    );
    assert_eq!(entries(&d), vec!["kalah-6pits-seed-rules.v3.tbl"]);
}

/// Case 4: a table file cut short while a solve maps it ends the solve with one
/// error line and exit status 1, not a silent death by SIGBUS.
#[test]
fn case49_04_a_mapped_table_cut_short_is_one_error_line() {
    use std::io::BufRead;
    let d = scratch("issue49", "sigbus");
    let env = [
        ("PLY_TABLES_DIR", arg(&d)),
        ("PLY_KALAH_TABLE_SEEDS", "16"),
        ("PLY_THREADS", "1"),
    ];
    // The first solve builds and saves the tables; the second maps them.
    let o = ply_with(&["solve", "kalah:5x4"], &env, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = d.join("kalah-5pits-seed-rules.v3.tbl");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ply"));
    cmd.args(["solve", "kalah:5x4"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let mapped = line.starts_with("endgame tables: mapped");
        seen.push(line);
        if mapped {
            break;
        }
    }
    assert!(
        seen.last().is_some_and(|l| l.contains("mapped")),
        "{:?}",
        seen
    );
    std::fs::OpenOptions::new()
        .write(true)
        .open(&table)
        .unwrap()
        .set_len(4096)
        .unwrap();
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{:?}: {:?}", status, rest);
    let last = rest.last().cloned().unwrap_or_default();
    assert!(
        last.starts_with("error: the mapped file") && last.contains("was cut short"),
        "{:?}",
        rest
    );
    assert_eq!(rest.iter().filter(|l| l.starts_with("error")).count(), 1);
}
