//! English draughts (`checkers`, `checkers:english`, `checkers:calgary`) in the `ply`
//! tools: the stage-aware evaluation, player names by variant (Black and White, or
//! Red and Black), a board diagram with PDN square numbers and the Calgary
//! coordinates, `--unique` perft and the Calgary move notation.

use std::sync::Mutex;
use std::time::Instant;

use ply_core::games::draughts::db::{Database, DbEval, Value};
use ply_core::games::draughts::{
    square_at, Colour, Draughts, DraughtsEvaluation, Move, Network, NetworkEval, Rules, Variant,
};
use ply_core::search::{Evaluator, Recommended, Score};
use ply_core::{Game, Outcome, Player};

use crate::draughts_db;
use crate::games::{HostGame, SolveOptions, SolveOutput};

/// A draughts evaluation for the `ply` tools: one of the core's, with the endgame
/// databases on disk ([`draughts_db::shared`]) where `databases` is set and there
/// are some (their exact values through [`DbEval`]: [`Evaluator::exact`]).
#[derive(Clone, Copy)]
pub struct DraughtsPlayEval {
    /// The evaluation outside the databases.
    pub eval: DraughtsEvaluation,
    /// Whether the databases are used.
    pub databases: bool,
    /// The databases, once loaded ([`HostGame::ready_eval`]).
    pub db: Option<&'static Database<'static>>,
}

impl Evaluator<Draughts> for DraughtsPlayEval {
    #[inline]
    fn evaluate(&self, g: &Draughts, me: Player) -> Score {
        self.eval.evaluate(g, me)
    }

    #[inline]
    fn terminal(&self, g: &Draughts, outcome: Outcome, ply: u32) -> Score {
        self.eval.terminal(g, outcome, ply)
    }

    #[inline]
    fn exact(&self, g: &Draughts, ply: u32) -> Option<Score> {
        let db = self.db?;
        DbEval {
            db,
            eval: self.eval,
        }
        .exact(g, ply)
    }
}

/// The network of the network file `path` (`ply-train fit-net` writes them), read
/// once a process: later calls with the same path share it.
fn network_file(path: &str) -> Result<&'static Network, String> {
    static READ: Mutex<Vec<(String, &'static Network)>> = Mutex::new(Vec::new());
    let mut read = READ.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, n)) = read.iter().find(|(p, _)| p == path) {
        return Ok(n);
    }
    let what = format!("evaluation network:{}", crate::quote::quote(path));
    let bytes = std::fs::read(path).map_err(|e| format!("{what}: cannot read it: {e}"))?;
    let net = Network::from_bytes(&bytes).map_err(|e| format!("{what}: {e}"))?;
    let net: &'static Network = Box::leak(Box::new(net));
    read.push((path.to_string(), net));
    Ok(net)
}

/// Refuses the Calgary variant: its databases would not be sound.
fn english_only(rules: Rules) -> Result<(), String> {
    if rules.variant() == Variant::Calgary {
        return Err(
            "endgame databases hold the English rules only: under the Calgary rules \
                    a king may not recreate an earlier position, so a position's value \
                    depends on the positions before it"
                .into(),
        );
    }
    Ok(())
}

