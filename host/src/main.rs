//! `ply`: play, perft, search, solve and compare AIs on two-player board games.

use clap::{CommandFactory, FromArgMatches};
use std::process::ExitCode;

mod cli;

use cli::{error_status, run, Cli};

/// An error line: one line ([`ply_host::interrupt::one_line`]) of at most
/// [`ply_host::quote::MAX_LINE_CHARS`] characters, written to standard error (a
/// failure to write it is ignored: there is nowhere left to report it).
fn error_line(text: &str) {
    let line = ply_host::quote::cap_line(&ply_host::interrupt::one_line(text));
    ply_host::errln!("{}", ply_host::distributed::error_line(&line));
}

fn main() -> ExitCode {
    // `ply play` counts its first move's time from here.
    ply_host::clock::process_start();
    restore_sigpipe();
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, cli::given_options(&m))));
    let (cli, given) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            use clap::error::ErrorKind;
            let help = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion);
            if help || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                // Help asked for goes to standard output, wrapped to the terminal
                // (coloured there, as clap would): a failed write is an error.
                let rendered = e.render();
                let text = if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                    rendered.ansi().to_string()
                } else {
                    rendered.to_string()
                };
                let wrapped = ply_host::quote::wrap(&text, ply_host::quote::help_width());
                if let Err(msg) =
                    ply_host::out!("{}", wrapped).and_then(|()| ply_host::output::finish())
                {
                    error_line(&format!("error: {}", msg));
                    return ExitCode::FAILURE;
                }
                return if help {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(2)
                };
            }
            // A flag's value from its environment fallback (`PLY_THREADS=two`): the
            // line names the variable, as the checks of every `PLY_*` value do.
            if matches!(
                e.kind(),
                ErrorKind::ValueValidation | ErrorKind::InvalidValue | ErrorKind::InvalidUtf8
            ) {
                if let Err(msg) = ply_host::settings::environment() {
                    error_line(&format!("error: {}", msg));
                    return ExitCode::FAILURE;
                }
            }
            // One line: clap's first paragraph names the problem (and, for missing
            // arguments, lists them on the lines after the first).
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .map(str::trim)
                .skip_while(|l| l.is_empty())
                .take_while(|l| !l.is_empty())
                .collect();
            if first.is_empty() {
                error_line("error: bad arguments");
            } else {
                // clap quotes a bad value whole: shorten it like ply's own errors.
                let mut line = ply_host::quote::shorten_quoted(&first.join(" "));
                // `ply perft checkers --after 11-15 3`: the moves took the DEPTH.
                if e.kind() == ErrorKind::MissingRequiredArgument
                    && std::env::args().any(|a| a == "--after")
                {
                    line += " (the moves of --after run up to the next option: give the \
                             command's other arguments before --after)";
                }
                error_line(&line);
            }
            return ExitCode::from(2);
        }
    };
    // Ctrl-C: remove result files being written, then exit with status 130.
    if let Err(msg) = ply_host::interrupt::install() {
        error_line(&format!("error: {}", msg));
        return ExitCode::FAILURE;
    }
    // Every line of output went through ply_host::output: a failed write is one error
    // line, whether the command saw it or not.
    let failure = error_status(&cli);
    match run(cli, &given).and_then(|status| ply_host::output::finish().map(|()| status)) {
        Ok(status) => ExitCode::from(status),
        Err(msg) => {
            error_line(&format!("error: {}", msg));
            ExitCode::from(failure)
        }
    }
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`ply perft … | head -1`)
/// would panic; restore the default so `ply` ends quietly like any Unix tool.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any other thread exists; setting
    // a signal's disposition to its default has no other effect.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
