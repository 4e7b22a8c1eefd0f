//! The host side of `firmware-sim/`: checking the tools are there, building the
//! firmware, running it under QEMU with a time limit, and decoding its defmt log.
//!
//! `tests/tests/firmware.rs` uses all of it; `scripts/firmware.sh` uses the
//! `ply-defmt-decode` binary, which is [`decode_lines`] on files.

use std::path::{Path, PathBuf};
use std::process::Command;

use defmt_decoder::{DecodeError, Table};

/// One machine the firmware runs on: its Rust target and how QEMU runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    /// The name of `matches::Target::name` (and of `memory-<name>.x`).
    pub name: &'static str,
    /// The Rust target the firmware is built for.
    pub target: &'static str,
    /// The QEMU program that runs it.
    pub qemu: &'static str,
    /// The Debian package that has [`Machine::qemu`].
    pub qemu_package: &'static str,
    /// QEMU's arguments that choose the board (and the processor where the board
    /// has a choice); [`QEMU_RUN_ARGS`] follow them.
    pub board_args: &'static [&'static str],
    /// The firmware's ticks for 40,000,000 instructions under `-icount shift=0`
    /// (one instruction a nanosecond): the tick clock's rate in kHz times 40.
    pub ticks_per_40m_instructions: u64,
}

/// QEMU's arguments after the board's, on every machine, before the ELF path:
/// instruction counting (so tick counts repeat exactly), no display, semihosting
/// on stdout.
pub const QEMU_RUN_ARGS: [&str; 6] = [
    "-icount",
    "shift=0",
    "-nographic",
    "-semihosting-config",
    "enable=on,target=native",
    "-kernel",
];

/// The Cortex-M4F: QEMU's `mps2-an386`.
pub const CORTEX_M4: Machine = Machine {
    name: "cortex-m4",
    target: "thumbv7em-none-eabihf",
    qemu: "qemu-system-arm",
    qemu_package: "qemu-system-arm",
    board_args: &["-machine", "mps2-an386", "-cpu", "cortex-m4"],
    // SysTick on the processor clock: QEMU's MPS2 runs at 25 MHz.
    ticks_per_40m_instructions: 1_000_000,
};

/// The Cortex-M0 with 16 KiB of RAM: QEMU's `microbit` (nRF51822).
pub const CORTEX_M0: Machine = Machine {
    name: "cortex-m0",
    target: "thumbv6m-none-eabi",
    qemu: "qemu-system-arm",
    qemu_package: "qemu-system-arm",
    board_args: &["-machine", "microbit"],
    // SysTick on the processor clock: QEMU's nRF51 runs at 16 MHz.
    ticks_per_40m_instructions: 640_000,
};

/// 32-bit RISC-V with 16 KiB of RAM: QEMU's `sifive_e` (FE310).
pub const RISCV32: Machine = Machine {
    name: "riscv32",
    target: "riscv32imac-unknown-none-elf",
    qemu: "qemu-system-riscv32",
    qemu_package: "qemu-system-misc",
    board_args: &["-machine", "sifive_e"],
    // `mcycle`: one count an instruction under `-icount shift=0`.
    ticks_per_40m_instructions: 40_000_000,
};

/// Every machine, in the order of `matches::Target::ALL`.
pub const MACHINES: [Machine; 3] = [CORTEX_M4, CORTEX_M0, RISCV32];

/// The machine of this name (`cortex-m4`, …).
pub fn machine(name: &str) -> Option<Machine> {
    MACHINES.into_iter().find(|m| m.name == name)
}

/// The repository root (the parent of `tests/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// The firmware's own cargo workspace.
pub fn firmware_dir() -> PathBuf {
    repo_root().join("firmware-sim")
}

/// The ELF of one game's firmware for `machine` after [`build`].
pub fn elf_path(machine: Machine, game: &str) -> PathBuf {
    firmware_dir()
        .join("target")
        .join(machine.target)
        .join("release")
        .join(game)
}

