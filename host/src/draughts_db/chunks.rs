//! Work on every thread over a range of positions, in parts taken in turn.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Runs `work` on `threads` threads over `0..len` in parts of `chunk`, summing what
/// the parts return; the first error stops the threads.
pub(super) fn in_chunks<T: std::ops::AddAssign + Default + Send, E: Send>(
    threads: usize,
    len: u64,
    chunk: u64,
    work: impl Fn(Range<u64>) -> Result<T, E> + Sync,
) -> Result<T, E> {
    let next = AtomicU64::new(0);
    let total = Mutex::new(Ok(T::default()));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut mine = T::default();
                loop {
                    let lo = next.fetch_add(chunk, Ordering::Relaxed);
                    if lo >= len {
                        break;
                    }
                    match work(lo..(lo + chunk).min(len)) {
                        Ok(v) => mine += v,
                        Err(e) => {
                            *total.lock().unwrap() = Err(e);
                            next.store(len, Ordering::Relaxed);
                            return;
                        }
                    }
                }
                if let Ok(t) = total.lock().unwrap().as_mut() {
                    *t += mine;
                }
            });
        }
    });
    total.into_inner().unwrap()
}

/// Two counts summed over the threads.
#[derive(Clone, Copy, Default)]
pub(super) struct Counts(pub(super) u64, pub(super) u64);

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
