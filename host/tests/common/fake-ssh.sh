#!/usr/bin/env bash
# Stands in for ssh in the MPI tests' two "hosts" on one machine: `mpirun --mca
# plm_rsh_agent THIS` calls it as `THIS [ssh options] HOST COMMAND...`; it runs COMMAND
# here, in a UTS namespace of its own whose host name is HOST, so Open MPI sees
# another node (and its ranks talk TCP on the loopback, as on two machines).
set -euo pipefail
while [[ $# -gt 0 && "$1" == -* ]]; do
  case "$1" in
    -o|-p|-l|-i|-F) shift 2 ;;
    *) shift ;;
  esac
done
host="$1"
shift
exec unshare --uts /bin/sh -c "hostname 'fake-$host' && exec $*"
