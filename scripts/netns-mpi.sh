#!/usr/bin/env bash
# Runs COMMAND under `mpirun` with one rank on each of HOSTS "hosts" (default 4): Linux
# network namespaces, each its own network stack with one address (10.77.0.1 to
# 10.77.0.HOSTS on eth0), joined by veth links to a switch in a namespace of its own,
# so that the ranks talk TCP between different network stacks, never over a
# loopback. DELAY_MS (default 1; 0 for none) adds that latency to every packet a host
# sends, with netem where the kernel has it (`tc qdisc ... netem delay`), otherwise
# with this script's own user-space switch (LINK=relay: netns-relay.py, which holds
# every frame DELAY_MS before passing it on). LINK=bridge|netem|relay chooses; the
# default (auto) is a plain kernel bridge without delay, netem with it, the relay
# where netem is missing. Needs root (ip netns).
#
#   scripts/netns-mpi.sh target/release/ply perft checkers 9
#   DELAY_MS=0 scripts/netns-mpi.sh -x PLY_ROUTE_REST target/release/ply perft checkers 13
#
# Leading `-x NAME` pairs go to mpirun (a variable for every rank). COMMAND's output
# passes through; the last line on standard error says what ran, e.g. "netns-mpi: 4
# hosts, 1 ms (netem), cpu 12.34 s (user 11.02, system 1.32), wall 5.67 s" (cpu: the
# user + system time of the ranks, COMMAND and what it started, summed; not Open
# MPI's daemons' nor the relay's). The exit status is COMMAND's (mpirun's); 77, with one line saying why,
# where namespaces (or the delay asked for) are not permitted here. Everything it
# makes (namespaces, links, the switch, a scratch folder) is removed on exit, however
# it ends. Used by host/tests/mpi/hosts.rs (four_hosts_in_network_namespaces_count_the_same);
# measurements in docs/mpi.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# mpirun's "ssh" (--mca plm_rsh_agent): `netns-mpi.sh --agent [ssh options] HOST
# COMMAND...` runs COMMAND (Open MPI's daemon) in the namespace of HOST, with a host
# name of its own.
if [[ "${1:-}" == "--agent" ]]; then
    shift
    while [[ $# -gt 0 && "$1" == -* ]]; do
        case "$1" in
            -o|-p|-l|-i|-F) shift 2 ;;
            *) shift ;;
        esac
    done
    host="$1"
    shift
    k="${host##*.}"
    k=$((k - 1))
    exec ip netns exec "${NETNS_MPI_TAG:?}-h$k" unshare --uts /bin/sh -c "hostname netns-h$k && exec $*"
fi
# A rank: `netns-mpi.sh --rank DIR COMMAND...` runs COMMAND, then writes its CPU time
# (`times`) to DIR/cpu.RANK.
if [[ "${1:-}" == "--rank" ]]; then
    dir="$2"
    shift 2
    set +e
    "$@"
    rc=$?
    times >"$dir/cpu.${OMPI_COMM_WORLD_RANK:-unknown}"
    exit $rc
fi

hosts="${HOSTS:-4}"
delay="${DELAY_MS:-1}"
link="${LINK:-auto}"
skip() {
    echo "netns-mpi: skipped: $*" >&2
    exit 77
}
[[ "$hosts" =~ ^[1-9][0-9]?$ ]] && ((hosts <= 16)) ||
    { echo "netns-mpi: HOSTS=$hosts is not a number of hosts from 1 to 16" >&2; exit 2; }
[[ "$delay" =~ ^[0-9]+$ ]] && ((delay <= 1000)) ||
    { echo "netns-mpi: DELAY_MS=$delay is not a whole number of milliseconds up to 1000" >&2; exit 2; }
case "$link" in
    auto|bridge|netem|relay) ;;
    *) echo "netns-mpi: LINK=$link is not auto, bridge, netem or relay" >&2; exit 2 ;;
esac
[[ "$link" == bridge ]] && ((delay > 0)) &&
    { echo "netns-mpi: LINK=bridge adds no delay: DELAY_MS must be 0" >&2; exit 2; }
