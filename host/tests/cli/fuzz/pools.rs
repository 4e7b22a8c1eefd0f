//! The generator of the cases (splitmix64, a fixed seed) and the pools of values they
//! are drawn from: valid ones small enough to run quickly, and the malformed ones
//! probing found.

/// splitmix64: a small deterministic generator.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(super) fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// A value of `pool`: one of those before [`BAD`] four times in five, else one
    /// after it (a pool without [`BAD`] is all valid).
    pub(super) fn pick<'a>(&mut self, pool: &[&'a str]) -> &'a str {
        let (good, bad) = match pool.iter().position(|&v| v == BAD) {
            Some(i) => (&pool[..i], &pool[i + 1..]),
            None => (pool, &pool[..0]),
        };
        if bad.is_empty() || (!good.is_empty() && self.chance(80)) {
            good[self.below(good.len())]
        } else {
            bad[self.below(bad.len())]
        }
    }
}

/// Separates a pool's valid values (before it) from its malformed ones (after it).
pub(super) const BAD: &str = "\u{0}bad";

pub(super) const COMMANDS: &[&str] = &[
    "perft",
    "moves",
    "search",
    "solve",
    "play",
    "bench",
    "tournament",
];

/// A game and inputs that suit it, so that most runs get past the position.
pub(super) struct Profile {
    pub(super) spec: &'static str,
    pub(super) evals: &'static [&'static str],
    pub(super) positions: &'static [&'static str],
    pub(super) moves: &'static [&'static str],
}

pub(super) const PROFILES: &[Profile] = &[
    Profile {
        spec: "tictactoe",
        evals: &["lines", "zero"],
        positions: &["xx.oo....", "x...o...."],
        moves: &["1", "5", "9"],
    },
    Profile {
        spec: "kalah:3x2",
        evals: &["tables", "ply", "store"],
        positions: &[
            "2 2 2 [0] / 2 2 2 [0] / first",
            "1 0 3 [5] / 0 2 0 [1] / second",
        ],
        moves: &["1", "2", "3"],
    },
    Profile {
        spec: "kalah:2x1:empty-capture",
        evals: &["tables", "ply", "store"],
        positions: &["1 1 [0] / 1 1 [0] / first"],
        moves: &["1", "2"],
    },
    Profile {
        spec: "checkers",
        evals: &["learned", "standard", "material"],
        positions: &["B:W21,22:B1,2", "W:W18:B14"],
        moves: &["9-13", "10-14"],
    },
    Profile {
        spec: "checkers:calgary",
        evals: &["learned", "standard", "material"],
        positions: &["W:W18:B14", "B:W21,22:B1,2"],
        moves: &["22-17", "23-18"],
    },
    Profile {
        spec: "halma:plies=4",
        evals: &["racer", "manhattan", "s1", "s8", "-2.5,1,1,1"],
        positions: &[],
        moves: &["a1-c3", "b1-d3"],
    },
];

/// Game specs that do not parse.
pub(super) const BAD_GAMES: &[&str] = &[
    "",
    ":",
    "nosuchgame",
    "kalah:9x9",
    "kalah:6x4294967297",
    "halma:plies=0",
    "tic\ntac",
    "échecs",
];

/// Evaluations, positions and moves that fit no game, or the wrong one.
pub(super) const BAD_EVALS: &[&str] = &["s9", "1,1,1", "", "x", "lines", "store"];
pub(super) const BAD_POSITIONS: &[&str] = &[
    "xx?......",
    "",
    "/",
    "ÿ",
    "B:W21,22:B1,2",
    "2 2 2 [0] / 2 2 2 [0] / first",
];
pub(super) const BAD_MOVES: &[&str] = &[
    "0", "b2", "help", "1-", "a1-h8", "", "-", "--", "10", "11-15",
];

pub(super) const NUMBERS: &[&str] = &[
    "1",
    "2",
    BAD,
    "0",
    "-1",
    "",
    "x",
    "4294967297",
    "18446744073709551616",
    "99999999999",
    "1e3",
    " 1",
    "٣",
];

pub(super) const DEPTHS: &[&str] = &[
    "1",
    "2",
    "3",
    BAD,
    "0",
    "-1",
    "",
    "96",
    "100000",
    "4294967297",
    "x",
];

pub(super) const TIMES: &[&str] = &[
    "0.01", "0.05", BAD, "0", "-1", "1e308", "nan", "inf", "", "x",
];

pub(super) const THREADS: &[&str] = &[
    "1",
    "2",
    BAD,
    "0",
    "100000",
    "-2",
    "",
    "18446744073709551616",
];

/// Table sizes in MiB. No valid size past a few MiB: whether 1048576 fits depends
/// on the machine, and on a big one it would be filled (host/tests/cli/hardening/resources.rs
/// checks the memory bound with the machine's own free memory).
pub(super) const HASH: &[&str] = &["1", "16", BAD, "0", "1048577", "4294967297", "-1", ""];

pub(super) const ALGOS: &[&str] = &[
    "engine",
    "alphabeta",
    "minimax",
    "toplevel",
    "ybwc",
    "lazysmp",
    "abdada",
    "chunked",
    BAD,
    "magic",
    "",
];

pub(super) const CONFIGS: &[&str] = &[
    "depth=1",
    "depth=2,eval=lines",
    "nodes=50",
    "time=0.01",
    "algo=minimax,depth=1",
    "algo=alphabeta,depth=2",
    BAD,
    "",
    ",",
    "=",
    "depth=1,depth=2",
    "depth=0",
    "depth=x",
    "time=1e308",
    "speed=3",
    "eval=s9",
];

pub(super) const STRATEGIES: &[&str] = &[
    "s1,s2",
    "racer,manhattan",
    "-1,1,1,1;s1",
    BAD,
    "s1,s1",
    "s1",
    "",
    "s9,s1",
];

pub(super) const ENV_VALUES: &[&str] = &[
    "1",
    "2",
    "8",
    " 2 ",
    "max",
    BAD,
    "",
    "abc",
    "-5",
    "0",
    "64",
    "4294967297",
    "1048576",
    "99999999999999999999999",
];

/// The `PLY_*` variables ply reads that hold numbers: `ply_host::settings::VARIABLES`
/// but the tables' directory.
pub(super) fn env_numbers() -> impl Iterator<Item = &'static str> {
    ply_host::settings::VARIABLES
        .iter()
        .copied()
        .filter(|&v| v != "PLY_TABLES_DIR")
}
