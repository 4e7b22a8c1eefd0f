//! Differential testing against OpenSpiel: reads the fixtures that
//! `tools/openspiel_fixtures.py` writes (format in `tests/fixtures/README.md`) and
//! compares ply's successor sets and results with them.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use ply_core::{Game, Outcome, Player};

/// A position in the fixture format: the board and the side to move (`-` once the
/// game is over), as two words.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// The board in the game's neutral board format.
    pub board: String,
    /// The side to move, or `-` when the game is over.
    pub side: String,
}

impl Pos {
    /// A position from its two words.
    pub fn new(board: impl Into<String>, side: impl Into<String>) -> Self {
        Pos {
            board: board.into(),
            side: side.into(),
        }
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.board, self.side)
    }
}

/// One `P` record and its `N` lines.
#[derive(Clone, Debug)]
pub struct Record {
    /// The position at the start of a turn.
    pub position: Pos,
    /// Every position reachable in one turn, distinct.
    pub successors: BTreeSet<Pos>,
    /// 1-based line number of the `P` line, for messages.
    pub line: usize,
}

/// One `E` line: a game ended in `position` with `result`.
#[derive(Clone, Debug)]
pub struct End {
    /// The final position.
    pub position: Pos,
    /// The result word (`x`, `first`, `white`, `draw`, `draw-no-capture-40`, …).
    pub result: String,
    /// 1-based line number, for messages.
    pub line: usize,
}

/// A whole fixture file.
#[derive(Clone, Debug, Default)]
pub struct Fixture {
    /// The positions and their successor sets.
    pub records: Vec<Record>,
    /// The games' final positions and results.
    pub ends: Vec<End>,
}

/// The path of a fixture file under `tests/fixtures/`.
pub fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

fn pos_from_words(words: &[&str], line: usize) -> Pos {
    assert!(
        words.len() >= 2,
        "fixture line {}: expected a board and a side",
        line
    );
    Pos::new(words[0], words[1])
}

/// Reads and parses a fixture file. Panics with the line number on a malformed line
/// (the fixtures are generated, so that is a bug in the generator or a damaged file).
pub fn load(name: &str) -> Fixture {
    let path = fixture_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {}", path.display(), e));
    parse(&text)
}

/// Parses fixture text.
pub fn parse(text: &str) -> Fixture {
    let mut fx = Fixture::default();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim_end();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = raw.split_ascii_whitespace().collect();
        match words[0] {
            "P" => {
                assert_eq!(words.len(), 3, "fixture line {}: P board side", line);
                fx.records.push(Record {
                    position: pos_from_words(&words[1..], line),
                    successors: BTreeSet::new(),
                    line,
                });
            }
            "N" => {
                assert_eq!(words.len(), 3, "fixture line {}: N board side", line);
                let rec = fx
                    .records
                    .last_mut()
                    .unwrap_or_else(|| panic!("fixture line {}: N before any P", line));
                assert!(
                    rec.successors.insert(pos_from_words(&words[1..], line)),
                    "fixture line {}: duplicate successor",
                    line
                );
            }
            "E" => {
                assert_eq!(words.len(), 4, "fixture line {}: E board side result", line);
                fx.ends.push(End {
                    position: pos_from_words(&words[1..3], line),
                    result: words[3].to_string(),
                    line,
                });
            }
            other => panic!("fixture line {}: unknown record '{}'", line, other),
        }
    }
    fx
}

/// How one game is put side by side with the fixtures.
pub trait Adapter {
    /// The ply game.
    type G: Game;
    /// The ply state for a fixture position (at the start of a turn: never over).
    fn to_ply(&self, pos: &Pos) -> Self::G;
    /// The fixture position of a ply state, read through the game's public accessors
    /// (never through its text format).
    fn position_of(&self, g: &Self::G) -> Pos;
    /// The fixture's position after a turn, as ply is expected to show it (the
    /// identity except where the fixture README notes a difference of convention).
    fn normalise_successor(&self, pos: &Pos) -> Pos {
        pos.clone()
    }
    /// Checks ply's verdict on a final position against the fixture's result; an
    /// error says what differs.
    fn check_end(&self, end: &End) -> Result<(), String>;
}

