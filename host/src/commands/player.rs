//! An AI player: an evaluation, a budget and an engine with its own table. Shared by
//! `search`, `play` and `tournament`.

use ply_core::search::{
    alphabeta, minimax, Clock, Engine, EngineConfig, Limits, SearchReport, TtEntry,
};

use crate::clock::WallClock;
use crate::games::HostGame;

/// The search algorithms a sequential AI can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    /// Plain minimax to a fixed depth.
    Minimax,
    /// Plain alpha-beta to a fixed depth, generation order.
    AlphaBeta,
    /// The core engine: iterative deepening, TT, ordering, quiescence.
    Engine,
}

impl Algo {
    /// Parses an algorithm name.
    pub fn parse(name: &str) -> Result<Algo, String> {
        match name {
            "minimax" => Ok(Algo::Minimax),
            "alphabeta" | "alpha-beta" => Ok(Algo::AlphaBeta),
            "engine" | "id" => Ok(Algo::Engine),
            other => Err(format!(
                "unknown algorithm '{}': expected minimax, alphabeta or engine",
                other
            )),
        }
    }
}

/// How far an AI searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// A fixed depth in plies.
    Depth(u32),
    /// Seconds per move (iterative deepening).
    Time(f64),
    /// Nodes per move (iterative deepening).
    Nodes(u64),
}

impl Budget {
    /// The budget from the `--depth` / `--time` / `--nodes` options (at most one),
    /// or `default` when none is given. Checks ranges.
    pub fn from_options(
        depth: Option<u32>,
        time: Option<f64>,
        nodes: Option<u64>,
        default: Budget,
    ) -> Result<Budget, String> {
        let given = depth.is_some() as u8 + time.is_some() as u8 + nodes.is_some() as u8;
        if given > 1 {
            return Err("give at most one of --depth, --time and --nodes".into());
        }
        if let Some(d) = depth {
            if d == 0 || d >= ply_core::search::MAX_PLY as u32 {
                return Err(format!(
                    "--depth {} is out of range: expected 1 to {}",
                    d,
                    ply_core::search::MAX_PLY - 1
                ));
            }
            return Ok(Budget::Depth(d));
        }
        if let Some(t) = time {
            if !(t.is_finite() && t > 0.0 && t <= 86_400.0) {
                return Err(format!(
                    "--time {} is out of range: expected seconds above 0, at most 86400",
                    t
                ));
            }
            return Ok(Budget::Time(t));
        }
        if let Some(n) = nodes {
            if n == 0 {
                return Err("--nodes must be at least 1".into());
            }
            return Ok(Budget::Nodes(n));
        }
        Ok(default)
    }

    /// The core's limits for this budget. A time budget keeps 2% (at least 1 ms)
    /// in reserve for what follows the engine's last clock check — unwinding the
    /// search, reading the principal variation, playing the move — so that a move
    /// never takes longer than the time given (seed 002's tournament forfeits a
    /// program that takes over 10 s).
    pub fn limits(self) -> Limits {
        match self {
            Budget::Depth(d) => Limits::depth(d),
            Budget::Time(s) => {
                let ms = (s * 1000.0) as u64;
                Limits::time_ms(ms.saturating_sub((ms / 50).max(1)).max(1))
            }
            Budget::Nodes(n) => Limits::nodes(n),
        }
    }
}

/// An AI player's settings.
#[derive(Clone, Debug)]
pub struct AiConfig<G: HostGame> {
    /// The evaluation.
    pub eval: G::Eval,
    /// The algorithm.
    pub algo: Algo,
    /// The budget.
    pub budget: Budget,
    /// Transposition-table size in MiB (engine only).
    pub hash_mb: usize,
}

/// An AI player with its own transposition table, reused from move to move.
pub struct Ai<G: HostGame> {
    config: AiConfig<G>,
    table: Vec<TtEntry<G::Move>>,
}

impl<G: HostGame> Ai<G> {
    /// A player; allocates its table.
    pub fn new(config: AiConfig<G>) -> Self {
        let slots = (config.hash_mb << 20) / std::mem::size_of::<TtEntry<G::Move>>().max(1);
        Ai {
            table: vec![TtEntry::EMPTY; slots.max(1)],
            config,
        }
    }

    /// The settings.
    pub fn config(&self) -> &AiConfig<G> {
        &self.config
    }

    /// Chooses a move in `game`, calling `progress` after each iteration (engine).
    pub fn choose(
        &mut self,
        game: &G,
        progress: &mut dyn FnMut(&SearchReport<G::Move>),
    ) -> Result<SearchReport<G::Move>, String> {
        let clock = WallClock::start();
        let fixed = |r: ply_core::search::SearchResult<G::Move>, depth: u32| {
            let mut pv = heapless::Vec::new();
            if let Some(m) = r.best_move {
                let _ = pv.push(m);
            }
            SearchReport {
                best_move: r.best_move,
                value: r.value,
                depth,
                nodes: r.nodes,
                pv,
                aborted: false,
                elapsed_ms: clock.elapsed_ms(),
            }
        };
        match (self.config.algo, self.config.budget) {
            (Algo::Minimax, Budget::Depth(d)) => Ok(fixed(minimax(game, d, &self.config.eval), d)),
            (Algo::AlphaBeta, Budget::Depth(d)) => {
                Ok(fixed(alphabeta(game, d, &self.config.eval), d))
            }
            (Algo::Minimax | Algo::AlphaBeta, _) => Err(
                "minimax and alphabeta search a fixed depth: give --depth (or use --algo engine)"
                    .into(),
            ),
            (Algo::Engine, budget) => {
                let mut engine = Engine::new(
                    &mut self.table,
                    self.config.eval.clone(),
                    clock,
                    EngineConfig::default(),
                );
                Ok(engine.search_with_progress(game, budget.limits(), |r| progress(r)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Budget;

    #[test]
    fn time_budget_keeps_a_reserve() {
        assert_eq!(Budget::Time(10.0).limits().time_ms, Some(9800));
        assert_eq!(Budget::Time(0.5).limits().time_ms, Some(490));
        assert_eq!(Budget::Time(0.001).limits().time_ms, Some(1));
    }
}
