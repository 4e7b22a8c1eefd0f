//! How items are dealt: three ranks over channels, a fixed deal, and the items a
//! rank holds beyond its slots.

use super::*;

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
