//! The host's wall clock for the core's time budgets.

use std::time::Instant;

use ply_core::search::Clock;

/// Milliseconds since construction (or the last [`WallClock::restart`]).
#[derive(Clone, Copy, Debug)]
pub struct WallClock(Instant);

impl WallClock {
    /// A clock started now.
    pub fn start() -> Self {
        WallClock(Instant::now())
    }

    /// Restarts the clock at zero.
    pub fn restart(&mut self) {
        self.0 = Instant::now();
    }

    /// Seconds since the start, as a float.
    pub fn seconds(&self) -> f64 {
        self.0.elapsed().as_secs_f64()
    }
}

impl Clock for WallClock {
    fn elapsed_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}
