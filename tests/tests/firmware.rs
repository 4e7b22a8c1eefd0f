//! The firmware in `firmware-sim/`, run under QEMU on every target, must play every
//! game move for move as `ply-core` does on the host with that target's budget:
//! same moves, values, depths and node counts per move, same result and total
//! nodes, same perft count.
//!
//! Needs each target's QEMU and Rust target; without them the test fails, naming
//! what is missing (`scripts/setup-firmware.sh` installs them).

use std::fmt::Write as _;

use ply_core::games::draughts::Draughts;
use ply_core::search::{Engine, Evaluator, NoClock, SliceEngine, TtEntry};
use ply_core::{Game, Outcome, Player};
use ply_tests::firmware::{self, Machine, Run};

#[allow(dead_code)]
#[path = "../../firmware-sim/src/matches.rs"]
mod matches;

use matches::{Match, Target, Visitor};

/// Seconds QEMU may run one firmware before it counts as hung.
const QEMU_TIMEOUT_S: u32 = 300;

/// What the host computes for a match, in the firmware's log format (the parts
/// that do not depend on the machine: no tick counts, no sizes).
struct Expected {
    moves: Vec<String>,
    result: String,
    perft: String,
}

/// [`host_expectation_sized`] with the engine's tables sized as on `target`.
fn host_expectation<G: Game, E: Evaluator<G>>(target: Target, m: &Match<G, E>) -> Expected {
    const M4: Target = Target::CortexM4;
    const M0: Target = Target::CortexM0;
    const RV: Target = Target::Riscv32;
    match target {
        M4 => host_expectation_sized::<G, E, { M4.killer_plies() }, { M4.history_slots() }>(m),
        M0 => host_expectation_sized::<G, E, { M0.killer_plies() }, { M0.history_slots() }>(m),
        RV => host_expectation_sized::<G, E, { RV.killer_plies() }, { RV.history_slots() }>(m),
    }
}

fn host_expectation_sized<G: Game, E: Evaluator<G>, const KILLERS: usize, const HISTORY: usize>(
    m: &Match<G, E>,
) -> Expected {
    let mut tt = vec![TtEntry::EMPTY; m.tt_slots];
    let mut engine: SliceEngine<'_, G, &E, NoClock, KILLERS, HISTORY> =
        Engine::new_sized(&mut tt, &m.eval, NoClock, m.config);
    let mut moves = Vec::new();
    let finish = matches::play(m, &mut engine, |r| {
        let mut text = String::new();
        r.before.write_move(r.mv, &mut text).expect("write_move");
        moves.push(format!(
            "move {} {} value={} depth={} nodes={}",
            r.ply, text, r.value, r.depth, r.nodes
        ));
    })
    .unwrap_or_else(|e| panic!("{}: the host game loop failed: {e}", m.name));
    let perft = ply_core::perft::perft(&m.start, m.perft_depth);
    assert_eq!(
        perft, m.perft_expected,
        "{}: the host's perft({}) disagrees with the match's expected count",
        m.name, m.perft_depth
    );
    Expected {
        moves,
        result: format!(
            "result {} plies={} nodes={}",
            matches::result_text(finish.outcome),
            finish.plies,
            finish.nodes
        ),
        perft: format!("perft depth={} nodes={}", m.perft_depth, perft),
    }
}

/// Drops a trailing ` ticks=N` (the firmware's SysTick count) from a log line.
fn without_ticks(line: &str) -> &str {
    match line.rfind(" ticks=") {
        Some(i) => &line[..i],
        None => line,
    }
}

fn run_firmware(machine: Machine, name: &str) -> Run {
    let elf = firmware::elf_path(machine, name);
    firmware::run_qemu(machine, &elf, QEMU_TIMEOUT_S)
        .unwrap_or_else(|e| panic!("{} {name}: {e}", machine.name))
}

/// The host side's machine for `target`.
fn machine_of(target: Target) -> Machine {
    firmware::machine(target.name())
        .unwrap_or_else(|| panic!("no QEMU machine for the target {}", target.name()))
}

