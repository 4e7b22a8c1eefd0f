//! Which rank has which item: rank 0's book of the run, with no transport in it (so
//! it is tested without MPI).
//!
//! The items waiting at the start are cut into one run of consecutive items per rank
//! (items next to each other are neighbouring subtrees of perft, which transpose
//! into each other: a rank that counts them together finds more of them in its own
//! table). A rank takes its own items in order, lowest first; a rank whose run is
//! used up takes the last item of the longest run left, so no rank idles while
//! items wait. A job whose work depends on which items a rank computes together
//! asks for a fixed deal ([`super::Job::fixed_deal`], [`Dispatcher::fixed`]): each
//! rank then computes exactly its own run, whatever the ranks' speeds, so the same
//! items share a rank on every run. Every answer is checked against the book: the
//! item must be one this rank was given and has not answered yet. A rank is told to stop once nothing is
//! left and it has answered everything it was given.
//!
//! A job whose items depend on other items' results ([`super::Job::needed`]) starts
//! with only the items it needs at first ([`Dispatcher::gated`]); rank 0 adds the
//! others as results call for them ([`Dispatcher::need`]), and no rank is told to
//! stop before every needed item is answered (an answer may call for more). A
//! waiting item the job no longer lists is withdrawn ([`Dispatcher::withdraw`]). Its
//! spare items ([`super::Job::spare`]) go to a rank only where no needed item
//! waits ([`Dispatcher::set_spare`]), and do not keep a rank from stopping; when
//! needed items wait and no slot is free, spare items are taken back
//! ([`Dispatcher::to_drop`]).

use std::collections::VecDeque;

/// Where an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Not needed (yet): a gated job has not asked for it.
    Unneeded,
    /// Not handed out yet.
    Waiting,
    /// Handed to this rank.
    At(usize),
    /// Answered.
    Done,
}

/// What rank 0 knows about one rank.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankBook {
    /// The rank's host, once it said hello (rank 0: its own).
    pub host: Option<String>,
    /// Items it computes at once.
    pub slots: usize,
    /// Items it answered.
    pub items: u64,
    /// Nanoseconds it spent on them (summed over its threads).
    pub busy_ns: u64,
    /// Nodes its items counted.
    pub nodes: u64,
    /// Items handed to it and not answered yet.
    pub outstanding: usize,
    /// Of those, spare items ([`Dispatcher::set_spare`]) not needed since.
    pub spare_out: usize,
    /// Of the items it answered, those handed to it as spare and not needed since.
    pub spare_answered: u64,
    /// Spare items it gave up for needed ones ([`Dispatcher::dropped`]).
    pub dropped: u64,
    /// Told to stop.
    pub stopped: bool,
}

/// The book of a run.
#[derive(Clone, Debug)]
pub struct Dispatcher {
    place: Vec<Place>,
    /// Each rank's run of waiting items.
    waiting: Vec<VecDeque<usize>>,
    done: usize,
    /// Items waiting or handed out, not answered yet.
    open: usize,
    /// Items come as results call for them: ranks stop only when none is open.
    gated: bool,
    /// Each rank computes its own run only ([`Dispatcher::fixed`]).
    fixed: bool,
    /// Items worth dealing where no needed item waits, best first.
    spare: VecDeque<usize>,
    /// Whether an item was handed out as spare and has not been needed since.
    as_spare: Vec<bool>,
    /// Whether its rank was asked to drop it.
    dropping: Vec<bool>,
    /// How many items are being dropped.
    dropping_count: usize,
    /// The spare items as they were handed out, latest last.
    spare_dealt: Vec<usize>,
    ranks: Vec<RankBook>,
}

