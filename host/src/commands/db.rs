//! `ply db build GAME --pieces N [--threads T] [--verify] [--checkpoint FILE
//! [--resume]]`: the endgame databases of every position with up to N pieces, built
//! on all cores into the tables directory, going on from the files already there;
//! `--verify` then checks every position against its children. Under `mpirun` (the
//! `mpi` feature) the pairs of slices are dealt out to the ranks
//! (`crate::draughts_db::job`).

use crate::games::HostGame;
use crate::spec::GameCommand;

/// Build the endgame databases.
#[derive(Clone, Debug)]
pub struct DbBuild {
    /// Every position with up to this many pieces.
    pub pieces: u32,
    /// Threads to build on.
    pub threads: usize,
    /// Then check every position against its children (`--verify`).
    pub verify: bool,
    /// The checkpoint, and the ranks of an MPI run.
    pub job: crate::distributed::Options,
}

impl GameCommand for DbBuild {
    type Output = ();
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<(), String> {
        let lines = G::build_databases(
            rules,
            self.pieces,
            self.threads,
            self.verify,
            &self.job,
            &mut |line| crate::errln!("{}", line),
        )?;
        for l in lines {
            crate::outln!("{}", l)?;
        }
        Ok(())
    }
}
