#!/usr/bin/env bash
# Builds the firmware in firmware-sim/ for each target, runs every game's firmware
# under QEMU (with a time limit), decodes its defmt log and reports flash, static
# RAM, stack use, depth and work per target. Installs what is missing first
# (scripts/setup-firmware.sh): QEMU for Arm and RISC-V and arm-none-eabi binutils
# (apt-get), the Rust targets (rustup).
#
#   scripts/firmware.sh                          every game on every target
#   scripts/firmware.sh kalah ...                only these games (names of firmware-sim/src/bin/*.rs)
#   scripts/firmware.sh --target cortex-m0 ...   only this target (cortex-m4, cortex-m0, riscv32; repeatable)
#
# Exits non-zero if any firmware's exit status is not 0 (a failed check, a panic, a
# HardFault, or the time limit). The host comparison is the test
# `cargo test -p ply-tests --test firmware`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
timeout_s="${FIRMWARE_TIMEOUT_S:-300}"

# name → Rust target, QEMU command line before the ELF, RAM bytes of the part,
# instructions per tick under `-icount shift=0` (SysTick at 25 MHz and 16 MHz on
# the Cortex-M boards, in thousandths; `mcycle` on RISC-V).
declare -A triple=(
    [cortex-m4]=thumbv7em-none-eabihf
    [cortex-m0]=thumbv6m-none-eabi
    [riscv32]=riscv32imac-unknown-none-elf
)
declare -A qemu=(
    [cortex-m4]="qemu-system-arm -machine mps2-an386 -cpu cortex-m4"
    [cortex-m0]="qemu-system-arm -machine microbit"
    [riscv32]="qemu-system-riscv32 -machine sifive_e"
)
declare -A ram=(
    [cortex-m4]=65536
    [cortex-m0]=16384
    [riscv32]=16384
)
declare -A milli_instructions_per_tick=(
    [cortex-m4]=40000
    [cortex-m0]=62500
    [riscv32]=1000
)
all_targets=(cortex-m4 cortex-m0 riscv32)

targets=()
games=()
while (($#)); do
    case "$1" in
        --target)
            if (($# < 2)) || [ -z "${triple[$2]+x}" ]; then
                echo "firmware.sh: --target needs one of: ${all_targets[*]}" >&2
                exit 2
            fi
            targets+=("$2")
            shift 2
            ;;
        -*)
            echo "firmware.sh: unknown option $1 (usage: firmware.sh [--target NAME]... [GAME]...)" >&2
            exit 2
            ;;
        *)
            if [ ! -f "$root/firmware-sim/src/bin/$1.rs" ]; then
                echo "firmware.sh: no firmware named $1 (firmware-sim/src/bin/$1.rs)" >&2
                exit 2
            fi
            games+=("$1")
            shift
            ;;
    esac
done
((${#targets[@]})) || targets=("${all_targets[@]}")
if ((${#games[@]} == 0)); then
    for f in "$root"/firmware-sim/src/bin/*.rs; do
        name="$(basename "$f" .rs)"
        [[ "$name" == selftest_* ]] || games+=("$name")
    done
fi

bash "$root/scripts/setup-firmware.sh"

echo "== building the defmt decoder"
(cd "$root" && cargo build --quiet --locked -p ply-tests --bin ply-defmt-decode)
decode="$root/target/debug/ply-defmt-decode"

failed=0
tables=()
for t in "${targets[@]}"; do
    target="${triple[$t]}"
    echo
    echo "== building the firmware for $t ($target)"
    (cd "$root/firmware-sim" && cargo build --release --locked --bins --target "$target")
    elf_dir="$root/firmware-sim/target/$target/release"
    log_dir="$root/firmware-sim/target/logs/$t"
    mkdir -p "$log_dir"
    rows=()
    sizes=()
    for game in "${games[@]}"; do
        elf="$elf_dir/$game"
        echo
        echo "== $t: $game"
        arm-none-eabi-size "$elf"
        status=0
        # shellcheck disable=SC2086 # the QEMU command line is words
        timeout "$timeout_s" ${qemu[$t]} -icount shift=0 \
            -nographic -semihosting-config enable=on,target=native -kernel "$elf" \
            >"$log_dir/$game.defmt" || status=$?
        "$decode" "$elf" "$log_dir/$game.defmt" | tee "$log_dir/$game.log" || failed=1
        # flash = text + data; static RAM = the RAM below the stack region (the
        # firmware logs that region's size); RAM left = what neither the static
        # data nor the deepest stack touched.
        read -r text data _ < <(arm-none-eabi-size "$elf" | tail -n 1)
        field() { { grep -m1 "^$1 " "$log_dir/$game.log" || true; } | tr ' ' '\n' | sed -n "s/^$2=//p"; }
        stack="$(field stack used)"
        region="$(field stack of)"
        static="?"
        left="?"
        if [ -n "$stack" ] && [ -n "$region" ]; then
            static=$((ram[$t] - region))
            left=$((region - stack))
        fi
        depth="$({ grep '^move ' "$log_dir/$game.log" || true; } | tr ' ' '\n' | sed -n 's/^depth=//p' | sort -n | tail -n 1)"
        nodes="$(field result nodes)"
        ticks="$(field result ticks)"
        per_node="?"
        if [ -n "$nodes" ] && [ -n "$ticks" ] && [ "$nodes" -gt 0 ]; then
            per_node=$((ticks * milli_instructions_per_tick[$t] / 1000 / nodes))
        fi
        rows+=("| $game | $((text + data)) | $static | $stack | $left | ${depth:-?} | $nodes | $ticks | $per_node | $(field perft depth): $(field perft nodes) | $(field perft ticks) | $({ grep -m1 '^result ' "$log_dir/$game.log" || echo "result none plies=0"; } | sed 's/^result \(.*\) plies=\([0-9]*\).*/\1, \2 plies/') |")
        sizes+=("| $game | $(field sizes state) | $(field sizes move) | $(field sizes movelist) | $(field sizes tt_slots) × $(field sizes tt_entry) = $(field sizes tt_bytes) | $(field sizes engine) |")
        case "$status" in
            0) echo "-- $t: $game: exit 0, every check passed" ;;
            1) echo "-- $t: $game: exit 1, a check failed (see FAIL above)"; failed=1 ;;
            101) echo "-- $t: $game: exit 101, panic"; failed=1 ;;
            102) echo "-- $t: $game: exit 102, HardFault"; failed=1 ;;
            124) echo "-- $t: $game: stopped after ${timeout_s}s"; failed=1 ;;
            *) echo "-- $t: $game: exit $status"; failed=1 ;;
        esac
    done
    tables+=("" "$t ($target, $((ram[$t] / 1024)) KiB of RAM):" ""
        "| game | flash (B) | static RAM (B) | stack high-water (B) | RAM left (B) | depth | game nodes | game ticks | instructions per node | perft depth: leaves | perft ticks | result |"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
        "${rows[@]}" ""
        "| game | state (B) | move (B) | move list (B) | transposition table: slots × entry = B | engine: killers + history (B) |"
        "|---|---:|---:|---:|---:|---:|"
        "${sizes[@]}")
done
printf '%s\n' "${tables[@]}"
exit "$failed"
