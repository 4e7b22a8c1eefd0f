//! The coordinator on one process, on scripted ranks and on three ranks over channels.

use super::*;
use crate::distributed::{checkpoint, complete};
use std::collections::VecDeque;

/// Squares of the item numbers, on 2 threads.
struct Squares(usize);

impl Job for Squares {
    type Output = u64;
    fn fingerprint(&self) -> String {
        format!("squares {}", self.0)
    }
    fn items(&self) -> usize {
        self.0
    }
    fn slots(&self) -> usize {
        2
    }
    fn run(&self, index: usize) -> Result<u64, String> {
        if index == 1000 {
            return Err("no".into());
        }
        Ok((index * index) as u64)
    }
    fn label(&self) -> Option<&str> {
        Some("squares")
    }
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-coord-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn one_process_computes_every_item_in_order() {
    let out = run_local_all(&Squares(50), &Options::default()).unwrap();
    assert_eq!(out, (0..50u64).map(|i| i * i).collect::<Vec<_>>());
    let e = run_local_all(&Squares(1001), &Options::default()).unwrap_err();
    assert_eq!(e, "item 1000: no");
}

#[test]
fn a_resumed_run_computes_only_what_the_checkpoint_lacks() {
    let dir = scratch("resume");
    let path = dir.join("c.ckpt");
    let options = Options {
        checkpoint: Some(path.clone()),
        resume: true,
        command: "test".into(),
        rank_timeout: None,
    };
    let fp = fingerprint(&Squares(10), &options);
    // Items 0..5 done, with marked values that a recount would not give.
    let part: Vec<Option<u64>> = (0..10).map(|i| (i < 5).then_some(1000 + i)).collect();
    checkpoint::save(&path, &fp, &part).unwrap();
    let out = run_local_all(&Squares(10), &options).unwrap();
    assert_eq!(out[..5], [1000, 1001, 1002, 1003, 1004]);
    assert_eq!(out[5..], [25, 36, 49, 64, 81]);
    // The finished run's checkpoint holds everything; a resume only reads it.
    assert_eq!(
        checkpoint::load::<u64>(&path, &fp, 10).unwrap().unwrap(),
        out.iter().map(|&v| Some(v)).collect::<Vec<_>>()
    );
    assert_eq!(run_local_all(&Squares(10), &options).unwrap(), out);
    // Without --resume an existing checkpoint is refused; another job's too.
    let fresh = Options {
        resume: false,
        ..options.clone()
    };
    assert!(run_local_all(&Squares(10), &fresh)
        .unwrap_err()
        .contains("exists: add --resume"));
    assert!(run_local_all(&Squares(11), &options)
        .unwrap_err()
        .contains("belongs to another command"));
    let _ = std::fs::remove_dir_all(dir);
}

/// Another rank played by a script: what it sends when given its first item.
struct Scripted {
    inbox: VecDeque<(usize, i32, Vec<u8>)>,
    answer: Box<dyn FnMut(usize) -> Vec<Message>>,
    sent: Vec<(usize, Message)>,
}

impl Transport for Scripted {
    fn size(&self) -> usize {
        2
    }
    fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String> {
        Ok(self.inbox.pop_front())
    }
    fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String> {
        if let Message::Assign { index } = msg {
            for m in (self.answer)(*index) {
                let (t, b) = m.encode();
                self.inbox.push_back((rank, t, b));
            }
        }
        self.sent.push((rank, msg.clone()));
        Ok(())
    }
}

fn scripted(answer: impl FnMut(usize) -> Vec<Message> + 'static, fp: u64) -> Scripted {
    let (t, b) = Message::Hello {
        fingerprint: fp,
        slots: 1,
        host: "h".into(),
    }
    .encode();
    Scripted {
        inbox: VecDeque::from([(1, t, b)]),
        answer: Box::new(answer),
        sent: Vec::new(),
    }
}

fn good(index: usize) -> Vec<Message> {
    vec![Message::Done {
        index,
        busy_ns: 1,
        words: vec![(index * index) as u64],
    }]
}

#[test]
fn a_second_rank_shares_the_items_and_is_stopped() {
    let job = Squares(200);
    let fp = fnv1a(fingerprint(&job, &Options::default()).as_bytes());
    let mut t = scripted(good, fp);
    let out = complete(coordinate(&job, &Options::default(), &mut t, "me".into(), true).unwrap())
        .unwrap();
    assert_eq!(out, (0..200u64).map(|i| i * i).collect::<Vec<_>>());
    let given = t
        .sent
        .iter()
        .filter(|(_, m)| matches!(m, Message::Assign { .. }))
        .count();
    assert!(given > 0, "rank 1 got items");
    assert_eq!(t.sent.last(), Some(&(1, Message::Stop { abort: false })));
}

#[test]
fn wrong_and_missing_answers_are_caught() {
    let job = Squares(200);
    let fp = fnv1a(fingerprint(&job, &Options::default()).as_bytes());
    let run = |answer: fn(usize) -> Vec<Message>, fp: u64| {
        let mut t = scripted(answer, fp);
        let e = coordinate(&job, &Options::default(), &mut t, "me".into(), false).unwrap_err();
        assert_eq!(
            t.sent.last(),
            Some(&(1, Message::Stop { abort: true })),
            "{}",
            e
        );
        e
    };
    // Another item than the one given.
    let e = run(|i| good(i + 1000), fp);
    assert!(e.contains("answered item"), "{}", e);
    // The same item twice.
    let e = run(|i| [good(i), good(i)].concat(), fp);
    assert!(e.contains("answered already"), "{}", e);
    // A result of the wrong size.
    let e = run(
        |index| {
            vec![Message::Done {
                index,
                busy_ns: 1,
                words: vec![1, 2],
            }]
        },
        fp,
    );
    assert!(e.contains("2 words that are not a result"), "{}", e);
    // A failure.
    let e = run(
        |index| {
            vec![Message::Failed {
                index,
                error: "out of memory".into(),
            }]
        },
        fp,
    );
    assert!(
        e.contains("rank 1, item ") && e.contains("out of memory"),
        "{}",
        e
    );
    // Another job.
    let e = run(good, fp ^ 1);
    assert!(e.contains("has another job"), "{}", e);
}

#[test]
fn a_damaged_message_is_caught() {
    let job = Squares(100);
    let fp = fnv1a(fingerprint(&job, &Options::default()).as_bytes());
    let mut t = scripted(good, fp);
    let (tag, mut b) = good(0).remove(0).encode();
    b[8] ^= 1;
    t.inbox.push_back((1, tag, b));
    let e = coordinate(&job, &Options::default(), &mut t, "me".into(), false).unwrap_err();
    assert!(
        e.contains("rank 1 sent a message (tag 4) whose checksum"),
        "{}",
        e
    );
}

type Packet = (usize, i32, Vec<u8>);

/// Ranks as threads of this process, joined by channels.
struct Channels {
    me: usize,
    inbox: std::sync::mpsc::Receiver<Packet>,
    to: Vec<std::sync::mpsc::Sender<Packet>>,
}

impl Transport for Channels {
    fn size(&self) -> usize {
        self.to.len()
    }
    fn poll(&mut self) -> Result<Option<Packet>, String> {
        Ok(self.inbox.try_recv().ok())
    }
    fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String> {
        let (t, b) = msg.encode();
        self.to[rank]
            .send((self.me, t, b))
            .map_err(|e| e.to_string())
    }
}

fn channels(n: usize) -> Vec<Channels> {
    let (tx, rx): (Vec<_>, Vec<_>) = (0..n).map(|_| std::sync::mpsc::channel()).unzip();
    rx.into_iter()
        .enumerate()
        .map(|(me, inbox)| Channels {
            me,
            inbox,
            to: tx.clone(),
        })
        .collect()
}

#[test]
fn three_ranks_compute_what_one_process_does() {
    let job = Squares(500);
    let options = Options::default();
    let mut ranks = channels(3);
    let mut zero = ranks.remove(0);
    let out = std::thread::scope(|s| {
        for (k, mut t) in ranks.into_iter().enumerate() {
            let (job, options) = (&job, &options);
            s.spawn(move || work(job, options, &mut t, format!("h{}", k + 1)).unwrap());
        }
        coordinate(&job, &options, &mut zero, "h0".into(), true).unwrap()
    });
    assert_eq!(
        complete(out).unwrap(),
        run_local_all(&job, &options).unwrap()
    );
}

/// Item numbers on 1 thread, each rank's job noting which items it computed; the
/// last rank's items are slow. With `fixed`, the job asks for a fixed deal.
struct Noted<'a> {
    rank: usize,
    fixed: bool,
    seen: &'a std::sync::Mutex<Vec<Vec<usize>>>,
}

