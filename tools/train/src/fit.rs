//! The fit: logistic regression of game results on the learned evaluation's features
//! (`ply_core::games::draughts::learned`), by Adam on mini-batches. The model is the
//! evaluation itself, in floating point: a position's value `v` for White predicts
//! White's score `1 / (1 + e^(-v / SCALE))`; the loss is the cross-entropy of the
//! game's result, or (`lambda` below 1) of a blend of the result and the score that a
//! search value of a labelled record predicts.

use ply_core::games::draughts::learned::{
    for_each_feature, opening_share, read_weight, write_weight, FEATURES, FULL_BOARD, KING_SQUARES,
    SCALE, WEIGHT_BYTES,
};

use crate::data::Record;
use crate::optim::{split, step_size, Adam, Shuffle};

/// The fit's settings: `ply-train fit`'s options, whose help is these lines.
#[derive(Clone, Debug, clap::Args)]
pub struct Settings {
    /// Passes over the training positions.
    #[arg(long, default_value_t = 12)]
    pub epochs: u32,
    /// Positions a step.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Adam's step size at the start (hundredths of a man); it falls linearly to a
    /// tenth of it by the last epoch.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Weight decay of the pattern and king-square weights, a step.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
    /// The share of the game's result in the target; the rest is the predicted score
    /// of the record's search value (a record without one is fitted to its result alone).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// One game in this many goes to the validation set.
    #[arg(long, default_value_t = 20)]
    pub valid_every: u32,
    /// The seed of the shuffles (fixed: a fit repeats exactly).
    #[arg(skip = 7u64)]
    pub seed: u64,
}

/// The weights as floats: [`FEATURES`] opening weights, then the ending ones.
pub type Params = Vec<f64>;

/// Weights from a weight file.
pub fn params_of(bytes: &[u8]) -> Result<Params, String> {
    let bytes: &[u8; WEIGHT_BYTES] = bytes.try_into().map_err(|_| {
        format!(
            "a weight file has {} bytes, this one {}",
            WEIGHT_BYTES,
            bytes.len()
        )
    })?;
    Ok((0..2)
        .flat_map(|stage| (0..FEATURES).map(move |i| f64::from(read_weight(bytes, stage, i))))
        .collect())
}

/// A weight file of `p`, each weight rounded and kept within what the file holds
/// for it; also how many weights had to be clamped.
pub fn bytes_of(p: &Params) -> (Vec<u8>, usize) {
    let mut bytes = [0u8; WEIGHT_BYTES];
    let mut clamped = 0;
    for stage in 0..2 {
        for i in 0..FEATURES {
            let v = p[stage * FEATURES + i].round().clamp(-1e9, 1e9) as i32;
            if write_weight(&mut bytes, stage, i, v) != v {
                clamped += 1;
            }
        }
    }
    (bytes.to_vec(), clamped)
}

/// A position's features and stage, read once.
struct Sample {
    features: Vec<(usize, f64)>,
    share: f64,
    score: f64,
}

fn sample(r: &Record, lambda: f64) -> Sample {
    let g = r.position().expect("records are checked when read");
    let mut features = Vec::with_capacity(40);
    for_each_feature(&g, |i, c| features.push((i, f64::from(c))));
    Sample {
        features,
        share: f64::from(opening_share(&g)) / f64::from(FULL_BOARD),
        score: match r.search {
            Some(v) if lambda < 1.0 => lambda * r.score() + (1.0 - lambda) * predict(f64::from(v)),
            _ => r.score(),
        },
    }
}

/// White's value of a sample under `p`.
fn value(p: &Params, s: &Sample) -> f64 {
    let (mut open, mut end) = (0.0, 0.0);
    for &(i, c) in &s.features {
        open += c * p[i];
        end += c * p[FEATURES + i];
    }
    open * s.share + end * (1.0 - s.share)
}

fn predict(v: f64) -> f64 {
    1.0 / (1.0 + (-v / SCALE).exp())
}

fn cross_entropy(pred: f64, score: f64) -> f64 {
    let p = pred.clamp(1e-12, 1.0 - 1e-12);
    -(score * p.ln() + (1.0 - score) * (1.0 - p).ln())
}

/// The mean loss of `p` on `samples`.
fn loss(p: &Params, samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| cross_entropy(predict(value(p, s)), s.score))
        .sum::<f64>()
        / samples.len() as f64
}

/// What a fit did: the validation loss before and after each epoch.
#[derive(Clone, Debug)]
pub struct Report {
    /// Training and validation positions.
    pub sizes: (usize, usize),
    /// The validation loss of the starting weights.
    pub start: f64,
    /// Each epoch's mean training loss (as it went) and validation loss after it.
    pub epochs: Vec<(f64, f64)>,
}

