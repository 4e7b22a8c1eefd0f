//! What ply plays a game with unless told otherwise ([`Recommended`]): one definition
//! per game, in the core, that every front end takes — the host (`ply play`, `ply
//! engine`, tournaments), the web page and the firmware — so that all of them play the
//! same engine.

use crate::game::Game;
use crate::search::{EngineConfig, Evaluator};

/// A game's default evaluation and engine switches.
///
/// A switch is turned on for a game only where matches measured a gain for it
/// (docs/engine.md, *Search switches and endgame tables*); everything else is
/// [`EngineConfig::default()`]. A front end may set switches over these (the host's
/// `--search lmr=off`), but starts from them.
pub trait Recommended: Game {
    /// The type of the default evaluation.
    type Evaluation: Evaluator<Self> + Clone;

    /// The evaluation the engine plays this game with by default.
    fn evaluation() -> Self::Evaluation;

    /// The engine's switches for this game: [`EngineConfig::default()`] with the
    /// game's measured gains turned on.
    fn engine_config() -> EngineConfig {
        EngineConfig::default()
    }
}
