//! Long jobs as numbered work items: counted in one process or dealt out to many
//! processes on MPI, with a checkpoint of the finished items to resume from.
//!
//! A command describes its work as a [`Job`]: `items()` work items, numbered from 0,
//! each computed by one call of [`Job::run`] into a small [`Record`] (a few 64-bit
//! words). [`run`] computes them all and hands the records back in item order, so the
//! command prints the same whether one process or many computed them:
//!
//! * In one process (the default build, or a build with the `mpi` feature started
//!   without `mpirun`) the items are computed on [`Job::slots`] threads.
//! * Under `mpirun -np N` or `srun` (the `mpi` feature) rank 0 reads nothing new: every
//!   rank builds the same job from the same arguments; rank 0 deals out item numbers on
//!   request, computes items itself too, checks and gathers the records, and its
//!   [`run`] returns them; the other ranks' [`run`] returns `None` and they print
//!   nothing. Rank 0 ends with a line per rank on standard error (items, busy time,
//!   nodes). See `docs/mpi.md`.
//! * With `--checkpoint FILE` the finished items are written to FILE (at most once a
//!   second, at the end, on Ctrl-C and SIGTERM, and before an error ends the run;
//!   atomically); `--resume` reads it back and computes only the items it lacks. A
//!   checkpoint of another command, or a damaged one, is refused ([`checkpoint`]).
//!
//! The parts: [`dispatch`] (which rank has which item; every answer checked),
//! [`checkpoint`] (the file), [`codec`] (the messages between ranks), [`exec`] (the
//! threads of one process), [`coordinator`] (rank 0's loop, over any [`Transport`]),
//! [`perft`] (perft as a job), and with the `mpi` feature the MPI transport and the
//! workers' loop.

pub mod checkpoint;
pub mod codec;
pub mod coordinator;
pub mod dispatch;
pub mod exec;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod perft;
pub mod perft_run;
pub mod routed;

use std::path::PathBuf;

pub use codec::Message;
pub use codec::Record;
pub use coordinator::Transport;

/// A command's work as numbered items; built alike by every process of a run.
pub trait Job: Sync {
    /// The result of one item.
    type Output: Record;

    /// What the job is, as text: the checkpoint keeps it and refuses to resume
    /// another job, and ranks compare its hash before they start. It should name
    /// everything the results depend on (the command and its arguments, how the work
    /// is split), and nothing they do not (threads, ranks).
    fn fingerprint(&self) -> String;

    /// The number of items.
    fn items(&self) -> usize;

    /// Items one process computes at once (each on a thread of its own): the
    /// process's threads for small sequential items (perft subtrees), 1 for items that
    /// use every thread themselves (tournament games).
    fn slots(&self) -> usize;

    /// Computes item `index` (below [`Job::items`]). Called from [`Job::slots`]
    /// threads at once.
    fn run(&self, index: usize) -> Result<Self::Output, String>;

    /// Items a rank is given beyond the ones it computes, so that it never waits for a
    /// message to start its next: 1 (the default) for short items (perft subtrees);
    /// 0 for items long enough that one queued behind a busy rank would leave an
    /// idle rank waiting at the end (a solve's first moves). Where it is at least 1
    /// and a rank's items prove short, the rank is given enough to keep its threads
    /// busy for a few milliseconds (at most 256 more).
    fn ahead(&self) -> usize {
        1
    }

    /// Whether each rank computes exactly the run of neighbouring items it is dealt
    /// at the start, none taken over by a rank whose run is used up
    /// ([`dispatch::Dispatcher::fixed`]): for a job whose work depends on which items
    /// a rank computes together (perft through each rank's own table, where items
    /// that share a table find each other's transpositions), so that the work is the
    /// same on every run, whatever the ranks' speeds. `false` (the default): a rank
    /// whose run is used up takes items from the longest run left, so no rank idles
    /// while items wait. Not used by a job with [`Job::needed`].
    fn fixed_deal(&self) -> bool {
        false
    }

    /// For a job whose items depend on other items' results (a solve's replies
    /// tested against the best one's value): the items needed now, given the
    /// results so far (`None`: not computed). Rank 0 asks at the start and after
    /// every result and deals out the needed items not dealt yet; the job is over
    /// when every needed item is answered, and items never needed stay `None` in
    /// what [`run_partial`] returns. An item must still be computable from its
    /// number alone, on any rank. `None` (the default): every item, from the start.
    fn needed(&self, _results: &[Option<Self::Output>]) -> Option<Vec<usize>> {
        None
    }

    /// For a gated job ([`Job::needed`]): items worth computing on a slot that would
    /// otherwise idle, best first, given the results so far: results the needed
    /// items may soon call for (a solve's replies tested against the best one's
    /// estimate before its value is known). Rank 0 deals one only where no needed
    /// item waits. A spare item that becomes needed counts as needed from then on;
    /// one still being computed when every needed item is answered is abandoned
    /// ([`Job::abandon`]) and its result dropped. The default: none.
    fn spare(&self, _results: &[Option<Self::Output>]) -> Vec<usize> {
        Vec::new()
    }

