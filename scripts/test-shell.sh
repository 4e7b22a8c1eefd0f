#!/usr/bin/env bash
# Part of scripts/test.sh (CI): the project's shell scripts parse, and none pipes
# into a reader that stops before its input ends (`| head`, `| grep -q`, `| grep -m`,
# `| sed …q`, `| awk '… exit …'`). Under `set -o pipefail` such a reader leaves the
# writer a closed pipe: the writer dies of SIGPIPE (status 141) whenever it writes
# after the reader has gone, which depends on timing, and the script fails one run
# in a few (`ldconfig -p | awk '…; exit }'` in scripts/mpi-bundle.sh failed CI that
# way). Read to the end instead: `sed -n 1p`, `grep -c … >/dev/null`, `grep -m1 …
# FILE`, a here-string (`grep -q X <<<"$(cmd)"`), or awk with a flag (`!n++`).
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
files=$(git ls-files '*.sh' .ci/run)
for f in $files; do
  bash -n "$f" || { echo "$f: does not parse" >&2; status=1; }
done

# A pipe (not `||`) into a reader that may stop early; comment lines are skipped.
early='(^|[^|])\|[[:space:]]*(head([[:space:]]|$)|grep[[:space:]]+(-[[:alnum:]]*[qm]|--quiet|--max-count)|sed[[:space:]][^|]*[0-9/]q|awk[[:space:]][^|]*[^[:alnum:]_]exit[^[:alnum:]_])'
# shellcheck disable=SC2086 # the file names have no spaces (git ls-files above)
if grep -nE "$early" $files | grep -vE '^[^:]+:[0-9]+:[[:space:]]*#'; then
  echo "test-shell: the lines above pipe into a reader that stops early; under pipefail the writer's SIGPIPE fails the script at random (read to the end: see scripts/test-shell.sh)" >&2
  status=1
fi

[ "$status" = 0 ] && echo "shell: $(echo "$files" | wc -l) scripts parse; no pipe into an early-stopping reader"
exit "$status"
