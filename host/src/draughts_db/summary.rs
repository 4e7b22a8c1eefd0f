//! The lines `ply db build` prints at the end of a build.

use std::path::Path;

use ply_core::games::draughts::db::{slice_size, SliceKey};

use super::build::BuildReport;
use super::census::{Census, SliceCensus};
use super::file;

/// A slice as the summary of a build counts it ([`summary`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceSummary {
    /// The slice.
    pub key: SliceKey,
    /// What it holds.
    pub census: SliceCensus,
    /// Bytes of its file.
    pub bytes: u64,
}

/// The lines `ply db build` prints once the slices of 1 to `pieces` pieces are in
/// `dir` (`slices`, in build order): positions and bytes, the slices converted,
/// each piece count's wins, losses, draws and longest distance, what was built now.
pub fn summary(
    pieces: u32,
    dir: &Path,
    slices: &[SliceSummary],
    report: &BuildReport,
) -> Vec<String> {
    let total: u64 = slices.iter().map(|s| slice_size(s.key)).sum();
    let disk: u64 = slices.iter().map(|s| s.bytes).sum();
    let wide = slices.iter().filter(|s| s.census.width == 2).count();
    let mut lines = vec![format!(
        "checkers db: every position with up to {} pieces in {}: {} positions, {} bytes on disk in compressed blocks ({:.3} bytes a position; {} of {} slices two bytes a position)",
        pieces,
        dir.display(),
        total,
        disk,
        disk as f64 / total.max(1) as f64,
        wide,
        slices.len()
    )];
    if report.converted > 0 {
        lines.push(format!(
            "converted now: {} slices from plain files (format 2) to compressed ones",
            report.converted
        ));
    }
    for n in 1..=pieces {
        let mut c = Census::default();
        for s in slices.iter().filter(|s| s.key.pieces() == n) {
            c.add(s.key, &s.census);
        }
        let all = (c.won + c.lost + c.drawn).max(1) as f64;
        let longest = c.longest.map_or("none".to_string(), |(d, loss, key)| {
            format!(
                "{} in {} plies ({})",
                if loss { "a loss" } else { "a win" },
                d,
                file::file_name(key)
            )
        });
        lines.push(format!(
            "{} pieces: {} won ({:.1}%), {} lost ({:.1}%), {} drawn ({:.1}%) for the side to move; longest: {}; {} slices of two-byte entries",
            n,
            c.won,
            100.0 * c.won as f64 / all,
            c.lost,
            100.0 * c.lost as f64 / all,
            c.drawn,
            100.0 * c.drawn as f64 / all,
            longest,
            c.wide
        ));
    }
    if report.built > 0 {
        let rate = crate::output::rate(report.built, report.build_secs * report.threads as f64);
        lines.push(if report.ranks > 1 {
            format!(
                "built now: {} positions in {:.2} s of pairs built, summed over {} ranks of {} threads ({} positions/s per thread)",
                report.built, report.build_secs, report.ranks, report.threads, rate
            )
        } else {
            format!(
                "built now: {} positions in {:.2} s on {} threads ({} positions/s per thread)",
                report.built, report.build_secs, report.threads, rate
            )
        });
    }
    lines
}