impl Dispatcher {
    /// A run of `items` items over `ranks` ranks, where the items in `finished` are
    /// done already (read from a checkpoint).
    pub fn new(items: usize, finished: impl Fn(usize) -> bool, ranks: usize) -> Self {
        let mut d = Self::book_of(items, finished, ranks, Place::Waiting);
        let ranks = d.ranks.len();
        let left: Vec<usize> = (0..items)
            .filter(|&i| d.place[i] == Place::Waiting)
            .collect();
        // Runs as equal as can be, the longer ones first.
        let mut from = 0;
        for (r, run) in d.waiting.iter_mut().enumerate() {
            let len = left.len() / ranks + usize::from(r < left.len() % ranks);
            run.extend(left[from..from + len].iter().copied());
            from += len;
        }
        d.open = left.len();
        d
    }

    /// The book with every rank kept to the run it was dealt at the start: a rank
    /// whose run is used up takes no other rank's items (and waits for the others to
    /// finish theirs). The items each rank computes then depend only on the items
    /// left and the number of ranks, not on the ranks' speeds.
    pub fn fixed(mut self) -> Self {
        self.fixed = true;
        self
    }

    /// A run of `items` items over `ranks` ranks of which none is needed yet (the
    /// items in `finished` are done already): [`Dispatcher::need`] adds them.
    pub fn gated(items: usize, finished: impl Fn(usize) -> bool, ranks: usize) -> Self {
        let mut d = Self::book_of(items, finished, ranks, Place::Unneeded);
        d.gated = true;
        d
    }

    /// The book of `items` items, those in `finished` done, the others in `rest`,
    /// none waiting in a run yet.
    fn book_of(items: usize, finished: impl Fn(usize) -> bool, ranks: usize, rest: Place) -> Self {
        let place: Vec<Place> = (0..items)
            .map(|i| if finished(i) { Place::Done } else { rest })
            .collect();
        let done = place.iter().filter(|&&p| p == Place::Done).count();
        Dispatcher {
            place,
            waiting: vec![VecDeque::new(); ranks.max(1)],
            done,
            open: 0,
            gated: false,
            fixed: false,
            spare: VecDeque::new(),
            as_spare: vec![false; items],
            dropping: vec![false; items],
            dropping_count: 0,
            spare_dealt: Vec::new(),
            ranks: vec![RankBook::default(); ranks.max(1)],
        }
    }

    /// Marks item `index` needed: one not needed before waits in the shortest run; one
    /// handed out as spare is needed from then on (open until answered); an item
    /// waiting, handed out or done already, or out of range, is left as it is.
    /// Returns whether it was added to a run.
    pub fn need(&mut self, index: usize) -> bool {
        if let (Some(&Place::At(rank)), Some(true)) =
            (self.place.get(index), self.as_spare.get(index))
        {
            // Handed out as spare: needed from now on, and open until answered.
            self.as_spare[index] = false;
            self.ranks[rank].spare_out -= 1;
            self.open += 1;
            return false;
        }
        if self.place.get(index) != Some(&Place::Unneeded) {
            return false;
        }
        self.open += 1;
        self.wait(index);
        true
    }

    /// Puts item `index` in the shortest run (counting what each rank holds).
    fn wait(&mut self, index: usize) {
        self.place[index] = Place::Waiting;
        let shortest = (0..self.waiting.len())
            .min_by_key(|&r| self.waiting[r].len() + self.ranks[r].outstanding)
            .unwrap_or(0);
        self.waiting[shortest].push_back(index);
    }

    /// Withdraws the waiting items for which `keep` is false: they are not needed
    /// any more (a test against a bound that a better result made stale). Items
    /// handed out or answered stay as they are. Returns how many were withdrawn.
    pub fn withdraw(&mut self, keep: impl Fn(usize) -> bool) -> usize {
        let mut gone = 0;
        for run in &mut self.waiting {
            run.retain(|&i| {
                let stays = keep(i);
                if !stays {
                    self.place[i] = Place::Unneeded;
                    gone += 1;
                }
                stays
            });
        }
        self.open -= gone;
        gone
    }