impl Job for Noted<'_> {
    type Output = u64;
    fn fingerprint(&self) -> String {
        "noted".into()
    }
    fn items(&self) -> usize {
        30
    }
    fn slots(&self) -> usize {
        1
    }
    fn fixed_deal(&self) -> bool {
        self.fixed
    }
    fn run(&self, index: usize) -> Result<u64, String> {
        if index >= 20 {
            std::thread::sleep(Duration::from_millis(20));
        }
        self.seen.lock().unwrap()[self.rank].push(index);
        Ok(index as u64)
    }
    fn label(&self) -> Option<&str> {
        None
    }
}

#[test]
fn a_fixed_deal_keeps_each_rank_to_its_run_and_every_rank_stops() {
    for fixed in [true, false] {
        let seen = std::sync::Mutex::new(vec![Vec::new(); 3]);
        let options = Options::default();
        let mut ranks = channels(3);
        let mut zero = ranks.remove(0);
        let job = |rank| Noted {
            rank,
            fixed,
            seen: &seen,
        };
        let out = std::thread::scope(|s| {
            for (k, mut t) in ranks.into_iter().enumerate() {
                let (job, options) = (job(k + 1), &options);
                s.spawn(move || work(&job, options, &mut t, format!("h{}", k + 1)).unwrap());
            }
            coordinate(&job(0), &options, &mut zero, "h0".into(), false).unwrap()
        });
        assert_eq!(complete(out).unwrap(), (0..30).collect::<Vec<u64>>());
        let mut seen = seen.into_inner().unwrap();
        seen.iter_mut().for_each(|v| v.sort_unstable());
        if fixed {
            let runs: Vec<Vec<usize>> = (0..3).map(|r| (10 * r..10 * r + 10).collect()).collect();
            assert_eq!(seen, runs);
        } else {
            // Rank 2's slow items are taken over by the others.
            assert!(seen[2].len() < 10, "{:?}", seen);
        }
    }
}

