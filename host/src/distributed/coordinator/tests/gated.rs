//! Gated jobs: the items their results call for, and spare items that give their
//! slot up or are abandoned.

use super::*;

/// A gated job: item `i` (of 64) is needed once item `i / 2` is done and its
/// result is odd, item 1 from the start; each result is `3 * i + 1`, so every item
/// of the form `2k + 1` whose parent is needed gets computed, the even ones never.
struct Halving;

impl Job for Halving {
    type Output = u64;
    fn fingerprint(&self) -> String {
        "halving".into()
    }
    fn items(&self) -> usize {
        64
    }
    fn slots(&self) -> usize {
        2
    }
    fn run(&self, index: usize) -> Result<u64, String> {
        std::thread::sleep(Duration::from_millis(2));
        Ok(3 * index as u64 + 1)
    }
    fn needed(&self, results: &[Option<u64>]) -> Option<Vec<usize>> {
        let mut v = vec![1];
        for (i, r) in results.iter().enumerate() {
            if r.is_some_and(|x| x % 2 == 0) {
                v.extend([2 * i, 2 * i + 1].into_iter().filter(|&c| c < 64));
            }
        }
        Some(v)
    }
    fn ahead(&self) -> usize {
        0
    }
    fn label(&self) -> Option<&str> {
        None
    }
}

/// The items `Halving` computes: 1, then both children of each item whose result
/// (`3i + 1`) is even, i.e. of each odd item.
fn halving_items() -> Vec<usize> {
    let mut want = vec![1usize];
    let mut k = 0;
    while k < want.len() {
        let i = want[k];
        if (3 * i + 1) % 2 == 0 {
            want.extend([2 * i, 2 * i + 1].into_iter().filter(|&c| c < 64));
        }
        k += 1;
    }
    want.sort_unstable();
    want
}

