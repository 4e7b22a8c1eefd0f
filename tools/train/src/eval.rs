//! The evaluation self-play uses, by name.

use ply_core::games::draughts::learned::WEIGHT_BYTES;
use ply_core::games::draughts::{DraughtsEvaluation, LearnedEval};

/// `standard` (hand-set), `learned` (the shipped weights) or a weight file's path.
pub fn parse(text: &str) -> Result<DraughtsEvaluation, String> {
    match text {
        "standard" => Ok(DraughtsEvaluation::STANDARD),
        "learned" => Ok(DraughtsEvaluation::LEARNED),
        path => {
            let bytes = std::fs::read(path)
                .map_err(|e| format!("--eval {}: cannot read it: {}", path, e))?;
            // One weight set for the whole run.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            LearnedEval::from_bytes(bytes)
                .map(DraughtsEvaluation::Learned)
                .ok_or_else(|| {
                    format!(
                        "--eval {}: {} bytes, but a weight file has {}",
                        path,
                        bytes.len(),
                        WEIGHT_BYTES
                    )
                })
        }
    }
}
