//! The network fit: the draughts network (`ply_core::games::draughts::network`) in
//! floating point, trained by Adam on mini-batches to predict the mover's score (the
//! game's result, or a blend with a search value's predicted score), then rounded to
//! the integers of a network file. The float model computes exactly what the integer
//! one does (clipped activations, output buckets), so the rounding costs little; the
//! fit reports both models' validation losses to show it.

use ply_core::games::draughts::network::{
    bucket, for_each_input, Network, BUCKETS, HIDDEN, HIDDEN2, INPUTS, NETWORK_BYTES, ONE, OUT_ONE,
    W2_ONE,
};
use ply_core::games::draughts::{Colour, LearnedEval};
use ply_core::playout::SplitMix64;

use crate::data::Record;
use crate::optim::{split, step_size, Adam, Shuffle};

/// The fit's settings: `ply-train fit-net`'s options, whose help is these lines.
#[derive(Clone, Debug, clap::Args)]
pub struct Settings {
    /// Passes over the training positions.
    #[arg(long, default_value_t = 16)]
    pub epochs: u32,
    /// Positions a step.
    #[arg(long, default_value_t = 2048)]
    pub batch: usize,
    /// Adam's step size at the start; it falls linearly to a tenth of it by the last
    /// epoch.
    #[arg(long, default_value_t = 2e-3)]
    pub lr: f64,
    /// The share of the game's result in the target; the rest is the predicted score
    /// of the record's search value (a record without one is fitted to its result alone).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// One game in this many goes to the validation set.
    #[arg(long, default_value_t = 20)]
    pub valid_every: u32,
    /// Threads computing the gradient.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// The seed of the starting weights and the shuffles (a fit repeats exactly).
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
}

// Where each part of the float model is in its one vector of parameters.
const W1: usize = 0;
const B1: usize = W1 + INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + HIDDEN2 * HIDDEN;
const W3: usize = B2 + HIDDEN2;
const B3: usize = W3 + BUCKETS * HIDDEN2;
/// Parameters of the float model.
pub const PARAMS: usize = B3 + BUCKETS;

/// The largest first-layer weight: 25 of them (24 pieces and the bias) stay inside an
/// `i16` at scale [`ONE`].
const W1_MAX: f32 = 8.0;
/// The largest second-layer weight an `i8` holds at scale [`W2_ONE`].
const W2_MAX: f32 = 127.0 / W2_ONE as f32;
/// The largest output weight an `i16` holds at scale [`OUT_ONE`].
const W3_MAX: f32 = 32_000.0 / OUT_ONE as f32;

/// A position as the network reads it, with its target (the mover's score).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    inputs: [u8; 24],
    len: u8,
    bucket: u8,
    target: f32,
}

/// The predicted score of an evaluation `v` (a man near 100).
fn predict_value(v: f64) -> f64 {
    1.0 / (1.0 + (-v / 50.0).exp())
}

