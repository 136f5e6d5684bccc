"""Which address phones can reach: a browser that opened the app at localhost would put localhost in the join link.

Only the standard library: the address of the interface a packet to the outside would leave by (a UDP socket's
``connect`` picks the route and sends nothing), or None when the machine has no network.
"""

from __future__ import annotations

import ipaddress
import socket


def is_loopback(host: str) -> bool:
    """Does ``host`` (a name or an address, without the port) name this machine only (phones cannot reach it)?"""
    host = host.strip("[]").lower()
    if host in ("localhost", "") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback or ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def network_address() -> str | None:
    """This machine's address on its network (such as 192.168.1.20), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere; nothing is sent
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if is_loopback(address) else address
