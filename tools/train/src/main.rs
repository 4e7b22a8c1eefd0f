//! `ply-train`: retrains ply's learned draughts evaluation
//! (`ply_core::games::draughts::learned`; docs/games/draughts.md, "The learned
//! evaluation").
//!
//! ```text
//! ply-train selfplay --games 20000 --nodes 4000 --out games.bin [--eval standard|learned|FILE]
//! ply-train label --data games.bin --every 4 --nodes 20000 --out labelled.bin
//! ply-train relabel --data games.bin --db DIR --out relabelled.bin
//! ply-train fit --data games.bin[,more.bin] --out weights.bin [--init learned|FILE]
//!               [--lambda 0.5]
//! ply-train fit-net --data games.bin[,more.bin] --out network.bin [--init FILE]
//! ```

mod data;
mod eval;
mod fit;
mod label;
mod net;
mod optim;
mod relabel;
mod selfplay;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Retrains ply's learned draughts evaluation.
#[derive(Parser)]
#[command(name = "ply-train", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays self-play games and records their quiet positions with the results.
    Selfplay {
        /// Games to play.
        #[arg(long)]
        games: u32,
        /// Nodes a move.
        #[arg(long, default_value_t = 4000)]
        nodes: u64,
        /// Random plies before the engine plays: `LO-HI`.
        #[arg(long, default_value = "4-10")]
        random_plies: String,
        /// A game still going after this many plies is a draw.
        #[arg(long, default_value_t = 300)]
        max_plies: u32,
        /// The evaluation: `standard`, `learned` (the shipped weights) or a weight file.
        #[arg(long, default_value = "learned")]
        eval: String,
        /// Seed of the openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// The output file (records of `data.rs`).
        #[arg(long)]
        out: PathBuf,
    },
    /// Labels recorded positions with White's value by a fixed-node search.
    Label {
        /// Record files, comma-separated.
        #[arg(long, value_delimiter = ',', required = true)]
        data: Vec<PathBuf>,
        /// Keep one record in this many (in file order).
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// Nodes a position.
        #[arg(long, default_value_t = 20_000)]
        nodes: u64,
        /// The evaluation: `standard`, `learned` (the shipped weights) or a weight file.
        #[arg(long, default_value = "learned")]
        eval: String,
        /// Threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// The output file (a labelled record file).
        #[arg(long)]
        out: PathBuf,
    },
    /// Corrects recorded games' results by the draughts endgame databases: each
    /// game's result becomes the exact value of its first position they hold, and
    /// every position they hold is labelled by its own exact value.
    Relabel {
        /// A record file (one file: games are told apart by their numbers in it).
        #[arg(long)]
        data: PathBuf,
        /// The databases' directory (as `ply db build` writes it: `checkers-db` in
        /// the tables directory).
        #[arg(long)]
        db: PathBuf,
        /// The output record file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits the weights to recorded games.
    Fit {
        /// Record files, comma-separated.
        #[arg(long, value_delimiter = ',')]
        data: Vec<PathBuf>,
        /// The starting weights: `learned` (the shipped ones), `zero`, or a weight file.
        #[arg(long, default_value = "learned")]
        init: String,
        #[command(flatten)]
        settings: fit::Settings,
        /// The output weight file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits the draughts network (`ply_core::games::draughts::network`) to recorded
    /// games and writes a network file.
    FitNet {
        /// Record files, comma-separated.
        #[arg(long, value_delimiter = ',')]
        data: Vec<PathBuf>,
        /// Start from this network file's weights instead of random ones.
        #[arg(long)]
        init: Option<PathBuf>,
        #[command(flatten)]
        settings: net::Settings,
        /// The output network file.
        #[arg(long)]
        out: PathBuf,
    },
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Selfplay {
            games,
            nodes,
            random_plies,
            max_plies,
            eval,
            seed,
            threads,
            out,
        } => {
            let (lo, hi) = random_plies
                .split_once('-')
                .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
                .filter(|(a, b)| a <= b && *b <= 40)
                .ok_or_else(|| {
                    format!("--random-plies {random_plies}: expected LO-HI, 0 <= LO <= HI <= 40")
                })?;
            if games == 0 || nodes == 0 || threads == 0 || max_plies == 0 {
                return Err(
                    "--games, --nodes, --threads and --max-plies must be at least 1".into(),
                );
            }
            let eval = eval::parse(&eval)?;
            let s = selfplay::Settings {
                games,
                nodes,
                random_plies: (lo, hi),
                max_plies,
                seed,
                threads,
                table_entries: 1 << 16,
            };
            let (n, r) = selfplay::run(&s, eval, &out, 500)?;
            println!(
                "{} games, {} positions; White +{} ={} -{}",
                games, n, r[2], r[1], r[0]
            );
            Ok(())
        }
        Command::Label {
            data,
            every,
            nodes,
            eval,
            threads,
            out,
        } => {
            if every == 0 || nodes == 0 || threads == 0 {
                return Err("--every, --nodes and --threads must be at least 1".into());
            }
            let eval = eval::parse(&eval)?;
            let mut records = Vec::new();
            for path in &data {
                records.extend(data::read(path)?);
            }
            let chosen: Vec<_> = records.into_iter().step_by(every).collect();
            let n = chosen.len();
            let s = label::Settings {
                nodes,
                threads,
                table_entries: 1 << 16,
            };
            let labelled = label::label(&chosen, &s, eval, |d| {
                eprintln!("{d} of {n} positions labelled")
            });
            data::write(&out, &labelled)?;
            println!("{n} positions labelled at {nodes} nodes");
            Ok(())
        }
        Command::Relabel { data, db, out } => {
            if !db.is_dir() {
                return Err(format!("--db {}: not a directory", db.display()));
            }
            let mut records = data::read(&data)?;
            let mut lines = Vec::new();
            let database = ply_host::draughts_db::load(&db, &mut |l| lines.push(l.to_string()))
                .ok_or_else(|| {
                    let why = lines.first().cloned().unwrap_or_default();
                    format!("--db {}: no endgame database there {}", db.display(), why)
                })?;
            for l in &lines {
                eprintln!("{l}");
            }
            let r = relabel::relabel(&mut records, database)?;
            data::write(&out, &records)?;
            println!(
                "{} positions of {} games; {} games reached the databases ({} pieces), \
                 {} positions labelled exactly, {} results changed",
                records.len(),
                r.games,
                r.adjudicated,
                database.pieces(),
                r.exact,
                r.changed
            );
            Ok(())
        }
        Command::Fit {
            data,
            init,
            settings: s,
            out,
        } => {
            let p = match init.as_str() {
                "learned" => fit::params_of(ply_core::games::draughts::learned::shipped_bytes())?,
                "zero" => vec![0.0; 2 * ply_core::games::draughts::learned::FEATURES],
                path => fit::params_of(
                    &std::fs::read(path).map_err(|e| format!("--init {path}: {e}"))?,
                )?,
            };
            let records = read_records(&data, s.lambda)?;
            let (p, report) = fit::fit(&records, p, &s, |e, t, v| {
                eprintln!("epoch {e}: training loss {t:.5}, validation loss {v:.5}")
            });
            println!(
                "{} training and {} validation positions; validation loss {:.5} -> {:.5}",
                report.sizes.0,
                report.sizes.1,
                report.start,
                report.epochs.last().map_or(report.start, |e| e.1)
            );
            let (bytes, clamped) = fit::bytes_of(&p);
            if clamped > 0 {
                println!("{clamped} weights were clamped to what the file holds for them");
            }
            write_file(&out, &bytes)
        }
        Command::FitNet {
            data,
            init,
            settings: s,
            out,
        } => {
            if s.epochs == 0 || s.batch == 0 || s.threads == 0 {
                return Err("--epochs, --batch and --threads must be at least 1".into());
            }
            let p = match &init {
                None => net::start(s.seed),
                Some(path) => {
                    let bytes = std::fs::read(path)
                        .map_err(|e| format!("--init {}: {}", path.display(), e))?;
                    let n = ply_core::games::draughts::Network::from_bytes(&bytes)
                        .map_err(|e| format!("--init {}: {}", path.display(), e))?;
                    net::params_of(&n)
                }
            };
            let records = read_records(&data, s.lambda)?;
            let (p, report) = net::fit(&records, p, &s, |e, t, v| {
                eprintln!("epoch {e}: training loss {t:.5}, validation loss {v:.5}")
            });
            println!(
                "{} training and {} validation positions; validation loss: the shipped \
                 linear evaluation {:.5}, the network {:.5} (rounded to integers {:.5})",
                report.sizes.0,
                report.sizes.1,
                report.linear,
                report.epochs.last().map_or(f64::NAN, |e| e.1),
                report.integer
            );
            write_file(&out, &net::bytes_of(&p))
        }
    }
}

