//! The checkpoint of a run as the loop and the interrupt handler share it: the results
//! read back at the start ([`start_results`]), kept as they come and written at most
//! once every [`CHECKPOINT_EVERY`] ([`Saver`]), and saved on Ctrl-C or SIGTERM
//! ([`install_hook`]).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::distributed::checkpoint;
use crate::distributed::codec::Record;
use crate::distributed::Options;
use crate::quote::quote;

/// The longest a run goes without writing its checkpoint once an item has finished.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// The results read back from the checkpoint (all `None` without one, or when
/// `--resume` finds no file yet).
pub(crate) fn start_results<R: Record>(
    options: &Options,
    fingerprint: &str,
    items: usize,
) -> Result<Vec<Option<R>>, String> {
    let fresh = || (0..items).map(|_| None).collect();
    let Some(path) = &options.checkpoint else {
        return Ok(fresh());
    };
    let shown = quote(&path.to_string_lossy());
    if !options.resume {
        if path.exists() {
            return Err(checkpoint::exists_error(path));
        }
        return Ok(fresh());
    }
    match checkpoint::load(path, fingerprint, items)? {
        Some(r) => Ok(r),
        None => {
            crate::errln!(
                "checkpoint {} does not exist yet: starting from the first item",
                shown
            );
            Ok(fresh())
        }
    }
}

/// The checkpoint as the interrupt handler and the loop share it.
pub(crate) struct Saver<R> {
    pub(crate) path: Option<std::path::PathBuf>,
    pub(crate) fingerprint: String,
    pub(crate) results: Arc<Mutex<Vec<Option<R>>>>,
    pub(crate) last: Instant,
    pub(crate) unsaved: bool,
    /// Whether every item is needed: the messages then say "N of M items" (a
    /// gated job's M is only the size of its numbering, [`crate::distributed::Job::needed`]).
    pub(crate) every_item: bool,
}

/// "N of M items", or "N items" for a gated job.
pub(crate) fn saved_count(done: usize, items: usize, every_item: bool) -> String {
    if every_item {
        format!("{} of {} items", done, items)
    } else {
        format!("{} items", done)
    }
}

impl<R: Record> Saver<R> {
    pub(crate) fn store(&mut self, index: usize, r: R) {
        self.results.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(r);
        self.unsaved = true;
    }

    pub(crate) fn save(&mut self, force: bool) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if !self.unsaved || (!force && self.last.elapsed() < CHECKPOINT_EVERY) {
            return Ok(());
        }
        let results = self.results.lock().unwrap_or_else(|e| e.into_inner());
        checkpoint::save(path, &self.fingerprint, &results)?;
        self.last = Instant::now();
        self.unsaved = false;
        Ok(())
    }

    /// `error`, saying how much the checkpoint holds, after saving it.
    pub(crate) fn fail(&mut self, error: String) -> String {
        let saved = self.save(true);
        match (&self.path, saved) {
            (None, _) => error,
            (Some(path), Ok(())) => {
                let results = self.results.lock().unwrap_or_else(|e| e.into_inner());
                let done = results.iter().filter(|r| r.is_some()).count();
                format!(
                    "{} ({} are saved in {}: rerun the same command with --resume to finish)",
                    error,
                    saved_count(done, results.len(), self.every_item),
                    quote(&path.to_string_lossy())
                )
            }
            (Some(_), Err(e)) => format!("{} ({})", error, e),
        }
    }
}

/// Clears the interrupt hook when the run ends, however it ends.
pub(crate) struct HookGuard;

impl Drop for HookGuard {
    fn drop(&mut self) {
        crate::interrupt::on_interrupt(None);
    }
}

/// Makes Ctrl-C and SIGTERM (what `mpirun` sends when a rank dies) save the checkpoint
/// and say how to go on.
pub(crate) fn install_hook<R: Record>(saver: &Saver<R>) -> Option<HookGuard> {
    let path = saver.path.clone()?;
    let fingerprint = saver.fingerprint.clone();
    let results = Arc::clone(&saver.results);
    let every_item = saver.every_item;
    crate::interrupt::on_interrupt(Some(Box::new(move || {
        let results = results.lock().unwrap_or_else(|e| e.into_inner());
        let done = results.iter().filter(|r| r.is_some()).count();
        let shown = quote(&path.to_string_lossy());
        match checkpoint::save(&path, &fingerprint, &results) {
            Ok(()) => crate::errln!(
                "stopped: {} are saved in {}: rerun the same command with --resume to finish",
                saved_count(done, results.len(), every_item),
                shown
            ),
            Err(e) => crate::errln!("stopped: {}", e),
        }
    })));
    Some(HookGuard)
}
