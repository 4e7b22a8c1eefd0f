//! `ply db build --verify`: every position of the database checked against its
//! children.

use std::time::Instant;

use ply_core::games::draughts::db::{check, keys_of, slice_size, Database};

use super::chunks::{in_chunks, Counts};
use super::file;

/// Checks every position of 1 to `pieces` pieces of `db` against its children
/// ([`check::check_range`]) on `threads` threads; returns the number of positions
/// checked, or a line naming the first inconsistent position found.
pub fn verify(
    db: &Database,
    pieces: u32,
    threads: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<u64, String> {
    let mut checked = 0;
    for n in 1..=pieces {
        let t = Instant::now();
        let mut here = 0;
        for key in keys_of(n) {
            let len = slice_size(key);
            in_chunks(threads, len, 1 << 14, |r| {
                check::check_range(db, key, r).map(|()| Counts(0, 0))
            })
            .map_err(|e| {
                let g = e.position.game_with(ply_core::games::draughts::Rules::english());
                format!(
                    "checkers db: {} (position {} with the mover as Black) holds {:?}, its children give {:?}",
                    file::file_name(key),
                    g,
                    e.found,
                    e.expected
                )
            })?;
            here += len;
        }
        checked += here;
        progress(&format!(
            "checkers db: {} pieces: all {} positions agree with their children ({:.1} s)",
            n,
            here,
            t.elapsed().as_secs_f64()
        ));
    }
    Ok(checked)
}
