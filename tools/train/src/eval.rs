//! The evaluation self-play uses, by name.

use ply_core::games::draughts::learned::WEIGHT_BYTES;
use ply_core::games::draughts::network::MAGIC;
use ply_core::games::draughts::{DraughtsEvaluation, LearnedEval, Network, NetworkEval};

/// `standard` (hand-set), `learned` (the shipped weights), `network` (the shipped
/// network), or the path of a weight file or a network file (told apart by the
/// network file's first bytes).
pub fn parse(text: &str) -> Result<DraughtsEvaluation, String> {
    match text {
        "standard" => Ok(DraughtsEvaluation::STANDARD),
        "learned" => Ok(DraughtsEvaluation::LEARNED),
        "network" => Ok(DraughtsEvaluation::NETWORK),
        path => {
            let bytes = std::fs::read(path)
                .map_err(|e| format!("--eval {}: cannot read it: {}", path, e))?;
            if bytes.starts_with(MAGIC) {
                let net = Network::from_bytes(&bytes).map_err(|e| format!("--eval {path}: {e}"))?;
                // One network for the whole run.
                let net: &'static Network = Box::leak(Box::new(net));
                return Ok(DraughtsEvaluation::Network(NetworkEval::new(net)));
            }
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
