//! The database on disk, loaded for play and solving.

use std::path::Path;
use std::sync::OnceLock;

use ply_core::games::draughts::db::{keys_of, Database, MAX_PIECES};

use super::{cache, db_dir, file};

/// The database on disk in `dir`: every slice of 1, 2 … pieces as long as all the
/// slices of that many pieces are there and check out (a file that does not is
/// left out, with a line to `progress` saying why and how to rebuild it). `None`
/// when not even the one-piece slices are there.
pub fn load(dir: &Path, progress: &mut dyn FnMut(&str)) -> Option<&'static Database<'static>> {
    let mut db = Box::new(Database::new());
    db.set_reader(cache::read);
    'pieces: for n in 1..=MAX_PIECES {
        let mut these = Vec::new();
        for key in keys_of(n) {
            let mut p = file::path(dir, key);
            let mut found = file::read(&p, key);
            if matches!(found, file::Read::Missing) {
                // Format 2 is read as it is (ply db build converts it).
                p = file::plain_path(dir, key);
                found = file::read(&p, key);
            }
            match found {
                file::Read::Good(slice) => these.push((key, p, slice)),
                file::Read::Missing => break 'pieces,
                file::Read::Bad(why) => {
                    progress(&format!(
                        "checkers db: {}: {}; not used (ply db build checkers --pieces {} rebuilds it)",
                        p.display(),
                        why,
                        n
                    ));
                    break 'pieces;
                }
            }
        }
        for (key, p, slice) in these {
            db.set_slice(key, slice.leak(&p)).ok()?;
        }
    }
    if db.pieces() == 0 {
        None
    } else {
        Some(Box::leak(db))
    }
}

/// The database on disk in the tables directory, loaded once a process
/// ([`load`]); `None` when there is none.
pub fn shared() -> Option<&'static Database<'static>> {
    static DB: OnceLock<Option<&'static Database<'static>>> = OnceLock::new();
    *DB.get_or_init(|| {
        let dir = crate::settings::environment().ok()?.tables_dir;
        load(&db_dir(dir), &mut |line| crate::errln!("{}", line))
    })
}