/// Checks every position of 1 to `pieces` pieces of `db` against its children
/// (`ply db build --verify`): the line that says so.
fn verify_line(
    db: &Database,
    pieces: u32,
    threads: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<String, String> {
    let t = Instant::now();
    let n = draughts_db::verify(db, pieces, threads, progress)?;
    Ok(format!(
        "verified: all {} positions agree with their children ({:.2} s on {} threads)",
        n,
        t.elapsed().as_secs_f64(),
        threads
    ))
}

impl HostGame for Draughts {
    const NAME: &'static str = "checkers";
    type Eval = DraughtsPlayEval;

    fn evaluator(name: Option<&str>) -> Result<DraughtsPlayEval, String> {
        let (eval, databases) = match name {
            // The core's default (`Recommended`): the network. The databases only
            // when asked for: with them the engine scored 54.8% ± 5.0% against
            // Simple Checkers where it scored 68.6% ± 5.1% without
            // (docs/games/draughts-databases.md, "Strength").
            None => (Draughts::evaluation(), false),
            Some("learned") => (DraughtsEvaluation::LEARNED, false),
            Some("learned-db") => (DraughtsEvaluation::LEARNED, true),
            Some("network") => (DraughtsEvaluation::NETWORK, false),
            Some("network-db") => (DraughtsEvaluation::NETWORK, true),
            Some(other) if other.starts_with("network:") => (
                DraughtsEvaluation::Network(NetworkEval::new(network_file(&other[8..])?)),
                false,
            ),
            Some("standard") => (DraughtsEvaluation::STANDARD, false),
            Some("material") => (DraughtsEvaluation::MATERIAL, false),
            Some(other) => {
                return Err(format!(
                    "unknown evaluation {} for checkers: expected learned, learned-db, \
                     network, network-db, network:FILE, standard or material",
                    crate::quote::quote(other)
                ))
            }
        };
        Ok(DraughtsPlayEval {
            eval,
            databases,
            db: None,
        })
    }

    fn evaluator_names() -> &'static [&'static str] {
        &[
            "learned",
            "learned-db",
            "network",
            "network-db",
            "network:FILE",
            "standard",
            "material",
        ]
    }

    /// With the endgame databases on disk, loaded once a process, under the English
    /// rules (unless the evaluation is one without them).
    fn ready_eval(
        eval: &DraughtsPlayEval,
        game: &Draughts,
        _wait_until: Option<Instant>,
    ) -> DraughtsPlayEval {
        let mut e = *eval;
        if e.databases && e.db.is_none() && game.rules().variant() == Variant::English {
            e.db = draughts_db::shared();
        }
        e
    }

    fn build_databases(
        rules: Rules,
        pieces: u32,
        threads: usize,
        verify: bool,
        job: &crate::distributed::Options,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Vec<String>, String> {
        english_only(rules)?;
        if pieces == 0 || pieces > draughts_db::MAX_BUILD_PIECES {
            return Err(format!(
                "--pieces {} is out of range: expected 1 to {}",
                pieces,
                draughts_db::MAX_BUILD_PIECES
            ));
        }
        let dir = draughts_db::db_dir(crate::settings::environment()?.tables_dir);
        if job.wanted() {
            // A job of pairs of slices: under mpirun dealt out to the ranks, with a
            // checkpoint in one process too.
            let Some((slices, r)) = draughts_db::job::build(pieces, threads, verify, &dir, job)?
            else {
                return Ok(Vec::new()); // a rank other than 0
            };
            let mut lines = draughts_db::summary(pieces, &dir, &slices, &r);
            if verify {
                let db = draughts_db::load(&dir, progress)
                    .filter(|db| db.pieces() >= pieces)
                    .ok_or_else(|| {
                        format!(
                            "checkers db: the slices in {} did not load after the build",
                            dir.display()
                        )
                    })?;
                lines.push(verify_line(db, pieces, threads, progress)?);
            }
            return Ok(lines);
        }
        crate::memory::check_available(
            draughts_db::build_memory(pieces),
            &format!("building the databases of up to {} pieces", pieces),
        )?;
        let (db, r) = draughts_db::build_all(pieces, threads, &dir, progress)?;
        let slices: Vec<draughts_db::SliceSummary> = (1..=pieces)
            .flat_map(ply_core::games::draughts::db::keys_of)
            .filter_map(|key| {
                let s = db.slice(key)?;
                Some(draughts_db::SliceSummary {
                    key,
                    census: draughts_db::slice_census(s, threads),
                    bytes: std::fs::metadata(draughts_db::file::path(&dir, key))
                        .map_or(0, |m| m.len()),
                })
            })
            .collect();
        let mut lines = draughts_db::summary(pieces, &dir, &slices, &r);
        if verify {
            lines.push(verify_line(db, pieces, threads, progress)?);
        }
        Ok(lines)
    }

    /// Exact inside the endgame databases on disk (English rules): the value for the
    /// side to move (1 win, 0 draw, -1 loss), each move's, the distance to
    /// conversion, and the best move (the quickest win, the longest loss).
    fn solve(
        &self,
        options: &SolveOptions,
        _progress: &mut dyn FnMut(&str),
    ) -> Result<Option<SolveOutput>, String> {
        options.refuse_checkpoint("checkers")?;
        english_only(self.rules())?;
        let pieces = (self.pieces(Colour::Black) | self.pieces(Colour::White)).count_ones();
        let db = draughts_db::shared()
            .filter(|d| d.pieces() >= pieces)
            .ok_or_else(|| {
                format!(
                    "no endgame database of {} pieces in {}: build it with \
                     ply db build checkers --pieces {}",
                    pieces,
                    draughts_db::db_dir(
                        crate::settings::environment()
                            .ok()
                            .and_then(|e| e.tables_dir)
                    )
                    .display(),
                    pieces
                )
            })?;
        solve_in(self, db).map(Some)
    }

    fn player_name(&self, player: Player) -> &'static str {
        colour_name(self, self.rules().colour_of(player))
    }

    fn diagram(&self) -> String {
        let calgary = self.rules().variant() == Variant::Calgary;
        let white = if calgary { ['r', 'R'] } else { ['w', 'W'] };
        let mut out = String::from("    0  1  2  3  4  5  6  7   (x; squares 1-32 on the right)\n");
        for y in 0..8 {
            out.push_str(&format!(" {} ", y));
            let mut numbers = Vec::new();
            for x in 0..8 {
                let cell = match square_at(x, y) {
                    None => "   ".to_string(),
                    Some(sq) => {
                        numbers.push(format!("{:>2}", sq + 1));
                        let b = 1u32 << sq;
                        let king = self.kings() & b != 0;
                        let c = if self.pieces(Colour::Black) & b != 0 {
                            ['b', 'B'][king as usize]
                        } else if self.pieces(Colour::White) & b != 0 {
                            white[king as usize]
                        } else {
                            '.'
                        };
                        format!(" {} ", c)
                    }
                };
                out.push_str(&cell);
            }
            out.push_str("   ");
            out.push_str(&numbers.join(" "));
            out.push('\n');
        }
        out.push_str(&format!(
            "{} to move; men {}, kings {}",
            colour_name(self, self.colour_to_move()),
            if calgary { "b r" } else { "b w" },
            if calgary { "B R" } else { "B W" },
        ));
        if calgary {
            // The position text (PDN FEN) has only the letters B and W.
            out.push_str("\nin the position line, W is Red and B is Black");
        }
        out
    }

    fn end_reason(&self) -> String {
        match self.outcome() {
            Outcome::Win(p) => format!("{} has no legal move", self.player_name(p.opponent())),
            Outcome::Draw
                if self.reversible_plies() >= 2 * u32::from(self.rules().move_limit()) =>
            {
                format!(
                    "drawn: {} moves by each side without a man move or a capture",
                    self.rules().move_limit()
                )
            }
            Outcome::Draw => format!(
                "drawn: the same position for the {} time",
                match self.rules().repetition() {
                    2 => "second".to_string(),
                    3 => "third".to_string(),
                    n => format!("{}th", n),
                }
            ),
            Outcome::Ongoing => "the game goes on".into(),
        }
    }

    fn describe_move(&self, mv: Move) -> String {
        if self.rules().variant() == Variant::Calgary {
            format!(
                "plays {} {}",
                self.display_move(mv),
                self.display_calgary(mv)
            )
        } else {
            format!("plays {}", self.display_move(mv))
        }
    }

    fn unique_captures(rules: Self::Rules) -> Result<Self::Rules, String> {
        Ok(rules.with_unique_captures(true))
    }

    fn notations() -> &'static [&'static str] {
        &["pdn", "calgary"]
    }

    fn move_in_notation(&self, mv: Move, notation: Option<&str>) -> Result<String, String> {
        match notation {
            None | Some("pdn") => Ok(self.display_move(mv).to_string()),
            Some("calgary") => Ok(self.display_calgary(mv).to_string()),
            Some(other) => Err(format!(
                "unknown notation {} for checkers: expected pdn or calgary",
                crate::quote::quote(other)
            )),
        }
    }
}

