#!/usr/bin/env bash
# Bounded-time fuzzing of every target in fuzz/ with cargo-fuzz (libFuzzer).
#
#   scripts/fuzz.sh                     # every target, 20 s each
#   scripts/fuzz.sh 60 kalah_play       # one target, 60 s
#   FUZZ_UPDATE_CORPUS=1 scripts/fuzz.sh # merge new coverage into fuzz/corpus/
#
# Only the stable toolchain is needed: cargo-fuzz passes nightly-only flags to rustc,
# which RUSTC_BOOTSTRAP=1 allows. cargo-fuzz itself comes from scripts/setup-fuzz.sh.
# The committed corpus (fuzz/corpus/TARGET) is read; new inputs go to a scratch
# directory unless FUZZ_UPDATE_CORPUS=1, so a run leaves the tree clean. A failing
# input is saved under fuzz/artifacts/TARGET/ and the script exits non-zero.
# At the end: one line per target with libFuzzer's count of executions.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

secs=${1:-20}
shift || true
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "fuzz: cargo-fuzz is not installed (bash scripts/setup-fuzz.sh installs it)" >&2
  exit 1
fi
export RUSTC_BOOTSTRAP=1
# Safe Rust only (ply-core forbids unsafe code): no sanitizer, which is several times
# faster; overflow checks and debug assertions stay on.
flags=(--sanitizer none --debug-assertions)

if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo fuzz list)
fi
cargo fuzz build "${flags[@]}" >/dev/null

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
summary=()
status=0
for t in "${targets[@]}"; do
  mkdir -p "$scratch/$t" "corpus/$t"
  log="$scratch/$t.log"
  # -timeout: an input that runs longer than 5 s is a hang and fails the run.
  if cargo fuzz run "${flags[@]}" "$t" "$scratch/$t" "corpus/$t" -- \
      -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
      >"$log" 2>&1; then
    result=ok
  else
    result=FAILED
    status=1
    { echo "== $t failed:"; grep -A2 'panicked' "$log" | sed -n 1,6p; grep -A1 'Failing input' "$log"; } >&2
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | sed 's/cov: //')
  summary+=("$(printf '%-20s %-6s %12s executions in %s s, coverage %s' "$t" "$result" "${execs:-?}" "$secs" "${cov:-?}")")
  if [ "$result" = ok ] && [ "${FUZZ_UPDATE_CORPUS:-0}" = 1 ]; then
    cargo fuzz run "${flags[@]}" "$t" "corpus/$t" "$scratch/$t" -- -merge=1 >/dev/null 2>&1
  fi
done
printf '%s\n' "${summary[@]}"
exit $status