/// Counts of what a comparison covered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compared {
    /// Positions whose successor sets were compared.
    pub positions: usize,
    /// Successor positions compared (the sum of the set sizes).
    pub successors: usize,
    /// Final positions whose results were compared.
    pub ends: usize,
}

/// Compares every record and every end of `fx` with ply through `adapter`: the
/// counts, or a description of the first few differences.
pub fn compare<A: Adapter>(adapter: &A, fx: &Fixture) -> Result<Compared, String> {
    let mut failures = String::new();
    let mut n_fail = 0usize;
    let mut counts = Compared::default();
    for rec in &fx.records {
        let g = adapter.to_ply(&rec.position);
        let back = adapter.position_of(&g);
        let mut problem = String::new();
        if back != rec.position {
            let _ = writeln!(
                problem,
                "  the position reads back as {} (conversion or accessor bug)",
                back
            );
        }
        let mut ours = BTreeSet::new();
        for &mv in g.legal_moves().iter() {
            let checked = match g.play(mv) {
                Ok(next) => next,
                Err(e) => {
                    let _ = writeln!(problem, "  generated move refused by play: {}", e);
                    continue;
                }
            };
            if checked != g.play_unchecked(mv) {
                let _ = writeln!(
                    problem,
                    "  play and play_unchecked differ on {}",
                    g.display_move(mv)
                );
            }
            ours.insert(adapter.position_of(&checked));
        }
        let theirs: BTreeSet<Pos> = rec
            .successors
            .iter()
            .map(|p| adapter.normalise_successor(p))
            .collect();
        for missing in theirs.difference(&ours) {
            let _ = writeln!(problem, "  OpenSpiel reaches {}, ply does not", missing);
        }
        for extra in ours.difference(&theirs) {
            let _ = writeln!(problem, "  ply reaches {}, OpenSpiel does not", extra);
        }
        counts.positions += 1;
        counts.successors += theirs.len();
        if !problem.is_empty() {
            n_fail += 1;
            if n_fail <= 5 {
                let _ = write!(
                    failures,
                    "line {}: position {}\n{}",
                    rec.line, rec.position, problem
                );
            }
        }
    }
    for end in &fx.ends {
        counts.ends += 1;
        if let Err(e) = adapter.check_end(end) {
            n_fail += 1;
            if n_fail <= 5 {
                let _ = writeln!(
                    failures,
                    "line {}: final position {} ({}): {}",
                    end.line, end.position, end.result, e
                );
            }
        }
    }
    if n_fail == 0 {
        Ok(counts)
    } else {
        Err(format!(
            "{} of {} positions and ends differ from OpenSpiel; the first ones:\n{}",
            n_fail,
            counts.positions + counts.ends,
            failures
        ))
    }
}

/// Checks ply's verdict on a finished game `g` against a fixture result word:
/// `wins[0]` names the first player's win, `wins[1]` the second's, `draw` a draw.
/// ply must give that outcome and no legal move.
pub fn check_result<G: Game>(g: &G, result: &str, wins: [&str; 2]) -> Result<(), String> {
    let expected = match result {
        r if r == wins[0] => Outcome::Win(Player::First),
        r if r == wins[1] => Outcome::Win(Player::Second),
        "draw" => Outcome::Draw,
        other => return Err(format!("unknown result {:?}", other)),
    };
    if g.outcome() != expected {
        return Err(format!("ply says {:?}", g.outcome()));
    }
    if !g.legal_moves().is_empty() {
        return Err("ply still has legal moves in a finished game".into());
    }
    Ok(())
}

/// Compares the fixture file `name` with ply through `adapter` and prints what was
/// compared under `label`; panics on a difference, or if fewer than `min_positions`
/// positions or `min_ends` final positions were compared (a truncated fixture).
pub fn assert_matches_fixture<A: Adapter>(
    adapter: &A,
    name: &str,
    label: &str,
    min_positions: usize,
    min_ends: usize,
) {
    let n = compare(adapter, &load(name)).unwrap_or_else(|e| panic!("{}", e));
    println!(
        "{} vs OpenSpiel: {} positions, {} successors, {} final positions compared",
        label, n.positions, n.successors, n.ends
    );
    assert!(
        n.positions >= min_positions && n.ends >= min_ends,
        "{:?}",
        n
    );
}
