//! The budget: the node limit, a stop asked for, and the time limit, read from the
//! clock every few nodes.

use super::Engine;
use crate::game::Game;
use crate::search::tt::Table;
use crate::search::{Clock, Evaluator};

/// The clock is read at least every this many nodes.
const MAX_CHECK_INTERVAL: u64 = 1024;

/// The engine aims to read the clock about this often (microseconds).
const CHECK_GAP_US: u64 = 1000;

impl<G: Game, E: Evaluator<G>, C: Clock, T: Table, const KILLERS: usize, const HISTORY: usize>
    Engine<G, E, C, T, KILLERS, HISTORY>
{
    /// True once the search must stop. The clock is read when the node count reaches
    /// the next check; the interval doubles while less than half of [`CHECK_GAP_US`]
    /// passes between readings and shrinks in proportion when more than it does, so
    /// the time between two readings stays under about a millisecond whatever a node
    /// costs.
    #[inline]
    pub(super) fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.next_check && !self.aborted {
            self.check_budget();
        }
        self.aborted
    }

    #[cold]
    fn check_budget(&mut self) {
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.aborted = true;
                return;
            }
        }
        if self.clock.stop_requested() {
            self.aborted = true;
            return;
        }
        if let Some(t) = self.limits.time_ms {
            let now = self.clock.elapsed_us();
            if now >= t.saturating_mul(1000) {
                self.aborted = true;
                return;
            }
            let gap = now.saturating_sub(self.last_check_us);
            self.last_check_us = now;
            if gap * 2 < CHECK_GAP_US {
                self.check_interval = (self.check_interval * 2).min(MAX_CHECK_INTERVAL);
            } else if gap > CHECK_GAP_US {
                self.check_interval = (self.check_interval * CHECK_GAP_US / gap).max(1);
            }
        } else {
            self.check_interval = MAX_CHECK_INTERVAL;
        }
        let mut next = self.nodes + self.check_interval;
        if let Some(n) = self.limits.nodes {
            next = next.min(n);
        }
        self.next_check = next;
    }
}
