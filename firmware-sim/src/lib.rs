//! `ply-core` as firmware for small microcontrollers: a Cortex-M4F, a Cortex-M0
//! and 32-bit RISC-V (see [`matches::Target`]; the Rust target is the build
//! choice, and [`TARGET`] says which this build is for).
//!
//! Each game is one binary (`src/bin/<game>.rs`) that hands its [`matches::Match`]
//! and a `static` transposition table to [`run`]. `run` plays the fixed AI-versus-AI
//! game, logging every move, the result and the node count with defmt over
//! semihosting, runs perft, logs the stack high-water mark, and ends QEMU through
//! semihosting with status 0 when every check passed and non-zero otherwise. A
//! panic or a HardFault also ends QEMU, with its own failing status.
//!
//! No allocator exists: every buffer is a `static` or lives on the stack.
#![no_std]
#![warn(missing_docs)]

pub mod matches;
pub mod rt;

use core::mem::size_of;

use ply_core::search::{Engine, Evaluator, NoClock, SliceEngine, TtEntry, MAX_PLY};
use ply_core::Game;

use crate::matches::{Match, Target};

use defmt_semihosting as _;

/// The target this firmware is built for (`build.rs` tells it from cargo's
/// `TARGET`).
#[cfg(ply_fw_target = "cortex-m4")]
pub const TARGET: Target = Target::CortexM4;
/// The target this firmware is built for (`build.rs` tells it from cargo's
/// `TARGET`).
#[cfg(ply_fw_target = "cortex-m0")]
pub const TARGET: Target = Target::CortexM0;
/// The target this firmware is built for (`build.rs` tells it from cargo's
/// `TARGET`).
#[cfg(ply_fw_target = "riscv32")]
pub const TARGET: Target = Target::Riscv32;

/// Exit status: every check passed.
pub const EXIT_OK: i32 = 0;
/// Exit status: the firmware ran to its end but a check failed (logged as `FAIL`).
pub const EXIT_MISMATCH: i32 = 1;
/// Exit status: a panic.
pub const EXIT_PANIC: i32 = 101;
/// Exit status: a HardFault.
pub const EXIT_HARDFAULT: i32 = 102;

/// Bytes of stack that must stay untouched at the deepest point: room for an
/// exception (the processor's 32-byte frame and the tick handler's own) that could
/// have come there.
pub const STACK_MARGIN: u32 = 64;

/// Longest move notation the log carries.
const NOTATION_BYTES: usize = 96;

/// The whole `main` of a game's firmware: a `static` transposition table of
/// `matches::$budgets.on(TARGET).tt_slots` entries of `TtEntry`, handed with
/// `matches::$game(TARGET)` to [`run`].
///
/// ```ignore
/// #![no_std]
/// #![no_main]
/// ply_firmware_sim::firmware!(kalah, ply_core::games::kalah::Pit, KALAH);
/// ```
#[macro_export]
macro_rules! firmware {
    ($game:ident, $move:ty, $budgets:ident) => {
        const SLOTS: usize = $crate::matches::$budgets.on($crate::TARGET).tt_slots;
        static mut TT: [ply_core::search::TtEntry; SLOTS] =
            [ply_core::search::TtEntry::EMPTY; SLOTS];

        $crate::entry!({
            // The entry runs once, so this is the only reference to the table.
            let tt = unsafe { &mut *core::ptr::addr_of_mut!(TT) };
            $crate::run($crate::matches::$game($crate::TARGET), tt)
        });
    };
}

/// The engine of this target's firmware: killer and history tables of
/// [`Target::killer_plies`] plies and [`Target::history_slots`] slots, over a
/// table in `'t` and the evaluation `E` (as the engine holds it: a reference).
pub type FirmwareEngine<'t, G, E> =
    SliceEngine<'t, G, E, NoClock, { TARGET.killer_plies() }, { TARGET.history_slots() }>;

/// The game: one engine for both sides, for the whole game; logs every move and
/// the result, and returns the number of failed checks. Out of line, so that the
/// engine's stack is free again for perft.
#[inline(never)]
fn play_game<G: Game, E: Evaluator<G>>(m: &Match<G, E>, tt: &'static mut [TtEntry]) -> u32 {
    let mut failures = 0;
    let t0 = rt::ticks();
    // The killer and history tables sized for this target.
    let mut engine: FirmwareEngine<'_, G, &E> = Engine::new_sized(tt, &m.eval, NoClock, m.config);
    let mut notation_overflow = false;
    let played = matches::play(m, &mut engine, |r| {
        notation_overflow |= !log_move(r);
    });
    let game_ticks = rt::ticks() - t0;
    if notation_overflow {
        defmt::println!(
            "FAIL a move's notation is longer than {=usize} bytes",
            NOTATION_BYTES
        );
        failures += 1;
    }
    match played {
        Ok(finish) => defmt::println!(
            "result {=str} plies={=u32} nodes={=u64} ticks={=u64}",
            matches::result_text(finish.outcome),
            finish.plies,
            finish.nodes,
            game_ticks
        ),
        Err(why) => {
            defmt::println!("FAIL game: {=str}", why);
            failures += 1;
        }
    }

    failures
}

