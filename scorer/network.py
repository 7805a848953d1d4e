"""Which address a phone on the same Wi-Fi should open: the machine's LAN address.

Finding it sends no packet: the host name's addresses are read from the resolver, and a UDP
socket is `connect()`ed (which only asks the kernel for a route; UDP sends nothing until
data is written). The choice among the addresses found is a pure function, tested alone.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import socket
from collections.abc import Iterable
from contextlib import suppress

LOOPBACK = "127.0.0.1"
# RFC 1918: the ranges home and club routers hand out.
PRIVATE_NETWORKS = tuple(
    ipaddress.IPv4Network(net) for net in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")
)
# A private address no one owns, only to ask the kernel which interface routes to a LAN.
_ROUTE_PROBE = ("10.254.254.254", 9)
# Names a browser on the machine itself uses: a phone cannot open them.
LOCAL_NAMES = frozenset({"localhost", "localhost.", "127.0.0.1", "::1", "0.0.0.0", "::"})
# Set by `python -m scorer.serve` so every worker shows the address the terminal printed.
ENV_LAN_ADDRESS = "SCORER_LAN_ADDRESS"


def is_private_ipv4(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return isinstance(ip, ipaddress.IPv4Address) and any(ip in net for net in PRIVATE_NETWORKS)


def choose_lan_address(addresses: Iterable[str]) -> str:
    """The first private (RFC 1918) IPv4 address; 127.0.0.1 when there is none."""
    for address in addresses:
        if is_private_ipv4(address):
            return address
    return LOOPBACK


def _host_name_addresses() -> list[str]:
    """The IPv4 addresses the machine's own name resolves to (often only 127.0.1.1)."""
    with suppress(OSError):
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        return [str(info[4][0]) for info in infos]
    return []


def _routed_address() -> list[str]:
    """The address of the interface that would route to a private network; sends nothing."""
    with suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.connect(_ROUTE_PROBE)
        return [str(sock.getsockname()[0])]
    return []


def candidate_addresses() -> list[str]:
    # The routed one first: the host name may also name a container bridge (172.17.0.1).
    return _routed_address() + _host_name_addresses()


def lan_address() -> str:
    """The address phones should open: the one `scorer.serve` chose, else found once."""
    chosen = os.environ.get(ENV_LAN_ADDRESS, "").strip()
    return chosen or _found_address()


@functools.cache
def _found_address() -> str:
    # Once per process: a scoreboard opened on localhost asks on every page, and the
    # machine's interfaces do not move under a running server.
    return choose_lan_address(candidate_addresses())


def split_host(host: str) -> tuple[str, int | None]:
    """A Host header's name and port: 'a:5000' -> ('a', 5000), '[::1]:80' -> ('::1', 80)."""
    host = host.strip()
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif host.count(":") == 1:
        name, _, port = host.partition(":")
    else:  # a bare name, or a bare IPv6 address
        name, port = host, ""
    return name.lower(), int(port) if port.isdigit() else None


def public_base_url(
    request_host: str, port: int, *, scheme: str = "http", lan: str | None = None
) -> str:
    """The address another phone can open, without a trailing slash.

    A page opened on the laptop itself (`localhost`) would hand out an address that means
    the phone itself: the machine's network address takes its place, on `port`.
    Any other host (a LAN address, a hosted name behind a proxy) is kept as the browser sent it.
    """
    name, _ = split_host(request_host)
    if name in LOCAL_NAMES or name.startswith("127."):
        address = lan if lan is not None else lan_address()
        return f"http://{address}:{port}"
    return f"{scheme}://{request_host.strip()}"
