#!/usr/bin/env bash
# Packs `ply` built with the `mpi` feature and the OpenMPI runtime it was built
# against into one folder that runs where neither Rust nor OpenMPI is installed and
# nothing can be downloaded (a lent measuring machine, a node without the packages):
#
#   scripts/mpi-bundle.sh [DIR]          (default: target/mpi-bundle)
#   source DIR/env.sh && mpirun -np 16 ply perft checkers 16 --threads 1
#   PLY_BUNDLE=DIR DEPTHS="15 16" RANKS="1 2 4 8 16" scripts/mpi-bench.sh
#
# DIR holds bin/ply and bin/mpirun, which start the real programs (libexec/) with
# the bundle's own C library and loader (glibc/), so that the target's C library,
# older or newer, does not matter; lib/ holds every other shared library they and
# OpenMPI's components load; OpenMPI's components and help texts lie where its
# relocation (OPAL_PREFIX) looks for them; env.sh points OPAL_PREFIX, PMIX_PREFIX,
# PATH and LD_LIBRARY_PATH at DIR. The target needs an x86-64 Linux kernel. See
# docs/mpi.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
dir="${1:-target/mpi-bundle}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

bash scripts/setup-mpi.sh
cargo build --release --locked -p ply-host --features mpi --bin ply

# OpenMPI's layout under its prefix (Debian: prefix /usr, components in
# /usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3, help in /usr/share/openmpi).
# The awk programs read to the end: one that exits at its first match leaves the
# writer a closed pipe, and `pipefail` turns the writer's SIGPIPE into a failure.
info() { ompi_info --path all | awk -v k="$1:" '$1 == k && !n++ { print $2 }'; }
prefix=$(info Prefix)
pkglib=$(info Pkglibdir)
pkgdata=$(info Pkgdatadir)
sysconf=$(info Sysconfdir)
for p in "$prefix" "$pkglib" "$pkgdata"; do
    [[ -d "$p" ]] || { echo "mpi-bundle: OpenMPI path '$p' (from ompi_info) is not a folder" >&2; exit 1; }
done
for p in "$pkglib" "$pkgdata"; do
    case "$p/" in "$prefix"/*) ;; *) echo "mpi-bundle: '$p' lies outside OpenMPI's prefix '$prefix'" >&2; exit 1 ;; esac
done
orterun=$(readlink -f "$(command -v mpirun)")
libpmix=$(ldconfig -p | awk '$1 == "libpmix.so.2" && !n++ { print $NF }')
[[ -n "$libpmix" ]] || { echo "mpi-bundle: libpmix.so.2 not found (ldconfig -p)" >&2; exit 1; }
pmix_prefix=$(dirname "$(dirname "$(readlink -f "$libpmix")")")

rm -rf "${dir:?}"/{bin,libexec,glibc,lib,share,env.sh}
mkdir -p "$dir/bin" "$dir/libexec" "$dir/glibc" "$dir/lib"
objcopy --strip-debug target/release/ply "$dir/libexec/ply"
cp "$orterun" "$dir/libexec/mpirun"
# The components, and the prefix-relative places OpenMPI and PMIx look in.
rel_lib="${pkglib#"$prefix"/}"
rel_data="${pkgdata#"$prefix"/}"
rel_pmix="${pmix_prefix#"$prefix"/}"
mkdir -p "$dir/$rel_lib" "$dir/$rel_data" "$dir/$rel_pmix"
cp -a "$pkglib"/. "$dir/$rel_lib/"
cp -a "$pkgdata"/. "$dir/$rel_data/"
[[ -d "$pmix_prefix/share" ]] && cp -a "$pmix_prefix/share" "$dir/$rel_pmix/"
# Every library the programs and the components load: the C library's own in
# glibc/ (never on LD_LIBRARY_PATH, where the target's own programs would pick
# them up), the others in lib/.
glibc='^(libc|libm|libdl|librt|libpthread|libgcc_s|ld-linux-x86-64|libresolv|libutil|libnss_[a-z]+)\.so'
for f in "$dir/libexec/ply" "$dir/libexec/mpirun" "$dir/$rel_lib"/*.so "$libpmix"; do
    ldd "$f" | awk '/=> \// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }'
done | sort -u | while read -r lib; do
    name=$(basename "$lib")
    if [[ $name =~ $glibc ]]; then
        cp -L "$lib" "$dir/glibc/$name"
    else
        cp -L "$lib" "$dir/lib/$name"
    fi
done
# The name-service modules the C library loads by name (user and host lookups).
for name in libnss_files.so.2 libnss_dns.so.2; do
    lib=$(ldconfig -p | awk -v n="$name" '$1 == n && !seen++ { print $NF }')
    if [[ -n "$lib" ]]; then cp -L "$lib" "$dir/glibc/$name"; fi
done
[[ -e "$dir/glibc/ld-linux-x86-64.so.2" ]] ||
    { echo "mpi-bundle: the loader ld-linux-x86-64.so.2 was not found (ldd)" >&2; exit 1; }
for prog in ply mpirun; do
    {
        echo '#!/bin/sh'
        echo "# Starts libexec/$prog with the bundle's loader and C library (scripts/mpi-bundle.sh)."
        echo 'b=$(dirname "$(dirname "$(readlink -f "$0")")")'
        echo "exec \"\$b/glibc/ld-linux-x86-64.so.2\" --library-path \"\$b/glibc:\$b/lib\" --argv0 \"\$0\" \"\$b/libexec/$prog\" \"\$@\""
    } >"$dir/bin/$prog"
    chmod +x "$dir/bin/$prog"
done

cat >"$dir/env.sh" <<EOF
# Source this to run the bundled ply and mpirun (written by scripts/mpi-bundle.sh).
b="\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)"
export OPAL_PREFIX="\$b"
export PMIX_PREFIX="\$b/$rel_pmix"
export PATH="\$b/bin:\$PATH"
export LD_LIBRARY_PATH="\$b/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
# Root may run ranks (a lent machine runs commands as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_base_warn_component_unused=0
# No single-copy transfers between ranks (they need process_vm_readv, which some
# sandboxes refuse); ply's messages are a few words.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export PMIX_PKGDATADIR="\$b/$rel_pmix/share/pmix"
unset b
EOF
# The settings OpenMPI's packagers put in its configuration file (Debian's turn off
# the InfiniBand and UCX components), which the bundle's OpenMPI does not read.
if [[ -f "$sysconf/openmpi-mca-params.conf" ]]; then
    sed -n 's/^[[:space:]]*\([a-z_0-9]*\)[[:space:]]*=[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*$/export OMPI_MCA_\1='"'"'\2'"'"'/p' \
        "$sysconf/openmpi-mca-params.conf" >>"$dir/env.sh"
fi

echo "mpi-bundle: $dir, $(du -sh "$dir" | cut -f1)"
