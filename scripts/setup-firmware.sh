#!/usr/bin/env bash
# Installs what the firmware in firmware-sim/ needs (idempotent): QEMU for Cortex-M
# and for RISC-V and arm-none-eabi binutils (apt-get), the Rust targets
# thumbv7em-none-eabihf (Cortex-M4F), thumbv6m-none-eabi (Cortex-M0) and
# riscv32imac-unknown-none-elf (32-bit RISC-V) (rustup).
# Run by scripts/setup.sh (so by scripts/test.sh and CI) and by scripts/firmware.sh.
set -euo pipefail

need_apt=()
command -v qemu-system-arm >/dev/null 2>&1 || need_apt+=(qemu-system-arm)
command -v qemu-system-riscv32 >/dev/null 2>&1 || need_apt+=(qemu-system-misc)
command -v arm-none-eabi-size >/dev/null 2>&1 || need_apt+=(binutils-arm-none-eabi)
if ((${#need_apt[@]})); then
  echo "== setup-firmware: installing ${need_apt[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=sudo
    else
      echo "setup-firmware: need root (or sudo) to apt-get install ${need_apt[*]}" >&2
      exit 1
    fi
  fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "${need_apt[@]}"
fi
if command -v rustup >/dev/null 2>&1; then
  installed="$(rustup target list --installed)"
  for t in thumbv7em-none-eabihf thumbv6m-none-eabi riscv32imac-unknown-none-elf; do
    grep -qx "$t" <<<"$installed" || rustup target add "$t"
  done
else
  echo "setup-firmware: rustup not found; the Rust targets thumbv7em-none-eabihf, thumbv6m-none-eabi and riscv32imac-unknown-none-elf must already be installed" >&2
fi