/// Checks that `machine`'s QEMU, the `timeout` program and its Rust target are
/// installed; the error names each missing piece and how to install it.
pub fn check_prerequisites(machine: Machine) -> Result<(), String> {
    let mut missing = Vec::new();
    let qemu_ok = Command::new(machine.qemu)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !qemu_ok {
        missing.push(format!(
            "{} is not installed (apt-get install -y {}, or run scripts/setup-firmware.sh)",
            machine.qemu, machine.qemu_package
        ));
    }
    let timeout_ok = Command::new("timeout")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !timeout_ok {
        missing.push("the `timeout` program (coreutils) is not installed".to_string());
    }
    if !target_installed(machine.target) {
        missing.push(format!(
            "the Rust target {0} is not installed (rustup target add {0}, or run scripts/setup-firmware.sh)",
            machine.target
        ));
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("cannot run the firmware: {}", missing.join("; ")))
    }
}

/// True if the standard library for `target` is installed for the `rustc` in use.
fn target_installed(target: &str) -> bool {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let Ok(out) = Command::new(rustc)
        .args(["--print", "target-libdir", "--target", target])
        .output()
    else {
        return false;
    };
    if !out.status.success() {
        return false;
    }
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("libcore-"))
        })
        .unwrap_or(false)
}

/// Builds every game's firmware for `machine` (release, `--locked`) in
/// `firmware-sim/`.
pub fn build(machine: Machine) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let dir = firmware_dir();
    let out = Command::new(cargo)
        .current_dir(&dir)
        .args([
            "build",
            "--release",
            "--locked",
            "--bins",
            "--target",
            machine.target,
        ])
        .arg("--target-dir")
        .arg(dir.join("target"))
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .output()
        .map_err(|e| format!("cannot run cargo to build the firmware: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "building the firmware for {} failed:\n{}",
            machine.target,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// What one run of a firmware under QEMU gave.
#[derive(Debug)]
pub struct Run {
    /// QEMU's exit status (`None` if it was killed by a signal); 124 if `timeout`
    /// stopped it.
    pub status: Option<i32>,
    /// The decoded log, one line per defmt frame.
    pub lines: Vec<String>,
    /// Why decoding stopped early, if it did (the lines before it are kept).
    pub decode_error: Option<String>,
}

/// Runs `elf` under `machine`'s QEMU, stopped after `timeout_s` seconds, and
/// decodes its log.
pub fn run_qemu(machine: Machine, elf: &Path, timeout_s: u32) -> Result<Run, String> {
    let out = Command::new("timeout")
        .arg(timeout_s.to_string())
        .arg(machine.qemu)
        .args(machine.board_args)
        .args(QEMU_RUN_ARGS)
        .arg(elf)
        .output()
        .map_err(|e| format!("cannot start {}: {e}", machine.qemu))?;
    let elf_bytes =
        std::fs::read(elf).map_err(|e| format!("cannot read {}: {e}", elf.display()))?;
    let (lines, decode_error) = match decode_lines(&elf_bytes, &out.stdout) {
        Ok(lines) => (lines, None),
        Err((lines, e)) => (lines, Some(e)),
    };
    Ok(Run {
        status: out.status.code(),
        lines,
        decode_error,
    })
}

/// Decodes a raw defmt stream `raw` produced by the firmware `elf` into one
/// message per frame. On failure returns the messages decoded so far and why it
/// stopped (a malformed frame, a stream cut inside a frame, an ELF without defmt).
pub fn decode_lines(elf: &[u8], raw: &[u8]) -> Result<Vec<String>, (Vec<String>, String)> {
    let table = match Table::parse(elf) {
        Ok(Some(t)) => t,
        Ok(None) => return Err((Vec::new(), "the ELF has no defmt table".to_string())),
        Err(e) => {
            return Err((
                Vec::new(),
                format!("cannot read the ELF's defmt table: {e}"),
            ))
        }
    };
    let mut decoder = table.new_stream_decoder();
    decoder.received(raw);
    let mut lines = Vec::new();
    loop {
        match decoder.decode() {
            Ok(frame) => lines.push(frame.display_message().to_string()),
            Err(DecodeError::UnexpectedEof) => break,
            Err(DecodeError::Malformed) => {
                let n = lines.len();
                return Err((lines, format!("frame {} of the log is malformed", n + 1)));
            }
        }
    }
    // The stream decoder keeps an unfinished frame to itself: feed a frame
    // separator and see whether anything was pending.
    decoder.received(&[0]);
    match decoder.decode() {
        Err(DecodeError::UnexpectedEof) => Ok(lines),
        Ok(frame) => {
            let text = frame.display_message().to_string();
            Err((lines, format!("the log ends inside a frame: {text:?}")))
        }
        Err(DecodeError::Malformed) => Err((lines, "the log ends inside a frame".to_string())),
    }
}
