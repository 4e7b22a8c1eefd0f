//! # Embedding the core with no allocator
//!
//! The pattern an embedded developer copies: `ply-core` needs no heap. Its tables live
//! in memory the program owns — here a `static` array, as on a microcontroller — and
//! its move lists and states live on the stack. This program plays a whole game of
//! Kalah, the engine on both sides, while a global allocator that aborts on any
//! allocation is armed: if the core allocated, the program would stop.
//!
//! ```sh
//! cargo run --release --example embed
//! ```
//!
//! On a real target the same code runs under `#![no_std]` with no allocator at all:
//! see `firmware-sim/` (Cortex-M4 under QEMU), which does exactly this per game.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fs::File;
use std::io::Write;
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::sync::atomic::{AtomicBool, Ordering};

use ply_core::games::kalah::{Kalah, KalahEval, KalahRules};
use ply_core::search::{Engine, EngineConfig, Limits, NoClock, TtEntry};
use ply_core::Game;

/// Refuses every allocation while armed (the process's own start-up may allocate).
struct Refuse;
static ARMED: AtomicBool = AtomicBool::new(false);

unsafe impl GlobalAlloc for Refuse {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ARMED.load(Ordering::Relaxed) {
            std::process::abort();
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Refuse = Refuse;

/// The transposition table: 4096 entries of 16 bytes, in static memory.
const SLOTS: usize = 4096;
static mut TABLE: [TtEntry; SLOTS] = [TtEntry::EMPTY; SLOTS];

fn main() {
    // Standard output without a buffer (a buffered stdout allocates its buffer).
    let mut out = ManuallyDrop::new(unsafe { File::from_raw_fd(1) });
    // `main` runs once, so this is the only reference to the table.
    let table = unsafe { &mut *core::ptr::addr_of_mut!(TABLE) };

    ARMED.store(true, Ordering::Relaxed);
    let mut engine = Engine::new(table, KalahEval, NoClock, EngineConfig::default());
    let mut game = Kalah::start(KalahRules::default());
    let mut plies = 0;
    while !game.outcome().is_over() {
        let report = engine.search(&game, Limits::depth(8));
        let mv = report
            .best_move
            .expect("a game that is not over has a move");
        writeln!(
            out,
            "{:?} plays pit {} (value {})",
            game.side_to_move(),
            game.display_move(mv),
            report.value
        )
        .expect("stdout");
        game = game.play(mv).expect("the engine plays legal moves");
        plies += 1;
    }
    ARMED.store(false, Ordering::Relaxed);
    writeln!(out, "{:?} after {plies} plies: {game}", game.outcome()).expect("stdout");
    writeln!(out, "no allocation while the game was played").expect("stdout");
}