    /// The spare items, best first: dealt only where no needed item waits. Items
    /// needed, handed out or answered already are left out. Returns whether any is
    /// left to deal.
    pub fn set_spare(&mut self, items: impl IntoIterator<Item = usize>) -> bool {
        self.spare.clear();
        for i in items {
            if self.place.get(i) == Some(&Place::Unneeded) && !self.spare.contains(&i) {
                self.spare.push_back(i);
            }
        }
        !self.spare.is_empty()
    }

    /// The spare items to take back now, with their ranks: as many as needed items
    /// wait beyond the free slots of the ranks (less those being dropped already),
    /// the latest handed out first. Each is marked as being dropped.
    pub fn to_drop(&mut self) -> Vec<(usize, usize)> {
        // Rank 0 asks on every turn of its loop: without spare items out, at once.
        if self.ranks.iter().all(|b| b.spare_out == 0) {
            self.spare_dealt.clear();
            return Vec::new();
        }
        let waiting: usize = self.waiting.iter().map(VecDeque::len).sum();
        let free: usize = self
            .ranks
            .iter()
            .filter(|b| b.host.is_some() && !b.stopped)
            .map(|b| b.slots.saturating_sub(b.outstanding))
            .sum();
        let mut want = waiting
            .saturating_sub(free)
            .saturating_sub(self.dropping_count);
        let mut out = Vec::new();
        while want > 0 {
            let Some(i) = self.spare_dealt.pop() else {
                break;
            };
            if let (Place::At(rank), true, false) =
                (self.place[i], self.as_spare[i], self.dropping[i])
            {
                self.dropping[i] = true;
                self.dropping_count += 1;
                out.push((rank, i));
                want -= 1;
            }
        }
        out
    }

    /// Whether `rank` was asked to drop item `index` and has not answered it.
    pub fn is_dropping(&self, index: usize) -> bool {
        self.dropping.get(index) == Some(&true)
    }

    /// Records that `rank` gave up item `index`, which it was asked to drop: a spare
    /// item is not needed again; one needed since waits again.
    pub fn dropped(&mut self, rank: usize, index: usize) -> Result<(), String> {
        if self.place.get(index) != Some(&Place::At(rank)) || !self.dropping[index] {
            return Err(format!(
                "rank {} dropped item {}, which it was not asked to drop",
                rank, index
            ));
        }
        self.dropping[index] = false;
        self.dropping_count -= 1;
        let spare = std::mem::take(&mut self.as_spare[index]);
        let book = self.book(rank)?;
        book.outstanding -= 1;
        book.spare_out -= usize::from(spare);
        book.dropped += 1;
        if spare {
            self.place[index] = Place::Unneeded;
        } else {
            self.wait(index);
        }
        Ok(())
    }

    /// The number of items.
    pub fn items(&self) -> usize {
        self.place.len()
    }

    /// Items answered (or read from the checkpoint).
    pub fn done(&self) -> usize {
        self.done
    }

    /// Whether every item is answered (of a gated job: every needed one).
    pub fn all_done(&self) -> bool {
        self.open == 0
    }

    /// The book of every rank, rank 0 first.
    pub fn ranks(&self) -> &[RankBook] {
        &self.ranks
    }

    /// Records that `rank` is ready: on `host`, computing `slots` items at once. A
    /// second hello is an error.
    pub fn hello(&mut self, rank: usize, host: String, slots: usize) -> Result<(), String> {
        let book = self.book(rank)?;
        if book.host.is_some() {
            return Err(format!("rank {} said hello twice", rank));
        }
        book.host = Some(host);
        book.slots = slots.max(1);
        Ok(())
    }

    /// Whether `rank` said hello.
    pub fn ready(&self, rank: usize) -> bool {
        self.ranks.get(rank).is_some_and(|b| b.host.is_some())
    }

