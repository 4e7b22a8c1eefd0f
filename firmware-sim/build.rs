//! Picks the memory map of the target being built (`memory-<target>.x`, copied to
//! `memory.x` on the linker's search path), tells the crate which target it is
//! (`cfg(ply_fw_target = "…")`, read by `ply_firmware_sim::TARGET`), and links
//! with the runtime's `link.x` and defmt's `defmt.x` (without them the link
//! "succeeds" with an empty image).

use std::env;
use std::fs;
use std::path::PathBuf;

/// The Rust targets the firmware is built for, each with its name (the
/// `matches::Target` of the same name and `memory-<name>.x`).
const TARGETS: [(&str, &str); 3] = [
    ("thumbv7em-none-eabihf", "cortex-m4"),
    ("thumbv6m-none-eabi", "cortex-m0"),
    ("riscv32imac-unknown-none-elf", "riscv32"),
];

fn main() {
    println!("cargo:rustc-check-cfg=cfg(ply_fw_target, values(\"cortex-m4\", \"cortex-m0\", \"riscv32\"))");
    println!("cargo:rerun-if-changed=build.rs");
    let triple = env::var("TARGET").expect("cargo sets TARGET");
    let Some(&(_, name)) = TARGETS.iter().find(|(t, _)| *t == triple) else {
        let known: Vec<&str> = TARGETS.iter().map(|(t, _)| *t).collect();
        panic!(
            "firmware-sim is built for one of {}, not {triple} (pass --target)",
            known.join(", ")
        );
    };
    println!("cargo:rustc-cfg=ply_fw_target=\"{name}\"");
    let memory = format!("memory-{name}.x");
    println!("cargo:rerun-if-changed={memory}");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let text = fs::read(&memory).unwrap_or_else(|e| panic!("cannot read {memory}: {e}"));
    fs::write(out.join("memory.x"), text).expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=--nmagic");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rustc-link-arg-bins=-Tdefmt.x");
}
