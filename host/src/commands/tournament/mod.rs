//! `ply tournament GAME --a CONFIG --b CONFIG --games N`: two AI configurations play
//! each other from the same openings with colours swapped.
//!
//! A CONFIG is comma-separated `key=value` pairs: `depth=D`, `time=SECONDS` or
//! `nodes=N` (one of them), `eval=NAME`, `algo=NAME` (any of `ply search`'s; default
//! `engine`), `threads=N` (default: `--threads`, itself every core by default), and the
//! engine's search switches over the game's defaults: `lmr=on|off` (late move
//! reductions), `extend=on|off` (a forced move costs no ply), `aspiration=N` (the root
//! window's half-width, 0 for none). Openings are
//! a few pseudo-random plies from the start (`--random-plies`, seeded), so that
//! deterministic engines play different games; each opening is played twice, once
//! with each configuration moving first. Every game starts with fresh players (no
//! table kept from an earlier game), so each game is a work item of its own: the games
//! can be dealt out to the ranks of an MPI run and kept in a checkpoint
//! ([`crate::distributed`]), with the same results as in one process.
//!
//! With `--strategies` instead of `--a`/`--b`, Halma's round robin of evaluations:
//! [`round_robin`].

pub mod round_robin;

use ply_core::{Game, Outcome, Player};

use crate::commands::player::{Ai, AiConfig, Algo, Budget};
use crate::games::HostGame;
use crate::spec::GameCommand;

/// A tournament between two configurations.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Configuration A.
    pub a: String,
    /// Configuration B.
    pub b: String,
    /// Number of games (an even number plays every opening with both colours).
    pub games: u32,
    /// Random plies that make each opening.
    pub random_plies: u32,
    /// Seed for the openings.
    pub seed: u64,
    /// Adjudicate a draw after this many plies (0: never, as `ply play`'s; the
    /// game's own rules end it).
    pub max_plies: u32,
    /// Search threads of a configuration that does not say `threads=N`.
    pub threads: usize,
    /// Each AI's transposition table in MiB (`--hash-mb`).
    pub hash_mb: usize,
    /// `--checkpoint` and `--resume`; under an MPI launcher the games are dealt out to
    /// the ranks.
    pub distributed: crate::distributed::Options,
}

/// Totals from A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TournamentResult {
    /// Games A won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
    /// Nodes searched by A.
    pub nodes_a: u64,
    /// Nodes searched by B.
    pub nodes_b: u64,
}