    /// The next item for `rank` if it has fewer than `limit` unanswered and items are
    /// waiting: the first of its own run, else (unless the deal is
    /// [fixed](Dispatcher::fixed)) the last of the longest run left, else the first
    /// spare item ([`Dispatcher::set_spare`]). The item is then `rank`'s.
    pub fn assign(&mut self, rank: usize, limit: usize) -> Option<usize> {
        let book = self.ranks.get_mut(rank)?;
        if book.stopped || book.outstanding >= limit {
            return None;
        }
        let i = match self.waiting[rank].pop_front() {
            Some(i) => i,
            None if self.fixed => return None,
            None => match (0..self.waiting.len())
                .max_by_key(|&r| self.waiting[r].len())
                .and_then(|r| self.waiting[r].pop_back())
            {
                Some(i) => i,
                None => {
                    let i = self.spare.pop_front()?;
                    self.as_spare[i] = true;
                    self.spare_dealt.push(i);
                    book.spare_out += 1;
                    i
                }
            },
        };
        self.place[i] = Place::At(rank);
        book.outstanding += 1;
        Some(i)
    }

    /// Checks and records `rank`'s answer for item `index`: the item must be one the
    /// rank has and has not answered; the error names the rank and the item.
    pub fn answer(
        &mut self,
        rank: usize,
        index: usize,
        nodes: u64,
        busy_ns: u64,
    ) -> Result<(), String> {
        match self.place.get(index) {
            None => {
                return Err(format!(
                    "rank {} answered item {}, and there are only {} items",
                    rank,
                    index,
                    self.place.len()
                ))
            }
            Some(Place::At(r)) if *r == rank => {}
            Some(Place::Done) => {
                return Err(format!(
                    "rank {} answered item {}, which was answered already",
                    rank, index
                ))
            }
            Some(_) => {
                return Err(format!(
                    "rank {} answered item {}, which it was not given",
                    rank, index
                ))
            }
        }
        self.place[index] = Place::Done;
        self.done += 1;
        self.dropping_count -= usize::from(std::mem::take(&mut self.dropping[index]));
        let spare = std::mem::take(&mut self.as_spare[index]);
        if !spare {
            self.open -= 1;
        }
        let book = self.book(rank)?;
        book.spare_out -= usize::from(spare);
        book.spare_answered += u64::from(spare);
        book.outstanding -= 1;
        book.items += 1;
        book.nodes = book.nodes.saturating_add(nodes);
        book.busy_ns = book.busy_ns.saturating_add(busy_ns);
        Ok(())
    }

    /// Whether `rank` should be told to stop now: it said hello, was not told yet, has
    /// answered everything it was given but spare items, and nothing is waiting (with
    /// a [fixed](Dispatcher::fixed) deal: nothing in its own run, the only items it
    /// would be given; of a gated job: nothing needed is open anywhere, since an
    /// answer may call for more items).
    pub fn should_stop(&self, rank: usize) -> bool {
        self.ranks.get(rank).is_some_and(|b| {
            b.host.is_some()
                && !b.stopped
                && b.outstanding == b.spare_out
                && if self.fixed {
                    self.waiting[rank].is_empty()
                } else {
                    self.waiting.iter().all(VecDeque::is_empty)
                }
                && (!self.gated || self.open == 0)
        })
    }

    /// Records that `rank` was told to stop.
    pub fn stopped(&mut self, rank: usize) {
        if let Some(b) = self.ranks.get_mut(rank) {
            b.stopped = true;
        }
    }

    /// Whether every rank from 1 on was told to stop.
    pub fn workers_stopped(&self) -> bool {
        self.ranks.iter().skip(1).all(|b| b.stopped)
    }