/// Logs one move of the game; false if its notation did not fit the log's
/// buffer. Out of line, so that its buffers are not in the frame that holds the
/// engine while it searches.
#[inline(never)]
fn log_move<G: Game>(r: &matches::MoveRecord<G>) -> bool {
    let mut text = heapless::String::<NOTATION_BYTES>::new();
    let fits = r.before.write_move(r.mv, &mut text).is_ok();
    defmt::println!(
        "move {=u32} {=str} value={=i32} depth={=u32} nodes={=u64}",
        r.ply,
        text.as_str(),
        r.value,
        r.depth,
        r.nodes
    );
    fits
}

/// Plays `m` with `tt` as the transposition table, runs its perft, logs everything
/// and exits QEMU. Never returns.
///
/// The log is a sequence of defmt `println!` lines; `tests/tests/firmware.rs`
/// reads them back (the formats below are its protocol).
pub fn run<G: Game, E: Evaluator<G>>(m: Match<G, E>, tt: &'static mut [TtEntry]) -> ! {
    rt::start_ticks();
    let mut failures = 0u32;
    defmt::println!(
        "game {=str} spec={=str} target={=str}",
        m.name,
        m.spec,
        TARGET.name()
    );
    defmt::println!(
        "sizes state={=usize} move={=usize} movelist={=usize} tt_entry={=usize} tt_slots={=usize} tt_bytes={=usize} engine={=usize} max_ply={=usize}",
        size_of::<G>(),
        size_of::<G::Move>(),
        size_of::<G::MoveList>(),
        size_of::<TtEntry>(),
        tt.len(),
        core::mem::size_of_val(tt),
        size_of::<FirmwareEngine<'static, G, &E>>(),
        MAX_PLY,
    );
    if tt.len() != m.tt_slots {
        defmt::println!(
            "FAIL table has {=usize} slots, the match says {=usize}",
            tt.len(),
            m.tt_slots
        );
        failures += 1;
    }

    failures += play_game(&m, tt);
    // The stack the game took (perft may take more: the final line).
    defmt::println!("stack-game used={=u32}", rt::stack_usage().used_bytes);

    // Perft from the start position.
    let t0 = rt::ticks();
    let count = ply_core::perft::perft(&m.start, m.perft_depth);
    let perft_ticks = rt::ticks() - t0;
    defmt::println!(
        "perft depth={=u32} nodes={=u64} ticks={=u64}",
        m.perft_depth,
        count,
        perft_ticks
    );
    if count != m.perft_expected {
        defmt::println!("FAIL perft expected {=u64}", m.perft_expected);
        failures += 1;
    }

    // The stack: how deep the painted region was scrubbed.
    let stack = rt::stack_usage();
    defmt::println!(
        "stack used={=u32} of={=u32}",
        stack.used_bytes,
        stack.total_bytes
    );
    if stack.used_bytes + STACK_MARGIN > stack.total_bytes {
        defmt::println!(
            "FAIL fewer than {=u32} bytes of the stack were left: it may have overflowed",
            STACK_MARGIN
        );
        failures += 1;
    }

    let status = if failures == 0 {
        EXIT_OK
    } else {
        EXIT_MISMATCH
    };
    defmt::println!("exit {=i32} failures={=u32}", status, failures);
    rt::exit(status)
}

/// The firmware's entry point around `$body` (which never returns), through the
/// runtime of the target being built.
#[cfg(target_arch = "arm")]
#[macro_export]
macro_rules! entry {
    ($body:block) => {
        #[cortex_m_rt::entry]
        fn main() -> ! $body
    };
}

/// The firmware's entry point around `$body` (which never returns), through the
/// runtime of the target being built (riscv-rt, which does not paint the stack:
/// the entry paints it first).
#[cfg(target_arch = "riscv32")]
#[macro_export]
macro_rules! entry {
    ($body:block) => {
        #[riscv_rt::entry]
        fn main() -> ! {
            $crate::rt::paint_stack();
            $body
        }
    };
}
