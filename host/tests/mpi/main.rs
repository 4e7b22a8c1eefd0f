//! `ply perft`, `ply tournament` and `ply solve kalah` under `mpirun` (the `mpi`
//! feature; run by scripts/test-mpi.sh, which installs Open MPI first): 1, 2 and 3
//! ranks (more ranks than cores: oversubscribed) print what one process prints; a
//! killed rank ends the job with a clear error and `--resume` finishes it with the
//! right total or values, without redoing the saved items; two "hosts" on one
//! machine; four hosts as network namespaces with latency on their links; ranks with
//! different jobs and commands that are not dealt out yet are refused.
//!
//! Every run but the namespaces' stays on the loopback
//! (`OMPI_MCA_*_tcp_if_include=lo`); every run may run as root (the CI machine's
//! user).
//!
//! One file a topic: `perft.rs` (perft and its table across ranks), `tournament.rs`,
//! `failures.rs` (a killed or silent rank, then `--resume`), `hosts.rs` (several
//! hosts), `refusals.rs`, `solve.rs` (`ply solve kalah`) and `db.rs` (`ply db build
//! checkers`); the `mpirun` helpers they share are here.
#![cfg(feature = "mpi")]

#[path = "../common/mod.rs"]
mod common;
use common::{
    long_perft, ply, results, saved_items, scratch, stderr, stdout, wait_for, LONG_PERFT_TOTAL,
};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod db;
mod failures;
mod hosts;
mod perft;
mod refusals;
mod solve;
mod tournament;

/// `mpirun` with the test settings, before its own arguments.
fn mpirun_command() -> Command {
    let mut c = Command::new("mpirun");
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_btl_tcp_if_include", "lo")
        .env("OMPI_MCA_oob_tcp_if_include", "lo")
        // No warnings about the machine's network cards or a missing InfiniBand.
        .env("OMPI_MCA_btl_base_warn_component_unused", "0")
        .stdin(Stdio::null());
    c
}

/// `mpirun -np N --oversubscribe ply ARGS...`.
fn mpirun_ply(np: usize, args: &[&str]) -> Command {
    let mut c = mpirun_command();
    c.args([
        "-np",
        &np.to_string(),
        "--oversubscribe",
        env!("CARGO_BIN_EXE_ply"),
    ])
    .args(args);
    c
}

fn run(mut c: Command) -> Output {
    c.output()
        .expect("mpirun (Open MPI) is not installed: bash scripts/setup-mpi.sh")
}

/// The per-rank summary lines as (rank, host, items).
fn summary(err: &str) -> Vec<(usize, String, u64)> {
    err.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("rank ")?;
            let (rank, rest) = rest.split_once(" on ")?;
            let (host, rest) = rest.split_once(": ")?;
            let items = rest.split(' ').next()?.parse().ok()?;
            Some((rank.parse().ok()?, host.to_string(), items))
        })
        .collect()
}

/// The pids of `mpirun`'s ranks (its children whose environment names a rank).
fn rank_pid(mpirun: u32, rank: usize) -> Option<i32> {
    let children =
        std::fs::read_to_string(format!("/proc/{}/task/{}/children", mpirun, mpirun)).ok()?;
    let want = format!("OMPI_COMM_WORLD_RANK={}", rank);
    children.split_whitespace().find_map(|pid| {
        let env = std::fs::read(format!("/proc/{}/environ", pid)).ok()?;
        env.split(|&b| b == 0)
            .any(|v| v == want.as_bytes())
            .then(|| pid.parse().ok())?
    })
}

/// A resumed run's stderr says it read `saved` of `items` items from the checkpoint,
/// and its per-rank summary shows that the ranks computed exactly the rest.
fn assert_resumed_only_the_rest(err: &str, saved: u64, items: u64) {
    assert!(
        err.contains(&format!(
            "resuming: {} of {} items were done already",
            saved, items
        )),
        "{}",
        err
    );
    let computed: u64 = summary(err).iter().map(|r| r.2).sum();
    assert_eq!(computed, items - saved, "{}", err);
}
