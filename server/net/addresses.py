"""Where each connection comes from, and how many connections each address holds (``--max-conns-per-address``).

A connection's **client address** is its peer's, unless the peer is a trusted proxy
(``--trusted-proxies``, default the loopback addresses: nginx on the same machine) that sent
``X-Forwarded-For``: then it is the rightmost forwarded address that is not itself a trusted
proxy -- the one the first trusted proxy saw. Addresses further left were written by the
client and are never believed. IPv4 addresses count one by one; IPv6 ones by their /64 (one
home or phone connection gets a whole /64). An IPv4 address mapped into IPv6 (a dual-stack
listener) counts as the IPv4 address.

:class:`AddressCounts` keeps the number of open connections per client address; addresses in
``--conn-limit-exempt`` (default loopback: tools and load tests on the server's own machine;
a client behind a local proxy is known by its forwarded address, which is not loopback) are
not limited. Pure: no sockets, no websockets; :mod:`server.net.transport` reads the peer and the
header of a connection."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

__all__ = ["AddressCounts", "Network", "client_address", "parse_networks"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
IP = ipaddress.IPv4Address | ipaddress.IPv6Address
#: a forwarded entry that is not an address is used as it is (cut to this length)
MAX_KEY = 64


def parse_networks(spec: str) -> tuple[Network, ...]:
    """``"127.0.0.1, ::1, 10.0.0.0/8"``: addresses and networks, comma-separated (empty:
    none). Raises ValueError naming the first one that is neither."""
    out: list[Network] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            out.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"not an address or network: {part!r}") from None
    return tuple(out)


def _ip(text: str) -> IP | None:
    """An address as a peer or a proxy gives it: ``1.2.3.4``, ``1.2.3.4:5678``, ``::1``,
    ``[::1]:5678``, ``fe80::1%eth0`` (None: not an address)."""
    t = text.strip()
    if t.startswith("["):
        t = t[1:].split("]", 1)[0]
    elif t.count(":") == 1:
        t = t.split(":", 1)[0]  # IPv4 with a port
    t = t.split("%", 1)[0]
    try:
        ip = ipaddress.ip_address(t)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _in(ip: IP, networks: Iterable[Network]) -> bool:
    return any(ip.version == n.version and ip in n for n in networks)


def client_address(
    peer: str | None, forwarded: Iterable[str], trusted: tuple[Network, ...]
) -> str | None:
    """The client address of a connection: the ``peer``'s, or, when the peer is in
    ``trusted`` and ``forwarded`` (the values of its ``X-Forwarded-For`` headers, in order)
    names addresses, the rightmost of them that is not in ``trusted`` (all trusted: the
    leftmost). None: no peer address (a Unix socket)."""
    ip = _ip(peer) if peer is not None else None
    if ip is None:
        return None
    if not _in(ip, trusted):
        return str(ip)
    hops = [h.strip() for value in forwarded for h in value.split(",") if h.strip()]
    for hop in reversed(hops):
        hop_ip = _ip(hop)
        if hop_ip is None:
            return hop[:MAX_KEY]  # what the trusted proxy before it was told: used as it is
        ip = hop_ip
        if not _in(ip, trusted):
            break
    return str(ip)


class AddressCounts:
    """Open connections per client address, at most ``limit`` each (0: no limit); the
    addresses in ``exempt`` are not limited. IPv6 addresses count by their /64."""

    def __init__(self, limit: int, exempt: tuple[Network, ...] = ()) -> None:
        self.limit = max(0, limit)
        self.exempt = exempt
        self.counts: dict[str, int] = {}

    def key(self, address: str | None) -> str | None:
        """What ``address`` (a :func:`client_address`) counts as; None: it is not limited."""
        if self.limit == 0 or address is None:
            return None
        ip = _ip(address)
        if ip is None:
            return address
        if _in(ip, self.exempt):
            return None
        if isinstance(ip, ipaddress.IPv6Address):
            return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
        return str(ip)

    def full(self, address: str | None) -> bool:
        """``address`` holds as many connections as it may: one more is refused."""
        key = self.key(address)
        return key is not None and self.counts.get(key, 0) >= self.limit

    def add(self, address: str | None) -> bool:
        """Count one more connection of ``address``; False (nothing counted): it holds as
        many as it may already."""
        key = self.key(address)
        if key is None:
            return True
        n = self.counts.get(key, 0)
        if n >= self.limit:
            return False
        self.counts[key] = n + 1
        return True

    def remove(self, address: str | None) -> None:
        """One connection of ``address`` that :meth:`add` counted has closed."""
        key = self.key(address)
        if key is None:
            return
        n = self.counts.get(key, 0)
        if n <= 1:
            self.counts.pop(key, None)
        else:
            self.counts[key] = n - 1
