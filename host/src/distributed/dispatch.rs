//! Which rank has which item: rank 0's book of the run, with no transport in it (so
//! it is tested without MPI).
//!
//! Items are handed out in order, lowest first, to whichever rank asks; every answer
//! is checked against the book: the item must be one this rank was given and has not
//! answered yet. A rank is told to stop once nothing is left for it and it has
//! answered everything it was given.

use std::collections::VecDeque;

/// Where an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
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
    /// Told to stop.
    pub stopped: bool,
}

/// The book of a run.
#[derive(Clone, Debug)]
pub struct Dispatcher {
    place: Vec<Place>,
    waiting: VecDeque<usize>,
    done: usize,
    ranks: Vec<RankBook>,
}

impl Dispatcher {
    /// A run of `items` items over `ranks` ranks, where the items in `finished` are
    /// done already (read from a checkpoint).
    pub fn new(items: usize, finished: impl Fn(usize) -> bool, ranks: usize) -> Self {
        let place: Vec<Place> = (0..items)
            .map(|i| {
                if finished(i) {
                    Place::Done
                } else {
                    Place::Waiting
                }
            })
            .collect();
        let waiting = (0..items).filter(|&i| place[i] == Place::Waiting).collect();
        let done = place.iter().filter(|&&p| p == Place::Done).count();
        Dispatcher {
            place,
            waiting,
            done,
            ranks: vec![RankBook::default(); ranks.max(1)],
        }
    }

    /// The number of items.
    pub fn items(&self) -> usize {
        self.place.len()
    }

    /// Items answered (or read from the checkpoint).
    pub fn done(&self) -> usize {
        self.done
    }

    /// Whether every item is answered.
    pub fn all_done(&self) -> bool {
        self.done == self.place.len()
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
    /// waiting; the item is then `rank`'s.
    pub fn assign(&mut self, rank: usize, limit: usize) -> Option<usize> {
        let book = self.ranks.get_mut(rank)?;
        if book.stopped || book.outstanding >= limit {
            return None;
        }
        let i = self.waiting.pop_front()?;
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
        let book = self.book(rank)?;
        book.outstanding -= 1;
        book.items += 1;
        book.nodes = book.nodes.saturating_add(nodes);
        book.busy_ns = book.busy_ns.saturating_add(busy_ns);
        Ok(())
    }

    /// Whether `rank` should be told to stop now: it said hello, was not told yet, has
    /// answered everything it was given, and nothing is waiting.
    pub fn should_stop(&self, rank: usize) -> bool {
        self.ranks.get(rank).is_some_and(|b| {
            b.host.is_some() && !b.stopped && b.outstanding == 0 && self.waiting.is_empty()
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
        let mut d = Dispatcher::new(5, |i| i == 1, 3);
        assert_eq!(d.done(), 1);
        d.hello(0, "a".into(), 1).unwrap();
        d.hello(1, "b".into(), 2).unwrap();
        assert!(d.hello(1, "b".into(), 2).is_err());
        assert_eq!(d.assign(0, 1), Some(0));
        assert_eq!(d.assign(0, 1), None, "rank 0 has its one");
        assert_eq!(d.assign(1, 2), Some(2));
        assert_eq!(d.assign(1, 2), Some(3));
        // Wrong answers: an item of another rank, one never given, one out of range.
        let e = d.answer(1, 0, 1, 1).unwrap_err();
        assert_eq!(e, "rank 1 answered item 0, which it was not given");
        assert!(d.answer(1, 4, 1, 1).unwrap_err().contains("not given"));
        assert!(d.answer(1, 9, 1, 1).unwrap_err().contains("only 5 items"));
        assert!(d.answer(7, 2, 1, 1).unwrap_err().contains("rank 7"));
        d.answer(1, 2, 10, 100).unwrap();
        assert!(d
            .answer(1, 2, 10, 100)
            .unwrap_err()
            .contains("answered already"));
        assert!(d
            .answer(1, 1, 10, 100)
            .unwrap_err()
            .contains("answered already"));
        assert_eq!(d.assign(1, 2), Some(4));
        assert!(!d.should_stop(1));
        assert!(!d.should_stop(2), "rank 2 has not said hello");
        d.answer(1, 3, 10, 100).unwrap();
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
}
