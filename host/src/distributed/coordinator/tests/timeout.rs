//! A slow rank that says it is alive, and a silent one (`--rank-timeout`).

use super::*;

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
