//! Kalah in the `ply` tools: `kalah[:PITSxSEEDS][:empty-capture]`.
//!
//! * Evaluations: `ply` (default, [`KalahEval`]) and `store` (the seed's store
//!   difference, [`StoreDifference`]).
//! * `ply play` draws the board as the seed's program does (the second player's row
//!   on top, right to left, its store on the left) and announces "chooses pit N".
//! * `ply solve` runs the exact solver of `ply_core::games::kalah::solver`, with its
//!   endgame tables kept on disk and built on demand, on all cores; the root and
//!   the first moves are shared out among one solver per core over one lock-free
//!   transposition table ([`SharedSolverTable`]).
//!
//! Settings of `ply solve kalah` (environment variables):
//! * `PLY_TABLES_DIR`: where endgame tables live (default `$XDG_CACHE_HOME/ply`,
//!   else `$HOME/.cache/ply`, else `.ply-tables`);
//! * `PLY_KALAH_TABLE_SEEDS`: seeds in play the tables cover (default by board size,
//!   see [`default_table_seeds`]; `0` for none);
//! * `PLY_HASH_MB`: transposition table MiB (default 1024, 8 when the tables cover
//!   all but a few seeds);
//! * `PLY_THREADS`: threads building endgame tables and solvers (default: the
//!   machine's cores);
//! * `PLY_GUESS_DEPTH`: plies of the shallow searches that give each task its
//!   first guess and order the moves (default 12);
//! * `PLY_KALAH_MOVE_NODES`: nodes a first move may spend on its exact value after
//!   its first null-window pass (default `max`: no limit, every value exact); over
//!   it, `ply solve` prints the upper bound proved so far (for boards too big to
//!   solve every move in the time at hand).

use std::fs;
use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

use ply_core::games::kalah::solver::{
    bounds_for_player, build_layer, layer_range, table_len, EndgameTables, KalahSolver,
    SharedSolverTable, SolveControl, SolveProgress, SolverConfig, UNKNOWN,
};
use ply_core::games::kalah::{Kalah, KalahEval, Pit, StoreDifference};
use ply_core::search::{for_player, Evaluator, Score};
use ply_core::{Game, Outcome, Player};

use crate::games::{HostGame, SolveOutput};

/// The Kalah evaluations a player can choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KalahEvalChoice {
    /// ply's evaluation ([`KalahEval`]).
    Ply,
    /// The seed's store difference ([`StoreDifference`]).
    Store,
}

impl Evaluator<Kalah> for KalahEvalChoice {
    fn evaluate(&self, g: &Kalah, me: Player) -> Score {
        match self {
            KalahEvalChoice::Ply => KalahEval.evaluate(g, me),
            KalahEvalChoice::Store => StoreDifference.evaluate(g, me),
        }
    }

    fn terminal(&self, g: &Kalah, outcome: Outcome, ply: u32) -> Score {
        match self {
            KalahEvalChoice::Ply => KalahEval.terminal(g, outcome, ply),
            KalahEvalChoice::Store => StoreDifference.terminal(g, outcome, ply),
        }
    }
}

/// The seeds in play the endgame tables cover by default for `pits` pits a row:
/// as many as build in well under a minute on two cores and fit a few hundred MB.
pub fn default_table_seeds(pits: u8) -> u32 {
    match pits {
        1..=3 => 30,
        4 => 26,
        5 => 22,
        6 => 20,
        _ => 14,
    }
}

/// Plies of the shallow searches that give each solve its first guess.
const GUESS_DEPTH: u32 = 12;

/// Where the endgame tables live: `PLY_TABLES_DIR` (`dir`, checked by
/// [`crate::settings::environment`]: never empty), else the user's cache directory.
/// An empty `XDG_CACHE_HOME` or `HOME` counts as unset (the XDG rule), so tables
/// never land in the current directory by accident.
fn tables_dir(dir: Option<PathBuf>) -> PathBuf {
    if let Some(d) = dir {
        return d;
    }
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(d) = set("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("ply");
    }
    if let Some(d) = set("HOME") {
        return PathBuf::from(d).join(".cache").join("ply");
    }
    PathBuf::from(".ply-tables")
}