mpi_opts=()
while [[ "${1:-}" == -x && $# -ge 2 ]]; do
    mpi_opts+=(-x "$2")
    shift 2
done
(($# > 0)) || { echo "usage: [HOSTS=N] [DELAY_MS=MS] [LINK=auto|bridge|netem|relay] netns-mpi.sh [-x NAME]... COMMAND..." >&2; exit 2; }
command -v mpirun >/dev/null || skip "no mpirun (bash scripts/setup-mpi.sh)"
command -v ip >/dev/null || skip "no ip command (iproute2)"
for tool in unshare python3 tc; do
    command -v "$tool" >/dev/null || skip "no $tool"
done

# Names unique to this run (an interface name has at most 15 characters).
tag="${NETNS_MPI_TAG:-nm$$}"
export NETNS_MPI_TAG="$tag"
sw="$tag-sw"
work="$(mktemp -d)"
relay_pid=""
mpirun_pid=""
# Waits up to 5 s for process $1 to be gone.
gone() {
    for ((i = 0; i < 100; i++)); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.05
    done
}
cleanup() {
    set +e
    if [[ -n "$mpirun_pid" ]]; then
        # Stopped early: mpirun ends its ranks and daemons when told to.
        kill "$mpirun_pid" 2>/dev/null && gone "$mpirun_pid"
    fi
    if [[ -n "$relay_pid" ]]; then
        # Closing its sockets can take the kernel a while: wait until it is gone.
        kill "$relay_pid" 2>/dev/null && gone "$relay_pid"
    fi
    # Deleting a namespace deletes its ends of the links and the switch's bridge.
    for ((k = 0; k < hosts; k++)); do
        ip netns del "$tag-h$k" 2>/dev/null
    done
    ip netns del "$sw" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$sw" 2>"$work/err" || skip "network namespaces are not permitted here ($(head -n1 "$work/err"))"
ip -n "$sw" link set lo up
if [[ "$link" == auto ]]; then
    link=bridge
    if ((delay > 0)); then
        # netem where the kernel has it: tried on the switch's loopback.
        if tc -n "$sw" qdisc add dev lo root netem delay 1ms 2>/dev/null; then
            tc -n "$sw" qdisc del dev lo root
            link=netem
        else
            link=relay
        fi
    fi
fi
for ((k = 0; k < hosts; k++)); do
    ns="$tag-h$k"
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    # eth0 in the host, its peer hK in the switch's namespace.
    ip -n "$ns" link add eth0 type veth peer name "h$k" netns "$sw"
    ip -n "$ns" addr add "10.77.0.$((k + 1))/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$sw" link set "h$k" up
done
ports=()
for ((k = 0; k < hosts; k++)); do ports+=("h$k"); done
case "$link" in
    bridge|netem)
        ip -n "$sw" link add br0 type bridge
        for p in "${ports[@]}"; do ip -n "$sw" link set "$p" master br0; done
        ip -n "$sw" link set br0 up
        if [[ "$link" == netem ]]; then
            for ((k = 0; k < hosts; k++)); do
                tc -n "$tag-h$k" qdisc add dev eth0 root netem delay "${delay}ms" 2>"$work/err" ||
                    skip "netem is not permitted here ($(head -n1 "$work/err"))"
            done
        fi
        ;;
    relay)
        ip netns exec "$sw" python3 "$here/netns-relay.py" "$delay" "${ports[@]}" 2>"$work/relay.err" &
        relay_pid=$!
        # Ready once it says so (it has bound every port).
        for ((i = 0; i < 100; i++)); do
            grep -q '^ready' "$work/relay.err" 2>/dev/null && break
            kill -0 "$relay_pid" 2>/dev/null || skip "the relay did not start ($(head -n1 "$work/relay.err"))"
            sleep 0.05
        done
        grep -q '^ready' "$work/relay.err" || skip "the relay did not start within 5 s"
        ;;
esac
# Host 0 reaches every other host before MPI starts: a TCP connection to a closed
# port is refused at once when the links work (and times out when they do not).
for ((k = 1; k < hosts; k++)); do
    ip netns exec "$tag-h0" timeout 5 bash -c "exec 3<>/dev/tcp/10.77.0.$((k + 1))/9" 2>"$work/err" ||
        grep -q "refused" "$work/err" ||
        { echo "netns-mpi: host 0 cannot reach 10.77.0.$((k + 1)) over the links" >&2; exit 1; }
done

hostlist=""
for ((k = 0; k < hosts; k++)); do hostlist+="${hostlist:+,}10.77.0.$((k + 1)):1"; done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=tcp,self OMPI_MCA_btl_tcp_if_include=eth0 OMPI_MCA_oob_tcp_if_include=eth0
export OMPI_MCA_btl_base_warn_component_unused=0 OMPI_MCA_plm_rsh_no_tree_spawn=1
export OMPI_MCA_plm_rsh_agent="$here/netns-mpi.sh --agent"
start=$(date +%s.%N)
# In the background, so that a signal to this script is handled at once (the trap
# stops mpirun, then removes the network).
ip netns exec "$tag-h0" unshare --uts /bin/sh -c 'hostname netns-h0 && exec "$@"' sh \
    mpirun --host "$hostlist" -np "$hosts" "${mpi_opts[@]}" "$here/netns-mpi.sh" --rank "$work" "$@" \
    </dev/null &
mpirun_pid=$!
set +e
wait "$mpirun_pid"
rc=$?
set -e
mpirun_pid=""
end=$(date +%s.%N)
# Each rank's `times`: its second line is the children's user and system time, as
# 0m1.234s each.
cpu=$(for f in "$work"/cpu.*; do [[ -f "$f" ]] && sed -n 2p "$f"; done | awk '{
        for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s[i] += t[1] * 60 + t[2] } }
    END { printf "%.2f s (user %.2f, system %.2f)", s[1] + s[2], s[1], s[2] }')
case "$link" in
    bridge) how="no delay (bridge)" ;;
    *) how="$delay ms ($link)" ;;
esac
echo "netns-mpi: $hosts hosts, $how, cpu $cpu, wall $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') s" >&2
exit $rc