/// The sample of a record: its inputs and the mover's target.
pub fn sample(r: &Record, lambda: f64) -> Sample {
    let g = r.position().expect("records are checked when read");
    let mut s = Sample {
        inputs: [0; 24],
        len: 0,
        bucket: bucket(&g) as u8,
        target: 0.0,
    };
    for_each_input(&g, |i| {
        if usize::from(s.len) < s.inputs.len() {
            s.inputs[usize::from(s.len)] = i as u8;
            s.len += 1;
        }
    });
    let white = match r.search {
        Some(v) if lambda < 1.0 => lambda * r.score() + (1.0 - lambda) * predict_value(v.into()),
        _ => r.score(),
    };
    s.target = match g.colour_to_move() {
        Colour::White => white,
        Colour::Black => 1.0 - white,
    } as f32;
    s
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn cross_entropy(pred: f64, target: f64) -> f64 {
    let p = pred.clamp(1e-7, 1.0 - 1e-7);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

/// Starting weights: small random ones, biases that leave most units active.
pub fn start(seed: u64) -> Vec<f32> {
    let mut rng = SplitMix64::new(seed ^ 0x6e65_7477);
    let mut uniform = |a: f32| {
        let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * u - 1.0) * a
    };
    let mut p = vec![0.0f32; PARAMS];
    for w in &mut p[W1..B1] {
        *w = uniform(0.2);
    }
    for b in &mut p[B1..W2] {
        *b = 0.25;
    }
    let a2 = (3.0 / HIDDEN as f32).sqrt();
    for w in &mut p[W2..B2] {
        *w = uniform(a2);
    }
    for b in &mut p[B2..W3] {
        *b = 0.25;
    }
    for w in &mut p[W3..B3] {
        *w = uniform(0.2);
    }
    p
}

/// The float model's output logit for `s`, and what the backward pass needs.
struct Forward {
    z1: [f32; HIDDEN],
    a1: [f32; HIDDEN],
    z2: [f32; HIDDEN2],
    a2: [f32; HIDDEN2],
    logit: f32,
}

fn forward(p: &[f32], s: &Sample) -> Forward {
    let mut z1 = [0.0f32; HIDDEN];
    z1.copy_from_slice(&p[B1..B1 + HIDDEN]);
    for &i in &s.inputs[..usize::from(s.len)] {
        let w = &p[W1 + usize::from(i) * HIDDEN..][..HIDDEN];
        for (z, &w) in z1.iter_mut().zip(w) {
            *z += w;
        }
    }
    let mut a1 = [0.0f32; HIDDEN];
    for (a, &z) in a1.iter_mut().zip(&z1) {
        *a = z.clamp(0.0, 1.0);
    }
    let mut z2 = [0.0f32; HIDDEN2];
    let mut a2 = [0.0f32; HIDDEN2];
    for k in 0..HIDDEN2 {
        let row = &p[W2 + k * HIDDEN..][..HIDDEN];
        let dot: f32 = row.iter().zip(&a1).map(|(w, a)| w * a).sum();
        z2[k] = p[B2 + k] + dot;
        a2[k] = z2[k].clamp(0.0, 1.0);
    }
    let b = usize::from(s.bucket);
    let out = &p[W3 + b * HIDDEN2..][..HIDDEN2];
    let logit = p[B3 + b] + out.iter().zip(&a2).map(|(w, a)| w * a).sum::<f32>();
    Forward {
        z1,
        a1,
        z2,
        a2,
        logit,
    }
}

/// Adds the gradient of `s`'s loss (times `scale`) to `g`; returns the loss.
fn backward(p: &[f32], s: &Sample, g: &mut [f32], scale: f32) -> f64 {
    let f = forward(p, s);
    let pred = sigmoid(f.logit);
    let loss = cross_entropy(f64::from(pred), f64::from(s.target));
    let d = (pred - s.target) * scale;
    let b = usize::from(s.bucket);
    g[B3 + b] += d;
    let mut d1 = [0.0f32; HIDDEN];
    for k in 0..HIDDEN2 {
        g[W3 + b * HIDDEN2 + k] += d * f.a2[k];
        if f.z2[k] <= 0.0 || f.z2[k] >= 1.0 {
            continue;
        }
        let d2 = d * p[W3 + b * HIDDEN2 + k];
        g[B2 + k] += d2;
        let row = W2 + k * HIDDEN;
        for j in 0..HIDDEN {
            g[row + j] += d2 * f.a1[j];
            d1[j] += d2 * p[row + j];
        }
    }
    for j in 0..HIDDEN {
        if f.z1[j] <= 0.0 || f.z1[j] >= 1.0 {
            d1[j] = 0.0;
        }
        g[B1 + j] += d1[j];
    }
    for &i in &s.inputs[..usize::from(s.len)] {
        let gw = &mut g[W1 + usize::from(i) * HIDDEN..][..HIDDEN];
        for (gw, &d) in gw.iter_mut().zip(&d1) {
            *gw += d;
        }
    }
    loss
}

/// The mean loss of the float model `p` on `samples`.
pub fn loss(p: &[f32], samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| cross_entropy(f64::from(sigmoid(forward(p, s).logit)), f64::from(s.target)))
        .sum::<f64>()
        / samples.len() as f64
}

/// The integer network of the float model `p` (each weight rounded at its scale).
pub fn quantise(p: &[f32]) -> Box<Network> {
    let r = |x: f32, scale: i32| (x * scale as f32).round();
    let mut n = Box::new(Network::ZERO);
    for i in 0..INPUTS {
        for j in 0..HIDDEN {
            n.w1[i][j] = r(p[W1 + i * HIDDEN + j], ONE) as i16;
        }
    }
    for j in 0..HIDDEN {
        n.b1[j] = r(p[B1 + j], ONE).clamp(-32_000.0, 32_000.0) as i16;
    }
    for k in 0..HIDDEN2 {
        for j in 0..HIDDEN {
            n.w2[k][j] = r(p[W2 + k * HIDDEN + j], W2_ONE).clamp(-127.0, 127.0) as i8;
        }
        n.b2[k] = r(p[B2 + k], ONE * W2_ONE) as i32;
    }
    for b in 0..BUCKETS {
        for k in 0..HIDDEN2 {
            n.w3[b][k] = r(p[W3 + b * HIDDEN2 + k], OUT_ONE) as i16;
        }
        n.b3[b] = r(p[B3 + b], ONE * OUT_ONE) as i32;
    }
    n
}