    fn book(&mut self, rank: usize) -> Result<&mut RankBook, String> {
        let n = self.ranks.len();
        self.ranks
            .get_mut(rank)
            .ok_or_else(|| format!("a message from rank {}, and there are {} ranks", rank, n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_go_out_in_order_and_come_back_checked() {
        // Waiting: 0, 2, 3, 4 — runs [0, 2] for rank 0, [3] for 1, [4] for 2.
        let mut d = Dispatcher::new(5, |i| i == 1, 3);
        assert_eq!(d.done(), 1);
        d.hello(0, "a".into(), 1).unwrap();
        d.hello(1, "b".into(), 2).unwrap();
        assert!(d.hello(1, "b".into(), 2).is_err());
        assert_eq!(d.assign(0, 1), Some(0));
        assert_eq!(d.assign(0, 1), None, "rank 0 has its one");
        assert_eq!(d.assign(1, 2), Some(3));
        // Rank 1's run is used up: the last item of the longest run left (rank 0's
        // and rank 2's are as long; the later rank's).
        assert_eq!(d.assign(1, 2), Some(4));
        // Wrong answers: an item of another rank, one never given, one out of range.
        let e = d.answer(1, 0, 1, 1).unwrap_err();
        assert_eq!(e, "rank 1 answered item 0, which it was not given");
        assert!(d.answer(1, 2, 1, 1).unwrap_err().contains("not given"));
        assert!(d.answer(1, 9, 1, 1).unwrap_err().contains("only 5 items"));
        assert!(d.answer(7, 2, 1, 1).unwrap_err().contains("rank 7"));
        d.answer(1, 3, 10, 100).unwrap();
        assert!(d
            .answer(1, 3, 10, 100)
            .unwrap_err()
            .contains("answered already"));
        assert!(d
            .answer(1, 1, 10, 100)
            .unwrap_err()
            .contains("answered already"));
        assert_eq!(d.assign(1, 2), Some(2), "rank 0's run, the only one left");
        assert!(!d.should_stop(1));
        assert!(!d.should_stop(2), "rank 2 has not said hello");
        d.answer(1, 2, 10, 100).unwrap();
        d.answer(1, 4, 10, 100).unwrap();
        assert!(d.should_stop(1));
        d.stopped(1);
        assert!(!d.should_stop(1));
        assert!(!d.all_done());
        d.answer(0, 0, 5, 50).unwrap();
        assert!(d.all_done());
        assert!(!d.workers_stopped());
        d.hello(2, "c".into(), 1).unwrap();
        assert_eq!(d.assign(2, 2), None);
        assert!(d.should_stop(2));
        d.stopped(2);
        assert!(d.workers_stopped());
        assert_eq!((d.ranks()[1].items, d.ranks()[1].nodes), (3, 30));
        assert_eq!(d.ranks()[1].busy_ns, 300);
    }

    #[test]
    fn each_rank_counts_a_run_of_neighbouring_items_and_takes_over_the_rest() {
        let mut d = Dispatcher::new(10, |_| false, 3);
        for r in 0..3 {
            d.hello(r, format!("h{}", r), 1).unwrap();
        }
        let mut got: Vec<Vec<usize>> = vec![Vec::new(); 3];
        // Rank 2 is slow: ranks 0 and 1 answer everything they get, rank 2 one item.
        let mut rank2_took = false;
        while !d.all_done() {
            for (r, mine) in got.iter_mut().enumerate() {
                if r == 2 && rank2_took {
                    continue;
                }
                if let Some(i) = d.assign(r, 1) {
                    mine.push(i);
                    d.answer(r, i, 1, 1).unwrap();
                    rank2_took |= r == 2;
                }
            }
        }
        assert_eq!(got[0][..4], [0, 1, 2, 3]);
        assert_eq!(got[1][..3], [4, 5, 6]);
        assert_eq!(got[2], [7]);
        let mut all: Vec<usize> = got.concat();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<_>>(), "every item once");
        // Rank 2's run was taken over from its end.
        assert!(got[0].contains(&9) || got[1].contains(&9));
        assert!((0..3).all(|r| d.should_stop(r)));
    }

    #[test]
    fn a_fixed_deal_keeps_every_rank_to_its_own_run_however_slow_a_rank_is() {
        // Items 3 and 6 read from a checkpoint: runs [0, 1, 2], [4, 5, 7], [8, 9].
        let mut d = Dispatcher::new(10, |i| i == 3 || i == 6, 3).fixed();
        for r in 0..3 {
            d.hello(r, format!("h{}", r), 1).unwrap();
        }
        let mut got: Vec<Vec<usize>> = vec![Vec::new(); 3];
        // Ranks 0 and 1 answer everything they get; rank 2 nothing yet.
        for _ in 0..10 {
            for (r, mine) in got.iter_mut().enumerate().take(2) {
                if let Some(i) = d.assign(r, 1) {
                    mine.push(i);
                    d.answer(r, i, 1, 1).unwrap();
                }
            }
        }
        assert_eq!(got[0], [0, 1, 2]);
        assert_eq!(got[1], [4, 5, 7], "rank 2's run is not taken over");
        // Their runs are done: they stop (they would be given nothing more) while
        // rank 2's items still wait for it.
        assert!(d.should_stop(0) && d.should_stop(1));
        assert!(!d.should_stop(2) && !d.all_done());
        while let Some(i) = d.assign(2, 2) {
            got[2].push(i);
            d.answer(2, i, 1, 1).unwrap();
        }
        assert_eq!(got[2], [8, 9]);
        assert!(d.all_done());
        assert!((0..3).all(|r| d.should_stop(r)));
        // The same book without the fixed deal: rank 0 takes over rank 2's run.
        let mut d = Dispatcher::new(10, |i| i == 3 || i == 6, 3);
        d.hello(0, "h0".into(), 1).unwrap();
        let mine: Vec<usize> = std::iter::from_fn(|| {
            let i = d.assign(0, 1)?;
            d.answer(0, i, 1, 1).unwrap();
            Some(i)
        })
        .collect();
        assert_eq!(mine.len(), 8, "{:?}", mine);
    }

    #[test]
    fn a_gated_book_deals_only_needed_items_and_stops_no_rank_while_one_is_open() {
        let mut d = Dispatcher::gated(6, |i| i == 5, 2);
        d.hello(0, "a".into(), 1).unwrap();
        d.hello(1, "b".into(), 1).unwrap();
        assert_eq!(d.done(), 1);
        assert!(d.all_done(), "nothing needed yet");
        assert_eq!(d.assign(1, 1), None);
        assert!(d.need(2));
        assert!(!d.need(2), "needed already");
        assert!(!d.need(5), "done already");
        assert!(!d.need(9), "out of range");
        assert_eq!(d.assign(1, 1), Some(2));
        assert_eq!(d.assign(0, 1), None);
        // Rank 0 has nothing and nothing waits, but an item is open: an answer
        // may call for more, so no rank stops.
        assert!(!d.should_stop(0));
        let e = d.answer(0, 3, 1, 1).unwrap_err();
        assert!(e.contains("not given"), "{}", e);
        d.answer(1, 2, 1, 1).unwrap();
        assert!(d.need(3));
        assert!(!d.all_done());
        assert_eq!(d.assign(0, 1), Some(3));
        d.answer(0, 3, 1, 1).unwrap();
        assert!(d.all_done());
        assert!(d.should_stop(1) && d.should_stop(0));
        assert_eq!(d.done(), 3);
    }

    #[test]
    fn spare_items_go_only_where_nothing_needed_waits_and_stale_ones_are_withdrawn() {
        let mut d = Dispatcher::gated(10, |_| false, 2);
        d.hello(0, "a".into(), 2).unwrap();
        d.hello(1, "b".into(), 2).unwrap();
        assert!(d.need(0) && d.need(1) && d.need(2));
        assert!(d.set_spare([7, 1, 8, 7]), "1 is needed; 7 once");
        // Needed items first, wherever they wait; then the spare ones in order.
        let mut rank0 = vec![d.assign(0, 2).unwrap(), d.assign(0, 2).unwrap()];
        rank0.sort_unstable();
        let first = d.assign(1, 2).unwrap();
        assert!(
            !rank0.contains(&first) && first < 3,
            "{:?} {}",
            rank0,
            first
        );
        assert_eq!(d.assign(1, 2), Some(7), "nothing needed waits: spare");
        assert_eq!(d.assign(1, 3), Some(8));
        assert_eq!(d.assign(1, 4), None, "no more spare");
        assert_eq!(d.ranks()[1].spare_out, 2);
        // A spare item that becomes needed is open until answered.
        assert!(!d.need(7), "handed out already");
        assert_eq!(d.ranks()[1].spare_out, 1);
        for i in rank0 {
            d.answer(0, i, 1, 1).unwrap();
        }
        d.answer(1, first, 1, 1).unwrap();
        assert!(!d.all_done(), "7 is needed now");
        assert!(!d.should_stop(1));
        d.answer(1, 7, 1, 1).unwrap();
        // Only spare item 8 is out: rank 1 may stop, and its answer is still taken.
        assert!(d.all_done());
        assert!(d.should_stop(0) && d.should_stop(1));
        d.answer(1, 8, 1, 1).unwrap();
        assert_eq!((d.done(), d.ranks()[1].outstanding), (5, 0));
        assert_eq!(d.ranks()[1].spare_answered, 1, "8, not 7 (needed)");

        // Waiting items no longer listed are withdrawn; handed-out ones stay.
        let mut d = Dispatcher::gated(6, |_| false, 1);
        d.hello(0, "a".into(), 1).unwrap();
        for i in 0..4 {
            d.need(i);
        }
        assert_eq!(d.assign(0, 1), Some(0));
        assert_eq!(d.withdraw(|i| i != 0 && i != 2), 1, "0 is out, 2 goes");
        d.answer(0, 0, 1, 1).unwrap();
        assert_eq!(d.assign(0, 1), Some(1));
        d.answer(0, 1, 1, 1).unwrap();
        assert_eq!(d.assign(0, 1), Some(3));
        d.answer(0, 3, 1, 1).unwrap();
        assert!(d.all_done(), "2 was withdrawn");
        assert!(d.need(2), "and may be needed again");
    }

    #[test]
    fn spare_items_give_way_to_needed_ones_when_no_slot_is_free() {
        let mut d = Dispatcher::gated(8, |_| false, 2);
        d.hello(0, "a".into(), 1).unwrap();
        d.hello(1, "b".into(), 1).unwrap();
        d.need(0);
        d.set_spare([5, 6]);
        assert_eq!(d.assign(0, 1), Some(0));
        assert_eq!(d.assign(1, 1), Some(5));
        assert_eq!(d.to_drop(), vec![], "nothing needed waits");
        // Two needed items wait; rank 0 will be free for one of them once it
        // answers, so only one spare item is taken back, once.
        d.need(1);
        d.need(2);
        assert_eq!(d.to_drop(), vec![(1, 5)]);
        assert!(d.is_dropping(5));
        d.answer(0, 0, 1, 1).unwrap();
        assert_eq!(d.to_drop(), vec![], "rank 0 is free, 5 is being dropped");
        let e = d.dropped(0, 5).unwrap_err();
        assert!(e.contains("not asked"), "{}", e);
        d.dropped(1, 5).unwrap();
        assert!(!d.is_dropping(5));
        assert_eq!(d.ranks()[1].dropped, 1);
        assert!(d.dropped(1, 5).is_err(), "dropped once");
        let mut got = vec![d.assign(0, 1).unwrap(), d.assign(1, 1).unwrap()];
        got.sort_unstable();
        assert_eq!(got, [1, 2]);
        // A spare item needed while being dropped waits again as a needed one.
        d.answer(0, got[0], 1, 1).unwrap();
        d.set_spare([5]);
        assert_eq!(d.assign(0, 1), Some(5), "dropped, and spare again");
        d.need(3);
        assert_eq!(d.to_drop(), vec![(0, 5)]);
        assert!(!d.need(5), "handed out");
        d.dropped(0, 5).unwrap();
        assert_eq!(d.assign(0, 1), Some(3));
        d.answer(1, got[1], 1, 1).unwrap();
        assert_eq!(d.assign(1, 1), Some(5), "needed: it waited in a run");
        d.answer(0, 3, 1, 1).unwrap();
        d.answer(1, 5, 1, 1).unwrap();
        assert!(d.all_done());
    }
}
