#!/usr/bin/env bash
# Part of scripts/test-mpi.sh (CI): the folder scripts/mpi-bundle.sh packs runs on
# its own. With the system's OpenMPI, PMIx and their libraries hidden (a mount
# namespace: `unshare -m`, which needs root), the bundled `mpirun -np 2 ply` must
# give the counts and values of one process, and scripts/mpi-bench.sh must run
# from the bundle (PLY_BUNDLE). Where `unshare -m` is refused, the same runs go
# with the system's OpenMPI in sight, and the script says so.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if [[ "${1:-}" == --hidden ]]; then
    # Inside the namespace: hide, then run the checks.
    shift
    empty=$(mktemp -d)
    for d in /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 \
        /usr/share/openmpi /etc/openmpi; do
        if [[ -d "$d" ]]; then mount --bind "$empty" "$d"; fi
    done
    for f in /usr/bin/orterun /usr/bin/ompi_info /usr/lib/x86_64-linux-gnu/lib{mpi,open-rte,open-pal,pmix,event,hwloc,mca_common}*.so*; do
        if [[ -e "$f" ]]; then mount --bind /dev/null "$(readlink -f "$f")"; fi
    done
    if "$root/target/release/ply" --version >/dev/null 2>&1; then
        echo "test-mpi-bundle: the system's OpenMPI is still in sight" >&2
        exit 1
    fi
fi

bundle="${BUNDLE:-$root/target/mpi-bundle}"
if [[ "${1:-}" != --checks ]]; then
    bash scripts/mpi-bundle.sh "$bundle"
    # The answers of one process, from the build the bundle was made of.
    "$root/target/release/ply" perft checkers 9 --threads 1 2>/dev/null | sed -n 1p >"$bundle.want"
    "$root/target/release/ply" solve kalah:4x3 2>/dev/null | grep -E '^(value|move [0-9]+):' >>"$bundle.want"
    if unshare -m true 2>/dev/null; then
        echo "== the bundle with the system's OpenMPI hidden (unshare -m)"
        unshare -m bash "$0" --hidden --checks
    else
        echo "== the bundle (unshare -m refused: the system's OpenMPI stays in sight)"
        bash "$0" --checks
    fi
    rm -f "$bundle.want"
    exit 0
fi

# shellcheck source=/dev/null
source "$bundle/env.sh"
[[ "$(command -v mpirun)" == "$bundle/bin/mpirun" ]] ||
    { echo "test-mpi-bundle: mpirun is $(command -v mpirun), not the bundle's" >&2; exit 1; }
got=$(mktemp)
trap 'rm -f "$got"' EXIT
mpirun -np 2 ply perft checkers 9 --threads 1 2>/dev/null | sed -n 1p >"$got"
mpirun -np 2 ply solve kalah:4x3 2>/dev/null | grep -E '^(value|move [0-9]+):' >>"$got"
if ! diff -u "$bundle.want" "$got"; then
    echo "test-mpi-bundle: the bundle's mpirun -np 2 answered differently from one process" >&2
    exit 1
fi
echo "bundle: mpirun -np 2 perft 9 and solve kalah:4x3 as one process"
rm -rf "$got.runs"
trap 'rm -rf "$got" "$got.runs"' EXIT
PLY_BUNDLE="$bundle" DEPTHS=9 SOLVES=kalah:4x3 RANKS="1 2" RUNS=1 SAVE="$got.runs" \
    bash scripts/mpi-bench.sh >"$got"
rows=$(grep -c '^| perft checkers 9 \|^| solve kalah:4x3 ' "$got" || true)
if [[ "$rows" != 6 ]]; then
    cat "$got" >&2
    echo "test-mpi-bundle: mpi-bench from the bundle printed $rows rows, not 6" >&2
    exit 1
fi
echo "bundle: mpi-bench runs from it"
# The runs it saved (SAVE) feed the model of scale: one line a run, and a row for
# each rank count measured and each number of machines projected.
saved=$(wc -l <"$got.runs/runs.tsv")
python3 scripts/mpi-model.py "$got.runs" --job "perft 9" >"$got"
if [[ "$saved" != 6 ]] || ! grep -c '^| 2 | ' "$got" >/dev/null || ! grep -c '^| 256 | ' "$got" >/dev/null; then
    cat "$got" >&2
    echo "test-mpi-bundle: mpi-bench saved $saved runs (not 6), or mpi-model.py did not read them" >&2
    exit 1
fi
echo "bundle: mpi-bench's saved runs feed scripts/mpi-model.py"
