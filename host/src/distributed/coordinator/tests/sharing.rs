//! What a rank shares ([`Job::shared`]) reaches every other rank.

use super::*;

/// Items that take a little while, each rank sharing one word of its own once
/// ([`Job::shared`]) and keeping what it learns.
struct Sharer {
    me: u64,
    shared: std::sync::atomic::AtomicBool,
    learnt: Mutex<Vec<u64>>,
}

impl Job for Sharer {
    type Output = u64;
    fn fingerprint(&self) -> String {
        "sharer".into()
    }
    fn items(&self) -> usize {
        300
    }
    fn slots(&self) -> usize {
        2
    }
    fn run(&self, index: usize) -> Result<u64, String> {
        std::thread::sleep(Duration::from_millis(2));
        Ok(index as u64)
    }
    fn label(&self) -> Option<&str> {
        None
    }
    fn shared(&self) -> Vec<u64> {
        if self.shared.swap(true, std::sync::atomic::Ordering::Relaxed) {
            Vec::new()
        } else {
            vec![100 + self.me]
        }
    }
    fn learn(&self, words: &[u64]) {
        self.learnt.lock().unwrap().extend_from_slice(words);
    }
}

/// What each rank shares reaches every other rank once, through rank 0, and the
/// results are those of one process.
#[test]
fn what_a_rank_shares_reaches_every_other_rank_once() {
    let jobs: Vec<Sharer> = (0..3)
        .map(|me| Sharer {
            me,
            shared: Default::default(),
            learnt: Mutex::new(Vec::new()),
        })
        .collect();
    let options = Options::default();
    let mut ranks = channels(3);
    let mut zero = ranks.remove(0);
    let out = std::thread::scope(|s| {
        for (k, mut t) in ranks.into_iter().enumerate() {
            let (job, options) = (&jobs[k + 1], &options);
            s.spawn(move || work(job, options, &mut t, format!("h{}", k + 1)).unwrap());
        }
        coordinate(&jobs[0], &options, &mut zero, "h0".into(), false).unwrap()
    });
    assert_eq!(
        complete(out).unwrap(),
        (0..300).map(|i| i as u64).collect::<Vec<_>>()
    );
    for job in &jobs {
        let mut got = job.learnt.lock().unwrap().clone();
        got.sort();
        let want: Vec<u64> = (0..3).filter(|&r| r != job.me).map(|r| 100 + r).collect();
        assert_eq!(got, want, "rank {}", job.me);
    }
}
