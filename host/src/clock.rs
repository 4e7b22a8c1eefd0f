//! The host's wall clock for the core's time budgets.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ply_core::search::Clock;

/// Milliseconds since construction (or the last [`WallClock::restart`]), and
/// optionally up to two flags that ask the search to stop ([`WallClock::with_stop`]).
#[derive(Clone, Copy, Debug)]
pub struct WallClock {
    start: Instant,
    stops: [Option<&'static AtomicBool>; 2],
}

impl WallClock {
    /// A clock started now.
    pub fn start() -> Self {
        Self::started_at(Instant::now())
    }

    /// A clock that started at `instant` (a move's time counts from when the turn
    /// began, not from when its search did).
    pub fn started_at(instant: Instant) -> Self {
        WallClock {
            start: instant,
            stops: [None; 2],
        }
    }

    /// The same clock with a stop flag more: once `stop` (or a flag it had) is set,
    /// every search on this clock (each thread of a parallel one) stops at its next
    /// check and answers with what it has ([`Clock::stop_requested`]). `ply engine`
    /// sets its flag on `stop`; an AI player adds its own, set when its exact solver
    /// has proved a move ([`crate::commands::player::Ai::choose_on`]). A clock holds
    /// two flags: a third replaces the second.
    pub fn with_stop(self, stop: &'static AtomicBool) -> Self {
        let stops = match self.stops {
            [None, _] => [Some(stop), None],
            [first, _] => [first, Some(stop)],
        };
        WallClock { stops, ..self }
    }

    /// The same clock started `by` later (its stop flags kept).
    pub fn delayed(self, by: Duration) -> Self {
        WallClock {
            start: self.start + by,
            ..self
        }
    }

    /// The moment the clock started.
    pub fn started(&self) -> Instant {
        self.start
    }

    /// Restarts the clock at zero.
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// Seconds since the start, as a float.
    pub fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

impl Clock for WallClock {
    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
    #[inline]
    fn elapsed_us(&self) -> u64 {
        self.start.elapsed().as_micros() as u64
    }
    #[inline]
    fn stop_requested(&self) -> bool {
        self.stops
            .iter()
            .flatten()
            .any(|s| s.load(Ordering::Relaxed))
    }
}

/// The moment the process started, from which `ply play` times its first move: the
/// first call of this function (`main` makes it first thing) less the processor time
/// the process had used by then ([`cpu_time`]). A process that has only just started
/// has done nothing but start — the `exec`, the loading of the program and its
/// libraries, the runtime's set-up — so its processor time is how long that took at
/// the least (about a millisecond, more on a busy machine; the waits for a core
/// before `main` cannot be known, and are not counted).
pub fn process_start() -> Instant {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *START.get_or_init(|| {
        let now = Instant::now();
        now.checked_sub(cpu_time()).unwrap_or(now)
    })
}

/// The processor time this process has used so far (every thread, user and system
/// time, counted from its `fork`: the `exec` included); zero where it cannot be read.
pub fn cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` to the pointer given, which points
    // to `t`, a valid and writable `timespec` that lives through the call.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    if r != 0 || t.tv_sec < 0 || !(0..1_000_000_000).contains(&t.tv_nsec) {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// A wall clock with a stop flag that several threads share: the clock of each engine
/// in a parallel search. Setting the flag (or the wall clock's own,
/// [`WallClock::with_stop`]) asks every engine to stop at its next check.
#[derive(Clone, Copy, Debug)]
pub struct StopClock<'a> {
    /// The time since the search started.
    pub clock: WallClock,
    /// Set once the search must end.
    pub stop: &'a AtomicBool,
}

impl Clock for StopClock<'_> {
    #[inline]
    fn elapsed_ms(&self) -> u64 {
        self.clock.elapsed_ms()
    }
    #[inline]
    fn elapsed_us(&self) -> u64 {
        self.clock.elapsed_us()
    }
    #[inline]
    fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.clock.stop_requested()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::{Algo, Options, Tables};
    use ply_core::games::kalah::{Kalah, KalahEval};
    use ply_core::search::Limits;
    use ply_core::Game;

    /// The processor time is read (the process has run), and grows as the process
    /// works; the process start is before now.
    #[test]
    fn the_processor_time_is_read() {
        let used = cpu_time();
        assert!(used > Duration::ZERO, "the process has run");
        let mut x = 0u64;
        let mut later = used;
        for i in 0..1_000_000_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
            if i % 1024 == 0 {
                later = cpu_time();
                if later > used {
                    break;
                }
            }
        }
        std::hint::black_box(x);
        assert!(later > used, "work uses processor time");
        assert!(process_start() < Instant::now());
    }

    /// A search on a clock whose stop flag (either of two) is set ends at its first look at the
    /// clock, on one thread and on several, whatever time it was given.
    #[test]
    fn a_set_stop_flag_ends_the_search() {
        static STOP: AtomicBool = AtomicBool::new(false);
        let clock = WallClock::start().with_stop(&STOP);
        assert!(!clock.stop_requested());
        STOP.store(true, Ordering::Relaxed);
        assert!(clock.stop_requested());
        // A second flag: either one stops the clock.
        static OTHER: AtomicBool = AtomicBool::new(false);
        let quiet = WallClock::start().with_stop(&OTHER);
        assert!(!quiet.stop_requested());
        assert!(quiet.with_stop(&STOP).stop_requested());
        assert!(clock.with_stop(&OTHER).stop_requested());
        assert!(clock.delayed(Duration::from_secs(1)).stop_requested());
        let game = Kalah::start(Default::default());
        for threads in [1, 2] {
            let r = crate::parallel::run(
                Algo::Engine,
                &game,
                Limits::time_ms(3_600_000),
                &KalahEval,
                &Options::threads(threads),
                &mut Tables::new(),
                clock,
                &mut |_| {},
            )
            .unwrap();
            assert!(r.aborted, "{threads} threads");
            assert!(r.depth <= 1, "{threads} threads: depth {}", r.depth);
        }
    }
}
