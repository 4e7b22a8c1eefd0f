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
}

impl Limits {
    /// Search exactly to `depth` plies, however long it takes.
    pub const fn depth(depth: u32) -> Self {
        Limits {
            depth,
            nodes: None,
            time_ms: None,
        }
    }

    /// Search as deep as `ms` milliseconds allow (up to the deepest ply).
    pub const fn time_ms(ms: u64) -> Self {
        Limits {
            depth: crate::search::MAX_PLY as u32 - 1,
            nodes: None,
            time_ms: Some(ms),
        }
    }

    /// Search as deep as `nodes` visited nodes allow.
    pub const fn nodes(nodes: u64) -> Self {
        Limits {
            depth: crate::search::MAX_PLY as u32 - 1,
            nodes: Some(nodes),
            time_ms: None,
        }
    }
}
