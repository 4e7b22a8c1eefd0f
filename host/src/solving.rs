//! What `ply solve` hands a game's exact solver and what it prints
//! ([`crate::games::HostGame::solve`]): below the games' adapters and the Kalah
//! solver, which both name them.

/// The exact value of a position and of each of its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOutput {
    /// The value for the side to move, in the game's unit (tic-tac-toe: 1 win,
    /// 0 draw, -1 loss; Kalah: final store margin).
    pub value: i64,
    /// Each legal move with its value for the side to move, in generation order.
    pub move_values: Vec<(String, i64)>,
    /// Moves whose exact value was not computed (over a node budget), each with a
    /// proved upper bound on its value for the side to move, below `value`.
    pub move_upper_bounds: Vec<(String, i64)>,
    /// Further lines to print (nodes, table statistics).
    pub details: Vec<String>,
}

/// How `ply solve` runs beyond the position: the checkpoint of a long solve.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveOptions {
    /// Save what is proved to this file as the solve goes (`--checkpoint`).
    pub checkpoint: Option<std::path::PathBuf>,
    /// Go on from what the checkpoint holds (`--resume`).
    pub resume: bool,
    /// Threads building tables and solving (`--threads`; `None`:
    /// [`crate::distributed::default_threads`]).
    pub threads: Option<usize>,
    /// The solver's transposition table in MiB (`--hash-mb`; `None`: by board).
    pub hash_mb: Option<u64>,
    /// Where the endgame tables live (`PLY_TABLES_DIR`; `None`: the user's cache).
    pub tables_dir: Option<std::path::PathBuf>,
    /// Seeds in play the endgame tables cover (`--table-seeds`; `None`: by board).
    pub table_seeds: Option<u32>,
    /// Plies of the first guesses (`--guess-depth`; `None`: by board).
    pub guess_depth: Option<u32>,
    /// The node budget of each first move's exact value (`--move-nodes`; `None` and
    /// `u64::MAX`: no limit).
    pub move_nodes: Option<u64>,
    /// Under MPI, the plies a Kalah solve splits into items (`--split-plies`; `None`:
    /// by ranks × threads).
    pub split_plies: Option<usize>,
    /// Under MPI, the log2 of the nodes a Kalah table entry's search must have
    /// cost for the ranks to share it (`--share-work`; `None`: the default,
    /// [`crate::settings::DEFAULT_SHARE_WORK`]; [`crate::settings::NO_SHARING`]:
    /// nothing shared).
    pub share_work: Option<u32>,
    /// Under MPI, seconds rank 0 waits for a silent rank (`--rank-timeout`).
    pub rank_timeout: Option<u64>,
    /// Stop as Ctrl-C would after about this many nodes: the test hook of
    /// `--resume` (set by the binary only in builds with debug assertions, from
    /// `PLY_KALAH_STOP_NODES`; never part of the command line).
    pub stop_nodes: Option<u64>,
}

impl SolveOptions {
    /// An error for a game whose solve keeps no checkpoint, if one was asked for.
    /// The same for the tuning flags of Kalah's solver (`--guess-depth`,
    /// `--move-nodes`, `--split-plies`).
    pub fn refuse_checkpoint(&self, game: &str) -> Result<(), String> {
        for (given, flag) in [
            (self.checkpoint.is_some(), "--checkpoint"),
            (self.guess_depth.is_some(), "--guess-depth"),
            (self.move_nodes.is_some(), "--move-nodes"),
            (self.split_plies.is_some(), "--split-plies"),
            (self.share_work.is_some(), "--share-work"),
        ] {
            if given {
                return Err(format!(
                    "{} is not available for solving {} (only kalah)",
                    flag, game
                ));
            }
        }
        Ok(())
    }
}
