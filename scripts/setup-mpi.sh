#!/usr/bin/env bash
# Installs what `ply` built with the `mpi` feature needs (idempotent): OpenMPI (the
# library, its headers and mpirun) and libclang, which the `mpi` crate's build uses
# (bindgen) to read the MPI headers. Run by scripts/setup.sh (so by scripts/test.sh
# and CI) and by scripts/test-mpi.sh. See docs/mpi.md.
set -euo pipefail

need_apt=()
command -v mpirun >/dev/null 2>&1 || need_apt+=(openmpi-bin)
# mpicc comes with the headers; the mpi crate's build script asks it for the flags.
command -v mpicc >/dev/null 2>&1 || need_apt+=(libopenmpi-dev)
# libclang itself (libclang-cpp, which other packages bring, is not what bindgen loads).
have_libclang=0
for pattern in '/usr/lib/llvm-*/lib/libclang.so*' '/usr/lib/*/libclang-[0-9]*.so*' \
    '/usr/lib/*/libclang.so*'; do
  compgen -G "$pattern" >/dev/null && have_libclang=1
done
((have_libclang)) || need_apt+=(libclang-dev)
if ((${#need_apt[@]})); then
  echo "== setup-mpi: installing ${need_apt[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=sudo
    else
      echo "setup-mpi: need root (or sudo) to apt-get install ${need_apt[*]}" >&2
      exit 1
    fi
  fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${need_apt[@]}"
fi