/// Rank 1: says hello, then answers each item `delay` after it was given, saying
/// it is alive every 10 ms meanwhile when `alive`.
struct Slow {
    delay: Duration,
    alive: bool,
    hello: bool,
    given: VecDeque<(usize, Instant)>,
    last_alive: Instant,
    unresponsive: Vec<usize>,
    sent: Vec<(usize, Message)>,
}

impl Slow {
    fn new(delay: Duration, alive: bool) -> Self {
        Slow {
            delay,
            alive,
            hello: false,
            given: VecDeque::new(),
            last_alive: Instant::now(),
            unresponsive: Vec::new(),
            sent: Vec::new(),
        }
    }
}

impl Transport for Slow {
    fn size(&self) -> usize {
        2
    }
    fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String> {
        let msg = if !self.hello {
            self.hello = true;
            Some(Message::Hello {
                fingerprint: fnv1a(fingerprint(&Squares(40), &Options::default()).as_bytes()),
                slots: 1,
                host: "h".into(),
            })
        } else if self
            .given
            .front()
            .is_some_and(|(_, at)| at.elapsed() >= self.delay)
        {
            let (index, _) = self.given.pop_front().expect("one is given");
            Some(Message::Done {
                index,
                busy_ns: 1,
                words: vec![(index * index) as u64],
            })
        } else if self.alive && self.last_alive.elapsed() >= Duration::from_millis(10) {
            self.last_alive = Instant::now();
            Some(Message::Alive)
        } else {
            None
        };
        Ok(msg.map(|m| {
            let (t, b) = m.encode();
            (1, t, b)
        }))
    }
    fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String> {
        assert!(
            !self.unresponsive.contains(&rank),
            "{:?} sent to a rank given up",
            msg
        );
        if let Message::Assign { index } = msg {
            self.given.push_back((*index, Instant::now()));
        }
        self.sent.push((rank, msg.clone()));
        Ok(())
    }
    fn unresponsive(&mut self, rank: usize) {
        self.unresponsive.push(rank);
    }
}

