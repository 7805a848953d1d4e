"""Who a client is, for every budget and every key scope: an IPv4 address, or an IPv6 /64.

A phone on IPv6 gets a whole /64 from its network and may pick any address in it (privacy
addresses change by the hour): counting by the full address would give one phone 2^64
budgets. So an IPv6 client is its /64, an IPv4 one its address (an IPv4-mapped IPv6 address
is the IPv4 one). The address is the one ProxyFix vouched for, behind the proxy.
"""

from __future__ import annotations

import ipaddress

from flask import request

IPV6_CLIENT_PREFIX = 64


def client_of(address: str | None) -> str:
    """The client an address belongs to: "192.0.2.7", "2001:db8:1:2::/64"."""
    text = (address or "").strip()
    try:
        parsed = ipaddress.ip_address(text.split("%", 1)[0])  # a zone (fe80::1%eth0) aside
    except ValueError:
        return text or "unknown"  # no address (a test's client, a Unix socket): as it is
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        network = ipaddress.IPv6Network(f"{parsed}/{IPV6_CLIENT_PREFIX}", strict=False)
        return str(network)
    return str(parsed)


def request_client() -> str:
    """The client of the request being served (Flask-Limiter's key, the keys' scope)."""
    return client_of(request.remote_addr)
