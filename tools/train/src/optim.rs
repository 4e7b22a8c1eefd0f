//! What the two fits share (`fit.rs`, the linear evaluation; `net.rs`, the network):
//! the validation split by game, each epoch's shuffle and step size, and Adam's step.
//! Each is deterministic, so a fit with the same seed repeats exactly.

use std::ops::{Add, Div, Mul, Sub};

use ply_core::playout::SplitMix64;
use ply_core::zobrist::mix64;

use crate::data::Record;

/// `records` split into the training and the validation ones, each in file order:
/// one game in `every` (chosen by a hash of its number) goes to validation whole.
pub fn split(records: &[Record], every: u32) -> (Vec<&Record>, Vec<&Record>) {
    records
        .iter()
        .partition(|r| !mix64(u64::from(r.game) ^ 0xfeed).is_multiple_of(u64::from(every.max(1))))
}

/// The order of the training positions, shuffled anew each epoch.
pub struct Shuffle {
    order: Vec<usize>,
    rng: SplitMix64,
}

impl Shuffle {
    /// The positions `0..n`, shuffled from `seed`.
    pub fn new(n: usize, seed: u64) -> Self {
        Shuffle {
            order: (0..n).collect(),
            rng: SplitMix64::new(seed),
        }
    }

    /// The next epoch's order: the last one shuffled (Fisher-Yates).
    pub fn next_epoch(&mut self) -> &[usize] {
        for k in (1..self.order.len()).rev() {
            self.order.swap(k, self.rng.below(k + 1));
        }
        &self.order
    }
}

/// Adam's step size in epoch `epoch` (from 0) of `epochs`: `lr` at the start, falling
/// linearly to a tenth of it by the last epoch.
pub fn step_size(lr: f64, epoch: u32, epochs: u32) -> f64 {
    lr * (1.0 - 0.9 * f64::from(epoch) / f64::from(epochs.max(1)))
}

/// The floating-point type of a fit's parameters (`f64` for the linear one, `f32`
/// for the network), with Adam's constants in it.
pub trait Float:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The decay of the gradient's mean.
    const BETA1: Self;
    /// The decay of its mean square.
    const BETA2: Self;
    /// Added to the root mean square, so that a zero gradient makes no step.
    const EPSILON: Self;
    /// The square root.
    fn sqrt(self) -> Self;
    /// `self` to the power `n`.
    fn powi(self, n: i32) -> Self;
}

/// [`Float`] for each type named, with the same constants.
macro_rules! float {
    ($($t:ty),*) => {$(
        impl Float for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            const BETA1: $t = 0.9;
            const BETA2: $t = 0.999;
            const EPSILON: $t = 1e-8;
            fn sqrt(self) -> $t {
                <$t>::sqrt(self)
            }
            fn powi(self, n: i32) -> $t {
                <$t>::powi(self, n)
            }
        }
    )*};
}

float!(f32, f64);

/// Adam (Kingma and Ba, docs/references.md): each parameter moves by the decaying
/// mean of its gradients over the root of the decaying mean of their squares, both
/// corrected for their start at zero.
pub struct Adam<F> {
    m: Vec<F>,
    v: Vec<F>,
    t: i32,
}

impl<F: Float> Adam<F> {
    /// Adam for `n` parameters, before its first step.
    pub fn new(n: usize) -> Self {
        Adam {
            m: vec![F::ZERO; n],
            v: vec![F::ZERO; n],
            t: 0,
        }
    }