#[test]
fn a_rank_that_says_it_is_alive_may_take_longer_than_the_timeout() {
    let mut t = Slow::new(Duration::from_millis(150), true);
    let out = coordinate_within(
        &Squares(40),
        &Options::default(),
        &mut t,
        "me".into(),
        false,
        Duration::from_millis(60),
    )
    .unwrap();
    assert_eq!(
        complete(out).unwrap(),
        (0..40u64).map(|i| i * i).collect::<Vec<_>>()
    );
    assert!(t.unresponsive.is_empty());
}

#[test]
fn a_silent_rank_ends_the_run_and_is_sent_nothing_more() {
    let dir = scratch("silent");
    let options = Options {
        checkpoint: Some(dir.join("c.ckpt")),
        ..Options::default()
    };
    let mut t = Slow::new(Duration::from_secs(3600), false);
    let e = coordinate_within(
        &Squares(40),
        &options,
        &mut t,
        "me".into(),
        false,
        Duration::from_millis(60),
    )
    .unwrap_err();
    assert!(
        e.starts_with(
            "rank 1 on 'h' has sent nothing for 0.06 s while it held 2 items \
             (--rank-timeout): it is stopped, stuck or cut off"
        ),
        "{}",
        e
    );
    // What rank 0 computed itself is saved.
    assert!(e.contains("items are saved in"), "{}", e);
    assert_eq!(t.unresponsive, [1]);
    assert!(!t.sent.contains(&(1, Message::Stop { abort: true })));
    let _ = std::fs::remove_dir_all(dir);
}

/// Squares on one slot, giving each rank `ahead` items beyond the one it computes.
struct Queued {
    items: usize,
    ahead: usize,
}

impl Job for Queued {
    type Output = u64;
    fn fingerprint(&self) -> String {
        format!("queued squares {}", self.items)
    }
    fn items(&self) -> usize {
        self.items
    }
    fn slots(&self) -> usize {
        1
    }
    fn ahead(&self) -> usize {
        self.ahead
    }
    fn run(&self, index: usize) -> Result<u64, String> {
        Ok((index * index) as u64)
    }
    fn label(&self) -> Option<&str> {
        None
    }
}

#[test]
fn a_rank_holds_items_beyond_its_slots_only_as_the_job_says() {
    for (ahead, held) in [(0, 1), (1, 2), (3, 4)] {
        let job = Queued { items: 50, ahead };
        let fp = fnv1a(fingerprint(&job, &Options::default()).as_bytes());
        // Rank 1 says hello and then never answers: rank 0 computes every item it
        // can, and gives up on rank 1 with the items it holds.
        let mut t = scripted(|_| Vec::new(), fp);
        let err = coordinate_within(
            &job,
            &Options::default(),
            &mut t,
            "me".into(),
            false,
            Duration::from_millis(300),
        )
        .unwrap_err();
        assert!(err.contains("rank 1"), "{}", err);
        let given = t
            .sent
            .iter()
            .filter(|(r, m)| *r == 1 && matches!(m, Message::Assign { .. }))
            .count();
        assert_eq!(given, held, "ahead {}", ahead);
    }
}

#[test]
fn short_items_are_queued_to_cover_a_slice_and_long_ones_as_the_job_asks() {
    let book = |items: u64, busy_ns: u64, slots: usize| RankBook {
        items,
        busy_ns,
        slots,
        ..RankBook::default()
    };
    // Nothing known yet: the job's own number.
    assert_eq!(ahead(1, &book(0, 0, 4)), 1);
    // 100 µs an item on 4 threads: 40 a thread in 4 ms.
    assert_eq!(ahead(1, &book(10, 1_000_000, 4)), 160);
    // Very short items: at most MAX_AHEAD.
    assert_eq!(ahead(1, &book(1000, 1000, 4)), MAX_AHEAD);
    // Items longer than the slice: the job's number, for 1 slot or many.
    assert_eq!(ahead(1, &book(3, 3_000_000_000, 1)), 1);
    assert_eq!(ahead(1, &book(3, 3_000_000_000, 8)), 1);
    // A job that wants nothing queued (a solve's first moves) gets nothing.
    assert_eq!(ahead(0, &book(1000, 1000, 4)), 0);
}

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
