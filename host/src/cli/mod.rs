//! The `ply` binary's own modules (not part of the `ply_host` library): the command
//! line as clap parses it ([`args`]), its checks before any work ([`checks`]) and the
//! run of a parsed command ([`run`](mod@run)).

mod args;
mod checks;
mod run;

pub(crate) use args::Cli;
pub(crate) use checks::given_options;
pub(crate) use run::{error_status, run};
