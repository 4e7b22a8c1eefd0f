//! A rank killed or stopped mid-perft ends the job with a clear error, and
//! `--resume` finishes it without redoing the saved items.

use super::*;

/// Starts [`long_perft`] with a checkpoint in `ckpt` on 2 ranks (with `env`), sends
/// rank 1 `signal` once the first checkpoint is written, and returns what the job
/// printed when it ended: it must have failed without a total.
fn signal_rank_1(ckpt: &Path, env: &[(&str, &str)], signal: i32) -> Output {
    let mut cmd = mpirun_ply(2, &long_perft(ckpt.to_str().unwrap()));
    cmd.envs(env.iter().copied());
    let mut job = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun");
    wait_for(ckpt, &mut job, "the job");
    let worker = rank_pid(job.id(), 1).expect("rank 1's pid");
    unsafe {
        libc::kill(worker, signal);
    }
    let o = job.wait_with_output().unwrap();
    // A stopped rank is gone with the job; nothing to continue otherwise.
    unsafe {
        libc::kill(worker, libc::SIGCONT);
    }
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "no total from a broken job");
    o
}

/// [`long_perft`] with `--resume`, on `np` ranks: the right total.
fn resume_long_perft(ckpt: &Path, np: usize) -> String {
    let mut resume = long_perft(ckpt.to_str().unwrap()).to_vec();
    resume.push("--resume");
    let o = run(mpirun_ply(np, &resume));
    let err = stderr(&o);
    assert!(o.status.success(), "{}", err);
    assert_eq!(stdout(&o).lines().next(), Some(LONG_PERFT_TOTAL));
    assert!(stdout(&o).contains("table: 64 MiB, "), "{}", stdout(&o));
    err
}

#[test]
fn a_killed_rank_ends_the_job_and_resume_finishes_without_redoing_items() {
    let dir = scratch("mpi", "kill");
    let ckpt = dir.join("run.ckpt");
    let o = signal_rank_1(&ckpt, &[], libc::SIGKILL);
    // Rank 0 saved what was finished and says how to go on.
    let saved = saved_items(&stderr(&o));
    assert!(saved > 0 && saved < 9105, "{}", stderr(&o));
    // Resumed on 3 ranks: the right total, and only the items the checkpoint lacked.
    let err = resume_long_perft(&ckpt, 3);
    assert_resumed_only_the_rest(&err, saved as u64, 9105);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_rank_that_stops_answering_ends_the_job_and_resume_finishes() {
    let dir = scratch("mpi", "stopped");
    let ckpt = dir.join("run.ckpt");
    let started = Instant::now();
    // SIGSTOP: the rank neither dies nor answers (as a hung machine or a cut link).
    let o = signal_rank_1(&ckpt, &[("PLY_RANK_TIMEOUT", "2")], libc::SIGSTOP);
    let err = stderr(&o);
    assert!(started.elapsed() < Duration::from_secs(60), "{}", err);
    let line = err
        .lines()
        .find(|l| l.starts_with("error: rank 1 on "))
        .unwrap_or_else(|| panic!("{}", err));
    assert!(
        line.contains("has sent nothing for 2 s while it held")
            && line.contains("(--rank-timeout): it is stopped, stuck or cut off")
            && line.ends_with("rerun the same command with --resume to finish)"),
        "{}",
        line
    );
    resume_long_perft(&ckpt, 2);
    let _ = std::fs::remove_dir_all(dir);
}