/// The float model of an integer network (to go on fitting it).
pub fn params_of(n: &Network) -> Vec<f32> {
    let mut p = vec![0.0f32; PARAMS];
    let f = |x: i32, scale: i32| x as f32 / scale as f32;
    for i in 0..INPUTS {
        for j in 0..HIDDEN {
            p[W1 + i * HIDDEN + j] = f(n.w1[i][j].into(), ONE);
        }
    }
    for j in 0..HIDDEN {
        p[B1 + j] = f(n.b1[j].into(), ONE);
    }
    for k in 0..HIDDEN2 {
        for j in 0..HIDDEN {
            p[W2 + k * HIDDEN + j] = f(n.w2[k][j].into(), W2_ONE);
        }
        p[B2 + k] = f(n.b2[k], ONE * W2_ONE);
    }
    for b in 0..BUCKETS {
        for k in 0..HIDDEN2 {
            p[W3 + b * HIDDEN2 + k] = f(n.w3[b][k].into(), OUT_ONE);
        }
        p[B3 + b] = f(n.b3[b], ONE * OUT_ONE);
    }
    p
}

/// The network file of the float model `p`.
pub fn bytes_of(p: &[f32]) -> Vec<u8> {
    let mut out = vec![0u8; NETWORK_BYTES];
    quantise(p)
        .write_bytes(&mut out)
        .expect("the buffer is a network file's size");
    out
}

/// What a fit did.
#[derive(Clone, Debug)]
pub struct Report {
    /// Training and validation positions.
    pub sizes: (usize, usize),
    /// The validation loss of the shipped learned (linear) evaluation, to compare.
    pub linear: f64,
    /// Each epoch's mean training loss (as it went) and validation loss after it.
    pub epochs: Vec<(f64, f64)>,
    /// The validation loss of the rounded (integer) network.
    pub integer: f64,
}

/// The validation loss of the integer network `n` on `records` (the validation
/// ones), reading each position through the core's own evaluation.
fn integer_loss(n: &Network, valid: &[(Record, f32)]) -> f64 {
    if valid.is_empty() {
        return 0.0;
    }
    let one = f64::from(ONE * OUT_ONE);
    valid
        .iter()
        .map(|(r, t)| {
            let g = r.position().expect("checked");
            let pred = 1.0 / (1.0 + (-f64::from(n.logit(&g)) / one).exp());
            cross_entropy(pred, f64::from(*t))
        })
        .sum::<f64>()
        / valid.len() as f64
}

/// The validation loss of the shipped learned evaluation.
fn linear_loss(valid: &[(Record, f32)]) -> f64 {
    if valid.is_empty() {
        return 0.0;
    }
    valid
        .iter()
        .map(|(r, t)| {
            let g = r.position().expect("checked");
            let v = LearnedEval::SHIPPED.white_minus_black(&g);
            let mover = match g.colour_to_move() {
                Colour::White => v,
                Colour::Black => -v,
            };
            cross_entropy(predict_value(mover.into()), f64::from(*t))
        })
        .sum::<f64>()
        / valid.len() as f64
}

