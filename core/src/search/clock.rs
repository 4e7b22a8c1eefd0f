//! Budgets for a search: depth, nodes, time. The core has no clock of its own; the
//! host (or firmware) implements [`Clock`].

/// What a search knows of the world outside it: milliseconds since it started, from
/// whatever timer the platform has, and whether it has been asked to stop.
pub trait Clock {
    /// Milliseconds elapsed since the clock was started.
    fn elapsed_ms(&self) -> u64;

    /// Microseconds elapsed since the clock was started: what the engine reads to
    /// pace its checks. The default is the milliseconds' worth; a clock with a finer
    /// timer says more, and the engine then keeps closer to its limit.
    #[inline]
    fn elapsed_us(&self) -> u64 {
        self.elapsed_ms().saturating_mul(1000)
    }

    /// True once the search should stop at the next check, whatever its budget: the
    /// host sets it when another thread of a parallel search has finished, or when
    /// the user interrupts. The default: never.
    #[inline]
    fn stop_requested(&self) -> bool {
        false
    }
}

impl<C: Clock + ?Sized> Clock for &C {
    #[inline]
    fn elapsed_ms(&self) -> u64 {
        (**self).elapsed_ms()
    }
    #[inline]
    fn elapsed_us(&self) -> u64 {
        (**self).elapsed_us()
    }
    #[inline]
    fn stop_requested(&self) -> bool {
        (**self).stop_requested()
    }
}

/// A clock that never advances: for searches bounded by depth or nodes only.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoClock;

impl Clock for NoClock {
    fn elapsed_ms(&self) -> u64 {
        0
    }
}

/// When an iterative-deepening search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Limits {
    /// The deepest iteration (plies).
    pub depth: u32,
    /// Stop once this many nodes were visited.
    pub nodes: Option<u64>,
    /// Hard time limit: stop inside the iteration when it is reached.
    pub time_ms: Option<u64>,
    /// Soft time limit (a game clock's share for this move): no new iteration starts
    /// after it while the best move is stable; after an iteration that changed the
    /// best move (or one of the two before it did) the cutoff is stretched to
    /// [`SOFT_STRETCH_PERCENT`] of it, never past [`Limits::time_ms`]. `None`: every
    /// iteration starts while the hard limit has not passed, so a fixed time a move is
    /// spent whole.
    pub soft_ms: Option<u64>,
}

/// How far an unstable best move stretches [`Limits::soft_ms`], in per cent.
pub const SOFT_STRETCH_PERCENT: u64 = 200;

impl Limits {
    /// Search exactly to `depth` plies, however long it takes.
    pub const fn depth(depth: u32) -> Self {
        Limits {
            depth,
            nodes: None,
            time_ms: None,
            soft_ms: None,
        }
    }

    /// Search as deep as `ms` milliseconds allow (up to the deepest ply).
    pub const fn time_ms(ms: u64) -> Self {
        Limits {
            depth: crate::search::MAX_PLY as u32 - 1,
            nodes: None,
            time_ms: Some(ms),
            soft_ms: None,
        }
    }

    /// Search as deep as a game clock allows: no new iteration after `soft_ms` while
    /// the best move is stable (see [`Limits::soft_ms`]), never past `hard_ms`.
    pub const fn clock_ms(soft_ms: u64, hard_ms: u64) -> Self {
        Limits {
            depth: crate::search::MAX_PLY as u32 - 1,
            nodes: None,
            time_ms: Some(hard_ms),
            soft_ms: Some(soft_ms),
        }
    }

    /// Search as deep as `nodes` visited nodes allow.
    pub const fn nodes(nodes: u64) -> Self {
        Limits {
            depth: crate::search::MAX_PLY as u32 - 1,
            nodes: Some(nodes),
            time_ms: None,
            soft_ms: None,
        }
    }
}
