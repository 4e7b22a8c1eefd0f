#!/usr/bin/env bash
# Part of scripts/test.sh (CI): `ply perft` and `ply tournament` under mpirun on this
# machine (host/tests/mpi/: 1, 2 and 3 ranks against one process, perft through one
# table across 1 to 4 ranks, a killed rank and --resume, two "hosts" on the
# loopback, four hosts as network namespaces with 1 ms links: scripts/netns-mpi.sh),
# with ply-host built with the `mpi` feature,
# and the checkpoint tests of one process (host/tests/cli/checkpoint.rs) with that
# build.
# Installs Open MPI and libclang first (scripts/setup-mpi.sh); lints the feature's code
# too. About a minute once built (the first build of the feature adds one or two).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-mpi.sh

echo "== cargo clippy -p ply-host --features mpi (all targets, -D warnings)"
cargo clippy -p ply-host --features mpi --all-targets -- -D warnings

echo "== MPI tests (cargo test -p ply-host --features mpi)"
start=$(date +%s)
# A hung job must not hang CI: the tests' own waits are shorter than this.
timeout 900 cargo test -p ply-host --features mpi --test mpi
timeout 900 cargo test -p ply-host --features mpi --test cli checkpoint::
echo "MPI tests: $(($(date +%s) - start)) s (build included)"