/// The value of `g` and of its moves from `db`, which holds its slice.
pub fn solve_in(g: &Draughts, db: &Database) -> Result<SolveOutput, String> {
    let sign = |v: Value| i64::from(v.sign());
    if g.is_drawn_by_rule() {
        return Ok(SolveOutput {
            value: 0,
            move_values: Vec::new(),
            move_upper_bounds: Vec::new(),
            details: vec!["drawn by the rules".into()],
        });
    }
    let value = db
        .probe(g)
        .ok_or("the position is not in the endgame databases")?;
    let mut move_values = Vec::new();
    // The best move: for a win the losing reply nearest its conversion, for a loss
    // the reply farthest from it (a conversion itself counts as 0).
    let mut best: Option<(Move, i32)> = None;
    for m in g.legal_moves().iter().copied() {
        let child = g.play_unchecked(m);
        let cv = db
            .probe(&child)
            .ok_or("a move leads out of the endgame databases")?;
        move_values.push((g.display_move(m).to_string(), -sign(cv)));
        let conversion = m.is_capture() || m.crowns();
        let d = match cv {
            _ if conversion => 0,
            Value::Win(d) | Value::Loss(d) => i32::from(d),
            Value::Draw => 0,
        };
        let rank = match (value, cv) {
            (Value::Win(_), Value::Loss(_)) => -d,
            (Value::Loss(_), Value::Win(_)) => d,
            (Value::Draw, Value::Draw) => 0,
            _ => continue,
        };
        if best.is_none_or(|(_, r)| rank > r) {
            best = Some((m, rank));
        }
    }
    let side = if g.colour_to_move() == Colour::Black {
        "Black"
    } else {
        "White"
    };
    let mut details = vec![match value {
        Value::Win(d) => format!("{} to move wins; next conversion in {} plies", side, d),
        Value::Loss(0) => format!("{} to move has no move: lost", side),
        Value::Loss(d) => format!("{} to move loses; next conversion in {} plies", side, d),
        Value::Draw => format!("{} to move draws", side),
    }];
    if let Some((m, _)) = best {
        details.push(format!("best move: {}", g.display_move(m)));
    }
    details.push("exact: endgame databases (English rules, draw rules aside)".into());
    Ok(SolveOutput {
        value: sign(value),
        move_values,
        move_upper_bounds: Vec::new(),
        details,
    })
}