#[test]
fn a_gated_job_computes_the_items_its_results_call_for_on_one_and_three_ranks() {
    let want = halving_items();
    assert!(want.len() > 5 && want.len() < 64, "{:?}", want);
    let computed = |out: &[Option<u64>]| -> Vec<usize> {
        (0..out.len()).filter(|&i| out[i].is_some()).collect()
    };
    let one = run_local(&Halving, &Options::default()).unwrap();
    assert_eq!(computed(&one), want);
    assert!(run_local_all(&Halving, &Options::default()).is_err());
    let options = Options::default();
    let mut ranks = channels(3);
    let mut zero = ranks.remove(0);
    let out = std::thread::scope(|s| {
        for (k, mut t) in ranks.into_iter().enumerate() {
            let options = &options;
            s.spawn(move || work(&Halving, options, &mut t, format!("h{}", k + 1)).unwrap());
        }
        coordinate(&Halving, &options, &mut zero, "h0".into(), true).unwrap()
    });
    assert_eq!(out, one);
    // Resumed from a checkpoint holding some of the items: the same results.
    let dir = scratch("gated");
    let path = dir.join("c");
    let fp = fingerprint(&Halving, &options);
    let mut part: Vec<Option<u64>> = vec![None; 64];
    for &i in &want[..want.len() / 2] {
        part[i] = one[i];
    }
    checkpoint::save(&path, &fp, &part).unwrap();
    let resumed = Options {
        checkpoint: Some(path),
        resume: true,
        command: String::new(),
        rank_timeout: None,
    };
    assert_eq!(run_local(&Halving, &resumed).unwrap(), one);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_spare_item_still_running_when_the_needed_ones_are_answered_is_abandoned() {
    use std::sync::atomic::Ordering::Relaxed;
    // Two ranks of one slot: rank 0 takes the needed item at the top of its loop,
    // rank 1 the spare one once it says hello. Rank 1 abandons it when told to stop.
    let (out, job, other) = yielding_on_two_ranks(false);
    assert_eq!(
        out,
        vec![Some(1), None, None, None],
        "the spare result dropped"
    );
    assert!(job.spare_started.load(Relaxed));
    assert!(
        other.abandoned.load(Relaxed),
        "rank 1 abandoned its spare item"
    );
    assert!(
        job.abandoned.load(Relaxed),
        "rank 0 abandons at the end too"
    );
    // In one process the spare item waits: one slot, the needed item first.
    let started = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let alone = Yielding::new(1, &started, false);
    assert_eq!(
        run_local(&alone, &Options::default()).unwrap(),
        vec![Some(1), None, None, None]
    );
}

/// A gated job whose spare item 3 runs until it is dropped or abandoned: item 0 is
/// needed first and answers once item 3 has started; with `more` its result calls
/// for items 1 and 2, which find every slot busy.
struct Yielding {
    slots: usize,
    more: bool,
    /// The run of item 3 under way was asked to drop (on this rank).
    dropping: std::sync::atomic::AtomicBool,
    /// Item 3 was asked to drop at least once (on this rank).
    dropped: std::sync::atomic::AtomicBool,
    abandoned: std::sync::atomic::AtomicBool,
    /// Item 3 has started (on any rank).
    spare_started: Arc<std::sync::atomic::AtomicBool>,
}

impl Yielding {
    fn new(slots: usize, spare_started: &Arc<std::sync::atomic::AtomicBool>, more: bool) -> Self {
        Yielding {
            slots,
            more,
            dropping: Default::default(),
            dropped: Default::default(),
            abandoned: Default::default(),
            spare_started: Arc::clone(spare_started),
        }
    }
}

impl Job for Yielding {
    type Output = u64;
    fn fingerprint(&self) -> String {
        "yielding".into()
    }
    fn items(&self) -> usize {
        4
    }
    fn slots(&self) -> usize {
        self.slots
    }
    fn run(&self, index: usize) -> Result<u64, String> {
        use std::sync::atomic::Ordering::Relaxed;
        let t = Instant::now();
        let until = |flag: &dyn Fn() -> bool| {
            while !flag() && t.elapsed() < Duration::from_secs(30) {
                std::thread::sleep(Duration::from_millis(1));
            }
        };
        match index {
            3 => {
                // Dropped once, it may be dealt again as spare: a new run.
                self.dropping.store(false, Relaxed);
                self.spare_started.store(true, Relaxed);
                until(&|| self.dropping.load(Relaxed) || self.abandoned.load(Relaxed));
                if self.dropping.load(Relaxed) || self.abandoned.load(Relaxed) {
                    return Err("given up".into());
                }
                Ok(30)
            }
            0 => {
                until(&|| self.spare_started.load(Relaxed));
                Ok(1)
            }
            _ => Ok(10 * index as u64),
        }
    }
    fn needed(&self, results: &[Option<u64>]) -> Option<Vec<usize>> {
        Some(if self.more && results[0].is_some() {
            vec![0, 1, 2]
        } else {
            vec![0]
        })
    }
    fn spare(&self, _results: &[Option<u64>]) -> Vec<usize> {
        vec![3]
    }
    fn abandon(&self) {
        self.abandoned
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
    fn drop_item(&self, index: usize) {
        assert_eq!(index, 3, "only the spare item is dropped");
        self.dropping
            .store(true, std::sync::atomic::Ordering::Relaxed);
        self.dropped
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
    fn ahead(&self) -> usize {
        0
    }
    fn label(&self) -> Option<&str> {
        None
    }
}

#[test]
fn a_spare_item_gives_its_slot_to_a_needed_one() {
    use std::sync::atomic::Ordering::Relaxed;
    let want = vec![Some(1), Some(10), Some(20), None];
    // One process, two slots: the spare item takes the second.
    let started = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let alone = Yielding::new(2, &started, true);
    assert_eq!(run_local(&alone, &Options::default()).unwrap(), want);
    assert!(alone.dropped.load(Relaxed), "dropped for item 1 or 2");
    // Two ranks of one slot: rank 1 holds the spare item and is asked to drop it.
    let (out, zero_job, one_job) = yielding_on_two_ranks(true);
    assert_eq!(out, want);
    assert!(one_job.dropped.load(Relaxed), "rank 1 was asked to drop it");
    assert!(!zero_job.dropped.load(Relaxed));
}

/// [`Yielding`] on two ranks of one slot over channels: the results, and rank 0's and
/// rank 1's jobs. Rank 0 takes the needed item at the top of its loop, rank 1 the
/// spare one once it says hello.
fn yielding_on_two_ranks(more: bool) -> (Vec<Option<u64>>, Yielding, Yielding) {
    let started = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (zero_job, one_job) = (
        Yielding::new(1, &started, more),
        Yielding::new(1, &started, more),
    );
    let options = Options::default();
    let mut ranks = channels(2);
    let mut zero = ranks.remove(0);
    let out = std::thread::scope(|s| {
        for mut t in ranks {
            let (job, options) = (&one_job, &options);
            s.spawn(move || work(job, options, &mut t, "h1".into()).unwrap());
        }
        coordinate(&zero_job, &options, &mut zero, "h0".into(), false).unwrap()
    });
    (out, zero_job, one_job)
}
