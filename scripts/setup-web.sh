#!/usr/bin/env bash
# Installs what the browser test (scripts/test-web.sh) needs beyond scripts/web.sh's
# own installs (idempotent): Debian's Chromium, run headless. Run by scripts/setup.sh
# (so by scripts/test.sh and CI) and by scripts/test-web.sh.
set -euo pipefail

if ! command -v chromium >/dev/null 2>&1; then
  echo "== setup-web: installing chromium"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=sudo
    else
      echo "setup-web: need root (or sudo) to apt-get install chromium" >&2
      exit 1
    fi
  fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends chromium
fi