fn colour_name(g: &Draughts, c: Colour) -> &'static str {
    match (g.rules().variant(), c) {
        (_, Colour::Black) => "Black",
        (Variant::English, Colour::White) => "White",
        (Variant::Calgary, Colour::White) => "Red",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::draughts::Rules;

    #[test]
    fn names_follow_the_variant() {
        let e = Draughts::start(Rules::english());
        assert_eq!(e.player_name(Player::First), "Black");
        assert_eq!(e.player_name(Player::Second), "White");
        let c = Draughts::start(Rules::calgary());
        assert_eq!(c.player_name(Player::First), "Red");
        assert_eq!(c.player_name(Player::Second), "Black");
    }

    #[test]
    fn end_reasons_name_the_rule() {
        let blocked = Draughts::parse_position(Rules::english(), "W:W29:B25,22").unwrap();
        assert!(blocked.outcome().is_over());
        assert_eq!(blocked.end_reason(), "White has no legal move");
        // Kings stepping back and forth: the start position a third time.
        let mut g = Draughts::parse_position(Rules::english(), "B:WK29:BK4").unwrap();
        for m in [
            "4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4", "25-29",
        ] {
            g = crate::position::play_text(&g, m).unwrap();
        }
        assert_eq!(g.outcome(), Outcome::Draw);
        assert_eq!(
            g.end_reason(),
            "drawn: the same position for the third time"
        );
        // A move limit of one move a side: two king steps.
        let rules = Rules::english().with_move_limit(1).unwrap();
        let mut g = Draughts::parse_position(rules, "B:WK29:BK4").unwrap();
        for m in ["4-8", "29-25"] {
            g = crate::position::play_text(&g, m).unwrap();
        }
        assert_eq!(
            g.end_reason(),
            "drawn: 1 moves by each side without a man move or a capture"
        );
    }

    #[test]
    fn diagram_shows_pieces_and_square_numbers() {
        let g = Draughts::parse_position(Rules::calgary(), "W:WK1,29:B28").unwrap();
        let d = g.diagram();
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[1], " 0     R     .     .     .     1  2  3  4");
        assert_eq!(lines[7], " 6     .     .     .     b    25 26 27 28");
        assert_eq!(lines[8], " 7  r     .     .     .       29 30 31 32");
        assert!(lines[9].starts_with("Red to move"));
    }
}
