//! `ply perft` as a job of the ranks (or of one process with a checkpoint): the
//! job of [`super::perft`], counted through one table across the ranks
//! ([`super::routed`], over MPI with the `mpi` feature) or dealt out by the runner
//! ([`super::run`]) with each rank's own table; the one-process command's lines
//! printed on rank 0.

use std::time::Instant;

use ply_core::perft::PerftKey;

use super::perft::PerftJob;
use super::Options;
use crate::output::{rate, secs};
use crate::parallel::SharedPerftTable;

/// `ply perft` through [`super::run`]: prints what the one-process command prints (the
/// lines of `--divide`, the total, the time, the rate, and with a table its size and
/// hit rate over every process) on rank 0; prints nothing on the other ranks. Returns
/// the total (0 on the other ranks).
///
/// Under an MPI launcher (the `mpi` feature) a count with a table joins the ranks'
/// tables into one ([`super::routed`]) with `routing`; with `None`
/// (`--private-tables`) each rank counts the items it is dealt through its own table.
pub fn run<G: PerftKey + Send + Sync>(
    game: &G,
    depth: u32,
    divide: bool,
    threads: usize,
    table: Option<&SharedPerftTable>,
    routing: Option<super::routed::Routing>,
    options: &Options,
) -> Result<u64, String> {
    let t = Instant::now();
    let job = PerftJob::new(game, depth, threads, table);
    let routed = match (table, routing) {
        #[cfg(feature = "mpi")]
        (Some(table), Some(routing)) if super::launch().is_some() => {
            Some(super::mpi::run_routed(&job, table, routing, options)?)
        }
        _ => None,
    };
    let counts = match routed {
        Some(counts) => counts,
        None => super::run(&job, options)?,
    };
    let Some(counts) = counts else {
        return Ok(0);
    };
    if divide {
        for (mv, n) in job.divide(&counts) {
            crate::outln!("{}: {}", game.display_move(mv), n)?;
        }
    }
    let total = counts
        .iter()
        .try_fold(0u64, |sum, c| sum.checked_add(c.leaves))
        .ok_or("the total overflows 64 bits")?;
    let s = t.elapsed().as_secs_f64();
    crate::outln!("{}", total)?;
    crate::outln!("time: {}", secs(s))?;
    crate::outln!("leaves/s: {}", rate(total, s))?;
    if let Some(table) = table {
        let probes: u64 = counts.iter().map(|c| c.probes).sum();
        let hits: u64 = counts.iter().map(|c| c.hits).sum();
        crate::outln!(
            "{}",
            crate::parallel::perft_table::table_line(table.bytes(), probes, hits)
        )?;
    }
    Ok(total)
}