/// Reads every record of `paths`, refusing none given, a `lambda` outside 0–1, and
/// one below 1 when no record carries a search value (records without one, from
/// unlabelled files, are counted on stderr and fitted to their result alone).
fn read_records(paths: &[PathBuf], lambda: f64) -> Result<Vec<data::Record>, String> {
    if paths.is_empty() {
        return Err("--data: give at least one record file".into());
    }
    if !(0.0..=1.0).contains(&lambda) {
        return Err(format!("--lambda {lambda}: expected 0 to 1"));
    }
    let mut records = Vec::new();
    for path in paths {
        records.extend(data::read(path)?);
    }
    if lambda < 1.0 {
        let bare = records.iter().filter(|r| r.search.is_none()).count();
        if bare == records.len() {
            return Err(format!(
                "--lambda {lambda} needs labelled records (ply-train label or selfplay), \
                 but no record of the --data files has a search value"
            ));
        }
        if bare > 0 {
            eprintln!(
                "{bare} of {} records carry no search value: their target is the game's \
                 result alone",
                records.len()
            );
        }
    }
    Ok(records)
}

/// Writes `bytes` to `out` through a temporary file renamed at the end.
fn write_file(out: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = out.with_extension("tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot write {}: {}", out.display(), e)
        })
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::draughts::{Draughts, Rules};

    #[test]
    fn a_blend_needs_some_labelled_records_and_takes_unlabelled_ones_beside_them() {
        let dir = std::env::temp_dir().join(format!("ply-train-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let g = Draughts::new(Rules::english());
        let plain = data::Record::of(&g, 0, 0);
        let labelled = data::Record {
            search: Some(12),
            ..data::Record::of(&g, 1, 0)
        };
        let (a, b) = (dir.join("plain.bin"), dir.join("labelled.bin"));
        data::write(&a, &[plain]).unwrap();
        data::write(&b, &[labelled]).unwrap();
        let e = read_records(std::slice::from_ref(&a), 0.5).unwrap_err();
        assert!(
            e.contains("no record of the --data files has a search value"),
            "{e}"
        );
        assert_eq!(
            read_records(std::slice::from_ref(&a), 1.0).unwrap(),
            vec![plain]
        );
        let both = read_records(&[a, b], 0.5).unwrap();
        assert_eq!(both, vec![plain, labelled]);
        assert!(read_records(&[], 1.0).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
