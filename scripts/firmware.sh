#!/usr/bin/env bash
# Builds the Cortex-M4 firmware in firmware-sim/, runs every game's firmware under
# QEMU (with a time limit), decodes its defmt log and reports flash and RAM use.
# Installs what is missing first (scripts/setup-firmware.sh): QEMU and
# arm-none-eabi binutils (apt-get), the Rust target thumbv7em-none-eabihf (rustup).
#
#   scripts/firmware.sh            every game
#   scripts/firmware.sh kalah ...  only these games (names of firmware-sim/src/bin/*.rs)
#
# Exits non-zero if any firmware's exit status is not 0 (a failed check, a panic, a
# HardFault, or the time limit). The host comparison is the test
# `cargo test -p ply-tests --test firmware`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target=thumbv7em-none-eabihf
timeout_s="${FIRMWARE_TIMEOUT_S:-300}"

bash "$root/scripts/setup-firmware.sh"

echo "== building the firmware"
(cd "$root/firmware-sim" && cargo build --release --locked --bins --target "$target")
echo "== building the defmt decoder"
(cd "$root" && cargo build --quiet --locked -p ply-tests --bin ply-defmt-decode)
decode="$root/target/debug/ply-defmt-decode"

if (($#)); then
    games=("$@")
else
    games=()
    for f in "$root"/firmware-sim/src/bin/*.rs; do
        name="$(basename "$f" .rs)"
        [[ "$name" == selftest_* ]] || games+=("$name")
    done
fi

elf_dir="$root/firmware-sim/target/$target/release"
log_dir="$root/firmware-sim/target/logs"
mkdir -p "$log_dir"
failed=0
rows=()
sizes=()
for game in "${games[@]}"; do
    elf="$elf_dir/$game"
    if [ ! -f "$elf" ]; then
        echo "no firmware named $game (firmware-sim/src/bin/$game.rs)" >&2
        failed=1
        continue
    fi
    echo
    echo "== $game"
    arm-none-eabi-size "$elf"
    status=0
    timeout "$timeout_s" qemu-system-arm -machine mps2-an386 -cpu cortex-m4 -icount shift=0 \
        -nographic -semihosting-config enable=on,target=native -kernel "$elf" \
        >"$log_dir/$game.defmt" || status=$?
    "$decode" "$elf" "$log_dir/$game.defmt" | tee "$log_dir/$game.log" || failed=1
    # One row of the README's table: flash = text + data, static RAM = data + bss.
    read -r text data bss _ < <(arm-none-eabi-size "$elf" | tail -n 1)
    field() { grep -m1 "^$1 " "$log_dir/$game.log" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
    rows+=("| $game | $((text + data)) | $((data + bss)) | $(field stack used) | $(field result nodes) | $(field result ticks) | $(field perft depth): $(field perft nodes) | $(field perft ticks) | $(grep -m1 '^result ' "$log_dir/$game.log" | sed 's/^result \(.*\) plies=\([0-9]*\).*/\1, \2 plies/') |")
    sizes+=("| $game | $(field sizes state) | $(field sizes move) | $(field sizes movelist) | $(field sizes tt_slots) × $(field sizes tt_entry) = $(field sizes tt_bytes) | $(field sizes engine) |")
    case "$status" in
        0) echo "-- $game: exit 0, every check passed" ;;
        1) echo "-- $game: exit 1, a check failed (see FAIL above)"; failed=1 ;;
        101) echo "-- $game: exit 101, panic"; failed=1 ;;
        102) echo "-- $game: exit 102, HardFault"; failed=1 ;;
        124) echo "-- $game: stopped after ${timeout_s}s"; failed=1 ;;
        *) echo "-- $game: exit $status"; failed=1 ;;
    esac
done
echo
echo "| game | flash (B) | static RAM (B) | stack high-water (B) | game nodes | game SysTick ticks | perft depth: leaves | perft SysTick ticks | result |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
echo
echo "| game | state (B) | move (B) | move list (B) | transposition table: slots × entry = B | engine: killers + history (B) |"
echo "|---|---:|---:|---:|---:|---:|"
printf '%s\n' "${sizes[@]}"
exit "$failed"