/// The table size of a configuration when `--hash-mb` does not say, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// Parses a CONFIG string for game `G`; `threads` unless it says `threads=N`, and a
/// table of `hash_mb` MiB.
pub fn parse_config<G: HostGame>(
    text: &str,
    threads: usize,
    hash_mb: usize,
) -> Result<AiConfig<G>, String> {
    use crate::quote::quote;
    let (mut depth, mut time, mut nodes, mut eval, mut algo) =
        (None, None, None, None, Algo::Engine);
    let mut threads = threads;
    let mut switches = crate::parallel::Switches::default();
    let parts: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        return Err(format!(
            "empty config {}: expected key=value settings such as depth=4,eval=NAME",
            quote(text)
        ));
    }
    let mut seen: Vec<&str> = Vec::new();
    for part in parts {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("bad config item {}: expected key=value", quote(part)))?;
        if seen.contains(&k) {
            return Err(format!(
                "key {} given twice in config {}: give each setting once",
                quote(k),
                quote(text)
            ));
        }
        seen.push(k);
        let num = |what: &str| format!("bad {} {} in config {}", what, quote(v), quote(text));
        match k {
            "depth" => depth = Some(v.parse::<u32>().map_err(|_| num("depth"))?),
            "time" => {
                let t = v.parse::<f64>().map_err(|_| num("time"))?;
                time = Some(crate::settings::seconds(t, "time")?)
            }
            "nodes" => nodes = Some(v.parse::<u64>().map_err(|_| num("nodes"))?),
            "eval" => eval = Some(v.to_string()),
            "algo" => {
                algo = v.parse::<Algo>().map_err(|_| {
                    format!(
                        "unknown algorithm {} in config {}: expected {}",
                        quote(v),
                        quote(text),
                        Algo::names()
                    )
                })?
            }
            "threads" => {
                threads = v.parse::<usize>().map_err(|_| num("threads"))?;
                crate::settings::threads(threads, "threads=")?;
            }
            "lmr" | "extend" | "aspiration" | "futility" | "rfp" => {
                switches
                    .set(k, v)
                    .map_err(|e| format!("{} in config {}", e, quote(text)))?;
            }
            other => {
                return Err(format!(
                    "unknown config key {} in {}: expected depth, time, nodes, eval, algo, \
                     threads, lmr, extend, aspiration, futility or rfp",
                    quote(other),
                    quote(text)
                ))
            }
        }
    }
    if !algo.is_parallel() {
        threads = 1;
    }
    if algo.fixed_depth_only() && depth.is_none() && (time.is_some() || nodes.is_some()) {
        return Err(format!(
            "algo={algo} searches a fixed depth: give depth= in {}",
            quote(text)
        ));
    }
    Ok(AiConfig {
        eval: G::evaluator(eval.as_deref())?,
        algo,
        budget: Budget::from_options(depth, time, nodes, Budget::Depth(4))?,
        hash_mb,
        threads,
        parallel_depth: None,
        switches,
    })
}

/// An opening: `plies` pseudo-random legal moves from the start, stopping early if the
/// game ends.
pub fn opening<G: Game>(rules: G::Rules, plies: u32, seed: u64) -> G {
    let mut g = G::start(rules);
    let mut rng = ply_core::playout::SplitMix64::new(seed);
    for _ in 0..plies {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        let next = g.play_unchecked(moves[rng.below(moves.len())]);
        if next.outcome().is_over() {
            break;
        }
        g = next;
    }
    g
}

/// Plays one game from `start`; `players[0]` moves for `Player::First`. Returns the
/// outcome and the nodes each player searched.
pub fn play_one<G: HostGame>(
    start: G,
    players: [&mut Ai<G>; 2],
    max_plies: u32,
) -> Result<(Outcome, [u64; 2]), String> {
    let mut g = start;
    let mut nodes = [0u64; 2];
    // 0: no limit, as in `ply play` (the game's own rules end it).
    let mut plies = 0u32;
    while max_plies == 0 || plies < max_plies {
        plies = plies.saturating_add(1);
        if g.outcome().is_over() {
            return Ok((g.outcome(), nodes));
        }
        let side = g.side_to_move().index();
        let r = players[side].choose(&g, &mut |_| {})?;
        nodes[side] += r.nodes;
        let mv = r
            .best_move
            .ok_or("an AI found no move in an unfinished game")?;
        g = g.play(mv).map_err(|e| e.to_string())?;
    }
    Ok((
        if g.outcome().is_over() {
            g.outcome()
        } else {
            Outcome::Draw
        },
        nodes,
    ))
}

/// One game's result from A's point of view: its score (1 A won, 0 drawn, -1 B won)
/// and the nodes each configuration searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// 1: A won; 0: drawn; -1: B won.
    pub score: i8,
    /// Nodes searched by A.
    pub nodes_a: u64,
    /// Nodes searched by B.
    pub nodes_b: u64,
}

impl crate::distributed::Record for GameResult {
    const WORDS: usize = 3;
    fn encode(&self) -> Vec<u64> {
        vec![
            (i64::from(self.score) + 1) as u64,
            self.nodes_a,
            self.nodes_b,
        ]
    }
    fn decode(words: &[u64]) -> Option<Self> {
        match *words {
            [s @ 0..=2, nodes_a, nodes_b] => Some(GameResult {
                score: s as i8 - 1,
                nodes_a,
                nodes_b,
            }),
            _ => None,
        }
    }
    fn nodes(&self) -> u64 {
        self.nodes_a.saturating_add(self.nodes_b)
    }
}

