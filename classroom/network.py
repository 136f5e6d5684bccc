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


def live_class_line(argv: list[str]) -> str:
    """What ``make run`` says before Streamlit prints localhost: the address phones can open (``argv``: its arguments,
    for ``--server.port``)."""
    port = next((argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--server.port"), "8501")
    address = network_address()
    if address is None:
        return (f"A live class: phones cannot open http://localhost:{port}; connect this machine to the room's network "
                "and open the app at its network address.")
    return f"A live class: phones open http://{address}:{port}/live (http://localhost:{port} works on this machine only)."
