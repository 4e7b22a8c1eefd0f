#!/usr/bin/env python3
"""A switch with latency, for scripts/netns-mpi.sh where the kernel has no netem.

Usage (as root, in the switch's network namespace): netns-relay.py DELAY_MS PORT...

Reads every frame that arrives on the PORTs (the switch's ends of the hosts' veth
links), holds it DELAY_MS milliseconds, then sends it out of the port where its
destination was last seen as a source (a learning switch), or out of every other port
(broadcasts, and destinations not seen yet). Frames keep their virtio-net header
(PACKET_VNET_HDR), so that the kernel segments large TCP frames and fills their
checksums as it would for a bridge. Says "ready" on standard error once every port is
bound; runs until killed.
"""

import collections
import select
import socket
import sys
import time

ETH_P_ALL = 0x0003
SOL_PACKET = 263
PACKET_VNET_HDR = 15
PACKET_OUTGOING = 4
VNET_HDR = 10  # struct virtio_net_hdr
BUFFER = 1 << 18


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        sys.exit("usage: netns-relay.py DELAY_MS PORT...")
    delay = int(sys.argv[1]) / 1000.0
    names = sys.argv[2:]
    socks = []
    for name in names:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.setsockopt(SOL_PACKET, PACKET_VNET_HDR, 1)
        s.bind((name, ETH_P_ALL))
        socks.append(s)
    port_of = {s.fileno(): i for i, s in enumerate(socks)}
    where = {}  # MAC address -> port
    held = collections.deque()  # (due, from port, frame)
    print("ready", file=sys.stderr, flush=True)
    while True:
        timeout = None
        if held:
            timeout = max(0.0, held[0][0] - time.monotonic())
        ready, _, _ = select.select(socks, [], [], timeout)
        for s in ready:
            i = port_of[s.fileno()]
            while True:
                try:
                    frame, addr = s.recvfrom(BUFFER, socket.MSG_DONTWAIT)
                except BlockingIOError:
                    break
                if addr[2] == PACKET_OUTGOING or len(frame) < VNET_HDR + 14:
                    continue
                where[frame[VNET_HDR + 6:VNET_HDR + 12]] = i
                held.append((time.monotonic() + delay, i, frame))
        now = time.monotonic()
        while held and held[0][0] <= now:
            _, i, frame = held.popleft()
            dest = frame[VNET_HDR:VNET_HDR + 6]
            to = where.get(dest) if not dest[0] & 1 else None
            for j in ([to] if to is not None else range(len(socks))):
                if j != i:
                    socks[j].send(frame)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
