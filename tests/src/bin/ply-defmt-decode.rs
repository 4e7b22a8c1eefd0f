//! `ply-defmt-decode ELF LOG`: prints the defmt frames in the raw log file LOG,
//! written by the firmware ELF, one message per line (used by scripts/firmware.sh).
//! Exits 1 if the log cannot be fully decoded, 2 on bad arguments.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: ply-defmt-decode ELF LOG");
        return ExitCode::from(2);
    }
    let read = |path: &str| {
        std::fs::read(path).map_err(|e| {
            eprintln!("ply-defmt-decode: cannot read {path}: {e}");
            ExitCode::from(2)
        })
    };
    let (elf, raw) = match (read(&args[1]), read(&args[2])) {
        (Ok(elf), Ok(raw)) => (elf, raw),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    match ply_tests::firmware::decode_lines(&elf, &raw) {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err((lines, why)) => {
            for line in lines {
                println!("{line}");
            }
            eprintln!("ply-defmt-decode: {why}");
            ExitCode::from(1)
        }
    }
}
