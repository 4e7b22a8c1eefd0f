//! What slices hold: their wins, losses, draws and longest distance, counted from
//! their codes on every thread.

use ply_core::games::draughts::db::{
    keys_of, Database, Inflater, Slice, SliceKey, Value, BLOCK_ENTRIES,
};

use super::cache;
use super::chunks::in_chunks;

/// What the slices of one piece count hold ([`census`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Positions won, lost and drawn for the side to move.
    pub won: u64,
    /// See `won`.
    pub lost: u64,
    /// See `won`.
    pub drawn: u64,
    /// The longest distance to conversion, whether it is a loss (else a win), and
    /// its slice (the first in build order when several share it).
    pub longest: Option<(u16, bool, SliceKey)>,
    /// Slices of two-byte entries.
    pub wide: usize,
}

impl Census {
    /// Adds slice `key`'s counts (slices added in build order).
    pub fn add(&mut self, key: SliceKey, s: &SliceCensus) {
        self.won += s.won;
        self.lost += s.lost;
        self.drawn += s.drawn;
        self.wide += usize::from(s.width == 2);
        if let Some((d, loss)) = s.longest {
            if self.longest.is_none_or(|(l, _, _)| d > l) {
                self.longest = Some((d, loss, key));
            }
        }
    }
}

/// What one slice holds ([`slice_census`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SliceCensus {
    /// Positions won, lost and drawn for the side to move.
    pub won: u64,
    /// See `won`.
    pub lost: u64,
    /// See `won`.
    pub drawn: u64,
    /// The longest distance to conversion, and whether it is a loss (a win where
    /// both are that long).
    pub longest: Option<(u16, bool)>,
    /// Bytes an entry (1 or 2).
    pub width: usize,
}

/// The wins, losses and draws of `db` and its longest distance, for each piece
/// count 1 to `pieces` (its codes counted a slice at a time on `threads` threads).
pub fn census(db: &Database, pieces: u32, threads: usize) -> Vec<Census> {
    let mut all = Vec::new();
    for n in 1..=pieces {
        let mut c = Census::default();
        for key in keys_of(n) {
            if let Some(e) = db.slice(key) {
                c.add(key, &slice_census(e, threads));
            }
        }
        all.push(c);
    }
    all
}

/// The wins, losses and draws of slice `e` and its longest distance (its codes
/// counted on `threads` threads).
pub fn slice_census(e: Slice, threads: usize) -> SliceCensus {
    let mut c = SliceCensus {
        width: e.width(),
        ..SliceCensus::default()
    };
    let count = |h: &mut Histogram, codes: &[u8], width: usize| {
        for i in 0..codes.len() / width {
            let code = ply_core::games::draughts::db::packed::code_at(codes, width, i);
            h.0[code.unwrap_or(0) as usize] += 1;
        }
    };
    let new = || Histogram(vec![0; 1 << (8 * e.width())]);
    let counts: Result<Histogram, std::convert::Infallible> = match e {
        Slice::Plain(e) => in_chunks(threads, e.len() as u64, 1 << 20, |r| {
            let mut h = new();
            let w = e.width();
            count(
                &mut h,
                &e.bytes()[r.start as usize * w..r.end as usize * w],
                w,
            );
            Ok(h)
        }),
        Slice::Packed(p) => in_chunks(threads, p.blocks() as u64, 64, |r| {
            let mut h = new();
            let mut out = vec![0; BLOCK_ENTRIES * p.width()];
            let mut state = Inflater::default();
            for b in r {
                let n = cache::unpack(&p, b as usize, &mut out, &mut state);
                count(&mut h, &out[..n], p.width());
            }
            Ok(h)
        }),
    };
    let Ok(counts) = counts;
    for (code, &k) in counts.0.iter().enumerate() {
        if k == 0 {
            continue;
        }
        // A code no value has is counted nowhere (`ply db build --verify` finds it).
        let Some(v) = Value::from_code(code as u16) else {
            continue;
        };
        match v.sign() {
            1 => c.won += k,
            -1 => c.lost += k,
            _ => c.drawn += k,
        }
        let d = v.distance();
        // Codes go up with the distance, a win before a loss of the same one.
        if v.sign() != 0 && c.longest.is_none_or(|(l, _)| d > l) {
            c.longest = Some((d, v.sign() < 0));
        }
    }
    c
}

/// Counts of each code, summed over the threads.
#[derive(Default)]
struct Histogram(Vec<u64>);

impl std::ops::AddAssign for Histogram {
    fn add_assign(&mut self, o: Histogram) {
        if self.0.len() < o.0.len() {
            self.0.resize(o.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
    }
}
