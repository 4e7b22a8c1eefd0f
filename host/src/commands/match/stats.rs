//! The statistics of a match: the score and its 95% error bar, the Elo difference
//! with its 95% interval, and the sequential probability ratio test (SPRT) that stops
//! a match once it has shown one engine stronger than the other, or not.
//!
//! The models are those of fishtest and of the chess match runners cutechess-cli and
//! fastchess (docs/references.md):
//!
//! * **logistic Elo**: a score `s` (a point a win, half a draw) is an Elo difference
//!   of `-400 log10(1/s - 1)`;
//! * **error bars**: the score's standard error from the observed outcomes, per game
//!   (the trinomial model: win, draw, loss) or per game pair (the pentanomial model:
//!   a pair of games of one opening with colours swapped scores 0, ½, 1, 1½ or 2), and
//!   the Elo interval as the Elo of `s ± 1.96 σ`;
//! * **the GSPRT**: the log-likelihood ratio of `elo1` against `elo0` with each
//!   hypothesis's maximum-likelihood distribution of the outcomes given the score it
//!   implies (M. Van den Bergh, *Comments on Normalized Elo*, proposition 1.1), over
//!   game pairs; the test stops at `ln(β/(1-α))` (H0 accepted: not stronger by `elo1`)
//!   or `ln((1-β)/α)` (H1 accepted). Outcomes never seen count as 0.001 of one, as in
//!   fastchess.
//!
//! The unit tests check each against the published examples of fastchess's tests.

use crate::quote::quote;

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference of a score from 0 to 1 (infinite at 0 and 1).
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The score an Elo difference gives.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A score with its 95% error bar, and the Elo difference it implies with its 95%
/// interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The mean score a game, 0 to 1.
    pub score: f64,
    /// Half the width of the score's 95% interval.
    pub margin: f64,
    /// The Elo difference.
    pub elo: f64,
    /// The Elo of the interval's low end.
    pub elo_low: f64,
    /// The Elo of the interval's high end.
    pub elo_high: f64,
}

impl Estimate {
    /// The estimate from outcome counts `counts[i]` of per-unit scores `scores[i]`
    /// (games, or pairs scored per game), each count one sample.
    /// `None` with no samples.
    fn from_counts(counts: &[u64], scores: &[f64]) -> Option<Estimate> {
        let n: u64 = counts.iter().sum();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let mean: f64 = counts
            .iter()
            .zip(scores)
            .map(|(&c, &a)| c as f64 * a)
            .sum::<f64>()
            / n;
        let var: f64 = counts
            .iter()
            .zip(scores)
            .map(|(&c, &a)| c as f64 * (a - mean) * (a - mean))
            .sum::<f64>()
            / n;
        let margin = Z95 * (var / n).sqrt();
        Some(Estimate {
            score: mean,
            margin,
            elo: elo(mean),
            // A score interval reaching past 0 or 1 has an infinite Elo end.
            elo_low: elo((mean - margin).max(0.0)),
            elo_high: elo((mean + margin).min(1.0)),
        })
    }

    /// Half the width of the Elo interval (the `±` of `elo ± error`).
    pub fn elo_error(&self) -> f64 {
        (self.elo_high - self.elo_low) / 2.0
    }
}

/// The outcomes of single games from one side's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// The games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The estimate of the trinomial model (each game an independent sample).
    pub fn estimate(&self) -> Option<Estimate> {
        Estimate::from_counts(&[self.losses, self.draws, self.wins], &[0.0, 0.5, 1.0])
    }
}

/// Game pairs from one side's view, by the pair's points: `counts[k]` pairs scored
/// `k / 2` points of 2 (0: two losses, 2: a win and a loss or two draws, 4: two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by points in half points, 0 to 4.
    pub counts: [u64; 5],
}

/// Per-game scores of a pair's five outcomes.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Pentanomial {
    /// Counts a pair whose two games scored `half_points` half points (0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    /// The pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The estimate of the pentanomial model (each pair one sample).
    pub fn estimate(&self) -> Option<Estimate> {
        Estimate::from_counts(&self.counts, &PAIR_SCORES)
    }
}

/// The SPRT's settings: `elo0=E0,elo1=E1[,alpha=A,beta=B]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0: the Elo difference is `elo0`.
    pub elo0: f64,
    /// H1: the Elo difference is `elo1` (more than `elo0`).
    pub elo1: f64,
    /// The false positive rate (H1 accepted though H0 holds).
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
}