/// Compares one game's firmware log with the host; appends every difference to
/// `problems` and a summary to `summary`.
fn compare(
    name: &str,
    run: &Run,
    expected: &Expected,
    problems: &mut Vec<String>,
    summary: &mut String,
) {
    if let Some(e) = &run.decode_error {
        problems.push(format!("{name}: decoding the defmt log failed: {e}"));
    }
    if run.status != Some(0) {
        problems.push(format!(
            "{name}: QEMU exited with {:?} (0 = all checks passed, 1 = a FAIL line, 101 = panic, 102 = HardFault, 124 = timed out after {QEMU_TIMEOUT_S} s)",
            run.status
        ));
    }
    for line in &run.lines {
        if line.starts_with("FAIL") || line.starts_with("PANIC") || line.starts_with("HARDFAULT") {
            problems.push(format!("{name}: firmware reported: {line}"));
        }
    }
    let got_moves: Vec<&str> = run
        .lines
        .iter()
        .filter(|l| l.starts_with("move "))
        .map(String::as_str)
        .collect();
    if got_moves.len() != expected.moves.len() {
        problems.push(format!(
            "{name}: the firmware played {} moves, the host {}",
            got_moves.len(),
            expected.moves.len()
        ));
    }
    if let Some((i, (g, e))) = got_moves
        .iter()
        .zip(&expected.moves)
        .enumerate()
        .find(|(_, (g, e))| **g != e.as_str())
    {
        problems.push(format!(
            "{name}: first different move at ply {}: firmware `{g}`, host `{e}`",
            i + 1
        ));
    }
    let find = |prefix: &str| {
        run.lines
            .iter()
            .find(|l| l.starts_with(prefix))
            .map(|l| without_ticks(l).to_string())
    };
    match find("result ") {
        Some(r) if r == expected.result => {}
        got => problems.push(format!(
            "{name}: firmware `{}`, host `{}`",
            got.unwrap_or_else(|| "no result line".into()),
            expected.result
        )),
    }
    match find("perft ") {
        Some(p) if p == expected.perft => {}
        got => problems.push(format!(
            "{name}: firmware `{}`, host `{}`",
            got.unwrap_or_else(|| "no perft line".into()),
            expected.perft
        )),
    }
    for prefix in ["sizes ", "result ", "perft ", "stack "] {
        if let Some(l) = run.lines.iter().find(|l| l.starts_with(prefix)) {
            let _ = writeln!(summary, "{name}: {l}");
        }
    }
}

struct Compare {
    target: Target,
    machine: Machine,
    games: Vec<&'static str>,
    problems: Vec<String>,
    summary: String,
}

impl Visitor for Compare {
    fn visit<G: Game, E: Evaluator<G>>(&mut self, m: Match<G, E>) {
        self.games.push(m.name);
        let expected = host_expectation(self.target, &m);
        let run = run_firmware(self.machine, m.name);
        compare(
            m.name,
            &run,
            &expected,
            &mut self.problems,
            &mut self.summary,
        );
    }
}

fn built_firmware(machine: Machine) {
    if let Err(e) = firmware::check_prerequisites(machine) {
        panic!("{e}");
    }
    if let Err(e) = firmware::build(machine) {
        panic!("{e}");
    }
}

