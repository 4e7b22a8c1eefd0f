//! Self-play: games of the engine against itself at a fixed node budget a move, from
//! openings of a few random plies, every quiet position recorded with the game's
//! result and the value of the search that chose its move, as a labelled file
//! ([`crate::data`]: the fit can blend the two, `fit-net --lambda`). The engine plays
//! with what ply plays draughts with ([`Recommended::engine_config`]: late move
//! reductions, futility pruning).

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;

use ply_core::games::draughts::{Colour, Draughts, Rules};
use ply_core::playout::SplitMix64;
use ply_core::search::{Engine, Limits, NoClock, Recommended, TtEntry};
use ply_core::{Game, Player};

use crate::data::{Record, LABELLED_MAGIC};
use crate::label::white_value;
use ply_core::games::draughts::DraughtsEvaluation as Eval;

/// What a self-play run plays.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Games to play.
    pub games: u32,
    /// Nodes a move.
    pub nodes: u64,
    /// Random plies before the engine plays: at least the first, at most the second.
    pub random_plies: (u32, u32),
    /// A game still going after this many plies is recorded as a draw.
    pub max_plies: u32,
    /// The seed of the openings (game `i` uses a stream of its own).
    pub seed: u64,
    /// Threads playing games.
    pub threads: usize,
    /// Transposition-table entries a thread.
    pub table_entries: usize,
}

/// White's result of a finished game: 0 loss, 1 draw, 2 win.
fn white_result(g: &Draughts) -> u8 {
    let white = if g.rules().colour_of(Player::First) == Colour::White {
        Player::First
    } else {
        Player::Second
    };
    match g.outcome().sign_for(white) {
        Some(1) => 2,
        Some(-1) => 0,
        _ => 1,
    }
}

/// Plays game number `id` and returns its quiet positions with the result.
pub fn play_game(id: u32, s: &Settings, eval: Eval, slots: &mut [TtEntry]) -> Vec<Record> {
    let mut rng = SplitMix64::new(s.seed ^ (u64::from(id) << 20) ^ 0x5eed);
    loop {
        let mut g = Draughts::new(Rules::english());
        let (lo, hi) = s.random_plies;
        let random = lo as usize + rng.below((hi - lo + 1) as usize);
        for _ in 0..random {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            g = g.play_unchecked(moves[rng.below(moves.len())]);
        }
        if g.outcome().is_over() {
            continue;
        }
        let mut engine = Engine::new(slots, eval, NoClock, Draughts::engine_config());
        let mut records = Vec::new();
        let mut ply = random as u32;
        while !g.outcome().is_over() && ply < s.max_plies {
            let r = engine.search(&g, Limits::nodes(s.nodes));
            if g.is_quiet() {
                let mut record = Record::of(&g, id, ply as u16);
                record.search = Some(white_value(r.value, record.white_to_move));
                records.push(record);
            }
            let Some(mv) = r.best_move else { break };
            g = g.play_unchecked(mv);
            ply += 1;
        }
        let result = if g.outcome().is_over() {
            white_result(&g)
        } else {
            1
        };
        for r in &mut records {
            r.result = result;
        }
        return records;
    }
}

/// Plays the games on `s.threads` threads and writes every record to `out` (through
/// a temporary file renamed at the end, so nothing half-written is left). Prints a
/// progress line to stderr every `report` games.
pub fn run(s: &Settings, eval: Eval, out: &Path, report: u32) -> Result<(u64, [u32; 3]), String> {
    let tmp = out.with_extension("tmp");
    let file = std::fs::File::create(&tmp)
        .map_err(|e| format!("cannot write {}: {}", tmp.display(), e))?;
    let mut writer = std::io::BufWriter::new(file);
    writer
        .write_all(LABELLED_MAGIC)
        .map_err(|e| format!("cannot write {}: {}", tmp.display(), e))?;
    let next = AtomicU32::new(0);
    let (tx, rx) = mpsc::channel::<Vec<Record>>();
    let mut written = 0u64;
    let mut results = [0u32; 3];
    let outcome = std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..s.threads {
            let (tx, next) = (tx.clone(), &next);
            scope.spawn(move || {
                let mut slots = vec![TtEntry::EMPTY; s.table_entries];
                loop {
                    let id = next.fetch_add(1, Ordering::Relaxed);
                    if id >= s.games {
                        break;
                    }
                    if tx.send(play_game(id, s, eval, &mut slots)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut done = 0u32;
        for records in rx {
            if let Some(r) = records.first() {
                results[r.result as usize] += 1;
            }
            for r in &records {
                let search = r.search.expect("self-play labels every record");
                writer
                    .write_all(&r.to_bytes())
                    .and_then(|()| writer.write_all(&search.to_le_bytes()))
                    .map_err(|e| format!("cannot write {}: {}", tmp.display(), e))?;
            }
            written += records.len() as u64;
            done += 1;
            if report > 0 && done.is_multiple_of(report) {
                eprintln!(
                    "{done} games, {written} positions; White +{} ={} -{}",
                    results[2], results[1], results[0]
                );
            }
        }
        Ok(())
    });
    let finished = outcome.and_then(|()| {
        writer
            .flush()
            .map_err(|e| format!("cannot write {}: {}", tmp.display(), e))
    });
    if let Err(e) = finished {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    drop(writer);
    std::fs::rename(&tmp, out).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}: {}", out.display(), e)
    })?;
    Ok((written, results))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            games: 4,
            nodes: 300,
            random_plies: (4, 8),
            max_plies: 200,
            seed: 1,
            threads: 2,
            table_entries: 1 << 10,
        }
    }

    #[test]
    fn a_game_is_reproducible_and_its_records_are_quiet_positions() {
        let s = settings();
        let mut slots = vec![TtEntry::EMPTY; 1 << 10];
        let a = play_game(3, &s, Eval::STANDARD, &mut slots);
        let b = play_game(3, &s, Eval::STANDARD, &mut slots);
        assert_eq!(a, b);
        assert!(!a.is_empty());
        assert!(a.iter().all(|r| r.result == a[0].result && r.game == 3));
        for r in &a {
            let g = r.position().unwrap();
            assert!(g.is_quiet());
            assert!(r.ply >= 4);
            let v = r.search.expect("every record carries its search value");
            assert!(v.abs() <= crate::label::DECIDED, "{v}");
        }
        // The values are White's: they change sign with the side to move, and over
        // a game they are not all one number.
        assert!(a.windows(2).any(|w| w[0].search != w[1].search));
    }

    #[test]
    fn a_run_writes_every_record_and_no_temporary() {
        let dir = std::env::temp_dir().join(format!("ply-train-selfplay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("games.bin");
        let s = settings();
        let (n, results) = run(&s, Eval::STANDARD, &out, 0).unwrap();
        assert_eq!(results.iter().sum::<u32>(), s.games);
        let bytes = std::fs::read(&out).unwrap();
        assert!(bytes.starts_with(crate::data::LABELLED_MAGIC));
        let back = crate::data::read(&out).unwrap();
        assert_eq!(back.len() as u64, n);
        assert!(back.iter().all(|r| r.search.is_some()));
        let mut games: Vec<u32> = back.iter().map(|r| r.game).collect();
        games.dedup();
        games.sort();
        games.dedup();
        assert_eq!(games, vec![0, 1, 2, 3]);
        assert!(!out.with_extension("tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
