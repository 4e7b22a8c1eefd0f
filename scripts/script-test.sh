# Sourced by the scripts/test-*.sh that run a measurement script on a small case
# (test-kalah-bench.sh, test-match-outside.sh), from the repository root:
#
#   source scripts/script-test.sh NAME
#
# gives $work, a scratch directory removed on exit; `bad MESSAGE`, which prints
# "NAME: MESSAGE" to stderr and sets $status to 1 (the test exits with $status at
# its end, so that every failure is reported); and $PLY, this checkout's release
# binary, built.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
script_test_name="$1"
bad() {
    echo "$script_test_name: $*" >&2
    status=1
}

cargo build --release --quiet -p ply-host --bin ply
export PLY="$PWD/target/release/ply"