    /// Called in every process as the run ends while spare items may still be
    /// computed ([`Job::spare`]): items under way should return soon (with any
    /// result: it is dropped), and none is started after it. The default does
    /// nothing, for jobs without spare items.
    fn abandon(&self) {}

    /// Called where spare item `index` is being computed and rank 0 wants its slot
    /// back for a needed item: the item should return soon with an error (its slot
    /// is then free, and the item may be dealt again later). A run of `index` that
    /// starts after the call is not affected. The default does nothing: the item
    /// runs to its end.
    fn drop_item(&self, _index: usize) {}

    /// For a job whose items learn what other ranks' items can use (a solve's
    /// deep table entries): words for every other rank, what this process learnt
    /// since the last call (empty: nothing new). Called on the main thread of each
    /// rank about every [`coordinator::SHARE_EVERY`] (a worker only while it holds
    /// items); what it returns reaches the other ranks' [`Job::learn`] in a
    /// [`Message::Share`] through rank 0. The default: nothing.
    fn shared(&self) -> Vec<u64> {
        Vec::new()
    }

    /// Words another rank's [`Job::shared`] returned (called on this rank's main
    /// thread; they may be damaged only as far as the message checksum misses).
    /// The default ignores them.
    fn learn(&self, _words: &[u64]) {}

    /// Called on rank 0 (or the one process) as each item's result arrives, in the
    /// order they arrive (not for items read from a checkpoint): a place for a line of
    /// progress on standard error.
    fn finished(&self, _index: usize, _output: &Self::Output) {}

    /// The word that starts the progress line on standard error (`perft: 812/7361
    /// items, 3.021 s`, at most one a second); `None`: no progress line (the job prints
    /// its own in [`Job::finished`]).
    fn label(&self) -> Option<&str>;
}

/// How a command runs its job: the command-line options `--checkpoint` and
/// `--resume`, and the command's arguments that its results depend on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Where to keep the finished items (`--checkpoint FILE`).
    pub checkpoint: Option<PathBuf>,
    /// Go on from the checkpoint (`--resume`); a missing file starts afresh.
    pub resume: bool,
    /// The command and the arguments that decide its results, as text (part of the
    /// job's fingerprint).
    pub command: String,
    /// Under MPI, seconds rank 0 waits for a word from a rank that holds work
    /// (`--rank-timeout`; `None`: [`coordinator::DEFAULT_RANK_TIMEOUT`]).
    pub rank_timeout: Option<u64>,
}

impl Options {
    /// Whether the command should run through [`run`] even where it has a faster path
    /// of its own for one process: a checkpoint was asked for, or this process is one
    /// of several started by an MPI launcher.
    pub fn wanted(&self) -> bool {
        self.checkpoint.is_some() || launch().is_some()
    }
}

/// This process's place in a run started by an MPI launcher, as the launcher's
/// environment tells it before MPI starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    /// This process's rank.
    pub rank: usize,
    /// The number of processes, if the launcher says.
    pub size: Option<usize>,
}

/// The launcher's variables: Open MPI's `mpirun`, then PMI (MPICH's `mpiexec`, Slurm's
/// `srun --mpi=pmi2`), then PMIx (`srun --mpi=pmix`).
const LAUNCH_VARIABLES: &[(&str, &str)] = &[
    ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),
    ("PMI_RANK", "PMI_SIZE"),
    ("PMIX_RANK", "PMIX_SIZE"),
];

/// Where this process is in a run started by an MPI launcher; `None` when no launcher
/// started it.
pub fn launch() -> Option<Launch> {
    launch_from(|name| std::env::var(name).ok())
}

/// [`launch`] with the variables read through `get` (for tests).
pub fn launch_from(get: impl Fn(&str) -> Option<String>) -> Option<Launch> {
    LAUNCH_VARIABLES.iter().find_map(|(rank, size)| {
        let rank = get(rank)?.trim().parse().ok()?;
        let size = get(size).and_then(|s| s.trim().parse().ok());
        Some(Launch { rank, size })
    })
}

/// Whether this process is a rank other than 0 of an MPI run (which writes no files:
/// rank 0 writes the results and the checkpoint).
pub fn other_rank() -> bool {
    launch().is_some_and(|l| l.rank > 0)
}

/// The threads a command uses when `--threads` does not say: every core of the
/// machine, shared out among the processes an MPI launcher started on it
/// ([`local_processes`]), at least 1.
pub fn default_threads() -> usize {
    (crate::parallel::cores() / local_processes()).max(1)
}

