//! `ply bench GAME [--position P] [--after M...] --depth D --algo A,B,...
//! --threads 1,2,... [--runs R] [--eval NAME] [--parallel-depth D] [--plot FILE.svg]`.
//!
//! Runs every configuration several times and prints the Haskell Halma report's table: threads,
//! time (the median of the runs, and their spread), speedup over sequential
//! alpha-beta to the same depth, efficiency (speedup per thread), nodes and nodes
//! per second. Every run's value is checked against alpha-beta's: a strategy that
//! disagrees is an error, not a row. `--plot` draws speedup against threads for each
//! strategy, like the Haskell Halma report's Figure 6.

use std::path::PathBuf;
use std::time::Instant;

use crate::commands::player::{Ai, AiConfig, Budget};
use crate::games::HostGame;
use crate::parallel::Algo;
use crate::position::setup;
use crate::spec::GameCommand;

/// The benchmark to run.
#[derive(Clone, Debug)]
pub struct Bench {
    /// Start from this position text instead of the start position.
    pub position: Option<String>,
    /// Moves to play first.
    pub after: Vec<String>,
    /// The fixed depth of every search.
    pub depth: u32,
    /// The strategies, in table order.
    pub algos: Vec<Algo>,
    /// The strategy (at 1 thread) that speedups are measured against and values
    /// checked against (alpha-beta by default; a deep engine workload names one of
    /// the engine's strategies, where alpha-beta would take hours).
    pub baseline: Algo,
    /// The thread counts tried for each parallel strategy.
    pub threads: Vec<usize>,
    /// Runs per configuration (the table shows their median).
    pub runs: usize,
    /// Evaluation name.
    pub eval: Option<String>,
    /// YBWC parallel depth (default: [`crate::parallel::ybwc::default_parallel_depth`]).
    pub parallel_depth: Option<u32>,
    /// Lazy SMP table size in MiB.
    pub hash_mb: usize,
    /// Draw speedup against threads into this SVG file.
    pub plot: Option<PathBuf>,
}

/// One line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchRow {
    /// The strategy.
    pub algo: Algo,
    /// Threads (1 for the sequential ones).
    pub threads: usize,
    /// Median time of the runs, seconds.
    pub median_s: f64,
    /// Fastest run, seconds.
    pub min_s: f64,
    /// Slowest run, seconds.
    pub max_s: f64,
    /// Sequential alpha-beta's median time over this one's.
    pub speedup: f64,
    /// Speedup per thread.
    pub efficiency: f64,
    /// The same strategy's median time at 1 thread over this one's (when the thread
    /// counts include 1): time to depth against one thread.
    pub scaling: Option<f64>,
    /// Median nodes of the runs.
    pub nodes: u64,
    /// The root value (equal to alpha-beta's in every run).
    pub value: i32,
}