    /// One step of the parameters `p` at step size `lr`, `gradient(i)` being the
    /// gradient of parameter `i`.
    pub fn step(&mut self, p: &mut [F], lr: F, mut gradient: impl FnMut(usize) -> F) {
        self.t += 1;
        let (b1, b2) = (F::BETA1, F::BETA2);
        let (c1, c2) = (F::ONE - b1.powi(self.t), F::ONE - b2.powi(self.t));
        for (i, ((p, m), v)) in p.iter_mut().zip(&mut self.m).zip(&mut self.v).enumerate() {
            let g = gradient(i);
            *m = b1 * *m + (F::ONE - b1) * g;
            *v = b2 * *v + (F::ONE - b2) * g * g;
            *p = *p - lr * (*m / c1) / ((*v / c2).sqrt() + F::EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::draughts::{Draughts, Rules};
    use ply_core::Game;

    /// Adam's first step moves each parameter by the step size against its
    /// gradient's sign, whatever the gradient's size; a zero gradient leaves it.
    fn first_step<F: Float + From<f32> + PartialOrd + std::fmt::Debug>(tolerance: f32) {
        let of = |x: [f32; 4]| x.map(F::from);
        let mut p = of([1.0, -2.0, 0.5, 3.0]);
        let g = of([0.5, -3.0, 0.0, 40.0]);
        let mut adam = Adam::new(p.len());
        adam.step(&mut p, F::from(0.5), |i| g[i]);
        for (got, want) in p.into_iter().zip(of([0.5, -1.5, 0.5, 2.5])) {
            let d = if got > want { got - want } else { want - got };
            assert!(d < F::from(tolerance), "{:?} against {:?}", got, want);
        }
    }

    #[test]
    fn the_first_step_moves_each_parameter_by_the_step_size() {
        first_step::<f64>(1e-7);
        first_step::<f32>(1e-5);
    }

    #[test]
    fn adam_finds_the_minimum_of_a_quadratic() {
        // f(x, y) = (x - 3)^2 + 10 (y + 1)^2, from (0, 0).
        let mut p = [0.0f64, 0.0];
        let mut adam = Adam::new(2);
        for step in 0..2000 {
            let lr = if step < 1000 { 0.1 } else { 0.01 };
            let g = [2.0 * (p[0] - 3.0), 20.0 * (p[1] + 1.0)];
            adam.step(&mut p, lr, |i| g[i]);
        }
        assert!((p[0] - 3.0).abs() < 1e-3, "{:?}", p);
        assert!((p[1] + 1.0).abs() < 1e-3, "{:?}", p);
    }

    #[test]
    fn the_step_size_falls_to_a_tenth_by_the_last_epoch() {
        assert_eq!(step_size(2.0, 0, 10), 2.0);
        assert!((step_size(2.0, 5, 10) - 1.1).abs() < 1e-12);
        assert!((step_size(2.0, 10, 10) - 0.2).abs() < 1e-12);
        assert_eq!(step_size(2.0, 0, 0), 2.0);
    }

    #[test]
    fn a_game_goes_whole_to_one_side_and_one_game_in_every_to_validation() {
        let g = Draughts::parse_position(Rules::english(), "B:W21-32:B1-11").unwrap();
        let records: Vec<Record> = (0..4000u32)
            .flat_map(|game| [Record::of(&g, game, 1), Record::of(&g, game, 2)])
            .collect();
        let (train, valid) = split(&records, 20);
        assert_eq!(train.len() + valid.len(), records.len());
        let games = |set: &[&Record]| {
            let mut v: Vec<u32> = set.iter().map(|r| r.game).collect();
            v.dedup();
            v
        };
        let (tg, vg) = (games(&train), games(&valid));
        assert_eq!(train.len(), 2 * tg.len(), "both records of a game together");
        assert!(tg.iter().all(|g| !vg.contains(g)));
        assert!(vg.windows(2).all(|w| w[0] < w[1]), "file order kept");
        assert!(
            (150..250).contains(&vg.len()),
            "{} validation games",
            vg.len()
        );
        // Every game to validation with 1 (and with 0, taken as 1).
        assert_eq!(split(&records, 1).1.len(), records.len());
        assert_eq!(split(&records, 0).1.len(), records.len());
    }

    #[test]
    fn each_epoch_is_a_new_permutation_and_a_seed_repeats_it() {
        let mut a = Shuffle::new(100, 5);
        let mut b = Shuffle::new(100, 5);
        let first = a.next_epoch().to_vec();
        assert_eq!(b.next_epoch(), &first[..]);
        let mut sorted = first.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert_ne!(first, (0..100).collect::<Vec<_>>());
        let second = a.next_epoch().to_vec();
        assert_ne!(second, first);
        assert_eq!(b.next_epoch(), &second[..]);
        assert_ne!(Shuffle::new(100, 6).next_epoch(), &first[..]);
    }
}