/// The processes an MPI launcher started on this machine (this one included), as its
/// environment tells (Open MPI's `OMPI_COMM_WORLD_LOCAL_SIZE`, MPICH's
/// `MPI_LOCALNRANKS`, Slurm's `SLURM_NTASKS_PER_NODE` when it is one number); 1
/// without a launcher or where it does not say. Tables sized from the free memory
/// share it out among them.
pub fn local_processes() -> usize {
    local_processes_from(|name| std::env::var(name).ok())
}

/// [`local_processes`] with the variables read through `get` (for tests).
pub fn local_processes_from(get: impl Fn(&str) -> Option<String>) -> usize {
    if launch_from(&get).is_none() {
        return 1;
    }
    [
        "OMPI_COMM_WORLD_LOCAL_SIZE",
        "MPI_LOCALNRANKS",
        "SLURM_NTASKS_PER_NODE",
    ]
    .iter()
    .find_map(|name| get(name)?.trim().parse::<usize>().ok())
    .unwrap_or(1)
    .max(1)
}

/// Whether this process is one of several an MPI launcher started, as its environment
/// tells before MPI starts.
pub fn several_processes() -> bool {
    launch().is_some_and(|l| l.rank > 0 || l.size.is_some_and(|n| n > 1))
}

/// Refuses a command that does not run on several processes (`ply search`, or `ply
/// solve` of a game other than Kalah) when an MPI launcher started several: each
/// would run the whole command.
pub fn one_process_only(command: &str) -> Result<(), String> {
    if several_processes() {
        return Err(format!(
            "ply {} does not run on several processes yet (perft, tournament, solve \
             kalah and db build do): run it as one process, without mpirun or srun",
            command
        ));
    }
    Ok(())
}

/// An error line as this process should write it: unchanged in one process or on rank
/// 0, after `rank N: ` on the other ranks of an MPI run (which all parse the same
/// arguments, so a bad one is reported by each).
pub fn error_line(line: &str) -> String {
    match launch() {
        Some(l) if l.rank > 0 => format!("rank {}: {}", l.rank, line),
        _ => line.to_string(),
    }
}

/// Computes every item of `job`: in this process alone, or, under an MPI launcher
/// (the `mpi` feature), on every rank. Returns the records in item order on rank 0
/// (and in one process); `None` on the other ranks, which should print nothing.
pub fn run<J: Job>(job: &J, options: &Options) -> Result<Option<Vec<J::Output>>, String> {
    match run_partial(job, options)? {
        Some(results) => complete(results).map(Some),
        None => Ok(None),
    }
}

/// The records of a job that needed every item; an error if one is missing.
pub fn complete<R>(results: Vec<Option<R>>) -> Result<Vec<R>, String> {
    let items = results.len();
    results
        .into_iter()
        .collect::<Option<Vec<R>>>()
        .ok_or_else(|| {
            format!(
                "the job left some of its {} items uncomputed (it needed only some)",
                items
            )
        })
}

/// [`run`] for a job that may not need every item ([`Job::needed`]): the records in
/// item order, `None` for the items it never needed.
pub fn run_partial<J: Job>(
    job: &J,
    options: &Options,
) -> Result<Option<Vec<Option<J::Output>>>, String> {
    match launch() {
        #[cfg(feature = "mpi")]
        Some(_) => mpi::run(job, options),
        #[cfg(not(feature = "mpi"))]
        Some(_) if several_processes() => Err(
            "this ply was built without MPI, and an MPI launcher started several copies \
             of it: each would run the whole command; build it with \
             `cargo build --release --features mpi` (docs/mpi.md)"
                .into(),
        ),
        _ => coordinator::run_local(job, options).map(Some),
    }
}

/// Seconds as the per-rank summary shows them.
pub(crate) fn secs(ns: u64) -> String {
    crate::output::secs(ns as f64 / 1e9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_launcher_is_read_from_its_variables() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(launch_from(env(&[])), None);
        assert_eq!(local_processes_from(env(&[])), 1);
        assert_eq!(
            local_processes_from(env(&[("OMPI_COMM_WORLD_LOCAL_SIZE", "4")])),
            1,
            "no launcher, no sharing"
        );
        assert_eq!(
            local_processes_from(env(&[
                ("OMPI_COMM_WORLD_RANK", "1"),
                ("OMPI_COMM_WORLD_LOCAL_SIZE", "4")
            ])),
            4
        );
        assert_eq!(
            local_processes_from(env(&[
                ("PMI_RANK", "0"),
                ("SLURM_NTASKS_PER_NODE", "2(x3)")
            ])),
            1,
            "not one number"
        );
        assert_eq!(
            launch_from(env(&[
                ("OMPI_COMM_WORLD_RANK", "2"),
                ("OMPI_COMM_WORLD_SIZE", "3")
            ])),
            Some(Launch {
                rank: 2,
                size: Some(3)
            })
        );
        assert_eq!(
            launch_from(env(&[("PMIX_RANK", "0")])),
            Some(Launch {
                rank: 0,
                size: None
            })
        );
        assert_eq!(launch_from(env(&[("PMI_RANK", "x")])), None);
    }
}
