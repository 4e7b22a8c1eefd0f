//! The search inside the solver: MTD(f), a sequence of null-window fail-soft
//! alpha-beta searches on the future margin converging on its value, exact or
//! depth-limited, with the table move, extra turns and captures ordered first,
//! futility bounds from the seeds in play, endgame-table probes and the enhanced
//! transposition cutoff.

use super::endgame::TableIndex;
use super::table::{self, SolverEntry, SolverTable, EXACT_DEPTH};
use super::{Interrupted, KalahSolver, SolveControl, SolveProgress};
use crate::games::kalah::{non_empty, row_sum, sow, Sown};

/// Beyond any future margin: the bounds of a search that knows nothing yet.
pub(super) const INF: i32 = 10_000;

impl<T: SolverTable> KalahSolver<'_, T> {
    pub(super) fn mtdf(
        &mut self,
        own: u64,
        opp: u64,
        guess: i32,
        control: &mut impl SolveControl,
    ) -> Result<i32, Interrupted> {
        let n = (row_sum(own) + row_sum(opp)) as i32;
        self.mtdf_bounded(own, opp, -n, n, guess, u64::MAX, control)
            .map(|(lo, _)| lo)
    }

    /// MTD(f) within the known bounds `lo..=hi` on the future margin; passes after
    /// the first stop once they have spent `max_nodes` nodes, returning the bounds
    /// proved so far (`lo == hi`: exact; for a depth-limited pass, `lo` is the
    /// last guess).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mtdf_bounded(
        &mut self,
        own: u64,
        opp: u64,
        lo: i32,
        hi: i32,
        guess: i32,
        max_nodes: u64,
        control: &mut impl SolveControl,
    ) -> Result<(i32, i32), Interrupted> {
        let n = (row_sum(own) + row_sum(opp)) as i32;
        let (mut lo, mut hi) = (lo.max(-n), hi.min(n));
        if lo >= hi {
            return Ok((lo, hi));
        }
        let mut g = guess.clamp(lo, hi);
        let mut budget_from = None;
        // Each pass tests the last fail-soft bound: whether the value is above a
        // lower bound or reaches an upper one. (Doubling the step on a run of
        // passes that move the same way overshoots: a losing first move whose
        // cheap fail-low passes ran on past its value needed a second expensive
        // pass to come back; docs/log/2026-11-28-kalah-solver.md.)
        while lo < hi {
            let beta = next_beta(g, (lo, hi));
            self.bounds = (lo, hi);
            let depth = self.depth_limit.unwrap_or(u32::MAX);
            self.over_budget = false;
            self.node_limit = match budget_from {
                Some(start) => max_nodes.saturating_add(start),
                None => u64::MAX,
            };
            let mut list = Moves::EMPTY;
            g = self.search(own, opp, beta - 1, beta, depth, control, &mut list, false);
            self.node_limit = u64::MAX;
            if self.stopped {
                if self.over_budget {
                    // Out of budget: the bounds proved by the finished passes stand.
                    self.stopped = false;
                    return Ok((lo, hi));
                }
                return Err(Interrupted);
            }
            budget_from.get_or_insert(self.nodes);
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
            self.bounds = (lo, hi);
            control.progress(&self.progress());
        }
        Ok((g, g))
    }

    /// One exact null-window pass `(beta - 1, beta)` within the known bounds
    /// `lo < beta <= hi` on the future margin: the bounds narrowed by its fail-soft
    /// value.
    pub(super) fn pass(
        &mut self,
        own: u64,
        opp: u64,
        (mut lo, mut hi): (i32, i32),
        beta: i32,
        control: &mut impl SolveControl,
    ) -> Result<(i32, i32), Interrupted> {
        self.bounds = (lo, hi);
        self.over_budget = false;
        self.node_limit = u64::MAX;
        let mut list = Moves::EMPTY;
        let g = self.search(
            own,
            opp,
            beta - 1,
            beta,
            u32::MAX,
            control,
            &mut list,
            false,
        );
        if self.stopped {
            return Err(Interrupted);
        }
        if g < beta {
            hi = hi.min(g);
        } else {
            lo = lo.max(g);
        }
        self.bounds = (lo, hi);
        control.progress(&self.progress());
        Ok((lo, hi))
    }

    /// What the caller's [`SolveControl::progress`] is told.
    pub(super) fn progress(&self) -> SolveProgress {
        SolveProgress {
            depth: self.depth_limit,
            lower: self.bounds.0,
            upper: self.bounds.1,
            nodes: self.nodes,
            table_hits: self.table_hits,
            tt_fill_permille: table::fill_permille(&self.tt),
        }
    }

    /// Fail-soft alpha-beta on the future margin of the mover of `own` vs `opp`,
    /// `depth` plies deep (`u32::MAX`: to the end, exact).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        own: u64,
        opp: u64,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
        control: &mut impl SolveControl,
        list: &mut Moves,
        warmed: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            self.stopped = true;
            self.over_budget = true;
        }
        if self.nodes & self.poll_mask == 0 {
            if control.should_stop() {
                self.stopped = true;
            }
            if self.nodes & 0xF_FFFF == 0 {
                control.progress(&self.progress());
            }
        }
        if self.stopped {
            return 0;
        }
        let n = row_sum(own) + row_sum(opp);
        if let Some(v) = self.tables.probe(own, opp, n) {
            self.table_hits += 1;
            return v;
        }
        let ni = n as i32;
        // Futility: the future margin lies in -n..=n.
        if alpha >= ni {
            return ni;
        }
        if beta <= -ni {
            return -ni;
        }
        if depth == 0 {
            return 0;
        }
        let exact = depth == u32::MAX;
        let want_depth = if exact {
            EXACT_DEPTH
        } else {
            depth.min(254) as u8
        };

        // Sow every move first and prefetch the memory the moves will need (their
        // children's endgame-table entries or table buckets) all at once: the
        // misses, and on a virtual machine their page walks, overlap instead of
        // coming one after another (a prefetch waits for its page walk, so one
        // issued just before the child is searched costs the walk's whole time).
        // This comes before the node's own probe, so that the wait for its bucket
        // (asked for by the parent just before) overlaps the sowing and these
        // misses: a node its entry settles has sown for nothing, yet the search
        // took a tenth less time (docs/log/2026-11-28-kalah-solver.md).
        let child_depth = deeper(depth);
        let child_want = if exact {
            EXACT_DEPTH
        } else {
            child_depth.min(254) as u8
        };
        // `list` holds the moves already when the parent sowed them early
        // (`warmed`: below, where this node's siblings are searched).
        if !warmed {
            self.generate(own, opp, n, child_depth, list);
        }
        let moves = list.len as usize;

        let mut tt_move = u8::MAX;
        let (mut lo, mut hi) = (-ni, ni);
        let (bucket, found) = table::probe_at(&self.tt, own, opp);
        let old = found.map(|(_, e)| e);
        if let Some(e) = old {
            // An exact search orders by the moves of exact entries only: a move
            // from a depth-limited search (the first guesses) ordered the exact
            // search worse than the static order below; on Kalah(6,4) with 26-seed
            // tables it more than doubled the nodes (docs/log/2026-11-24-kalah-solver.md).
            if !exact || e.depth >= want_depth {
                tt_move = e.mv.wrapping_sub(1);
            }
            if e.depth >= want_depth {
                lo = lo.max(i32::from(e.lo));
                hi = hi.min(i32::from(e.hi));
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                if lo == hi {
                    return lo;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
        }

        // Settle the moves whose value is known without a search (game over, a child
        // in the endgame tables, a child whose table bounds refute the window: the
        // enhanced transposition cutoff; or show that it cannot raise alpha) and
        // order the others: each as its key times 8 plus its place in `list`
        // (7 − m, so that equal keys keep the order of generation), sorted by
        // insertion, largest first.
        let mut order = [0u64; 8];
        let mut count = 0usize;
        let mut best = -INF;
        let mut best_move = 0u8;
        for m in 0..moves {
            let s = list.get(m, n);
            let i = s.pit;
            let g = s.gain;
            let mut value = None;
            if s.game_over {
                value = Some(g - s.opp_gain);
            } else if child_depth == 0 {
                // The horizon: the child's future margin counts as 0.
                value = Some(g);
            } else if let Slot::Table(t) = s.slot {
                self.table_hits += 1;
                let v = self.tables.value_at(t);
                value = Some(if s.extra_turn { g + v } else { g - v });
            } else if s.slot == Slot::Bucket {
                if let Some(e) = table::probe(&self.tt, s.a, s.b) {
                    if e.depth >= child_want {
                        // The parent's bounds for this move from the child's.
                        let (clo, chi) = (i32::from(e.lo), i32::from(e.hi));
                        let (vlo, vhi) = if s.extra_turn {
                            (g + clo, g + chi)
                        } else {
                            (g - chi, g - clo)
                        };
                        if vlo == vhi || vlo >= beta {
                            value = Some(vlo);
                        } else if vhi <= alpha {
                            // It cannot raise alpha: its upper bound stands for
                            // it (fail-soft), and it needs no search.
                            value = Some(vhi);
                        }
                    }
                }
            }
            if let Some(v) = value {
                // Settled moves cost nothing and set alpha before any search.
                if v > best {
                    best = v;
                    best_move = i;
                }
                continue;
            }
            let key: u64 = if !self.config.ordering {
                0
            } else if i == tt_move {
                1 << 40
            } else if s.extra_turn {
                (1 << 38) + u64::from(i)
            } else if s.captured > 0 {
                (1 << 36) + u64::from(s.captured)
            } else {
                // Quiet moves: by seeds sown into the store, then the pit
                // nearest the store.
                8 * s.gain as u64 + u64::from(i)
            };
            let entry = key << 3 | (7 - m as u64);
            let mut j = count;
            while j > 0 && order[j - 1] < entry {
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = entry;
            count += 1;
        }

        let alpha_orig = alpha;
        let nodes_before = self.nodes;
        if best >= beta {
            // A settled move refutes the window.
            count = 0;
        } else if best > alpha {
            alpha = best;
        }
        if count > 0 {
            // The children's moves: move `at` uses the first list if `at` is even,
            // the second if odd. The second is made only when a second move is
            // searched or sown: most nodes that search a move cut on the first.
            let mut even = Moves::EMPTY;
            let mut odd: Option<Moves> = None;
            // Whether the next move's are sown already.
            let mut next_sown = false;
            for (at, &entry) in order[..count].iter().enumerate() {
                let warmed = next_sown;
                next_sown = false;
                // Once the first move has failed to cut, this is likely a node whose
                // every move is searched: the next move's own moves are sown now and
                // their memory asked for, so that it arrives while this move's subtree
                // is searched instead of when the next move starts; its search then
                // takes them as they are instead of sowing them again. (From the
                // first move on, the waste at nodes that cut made the search slower.)
                if at >= 1 && at + 1 < count && child_depth != 0 {
                    let next = list.get(7 - (order[at + 1] & 7) as usize, n);
                    let kid = if at & 1 == 1 {
                        &mut even
                    } else {
                        odd.get_or_insert(Moves::EMPTY)
                    };
                    self.warm(
                        next.a,
                        next.b,
                        n - next.gain as u32,
                        deeper(child_depth),
                        kid,
                    );
                    next_sown = true;
                }
                let m = 7 - (entry & 7) as usize;
                let s = list.get(m, n);
                let g = s.gain;
                let kid = if at & 1 == 0 {
                    &mut even
                } else {
                    odd.get_or_insert(Moves::EMPTY)
                };
                let v = if s.extra_turn {
                    g + self.search(
                        s.a,
                        s.b,
                        alpha - g,
                        beta - g,
                        child_depth,
                        control,
                        kid,
                        warmed,
                    )
                } else {
                    g - self.search(
                        s.a,
                        s.b,
                        g - beta,
                        g - alpha,
                        child_depth,
                        control,
                        kid,
                        warmed,
                    )
                };
                if self.stopped {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = s.pit;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        }

        let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
        let (mut elo, mut ehi) = match old {
            Some(e) if e.depth == want_depth => (i32::from(e.lo), i32::from(e.hi)),
            _ => (-ni, ni),
        };
        if best <= alpha_orig {
            ehi = ehi.min(best);
        } else if best >= beta {
            elo = elo.max(best);
        } else {
            elo = best;
            ehi = best;
        }
        let prev_work = old.map_or(0, |e| e.work);
        table::store_at(
            &mut self.tt,
            bucket,
            found.map(|(i, _)| i),
            SolverEntry {
                own,
                opp,
                lo: elo as i16,
                hi: ehi as i16,
                mv: best_move + 1,
                depth: want_depth,
                work: work.max(prev_work),
                generation: self.generation,
            },
        );
        best
    }
}

impl<T: SolverTable> KalahSolver<'_, T> {
    /// Asks for the memory the child of sowing `s` (from a position of `n` seeds in
    /// play) will be valued or searched with: its endgame-table entry, whose index
    /// is returned, or else its transposition-table bucket.
    #[inline(always)]
    fn prefetch_child(&self, s: &Sown, n: u32) -> Option<TableIndex> {
        let (a, b) = child_rows(s);
        if let Some(t) = self.tables.index(a, b, n - s.gain) {
            self.tables.prefetch(t);
            Some(t)
        } else {
            if self.tt.buckets() > 0 {
                self.tt.prefetch(table::bucket(&self.tt, a, b));
            }
            None
        }
    }

    /// Sows every move of `own`, `opp` (`n` seeds in play) into `list` and asks for
    /// the memory its children need (`child_depth`: theirs).
    #[inline(always)]
    fn generate(&self, own: u64, opp: u64, n: u32, child_depth: u32, list: &mut Moves) {
        let etc_here = n >= self.config.etc_from_seeds && self.tt.buckets() > 0;
        let mut moves = 0usize;
        let mut bits = non_empty(own);
        while bits != 0 {
            let i = bits.trailing_zeros() / 8;
            bits &= bits - 1;
            let ec = self.empty_capture;
            // Six pits, the common board, as a constant (`with_pits`, written out:
            // its closure was left out of line here).
            let s = if self.pits == 6 {
                sow(own, opp, 6, i, ec)
            } else {
                sow(own, opp, self.pits, i, ec)
            };
            let slot = if !s.game_over && child_depth != 0 {
                match self.prefetch_child(&s, n) {
                    Some(t) => Slot::Table(t),
                    None if etc_here => Slot::Bucket,
                    None => Slot::None,
                }
            } else {
                Slot::None
            };
            list.put(moves, &s, i, slot);
            moves += 1;
        }
        list.len = moves as u8;
    }

    /// [`KalahSolver::generate`] out of line: the moves of a sibling still to be
    /// searched, sown early so that their memory arrives meanwhile and its search
    /// need not sow them.
    #[inline(never)]
    fn warm(&self, own: u64, opp: u64, n: u32, child_depth: u32, list: &mut Moves) {
        self.generate(own, opp, n, child_depth, list);
    }
}

/// The `beta` of MTD(f)'s next null-window pass `(beta - 1, beta)`, given the last
/// fail-soft value `g` within the bounds `lo < hi` known so far: above `g` if it
/// is a lower bound, at `g` if it is an upper bound, so that `lo < beta <= hi`.
pub fn next_beta(g: i32, (lo, hi): (i32, i32)) -> i32 {
    let g = g.clamp(lo, hi);
    if g == lo {
        g + 1
    } else {
        g
    }
}

/// The depth a node's children are searched to, for the node's `depth`
/// (`u32::MAX`, exact, stays exact).
#[inline(always)]
fn deeper(depth: u32) -> u32 {
    if depth == u32::MAX {
        depth
    } else {
        depth - 1
    }
}

/// The child's rows, its mover's first: the same mover after an extra turn, else
/// the opponent.
#[inline(always)]
fn child_rows(s: &Sown) -> (u64, u64) {
    if s.extra_turn {
        (s.own, s.opp)
    } else {
        (s.opp, s.own)
    }
}

/// A position's moves, sown ([`KalahSolver::generate`]), in the order of their
/// pits: of each, the child's rows (its mover's first) or, for a child in the
/// endgame tables, where its entry lies, and what the move did. Kept small: a
/// node that searches its children holds two (the one being searched and the next
/// sibling's, sown early), and each is filled before it is read.
#[derive(Clone, Copy)]
pub(super) struct Moves {
    /// The child's mover's row, or the index of its endgame-table entry.
    a: [u64; 8],
    /// The child's other row.
    b: [u64; 8],
    /// Seeds gained (bits 0–7), seeds the opponent gained (8–15), seeds captured
    /// (16–23; at most 255 seeds in all), the pit (24–26), an extra turn (27),
    /// game over (28), the child's memory (29–30: [`Slot`]).
    info: [u32; 8],
    /// The moves.
    len: u8,
}

/// One move of [`Moves`], unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Move {
    a: u64,
    b: u64,
    gain: i32,
    opp_gain: i32,
    captured: u32,
    pit: u8,
    extra_turn: bool,
    game_over: bool,
    slot: Slot,
}

impl Moves {
    pub(super) const EMPTY: Moves = Moves {
        a: [0; 8],
        b: [0; 8],
        info: [0; 8],
        len: 0,
    };

    /// Keeps the sowing `s` of pit `pit` as move `m`, its child's memory at `slot`.
    #[inline(always)]
    fn put(&mut self, m: usize, s: &Sown, pit: u32, slot: Slot) {
        debug_assert!(s.gain < 256 && s.opp_gain < 256 && s.captured < 256 && pit < 8);
        let (a, b) = child_rows(s);
        let (kind, a) = match slot {
            Slot::None => (0, a),
            Slot::Table(t) => (1, t.at as u64),
            Slot::Bucket => (2, a),
        };
        self.a[m] = a;
        self.b[m] = b;
        self.info[m] = s.gain
            | s.opp_gain << 8
            | s.captured << 16
            | pit << 24
            | u32::from(s.extra_turn) << 27
            | u32::from(s.game_over) << 28
            | kind << 29;
    }

    /// Move `m` of a position of `n` seeds in play.
    #[inline(always)]
    fn get(&self, m: usize, n: u32) -> Move {
        let info = self.info[m];
        let gain = info & 0xFF;
        Move {
            a: self.a[m],
            b: self.b[m],
            gain: gain as i32,
            opp_gain: (info >> 8 & 0xFF) as i32,
            captured: info >> 16 & 0xFF,
            pit: (info >> 24 & 7) as u8,
            extra_turn: info >> 27 & 1 != 0,
            game_over: info >> 28 & 1 != 0,
            slot: match info >> 29 {
                0 => Slot::None,
                1 => Slot::Table(TableIndex {
                    at: self.a[m] as usize,
                    n: n - gain,
                }),
                _ => Slot::Bucket,
            },
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// Nothing (searched, or settled without a lookup).
    None,
    /// The endgame-table entry at this index.
    Table(TableIndex),
    /// The transposition table (enhanced transposition cutoff).
    Bucket,
}

#[cfg(test)]
mod tests {
    use super::super::{EndgameTables, Quiet};
    use super::*;
    use crate::games::kalah::{final_margin, Kalah, KalahRules};

    /// The margin of a depth-limited search without tables: the seeds still on
    /// the board count for nobody at the horizon.
    fn depth_limited_margin(own: u64, opp: u64, pits: u32, ec: bool, depth: u32) -> i32 {
        if let Some(m) = final_margin(own, opp) {
            return m;
        }
        if depth == 0 {
            return 0;
        }
        let mut best = -INF;
        let mut bits = non_empty(own);
        while bits != 0 {
            let i = bits.trailing_zeros() / 8;
            bits &= bits - 1;
            let s = sow(own, opp, pits, i, ec);
            let g = s.gain as i32;
            let v = if s.game_over {
                g - s.opp_gain as i32
            } else if s.extra_turn {
                g + depth_limited_margin(s.own, s.opp, pits, ec, depth - 1)
            } else {
                g - depth_limited_margin(s.opp, s.own, pits, ec, depth - 1)
            };
            best = best.max(v);
        }
        best
    }

    #[test]
    fn moves_keep_what_each_sowing_did() {
        // The widest values each field holds (at most 255 seeds in all), each kind
        // of child memory, and a move of the last pit of an 8-pit row.
        let sowings = [
            (
                Sown {
                    own: 0x0102,
                    opp: 0x0304,
                    gain: 255,
                    opp_gain: 0,
                    captured: 0,
                    extra_turn: true,
                    game_over: false,
                },
                7,
                Slot::Bucket,
            ),
            (
                Sown {
                    own: 5,
                    opp: 9,
                    gain: 0,
                    opp_gain: 255,
                    captured: 255,
                    extra_turn: false,
                    game_over: true,
                },
                0,
                Slot::None,
            ),
            (
                Sown {
                    own: 7,
                    opp: 11,
                    gain: 3,
                    opp_gain: 0,
                    captured: 2,
                    extra_turn: false,
                    game_over: false,
                },
                3,
                Slot::Table(TableIndex {
                    at: (1 << 30) + 5,
                    n: 17,
                }),
            ),
        ];
        let mut list = Moves::EMPTY;
        for (m, (s, pit, slot)) in sowings.iter().enumerate() {
            list.put(m, s, *pit, *slot);
        }
        list.len = 3;
        for (m, (s, pit, slot)) in sowings.iter().enumerate() {
            let (mut a, b) = child_rows(s);
            if let Slot::Table(t) = slot {
                a = t.at as u64;
            }
            // A position of 20 seeds in play: the table child's layer is 17.
            let want = Move {
                a,
                b,
                gain: s.gain as i32,
                opp_gain: s.opp_gain as i32,
                captured: s.captured,
                pit: *pit as u8,
                extra_turn: s.extra_turn,
                game_over: s.game_over,
                slot: *slot,
            };
            assert_eq!(list.get(m, 20), want, "move {m}");
        }
        assert_eq!(child_rows(&sowings[0].0), (0x0102, 0x0304));
        assert_eq!(child_rows(&sowings[2].0), (11, 7));
    }

    #[test]
    fn each_pass_tests_the_last_fail_soft_bound() {
        // Above a lower bound, at an upper one, always strictly inside lo..=hi.
        assert_eq!(next_beta(4, (4, 10)), 5);
        assert_eq!(next_beta(10, (4, 10)), 10);
        assert_eq!(next_beta(6, (4, 10)), 6);
        assert_eq!(next_beta(-20, (4, 10)), 5);
        assert_eq!(next_beta(20, (4, 10)), 10);
        assert_eq!(next_beta(-3, (-4, -3)), -3);
    }

    #[test]
    fn estimates_are_depth_limited_searches() {
        // With a one-slot table no entry survives to stand in for a deeper or
        // shallower search, so the estimate is the plain depth-limited value.
        for (p, sd) in [(3u8, 3u8), (4, 2), (2, 4)] {
            for ec in [false, true] {
                let r = KalahRules::new(p, sd).unwrap().with_empty_capture(ec);
                let g = Kalah::new(r);
                let (own, opp) = g.rows_for_mover();
                for depth in 1..=7 {
                    let mut tt = [SolverEntry::EMPTY; 1];
                    let mut s = KalahSolver::new(r, &mut tt, EndgameTables::none(p, ec)).unwrap();
                    let want = depth_limited_margin(own, opp, u32::from(p), ec, depth);
                    assert_eq!(
                        s.estimate(&g, depth, 0, &mut Quiet).unwrap(),
                        want,
                        "{}x{} ec {} depth {}",
                        p,
                        sd,
                        ec,
                        depth
                    );
                }
            }
        }
    }
}