/// Endgame tables for `pits` and a capture rule covering `seeds` seeds in play:
/// loaded from disk as far as the file goes, the rest built on `threads` threads
/// and the file rewritten (to a temporary name, then renamed, so an interrupted
/// run never leaves a damaged file).
fn load_or_build_tables(
    pits: u8,
    empty_capture: bool,
    seeds: u32,
    threads: usize,
    dir: Option<PathBuf>,
    progress: &mut dyn FnMut(&str),
) -> Result<(Vec<AtomicI8>, String), String> {
    let len = table_len(pits, seeds)
        .ok_or_else(|| format!("endgame tables of {} seeds are out of range", seeds))?;
    let dir = tables_dir(dir);
    let name = format!(
        "kalah-{}pits-{}.tbl",
        pits,
        if empty_capture {
            "empty-capture"
        } else {
            "seed-rules"
        }
    );
    let path = dir.join(&name);
    let mut values: Vec<AtomicI8> = crate::memory::huge_page_capacity(
        len,
        &format!(
            "endgame tables of {} seeds in play (PLY_KALAH_TABLE_SEEDS)",
            seeds
        ),
    )?;
    // A file holds a whole table for some K: its length is table_len(pits, K).
    let mut have = 0u32; // layers 0..have are loaded
    if let Ok(mut f) = fs::File::open(&path) {
        let file_len = f.metadata().map(|m| m.len()).unwrap_or(0);
        let file_seeds = (0..=ply_core::games::kalah::solver::MAX_TABLE_SEEDS)
            .find(|&k| table_len(pits, k).map(|l| l as u64) == Some(file_len));
        match file_seeds {
            Some(k) => {
                let use_seeds = k.min(seeds);
                let take = table_len(pits, use_seeds).unwrap_or(0);
                let mut buf = vec![0u8; take];
                f.read_exact(&mut buf)
                    .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
                values.extend(buf.into_iter().map(|b| AtomicI8::new(b as i8)));
                have = use_seeds + 1;
                progress(&format!(
                    "endgame tables: loaded {} seeds in play ({} entries) from {}",
                    use_seeds,
                    take,
                    path.display()
                ));
            }
            None => progress(&format!(
                "endgame tables: ignoring {} (its length fits no table)",
                path.display()
            )),
        }
    }
    values.resize_with(len, || AtomicI8::new(UNKNOWN));
    let mut built = false;
    for n in have..=seeds {
        let t = Instant::now();
        let range = layer_range(pits, n);
        let chunk = 1 << 16;
        let chunks = range.len().div_ceil(chunk);
        let next = AtomicUsize::new(0);
        let failed = Mutex::new(None);
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| loop {
                    let c = next.fetch_add(1, Ordering::Relaxed);
                    if c >= chunks {
                        break;
                    }
                    let lo = c * chunk;
                    let hi = (lo + chunk).min(range.len());
                    if let Err(e) = build_layer(pits, empty_capture, n, &values, lo..hi) {
                        *failed.lock().unwrap() = Some(e);
                        break;
                    }
                });
            }
        });
        if let Some(e) = failed.into_inner().unwrap() {
            return Err(e.to_string());
        }
        built = true;
        progress(&format!(
            "endgame tables: built {} seeds in play ({} positions) in {:.2} s",
            n,
            range.len(),
            t.elapsed().as_secs_f64()
        ));
    }
    let mut note = format!(
        "endgame tables: up to {} seeds in play, {} entries",
        seeds, len
    );
    if built {
        let save = || -> std::io::Result<()> {
            fs::create_dir_all(&dir)?;
            let bytes: Vec<u8> = values
                .iter()
                .map(|v| v.load(Ordering::Relaxed) as u8)
                .collect();
            // Written under a temporary name that Ctrl-C removes, renamed when complete.
            crate::interrupt::write_atomic(&path, &bytes)
        };
        match save() {
            Ok(()) => note += &format!(", saved to {}", path.display()),
            Err(e) => note += &format!(" (not saved to {}: {})", path.display(), e),
        }
    } else {
        note += &format!(", from {}", path.display());
    }
    Ok((values, note))
}

/// Progress lines to the caller, and the stop flag.
struct Reporter<'a> {
    label: String,
    start: Instant,
    last: f64,
    out: mpsc::Sender<String>,
    stop: &'a AtomicBool,
}