/// Fits the float model `p` to `records`, calling `progress` after each epoch.
pub fn fit(
    records: &[Record],
    mut p: Vec<f32>,
    s: &Settings,
    mut progress: impl FnMut(u32, f64, f64),
) -> (Vec<f32>, Report) {
    let (train, held) = split(records, s.valid_every);
    let train: Vec<Sample> = train.into_iter().map(|r| sample(r, s.lambda)).collect();
    let valid: Vec<Sample> = held.iter().map(|r| sample(r, s.lambda)).collect();
    let valid_records: Vec<(Record, f32)> = held
        .iter()
        .zip(&valid)
        .map(|(r, sm)| (**r, sm.target))
        .collect();
    let mut report = Report {
        sizes: (train.len(), valid.len()),
        linear: linear_loss(&valid_records),
        epochs: Vec::new(),
        integer: 0.0,
    };
    let mut adam = Adam::new(PARAMS);
    let threads = s.threads.max(1);
    let mut grads = vec![vec![0.0f32; PARAMS]; threads];
    let mut shuffle = Shuffle::new(train.len(), s.seed);
    for epoch in 0..s.epochs {
        let lr = step_size(s.lr, epoch, s.epochs) as f32;
        let mut total = 0.0;
        for batch in shuffle.next_epoch().chunks(s.batch.max(1)) {
            let scale = 1.0 / batch.len() as f32;
            let per = batch.len().div_ceil(threads);
            let params = &p;
            let train = &train;
            total += std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(per.max(1)))
                    .map(|(g, part)| {
                        scope.spawn(move || {
                            g.iter_mut().for_each(|x| *x = 0.0);
                            part.iter()
                                .map(|&k| backward(params, &train[k], g, scale))
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a gradient thread panicked"))
                    .sum::<f64>()
            });
            let used = batch.len().div_ceil(per.max(1));
            adam.step(&mut p, lr, |i| grads[..used].iter().map(|g| g[i]).sum());
            clip(&mut p);
        }
        let train_loss = total / train.len().max(1) as f64;
        let valid_loss = loss(&p, &valid);
        report.epochs.push((train_loss, valid_loss));
        progress(epoch + 1, train_loss, valid_loss);
    }
    report.integer = integer_loss(&quantise(&p), &valid_records);
    (p, report)
}

/// Keeps every weight within what its integer holds.
fn clip(p: &mut [f32]) {
    for w in &mut p[W1..B1] {
        *w = w.clamp(-W1_MAX, W1_MAX);
    }
    for b in &mut p[B1..W2] {
        *b = b.clamp(-W1_MAX, W1_MAX);
    }
    for w in &mut p[W2..B2] {
        *w = w.clamp(-W2_MAX, W2_MAX);
    }
    for w in &mut p[W3..B3] {
        *w = w.clamp(-W3_MAX, W3_MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::draughts::{Draughts, NetworkEval, Rules};
    use ply_core::Game;

    /// Positions where White is a man up win, a man down lose, level draw.
    fn records() -> Vec<Record> {
        crate::data::man_up_records(120)
    }

    #[test]
    fn the_fit_learns_that_a_man_wins_and_the_integer_network_agrees() {
        let s = Settings {
            epochs: 40,
            batch: 16,
            lr: 1e-2,
            lambda: 1.0,
            valid_every: 1_000_000,
            threads: 2,
            seed: 3,
        };
        let (p, report) = fit(&records(), start(3), &s, |_, _, _| {});
        let first = report.epochs.first().unwrap().0;
        let last = report.epochs.last().unwrap().0;
        assert!(last < first * 0.8, "training loss {first} -> {last}");
        let bytes = bytes_of(&p);
        let n = Network::from_bytes(&bytes).unwrap();
        let e = NetworkEval::new(&n);
        for (fen, sign) in [
            ("B:W21-32:B1-11", 1),
            ("W:W21-32:B1-11", 1),
            ("B:W22-32:B1-12", -1),
        ] {
            let g = Draughts::parse_position(Rules::english(), fen).unwrap();
            let v = e.white_minus_black(&g);
            assert!(v * sign > 50, "{fen}: {v}");
            // The float model and the integer one agree to a few units.
            let f = forward(&p, &sample(&Record::of(&g, 0, 0), 1.0)).logit * 50.0;
            let mover = if g.colour_to_move() == Colour::White {
                v
            } else {
                -v
            };
            assert!(
                (f - mover as f32).abs() < 5.0,
                "{fen}: float {f}, integer {mover}"
            );
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let r = records()[0];
        let s = sample(&r, 1.0);
        let p = start(11);
        let mut g = vec![0.0f32; PARAMS];
        backward(&p, &s, &mut g, 1.0);
        let f = forward(&p, &s);
        let checked = [
            W1 + usize::from(s.inputs[0]) * HIDDEN + 3,
            B1 + 5,
            W2 + 7 * HIDDEN + 2,
            B2 + 1,
            W3 + usize::from(s.bucket) * HIDDEN2 + 4,
            B3 + usize::from(s.bucket),
        ];
        let loss_at = |p: &[f32]| {
            cross_entropy(
                f64::from(sigmoid(forward(p, &s).logit)),
                f64::from(s.target),
            )
        };
        for i in checked {
            let h = 1e-3f32;
            let (mut up, mut down) = (p.clone(), p.clone());
            up[i] += h;
            down[i] -= h;
            let numeric = (loss_at(&up) - loss_at(&down)) / (2.0 * f64::from(h));
            assert!(
                (numeric - f64::from(g[i])).abs() < 1e-3,
                "parameter {i}: analytic {}, numeric {numeric} (logit {})",
                g[i],
                f.logit
            );
        }
    }
}