/// Fits `p` to `records`, calling `progress` after each epoch.
pub fn fit(
    records: &[Record],
    mut p: Params,
    s: &Settings,
    mut progress: impl FnMut(u32, f64, f64),
) -> (Params, Report) {
    let (train, valid) = split(records, s.valid_every);
    let train: Vec<Sample> = train.into_iter().map(|r| sample(r, s.lambda)).collect();
    let valid: Vec<Sample> = valid.into_iter().map(|r| sample(r, s.lambda)).collect();
    let mut report = Report {
        sizes: (train.len(), valid.len()),
        start: loss(&p, &valid),
        epochs: Vec::new(),
    };
    let mut adam = Adam::new(p.len());
    let mut grad = vec![0.0; p.len()];
    let mut shuffle = Shuffle::new(train.len(), s.seed);
    for epoch in 0..s.epochs {
        let lr = step_size(s.lr, epoch, s.epochs);
        let mut total = 0.0;
        for batch in shuffle.next_epoch().chunks(s.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &k in batch {
                let sm = &train[k];
                let pred = predict(value(&p, sm));
                total += cross_entropy(pred, sm.score);
                let d = (pred - sm.score) / SCALE / batch.len() as f64;
                for &(i, c) in &sm.features {
                    grad[i] += d * c * sm.share;
                    grad[FEATURES + i] += d * c * (1.0 - sm.share);
                }
            }
            adam.step(&mut p, lr, |i| grad[i]);
            // Weight decay of the pattern and king-square weights.
            for (i, w) in p.iter_mut().enumerate() {
                if i % FEATURES < KING_SQUARES + 32 {
                    *w -= lr * s.l2 * *w;
                }
            }
        }
        let train_loss = total / train.len().max(1) as f64;
        let valid_loss = loss(&p, &valid);
        report.epochs.push((train_loss, valid_loss));
        progress(epoch + 1, train_loss, valid_loss);
    }
    (p, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::draughts::learned::{LearnedEval, MAN};
    use ply_core::games::draughts::{Draughts, Rules};
    use ply_core::Game;

    /// Positions where White is a man up win, a man down lose, level draw.
    fn records() -> Vec<Record> {
        crate::data::man_up_records(60)
    }

    #[test]
    fn the_fit_lowers_the_loss_and_learns_that_a_man_wins() {
        let s = Settings {
            epochs: 30,
            batch: 8,
            lr: 5.0,
            l2: 0.0,
            lambda: 1.0,
            valid_every: 1_000_000,
            seed: 3,
        };
        let zero = vec![0.0; 2 * FEATURES];
        let (p, report) = fit(&records(), zero, &s, |_, _, _| {});
        let first = report.epochs.first().unwrap().0;
        let last = report.epochs.last().unwrap().0;
        assert!(last < first, "training loss {first} -> {last}");
        let (bytes, clamped) = bytes_of(&p);
        assert_eq!(clamped, 0);
        assert_eq!(bytes.len(), WEIGHT_BYTES);
        assert_eq!(params_of(&bytes).unwrap().len(), p.len());
        let e = LearnedEval::from_bytes(&bytes).unwrap();
        let up = Draughts::parse_position(Rules::english(), "B:W21-32:B1-11").unwrap();
        assert!(
            e.white_minus_black(&up) > 20,
            "{}",
            e.white_minus_black(&up)
        );
        assert!(p[MAN] > 0.0);
        assert!(params_of(&bytes[1..]).is_err());
    }

    #[test]
    fn with_lambda_below_one_the_search_values_move_the_target() {
        // Every game a draw, but the search says White is well ahead: with the search
        // in the target the fit learns that a man is worth something; with the
        // results alone it learns nothing of it.
        let mut rs = records();
        for r in &mut rs {
            r.result = 1;
            let g = r.position().unwrap();
            let lead = g
                .pieces(ply_core::games::draughts::Colour::White)
                .count_ones() as i32
                - g.pieces(ply_core::games::draughts::Colour::Black)
                    .count_ones() as i32;
            r.search = Some(100 * lead);
        }
        let s = |lambda| Settings {
            epochs: 30,
            batch: 8,
            lr: 5.0,
            l2: 0.0,
            lambda,
            valid_every: 1_000_000,
            seed: 3,
        };
        let zero = vec![0.0; 2 * FEATURES];
        let (results, _) = fit(&rs, zero.clone(), &s(1.0), |_, _, _| {});
        let (searched, _) = fit(&rs, zero, &s(0.0), |_, _, _| {});
        assert!(results[MAN].abs() < 1.0, "{}", results[MAN]);
        assert!(searched[MAN] > 5.0, "{}", searched[MAN]);
    }
}