impl SolveControl for Reporter<'_> {
    fn progress(&mut self, p: &SolveProgress) {
        let t = self.start.elapsed().as_secs_f64();
        if t - self.last < 1.0 {
            return;
        }
        self.last = t;
        let depth = match p.depth {
            Some(d) => format!("depth {}", d),
            None => "exact".to_string(),
        };
        let line = format!(
            "{:>7.1} s {}: {} future margin {}..{}, nodes {}, table hits {}, tt fill {}%",
            t,
            self.label,
            depth,
            p.lower,
            p.upper,
            p.nodes,
            p.table_hits,
            p.tt_fill_permille / 10
        );
        let _ = self.out.send(line);
    }

    fn should_stop(&mut self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl HostGame for Kalah {
    const NAME: &'static str = "kalah";
    type Eval = KalahEvalChoice;

    fn evaluator(name: Option<&str>) -> Result<KalahEvalChoice, String> {
        match name {
            None | Some("ply") => Ok(KalahEvalChoice::Ply),
            Some("store") | Some("seed") => Ok(KalahEvalChoice::Store),
            Some(other) => Err(format!(
                "unknown evaluation {} for kalah: expected ply or store",
                crate::quote::quote(other)
            )),
        }
    }

    fn evaluator_names() -> &'static [&'static str] {
        &["ply", "store"]
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "Player 1",
            Player::Second => "Player 2",
        }
    }

    /// The seed's board: the second player's pits on top from its pit `P` down to
    /// pit 1 (right to left as seen by the first player), its store on the left; the
    /// first player's pits 1 to `P` below, its store on the right.
    fn diagram(&self) -> String {
        let p = self.rules().pits as usize;
        let cell = |v: u32| format!("{:>3}", v);
        let top: String = (0..p)
            .rev()
            .map(|i| cell(self.pit(Player::Second, i)))
            .collect();
        let bottom: String = (0..p).map(|i| cell(self.pit(Player::First, i))).collect();
        let labels_top: String = (0..p).rev().map(|i| format!("{:>3}", i + 1)).collect();
        let labels_bottom: String = (0..p).map(|i| format!("{:>3}", i + 1)).collect();
        let width = 3 * p;
        format!(
            "       {labels_top}         (Player 2's pits), its store on the left\n\
             +-----+{dash}-+-----+\n\
             |store|{top} |     |\n\
             | {s2:>3} |{space} | {s1:>3} |\n\
             |     |{bottom} |store|\n\
             +-----+{dash}-+-----+\n\
             \x20      {labels_bottom}         (Player 1's pits), its store on the right\n\
             {side} to move",
            dash = "-".repeat(width),
            space = " ".repeat(width),
            s2 = self.store(Player::Second),
            s1 = self.store(Player::First),
            side = self.player_name(self.side_to_move()),
        )
    }

    fn describe_move(&self, mv: Pit) -> String {
        format!("chooses pit {}", self.display_move(mv))
    }

    fn solve(&self, progress: &mut dyn FnMut(&str)) -> Result<SolveOutput, String> {
        let rules = self.rules();
        // Every setting was checked by `main` before any work; read them again here.
        let env = crate::settings::environment()?;
        let threads = env
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let in_play = self.seeds_in_play();
        let want = env
            .table_seeds
            .unwrap_or_else(|| default_table_seeds(rules.pits));
        // No point in tables beyond the seeds on the board.
        let seeds = want.min(in_play).min(120);
        let t0 = Instant::now();
        let (values, mut details) = if seeds > 0 {
            let (v, note) = load_or_build_tables(
                rules.pits,
                rules.empty_capture,
                seeds,
                threads,
                env.tables_dir.clone(),
                progress,
            )?;
            (v, vec![note])
        } else {
            (Vec::new(), vec!["endgame tables: none".to_string()])
        };
        let table_secs = t0.elapsed().as_secs_f64();
        // A small game, or one the tables nearly cover, needs little table memory.
        let default_mb = if in_play > seeds + 12 { 1024 } else { 8 };
        let move_nodes = env.move_nodes.unwrap_or(u64::MAX);
        let hash_mb = env.hash_mb.unwrap_or(default_mb);
        let tables = if seeds > 0 {
            EndgameTables::new(rules.pits, rules.empty_capture, seeds, &values)
                .map_err(|e| e.to_string())?
        } else {
            EndgameTables::none(rules.pits, rules.empty_capture)
        };

        // The root value and every first move's value, as tasks shared out among
        // `threads` solvers over one shared transposition table (what one solver
        // proves, the others find). The root goes first; each move, once the root
        // value V is known, is searched below V (a best move's first pass proves it
        // equal to V). Shallow searches give each task its first guess and order the
        // moves worst first: those cost most. A move's exact value is searched within
        // `PLY_KALAH_MOVE_NODES` nodes after its first pass, else only the bounds
        // proved so far are given.
        let t1 = Instant::now();
        let moves: Vec<Pit> = self.legal_moves().to_vec();
        let stop = AtomicBool::new(false);
        let words = crate::memory::zeroed_atomic_words(
            (hash_mb as usize * (1 << 20)) / 8 + SharedSolverTable::BUCKET_WORDS,
            &format!("a transposition table of {} MiB (PLY_HASH_MB)", hash_mb),
        )?;
        // Start on a cache line, so that a bucket is one line.
        let skip = (words.as_ptr() as usize).next_multiple_of(64) - words.as_ptr() as usize;
        let shared = SharedSolverTable::new(&words[skip / 8..]);
        let config = SolverConfig {
            etc_from_seeds: seeds + 4,
            ..SolverConfig::default()
        };
        // Every value below is the root mover's; the solver gives each first move's
        // child position its own side to move's, turned here.
        let me = self.side_to_move();
        let children: Vec<Kalah> = moves.iter().map(|&m| self.play_unchecked(m)).collect();
        let (tx, rx) = mpsc::channel::<String>();
        let reporter = |label: String, out: mpsc::Sender<String>| Reporter {
            label,
            start: t1,
            last: 0.0,
            out,
            stop: &stop,
        };

        // First guesses from shallow searches.
        let mut estimates = Vec::new();
        let estimate_nodes;
        let guess_depth = env.guess_depth.unwrap_or(GUESS_DEPTH);
        {
            let mut solver =
                KalahSolver::with_table(rules, shared, tables).map_err(|e| e.to_string())?;
            solver.set_config(config);
            let mut rep = reporter("first guesses".to_string(), tx.clone());
            for child in &children {
                let e = solver
                    .estimate(child, guess_depth, 0, &mut rep)
                    .map_err(|e| e.to_string())?;
                estimates.push(for_player(child, me, e));
            }
            estimate_nodes = solver.nodes();
        }
        let root_guess = estimates.iter().copied().max().unwrap_or(0);
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by_key(|&i| estimates[i]);
        let _ = tx.send(format!(
            "{:>7.1} s first guesses ({} plies, {} nodes): {}",
            t1.elapsed().as_secs_f64(),
            guess_depth,
            estimate_nodes,
            order
                .iter()
                .map(|&i| format!("pit {} {}", self.display_move(moves[i]), estimates[i]))
                .collect::<Vec<_>>()
                .join(", ")
        ));

        #[derive(Clone, Copy)]
        enum Task {
            Root,
            Move(usize),
        }
        let tasks: Vec<Task> = std::iter::once(Task::Root)
            .chain(order.iter().map(|&i| Task::Move(i)))
            .collect();
        let next = AtomicUsize::new(0);
        let root_value: Mutex<Option<i32>> = Mutex::new(None);
        let bounds: Mutex<Vec<Option<(i32, i32)>>> = Mutex::new(vec![None; moves.len()]);
        let total_nodes = AtomicU64::new(estimate_nodes);
        let solvers = threads.min(tasks.len()).max(1);
        let worker = |tx: mpsc::Sender<String>| -> Result<(), String> {
            let mut solver =
                KalahSolver::with_table(rules, shared, tables).map_err(|e| e.to_string())?;
            solver.set_config(config);
            let mut rep = reporter(String::new(), tx.clone());
            let result = (|| -> Result<(), String> {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&task) = tasks.get(k) else {
                        return Ok(());
                    };
                    let before = solver.nodes();
                    match task {
                        Task::Root => {
                            rep.label = "root".to_string();
                            let (v, _) = solver
                                .solve_bounded(self, -1000, 1000, root_guess, u64::MAX, &mut rep)
                                .map_err(|e| e.to_string())?;
                            *root_value.lock().unwrap() = Some(v);
                            let _ = tx.send(format!(
                                "{:>7.1} s root: value {} ({} nodes)",
                                t1.elapsed().as_secs_f64(),
                                v,
                                solver.nodes() - before
                            ));
                        }
                        Task::Move(i) => {
                            let name = self.display_move(moves[i]);
                            rep.label = format!("pit {}", name);
                            let est = estimates[i];
                            // Every move's value is at most the root's.
                            let (lower, upper, guess) = match *root_value.lock().unwrap() {
                                Some(v) => (-1000, v, est.min(v)),
                                None => (-1000, 1000, est),
                            };
                            let child = &children[i];
                            let (lower, upper) = bounds_for_player(child, me, (lower, upper));
                            let guess = for_player(child, me, guess);
                            let found = solver
                                .solve_bounded(child, lower, upper, guess, move_nodes, &mut rep)
                                .map_err(|e| e.to_string())?;
                            let (lo, hi) = bounds_for_player(child, me, found);
                            bounds.lock().unwrap()[i] = Some((lo, hi));
                            let what = if lo == hi {
                                format!("value {}", lo)
                            } else {
                                format!("value {}..={} (node budget spent)", lo, hi)
                            };
                            let _ = tx.send(format!(
                                "{:>7.1} s pit {}: {} ({} nodes)",
                                t1.elapsed().as_secs_f64(),
                                name,
                                what,
                                solver.nodes() - before
                            ));
                        }
                    }
                }
            })();
            total_nodes.fetch_add(solver.nodes(), Ordering::Relaxed);
            if result.is_err() {
                // Stop the others too.
                stop.store(true, Ordering::Relaxed);
            }
            result
        };
        let solved: Result<(), String> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..solvers)
                .map(|_| {
                    let tx = tx.clone();
                    s.spawn(move || worker(tx))
                })
                .collect();
            drop(tx);
            for line in rx {
                progress(&line);
            }
            let mut result = Ok(());
            for h in handles {
                let r = h
                    .join()
                    .unwrap_or_else(|_| Err("a solving thread panicked".to_string()));
                if result.is_ok() {
                    result = r;
                }
            }
            result
        });
        solved?;
        let root = root_value
            .into_inner()
            .unwrap()
            .ok_or("the root was not solved")?;
        // A move whose budget ran out before the root value was known may not be
        // proved below it yet: one pass against the root value decides.
        let mut bounds: Vec<(i32, i32)> = bounds
            .into_inner()
            .unwrap()
            .into_iter()
            .map(|b| b.ok_or("a move was not solved"))
            .collect::<Result<_, _>>()?;
        {
            let mut solver =
                KalahSolver::with_table(rules, shared, tables).map_err(|e| e.to_string())?;
            solver.set_config(config);
            for (i, b) in bounds.iter_mut().enumerate() {
                let (lo, hi) = *b;
                if lo < hi && hi >= root {
                    let (quiet, _) = mpsc::channel();
                    let mut rep = reporter(format!("pit {}", self.display_move(moves[i])), quiet);
                    let child = &children[i];
                    let (lower, upper) = bounds_for_player(child, me, (-1000, root));
                    let guess = for_player(child, me, root);
                    let found = solver
                        .solve_bounded(child, lower, upper, guess, 0, &mut rep)
                        .map_err(|e| e.to_string())?;
                    *b = bounds_for_player(child, me, found);
                }
            }
            total_nodes.fetch_add(solver.nodes(), Ordering::Relaxed);
        }
        let nodes = total_nodes.load(Ordering::Relaxed);
        let search_secs = t1.elapsed().as_secs_f64();
        let mut move_values = Vec::new();
        let mut move_upper_bounds = Vec::new();
        for (mv, &(lo, hi)) in moves.iter().zip(&bounds) {
            let name = self.display_move(*mv).to_string();
            if lo == hi {
                move_values.push((name, i64::from(lo)));
            } else {
                move_upper_bounds.push((name, i64::from(hi)));
            }
        }
        let value = if moves.is_empty() {
            // A finished game: its margin for the side to move.
            i64::from(self.store_difference())
        } else {
            i64::from(root)
        };
        details.push(format!("rules: {}", rules));
        details.push(format!("nodes: {}", nodes));
        details.push(format!(
            "time: endgame tables {:.2} s, search {:.2} s",
            table_secs, search_secs
        ));
        Ok(SolveOutput {
            value,
            move_values,
            move_upper_bounds,
            details,
        })
    }
}