/// What the SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR fell to the lower bound: not stronger by `elo1`.
    H0,
    /// The LLR rose to the upper bound: stronger by `elo1` rather than `elo0`.
    H1,
}

impl Sprt {
    /// Parses `elo0=E0,elo1=E1[,alpha=A,beta=B]` (alpha and beta 0.05 unless given).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let bad = |why: &str| format!("--sprt {}: {}", quote(text), why);
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for part in text.split(',').map(str::trim) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| bad("expected elo0=E0,elo1=E1[,alpha=A,beta=B]"))?;
            let v: f64 = v
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| bad(&format!("{} is not a number", quote(v))))?;
            match k.trim() {
                "elo0" => elo0 = Some(v),
                "elo1" => elo1 = Some(v),
                "alpha" => alpha = v,
                "beta" => beta = v,
                other => {
                    return Err(bad(&format!(
                        "unknown key {}: expected elo0, elo1, alpha or beta",
                        quote(other)
                    )))
                }
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(bad("elo0 and elo1 are both needed"));
        };
        if elo0 >= elo1 {
            return Err(bad("elo0 must be less than elo1"));
        }
        if !(-1000.0..=1000.0).contains(&elo0) || !(-1000.0..=1000.0).contains(&elo1) {
            return Err(bad("elo0 and elo1 must be within -1000 and 1000"));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(bad(&format!("{} must be above 0 and below 0.5", name)));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower bound `ln(β/(1-α))` and the upper bound `ln((1-β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio over game pairs.
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        llr_logistic(&pairs.counts, &PAIR_SCORES, self.elo0, self.elo1)
    }

    /// The log-likelihood ratio over single games (the trinomial model).
    pub fn llr_games(&self, games: &Wdl) -> f64 {
        llr_logistic(
            &[games.losses, games.draws, games.wins],
            &[0.0, 0.5, 1.0],
            self.elo0,
            self.elo1,
        )
    }

    /// The verdict at `llr`, if it crossed a bound.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

/// The GSPRT's log-likelihood ratio of `elo1` against `elo0` for outcome counts
/// `counts[i]` of per-game score `scores[i]` (ascending, first 0 and last 1).
pub fn llr_logistic(counts: &[u64], scores: &[f64], elo0: f64, elo1: f64) -> f64 {
    // An outcome never seen counts as a thousandth of one.
    let seen: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let total: f64 = seen.iter().sum();
    let probs: Vec<f64> = seen.iter().map(|c| c / total).collect();
    let p0 = mle(&probs, scores, score_of_elo(elo0));
    let p1 = mle(&probs, scores, score_of_elo(elo1));
    total
        * probs
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(&p, (&a, &b))| p * (b.ln() - a.ln()))
            .sum::<f64>()
}

/// The distribution nearest the empirical `probs` (by likelihood) whose mean score
/// is `s`: `p_i = probs_i / (1 + θ (a_i - s))`, θ the root of
/// `Σ probs_i (a_i - s) / (1 + θ (a_i - s)) = 0` (found by bisection; the sum falls
/// from +∞ to -∞ across θ's range).
fn mle(probs: &[f64], scores: &[f64], s: f64) -> Vec<f64> {
    let f = |theta: f64| -> f64 {
        probs
            .iter()
            .zip(scores)
            .map(|(&p, &a)| p * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    let hi_score = scores.iter().cloned().fold(f64::MIN, f64::max);
    let lo_score = scores.iter().cloned().fold(f64::MAX, f64::min);
    let (mut lo, mut hi) = (-1.0 / (hi_score - s), -1.0 / (lo_score - s));
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = (lo + hi) / 2.0;
    probs
        .iter()
        .zip(scores)
        .map(|(&p, &a)| p / (1.0 + theta * (a - s)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, within: f64) {
        assert!(
            (got - want).abs() <= within,
            "got {got}, published {want} (±{within})"
        );
    }

    /// fastchess's tests, elo_test.cpp, "EloWDL 2": 136 wins, 96 losses, 111 draws
    /// give 40.70 ± 30.43 Elo.
    #[test]
    fn elo_of_single_games_matches_the_published_example() {
        let e = Wdl {
            wins: 136,
            draws: 111,
            losses: 96,
        }
        .estimate()
        .unwrap();
        close(e.elo, 40.70, 0.005);
        close(e.elo_error(), 30.43, 0.005);
    }

    /// fastchess's tests, elo_test.cpp, "EloPentanomial 1" and "2": pairs LL 34,
    /// LD 54, WL 31, DD 32, WD 64, WW 75 give 55.58 ± 27.65 Elo; 332, 433, 457, 41,
    /// 333, 334 give -8.64 ± 10.33.
    #[test]
    fn elo_of_game_pairs_matches_the_published_examples() {
        let e = Pentanomial {
            counts: [34, 54, 31 + 32, 64, 75],
        }
        .estimate()
        .unwrap();
        close(e.elo, 55.58, 0.005);
        close(e.elo_error(), 27.65, 0.005);
        let e = Pentanomial {
            counts: [332, 433, 457 + 41, 333, 334],
        }
        .estimate()
        .unwrap();
        close(e.elo, -8.64, 0.005);
        close(e.elo_error(), 10.33, 0.005);
    }

    /// fastchess's tests, sprt_test.cpp, the logistic model: trinomial (wins,
    /// losses, draws) 21404, 21184, 40708 with [0.5, 2.5] give LLR -1.57; 57433,
    /// 57030, 106593 with [0, 2] give -2.59; pentanomial (LL, LD, WL, DD, WD, WW)
    /// 223, 9863, 20279, 1000, 10037, 246 with [0.5, 2.5] give -3.07; 871, 26175,
    /// 55003, 980, 26678, 821 with [0, 2] give -4.98 (each to 1%).
    #[test]
    fn llr_matches_the_published_examples() {
        let sprt = |elo0, elo1| Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        };
        let games = |wins, losses, draws| Wdl {
            wins,
            draws,
            losses,
        };
        close(
            sprt(0.5, 2.5).llr_games(&games(21404, 21184, 40708)),
            -1.57,
            0.0157,
        );
        close(
            sprt(0.0, 2.0).llr_games(&games(57433, 57030, 106593)),
            -2.59,
            0.0259,
        );
        close(
            sprt(0.5, 2.5).llr_pairs(&Pentanomial {
                counts: [223, 9863, 20279 + 1000, 10037, 246],
            }),
            -3.07,
            0.0307,
        );
        close(
            sprt(0.0, 2.0).llr_pairs(&Pentanomial {
                counts: [871, 26175, 55003 + 980, 26678, 821],
            }),
            -4.98,
            0.0498,
        );
    }

    #[test]
    fn sprt_bounds_and_verdicts() {
        let s = Sprt::parse("elo0=0,elo1=5").unwrap();
        let (lower, upper) = s.bounds();
        close(lower, -2.944, 0.001);
        close(upper, 2.944, 0.001);
        assert_eq!(s.verdict(3.0), Some(Verdict::H1));
        assert_eq!(s.verdict(-3.0), Some(Verdict::H0));
        assert_eq!(s.verdict(0.0), None);
        let s = Sprt::parse("elo0=-1.75, elo1=0.25, alpha=0.1, beta=0.2").unwrap();
        assert_eq!((s.alpha, s.beta), (0.1, 0.2));
        // A clear plus and a clear minus over 40 pairs decide a test of 0 against 50
        // Elo either way.
        let s = Sprt::parse("elo0=0,elo1=50").unwrap();
        let plus = Pentanomial {
            counts: [0, 2, 20, 10, 8],
        };
        let minus = Pentanomial {
            counts: [8, 10, 20, 2, 0],
        };
        assert_eq!(s.verdict(s.llr_pairs(&plus)), Some(Verdict::H1));
        assert_eq!(s.verdict(s.llr_pairs(&minus)), Some(Verdict::H0));
        for bad in [
            "elo0=5,elo1=0",
            "elo0=0",
            "elo0=0,elo1=x",
            "elo0=0,elo1=5,alpha=0",
            "elo0=0,elo1=5,gamma=1",
            "0,5",
        ] {
            assert!(
                Sprt::parse(bad).unwrap_err().starts_with("--sprt "),
                "{bad}"
            );
        }
    }

    #[test]
    fn an_interval_past_the_ends_has_infinite_elo_ends() {
        // 1 win, 1 draw, 2 losses: the score's interval reaches below 0.
        let e = Estimate::from_counts(&[2, 1, 1], &[0.0, 0.5, 1.0]).unwrap();
        assert!(e.score - e.margin < 0.0);
        assert_eq!(e.elo_low, f64::NEG_INFINITY);
        assert!(e.elo_high.is_finite());
        let all = Estimate::from_counts(&[0, 0, 3], &[0.0, 0.5, 1.0]).unwrap();
        assert_eq!(all.elo, f64::INFINITY);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        close(elo(0.5), 0.0, 1e-12);
        close(elo(score_of_elo(123.0)), 123.0, 1e-9);
        assert!(elo(1.0).is_infinite());
    }
}