/// Parses a comma-separated list of strategy names.
pub fn parse_algos(text: &str) -> Result<Vec<Algo>, String> {
    let algos = text
        .split(',')
        .map(|s| {
            s.trim().parse::<Algo>().map_err(|_| {
                format!(
                    "unknown strategy {} in --algo: expected one of {}",
                    crate::quote::quote(s.trim()),
                    Algo::ALL.map(Algo::name).join(", ")
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if algos.is_empty() {
        return Err("--algo needs at least one strategy".into());
    }
    Ok(algos)
}

/// Parses a comma-separated list of thread counts (each at least 1).
pub fn parse_threads(text: &str) -> Result<Vec<usize>, String> {
    text.split(',')
        .map(|s| {
            let s = s.trim();
            match s.parse::<usize>() {
                Ok(n) if (1..=crate::settings::max_threads()).contains(&n) => Ok(n),
                _ => Err(format!(
                    "bad thread count {} in --threads: expected whole numbers 1 to {}, \
                     comma-separated ({} per core of this machine, at most {})",
                    crate::quote::quote(s),
                    crate::settings::max_threads(),
                    crate::settings::THREADS_PER_CORE,
                    crate::settings::MAX_THREADS
                )),
            }
        })
        .collect()
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

impl GameCommand for Bench {
    type Output = Vec<BenchRow>;

    fn run<G: HostGame>(self, rules: G::Rules) -> Result<Vec<BenchRow>, String> {
        let game: G = setup(rules, self.position.as_deref(), &self.after)?;
        if self.depth == 0 || self.depth >= ply_core::search::MAX_PLY as u32 {
            return Err(format!(
                "--depth {} is out of range: expected 1 to {}",
                self.depth,
                ply_core::search::MAX_PLY - 1
            ));
        }
        if self.runs == 0 {
            return Err("--runs must be at least 1".into());
        }
        if self.parallel_depth == Some(0) {
            return Err("--parallel-depth must be at least 1".into());
        }
        if self.threads.is_empty() {
            return Err("--threads needs at least one thread count".into());
        }
        // Loaded before the timed runs: what the evaluation needs for the board
        // (Kalah's endgame tables) is not a strategy's time.
        let eval = G::ready_eval(&G::evaluator(self.eval.as_deref())?, &game, None);
        let measure = |algo: Algo, threads: usize| -> Result<(Vec<f64>, Vec<u64>, i32), String> {
            let mut times = Vec::new();
            let mut nodes = Vec::new();
            let mut value = None;
            for _ in 0..self.runs {
                // A new player each run: its table is allocated and cleared inside the
                // timing, as a fresh search's is.
                let t = Instant::now();
                let mut ai = Ai::new(AiConfig::<G> {
                    eval: eval.clone(),
                    algo,
                    budget: Budget::Depth(self.depth),
                    hash_mb: self.hash_mb,
                    threads,
                    parallel_depth: self.parallel_depth,
                    switches: Default::default(),
                });
                let r = ai.choose(&game, &mut |_| {})?;
                times.push(t.elapsed().as_secs_f64());
                nodes.push(r.nodes);
                if let (Some(v), true) = (value, algo != Algo::Engine) {
                    if v != r.value {
                        return Err(format!(
                            "{algo} at {threads} threads returned {} then {v}",
                            r.value
                        ));
                    }
                }
                value = Some(r.value);
            }
            Ok((times, nodes, value.expect("at least one run")))
        };

        let baseline = self.baseline;
        let (mut base_times, base_nodes, base_value) = measure(baseline, 1)?;
        let base = median(&mut base_times);
        crate::outln!(
            "# {} depth {}, {} run{} per row, median (min-max); speedup over {} at 1 thread \
             ({:.3} s, value {}); scaling: over the same strategy at 1 thread",
            G::NAME,
            self.depth,
            self.runs,
            if self.runs == 1 { "" } else { "s" },
            baseline,
            base,
            base_value
        )?;
        crate::outln!(
            "| algo | threads | time (s) | spread (s) | speedup | efficiency | scaling | nodes \
             | nodes/s |"
        )?;
        crate::outln!("|---|---:|---:|---:|---:|---:|---:|---:|---:|")?;
        let mut rows = Vec::new();
        let mut one_thread: Vec<(Algo, f64)> = Vec::new();
        for &algo in &self.algos {
            let thread_counts: &[usize] = if algo.is_parallel() {
                &self.threads
            } else {
                &[1]
            };
            for &threads in thread_counts {
                let (mut times, mut nodes, value) = if algo == baseline && threads == 1 {
                    (base_times.clone(), base_nodes.clone(), base_value)
                } else {
                    measure(algo, threads)?
                };
                // The full-strength engine (quiescence, deeper table cutoffs) searches
                // a different tree: only the exact strategies must match.
                if value != base_value && algo != Algo::Engine && baseline != Algo::Engine {
                    return Err(format!(
                        "{algo} at {threads} threads returned value {value}, but {baseline} \
                         returns {base_value}: a bug in {algo}"
                    ));
                }
                let m = median(&mut times);
                nodes.sort_unstable();
                if threads == 1 {
                    one_thread.push((algo, m));
                }
                let scaling = one_thread
                    .iter()
                    .find(|(a, _)| *a == algo)
                    .map(|(_, t1)| t1 / m);
                let row = BenchRow {
                    algo,
                    threads,
                    median_s: m,
                    min_s: times[0],
                    max_s: times[times.len() - 1],
                    speedup: base / m,
                    efficiency: base / m / threads as f64,
                    scaling,
                    nodes: nodes[nodes.len() / 2],
                    value,
                };
                crate::outln!(
                    "| {} | {} | {:.3} | {:.3}-{:.3} | {:.2} | {:.2} | {} | {} | {} |",
                    row.algo,
                    row.threads,
                    row.median_s,
                    row.min_s,
                    row.max_s,
                    row.speedup,
                    row.efficiency,
                    row.scaling
                        .map_or_else(|| "-".to_string(), |x| format!("{x:.2}")),
                    row.nodes,
                    crate::commands::rate(row.nodes, row.median_s)
                )?;
                rows.push(row);
            }
        }
        if let Some(path) = &self.plot {
            plot(path, G::NAME, self.depth, &rows)
                .map_err(|e| format!("cannot write the plot {}: {e}", path.display()))?;
            crate::outln!("plot: {}", path.display())?;
        }
        Ok(rows)
    }
}

/// Draws speedup against threads, one line per parallel strategy, with the ideal
/// (speedup = threads) dashed.
pub fn plot(
    path: &std::path::Path,
    game: &str,
    depth: u32,
    rows: &[BenchRow],
) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;

    let max_threads = rows.iter().map(|r| r.threads).max().unwrap_or(1).max(2);
    let max_speedup = rows
        .iter()
        .map(|r| r.speedup)
        .fold(max_threads as f64, f64::max);
    // Drawn into memory, then written whole (files::write_atomic): Ctrl-C never
    // leaves half a plot behind.
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (720, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{game} depth {depth}: speedup over sequential alpha-beta"),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(1f64..max_threads as f64, 0f64..max_speedup * 1.05)?;
    chart
        .configure_mesh()
        .x_desc("threads")
        .y_desc("speedup")
        .draw()?;
    chart
        .draw_series(LineSeries::new(
            [(1.0, 1.0), (max_threads as f64, max_threads as f64)],
            BLACK.mix(0.3).stroke_width(1),
        ))?
        .label("ideal")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.mix(0.3)));
    let mut algos: Vec<Algo> = Vec::new();
    for r in rows {
        if r.algo.is_parallel() && !algos.contains(&r.algo) {
            algos.push(r.algo);
        }
    }
    for (i, algo) in algos.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let points: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.algo == *algo)
            .map(|r| (r.threads as f64, r.speedup))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?
            .label(algo.name())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    drop(chart);
    drop(root);
    crate::files::write_atomic(path, svg.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_and_reject_bad_items() {
        assert_eq!(
            parse_algos("alphabeta,ybwc").unwrap(),
            vec![Algo::AlphaBeta, Algo::Ybwc]
        );
        assert!(parse_algos("ybwc,fast").unwrap_err().contains("fast"));
        assert_eq!(parse_threads("1, 2,16").unwrap(), vec![1, 2, 16]);
        assert!(parse_threads("1,0").unwrap_err().contains("'0'"));
        assert!(parse_threads("two").unwrap_err().contains("'two'"));
    }

    #[test]
    fn median_of_odd_and_even_runs() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