/// Builds the firmware for `target`, runs every game and the self-tests under
/// QEMU, and compares every game with the host (one run per target, so the
/// firmware is built once and the games run one after another).
fn firmware_matches_host(target: Target) {
    let machine = machine_of(target);
    built_firmware(machine);

    let mut c = Compare {
        target,
        machine,
        games: Vec::new(),
        problems: Vec::new(),
        summary: String::new(),
    };
    matches::all(target, &mut c);
    println!("{}", c.summary);
    assert!(!c.games.is_empty());
    assert!(
        c.problems.is_empty(),
        "the {} firmware disagrees with the host:\n{}",
        machine.name,
        c.problems.join("\n")
    );

    // The failure paths end QEMU with their own status instead of hanging.
    let panic = run_firmware(machine, "selftest_panic");
    assert_eq!(
        panic.status,
        Some(101),
        "panic self-test: {:?}",
        panic.lines
    );
    assert!(
        panic
            .lines
            .iter()
            .any(|l| l.starts_with("PANIC") && l.contains("deliberate panic 3")),
        "panic self-test: {:?}",
        panic.lines
    );
    let fault = run_firmware(machine, "selftest_hardfault");
    assert_eq!(
        fault.status,
        Some(102),
        "HardFault self-test: {:?}",
        fault.lines
    );
    assert!(
        fault.lines.iter().any(|l| l.starts_with("HARDFAULT")),
        "HardFault self-test: {:?}",
        fault.lines
    );
    // The tick counter under `-icount shift=0`: the machine's rate, never backwards.
    let ticks = run_firmware(machine, "selftest_ticks");
    assert_eq!(ticks.status, Some(0), "tick self-test: {:?}", ticks.lines);
    let per_40m: u64 = ticks
        .lines
        .iter()
        .find_map(|l| l.strip_prefix("ticks-per-40M-instructions "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("tick self-test: {:?}", ticks.lines));
    let want = machine.ticks_per_40m_instructions;
    assert!(
        (want - want / 1000..=want + want / 1000).contains(&per_40m),
        "{}: 40M instructions took {per_40m} ticks, expected {want}",
        machine.name
    );
    let mismatch = run_firmware(machine, "selftest_mismatch");
    assert_eq!(
        mismatch.status,
        Some(1),
        "mismatch self-test: {:?}",
        mismatch.lines
    );
    assert!(
        mismatch
            .lines
            .iter()
            .any(|l| l == "FAIL perft expected 505"),
        "mismatch self-test: {:?}",
        mismatch.lines
    );
}

#[test]
fn cortex_m4_firmware_under_qemu_matches_host() {
    firmware_matches_host(Target::CortexM4);
}

#[test]
fn cortex_m0_firmware_under_qemu_matches_host() {
    firmware_matches_host(Target::CortexM0);
}

#[test]
fn riscv32_firmware_under_qemu_matches_host() {
    firmware_matches_host(Target::Riscv32);
}

/// The won ending of `checkers_db` (Lasker's diagram 88, 2 pieces) as the firmware
/// plays it on each target (the host and the firmware play alike:
/// [`firmware_matches_host`]): White wins by the capture that ends the game in the
/// 9 plies the host's own database gives (built here in memory by `ply-host`'s
/// builder), 32-27 first, each move's value the database's score of the position
/// it leads to, as `ply --eval learned-db` scores it. Without the databases the
/// values would be the evaluation's and the search's.
#[test]
fn the_firmware_plays_a_database_ending_exactly() {
    const M4: Target = Target::CortexM4;
    const M0: Target = Target::CortexM0;
    let host = ply_host::draughts_db::build_in_memory(2, 2).unwrap().0;
    for target in Target::ALL {
        let m = matches::checkers_db(target);
        assert_eq!(
            host.probe(&m.start),
            Some(ply_core::games::draughts::db::Value::Win(9))
        );
        let played = if target == M4 {
            database_ending::<{ M4.killer_plies() }, { M4.history_slots() }>(&m)
        } else {
            database_ending::<{ M0.killer_plies() }, { M0.history_slots() }>(&m)
        };
        assert_eq!(played.len(), 9, "{}", target.name());
        assert_eq!(played[0].0.display_move(played[0].1).to_string(), "32-27");
        for (before, mv, value) in played {
            let child = before.play(mv).unwrap();
            if child.outcome().is_over() {
                // The capture that ends the game: a game's win, not a database's.
                assert_eq!(child.outcome(), Outcome::Win(Player::Second), "White wins");
                continue;
            }
            let v = host.probe(&child).unwrap();
            assert_eq!(
                value,
                -matches::FirmwareDraughtsEval::score(v, &child, 1),
                "{} on {}: {}, the child {:?} in the host's database",
                before,
                target.name(),
                before.display_move(mv),
                v
            );
        }
    }
}

/// The moves of `m` played with the engine's tables sized `KILLERS` and `HISTORY`:
/// each with the position before it and its value.
fn database_ending<const KILLERS: usize, const HISTORY: usize>(
    m: &Match<Draughts, matches::FirmwareDraughtsEval>,
) -> Vec<(
    Draughts,
    ply_core::games::draughts::Move,
    ply_core::search::Score,
)> {
    let mut tt = vec![TtEntry::EMPTY; m.tt_slots];
    let mut engine: SliceEngine<'_, Draughts, _, NoClock, KILLERS, HISTORY> =
        Engine::new_sized(&mut tt, &m.eval, NoClock, m.config);
    let mut played = Vec::new();
    matches::play(m, &mut engine, |r| played.push((r.before, r.mv, r.value))).unwrap();
    played
}

/// Every target of the firmware has its QEMU machine here, under the same name.
#[test]
fn every_target_has_a_machine() {
    for target in Target::ALL {
        let m = machine_of(target);
        assert_eq!(m.target, target.triple(), "{}", target.name());
    }
    assert_eq!(firmware::MACHINES.len(), Target::ALL.len());
}

/// Every budget searches at least one ply with a table that leaves most of the
/// RAM to the stack, and on the smallest parts (16 KiB of RAM; the goals of issue
/// 52) Kalah 6×4 searches 10 plies or more and English and Calgary draughts 6 or
/// more, with quiescence. (Whether each fits is the firmware's own check: its stack
/// high-water mark stays inside the RAM the linker left, and the link fails when
/// the flash or the static RAM does not fit.)
#[test]
fn budgets_are_sane() {
    for (name, budgets) in matches::BUDGETS {
        for target in Target::ALL {
            let b = budgets.on(target);
            assert!(b.depth >= 1, "{name} on {}: depth 0", target.name());
            assert!(b.tt_slots >= 1, "{name} on {}: no table", target.name());
            assert!(
                b.tt_slots * 16 < target.ram_bytes() / 2,
                "{name} on {}: a {}-slot table takes half the RAM or more",
                target.name(),
                b.tt_slots
            );
        }
    }
    for target in [Target::CortexM0, Target::Riscv32] {
        assert!(matches::KALAH.on(target).depth >= 10, "{}", target.name());
        for draughts in [
            matches::CHECKERS,
            matches::CHECKERS_DB,
            matches::CHECKERS_CALGARY,
        ] {
            let b = draughts.on(target);
            assert!(b.depth >= 6, "{}", target.name());
            assert!(b.quiescence_plies >= 1, "{}", target.name());
        }
        // The engine's killers cover every ply a draughts search can reach there.
        let b = matches::CHECKERS.on(target);
        assert!(
            target.killer_plies() > (b.depth + b.quiescence_plies) as usize,
            "{}",
            target.name()
        );
    }
}

/// Every firmware binary in `firmware-sim/src/bin` that is not a self-test is a
/// match in `matches::all`, and the other way round.
#[test]
fn every_game_binary_is_compared() {
    struct Names(Vec<&'static str>);
    impl Visitor for Names {
        fn visit<G: Game, E: Evaluator<G>>(&mut self, m: Match<G, E>) {
            self.0.push(m.name);
        }
    }
    let mut names = Names(Vec::new());
    matches::all(Target::CortexM4, &mut names);
    let mut listed: Vec<String> = names.0.iter().map(|s| s.to_string()).collect();
    listed.sort();
    let mut bins: Vec<String> = std::fs::read_dir(firmware::firmware_dir().join("src/bin"))
        .expect("firmware-sim/src/bin")
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".rs").map(str::to_string)
        })
        .filter(|n| !n.starts_with("selftest_"))
        .collect();
    bins.sort();
    assert_eq!(bins, listed);
}