/// The tournament's games as work items.
struct Games<'a, G: HostGame> {
    t: &'a Tournament,
    /// The start position, which carries the rules (kept as a position: a game's
    /// rules need not be `Sync`).
    root: G,
    a: AiConfig<G>,
    b: AiConfig<G>,
}

impl<G: HostGame> Games<'_, G> {
    /// Game `i`'s opening and the side A plays.
    fn start(&self, i: usize) -> (G, Player) {
        let start: G = opening(
            self.root.rules(),
            self.t.random_plies,
            self.t.seed.wrapping_add((i / 2) as u64),
        );
        let a_side = if i.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        };
        (start, a_side)
    }
}

impl<G: HostGame> crate::distributed::Job for Games<'_, G> {
    type Output = GameResult;

    fn fingerprint(&self) -> String {
        format!("{} games", self.t.games)
    }

    fn items(&self) -> usize {
        self.t.games as usize
    }

    fn slots(&self) -> usize {
        1
    }

    fn run(&self, i: usize) -> Result<GameResult, String> {
        let (start, a_side) = self.start(i);
        let (mut a, mut b) = (Ai::new(self.a.clone()), Ai::new(self.b.clone()));
        let (outcome, nodes) = if a_side == Player::First {
            play_one(start, [&mut a, &mut b], self.t.max_plies)?
        } else {
            play_one(start, [&mut b, &mut a], self.t.max_plies)?
        };
        Ok(GameResult {
            score: outcome.sign_for(a_side).unwrap_or(0) as i8,
            nodes_a: nodes[a_side.index()],
            nodes_b: nodes[a_side.opponent().index()],
        })
    }

    fn finished(&self, i: usize, r: &GameResult) {
        let (start, a_side) = self.start(i);
        crate::errln!(
            "game {}/{}: A plays {}, {} (opening {})",
            i + 1,
            self.t.games,
            start.player_name(a_side),
            match r.score {
                1 => "A wins",
                -1 => "B wins",
                _ => "draw",
            },
            start
        );
    }

    fn label(&self) -> Option<&str> {
        // A line per game already.
        None
    }
}

impl GameCommand for Tournament {
    type Output = TournamentResult;
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<TournamentResult, String> {
        if self.games == 0 {
            return Err("--games must be at least 1".into());
        }
        if self.threads == 0 {
            return Err("--threads must be at least 1".into());
        }
        let a = parse_config::<G>(&self.a, self.threads, self.hash_mb)
            .map_err(|e| format!("--a: {}", e))?;
        let b = parse_config::<G>(&self.b, self.threads, self.hash_mb)
            .map_err(|e| format!("--b: {}", e))?;
        let games = Games {
            t: &self,
            root: G::start(rules),
            a,
            b,
        };
        let Some(results) = crate::distributed::run(&games, &self.distributed)? else {
            // Another rank of an MPI run: rank 0 prints the results.
            return Ok(TournamentResult::default());
        };
        let mut res = TournamentResult::default();
        for r in &results {
            res.nodes_a += r.nodes_a;
            res.nodes_b += r.nodes_b;
            match r.score {
                1 => res.wins += 1,
                -1 => res.losses += 1,
                _ => res.draws += 1,
            }
        }
        crate::outln!("A: {}", self.a)?;
        crate::outln!("B: {}", self.b)?;
        crate::outln!(
            "A wins {}, draws {}, losses {} (of {} games)",
            res.wins,
            res.draws,
            res.losses,
            self.games
        )?;
        crate::outln!("nodes: A {}, B {}", res.nodes_a, res.nodes_b)?;
        Ok(res)
    }
}
