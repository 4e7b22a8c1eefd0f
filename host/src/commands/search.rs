//! `ply search GAME [--position P] [--after M...] [--depth D | --time S | --nodes N]
//! [--algo minimax|alphabeta|engine|toplevel|chunked|ybwc|lazysmp|abdada] [--threads N]
//! [--parallel-depth D] [--eval NAME]`: every strategy through the one entry point
//! ([`crate::parallel::run`], by way of [`Ai`]).

use crate::commands::player::{Ai, AiConfig, Algo, Budget};
use crate::commands::{rate, secs};
use crate::games::HostGame;
use crate::position::setup;
use crate::spec::GameCommand;

/// Search a position.
#[derive(Clone, Debug)]
pub struct Search {
    /// Start from this position text instead of the start position.
    pub position: Option<String>,
    /// Moves to play first.
    pub after: Vec<String>,
    /// Fixed depth.
    pub depth: Option<u32>,
    /// Seconds.
    pub time: Option<f64>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Algorithm name.
    pub algo: String,
    /// Evaluation name.
    pub eval: Option<String>,
    /// Table size in MiB.
    pub hash_mb: usize,
    /// Threads (the engine and the parallel strategies).
    pub threads: usize,
    /// YBWC: split at nodes with at least this many plies left.
    pub parallel_depth: Option<u32>,
    /// The notation of the printed moves (`None`: the game's default).
    pub notation: Option<String>,
}

/// What `ply search` found, for tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSummary {
    /// The best move in the game's notation.
    pub best_move: Option<String>,
    /// Its value.
    pub value: i32,
    /// Nodes visited.
    pub nodes: u64,
}

impl GameCommand for Search {
    type Output = SearchSummary;
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<SearchSummary, String> {
        let game: G = setup(rules, self.position.as_deref(), &self.after)?;
        let notation = self.notation.as_deref();
        if let Some(m) = game.legal_moves().first() {
            // Refuse an unknown notation before searching.
            game.move_in_notation(*m, notation)?;
        }
        let algo = self.algo.parse::<Algo>().map_err(|_| {
            format!(
                "unknown algorithm {}: expected {}",
                crate::quote::quote(&self.algo),
                Algo::names()
            )
        })?;
        if !algo.is_parallel() && self.threads != 1 {
            return Err(format!(
                "--algo {} is sequential: --threads needs engine, toplevel, chunked, ybwc, \
                 lazysmp or abdada",
                algo
            ));
        }
        if self.parallel_depth.is_some() && algo != Algo::Ybwc {
            return Err(format!(
                "--parallel-depth applies to --algo ybwc, not {}",
                algo
            ));
        }
        if self.parallel_depth == Some(0) {
            return Err("--parallel-depth must be at least 1".into());
        }
        if algo.fixed_depth_only()
            && self.depth.is_none()
            && (self.time.is_some() || self.nodes.is_some())
        {
            return Err(format!(
                "--algo {} searches a fixed depth: give --depth",
                algo
            ));
        }
        let default = match algo {
            Algo::Engine => Budget::Time(1.0),
            _ => Budget::Depth(4),
        };
        let budget = Budget::from_options(self.depth, self.time, self.nodes, default)?;
        let mut ai = Ai::new(AiConfig::<G> {
            eval: G::evaluator(self.eval.as_deref())?,
            algo,
            budget,
            hash_mb: self.hash_mb,
            threads: self.threads,
            parallel_depth: self.parallel_depth,
            switches: Default::default(),
        });
        // What the evaluation loads (Kalah's endgame tables) is not the search's time.
        ai.prepare(&game);
        let start = std::time::Instant::now();
        let report = ai.choose(&game, &mut |r| {
            let pv: Vec<String> = pv_texts(&game, &r.pv, notation);
            // A failed write is remembered and reported by the next line below.
            let _ = crate::outln!(
                "info depth {} value {} nodes {} time {} pv {}",
                r.depth,
                r.value,
                r.nodes,
                secs(r.elapsed_ms as f64 / 1000.0),
                pv.join(" ")
            );
        })?;
        let s = start.elapsed().as_secs_f64();
        let best = report
            .best_move
            .map(|m| game.move_in_notation(m, notation))
            .transpose()?;
        crate::outln!(
            "best move: {}",
            best.as_deref().unwrap_or("(none: the game is over)")
        )?;
        crate::outln!("value: {}", report.value)?;
        crate::outln!("depth: {}", report.depth)?;
        crate::outln!("pv: {}", pv_texts(&game, &report.pv, notation).join(" "))?;
        crate::outln!("algo: {} threads: {}", algo, self.threads)?;
        crate::outln!("nodes: {}", report.nodes)?;
        crate::outln!("time: {}", secs(s))?;
        crate::outln!("nodes/s: {}", rate(report.nodes, s))?;
        Ok(SearchSummary {
            best_move: best,
            value: report.value,
            nodes: report.nodes,
        })
    }
}

/// The moves of a principal variation from `game`, each in the notation of the
/// position it is played in (`notation`: `None` for the game's default).
pub fn pv_texts<G: HostGame>(game: &G, pv: &[G::Move], notation: Option<&str>) -> Vec<String> {
    let mut pos = *game;
    let mut out = Vec::new();
    for &m in pv {
        out.push(
            pos.move_in_notation(m, notation)
                .unwrap_or_else(|_| pos.display_move(m).to_string()),
        );
        pos = pos.play_unchecked(m);
    }
    out
}
