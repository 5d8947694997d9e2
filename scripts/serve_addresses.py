"""Print the addresses friends can use, once ``mahjong-server`` listens (used by scripts/serve).

Reads the server's standard output: on its ``{"listening": port}`` line, prints one
``ws://ADDRESS:PORT`` per network interface (``mahjong-cli --url …``) and the same
``http://…`` for the browser client (served on the same port); every other line is passed
on. Takes the server's arguments, to know ``--host`` and whether TLS is on.

    mahjong-server ARGS | python scripts/serve_addresses.py ARGS
"""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import json
import signal
import socket
import struct
import sys
from pathlib import Path

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def interface_addresses() -> list[tuple[str, str]]:
    """(interface, IPv4 address) of every interface that has one, loopback last."""
    out: list[tuple[str, str]] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            req = struct.pack("256s", name.encode()[:15])
            try:
                res = fcntl.ioctl(s.fileno(), SIOCGIFADDR, req)
            except OSError:  # no IPv4 address on it (or not Linux)
                continue
            out.append((name, socket.inet_ntoa(res[20:24])))
    if not out:  # elsewhere: the address of the default route, and loopback
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent
            out.append(("default", s.getsockname()[0]))
        out.append(("lo", "127.0.0.1"))
    return sorted(set(out), key=lambda x: (ipaddress.ip_address(x[1]).is_loopback, x))


def addresses(host: str, port: int, tls: bool) -> list[tuple[str, str, str]]:
    """(where, ws URL, http URL) for a server bound to ``host``."""
    ws, http = ("wss", "https") if tls else ("ws", "http")
    hosts = interface_addresses() if host in ("0.0.0.0", "", "::") else [("", host)]
    out = []
    for name, addr in hosts:
        shown = f"[{addr}]" if ":" in addr else addr
        try:
            loopback = ipaddress.ip_address(addr).is_loopback
        except ValueError:  # a host name
            loopback = addr == "localhost"
        where = "this machine only" if loopback else name
        out.append((where, f"{ws}://{shown}:{port}", f"{http}://{shown}:{port}/"))
    return out


def announcement(host: str, port: int, tls: bool, implementation: str = "") -> str:
    running = f" ({implementation} modules)" if implementation else ""
    lines = [f"mahjong-server is listening on port {port}{running}. Friends can connect with:"]
    found = addresses(host, port, tls)
    for where, ws, _ in found:
        lines.append(f"  mahjong-cli --url {ws}" + (f"    ({where})" if where else ""))
    lines.append("or with a browser (the browser client):")
    for where, _, http in found:
        lines.append(f"  {http}" + (f"    ({where})" if where else ""))
    return "\n".join(lines)


def _server_settings(argv: list[str]) -> tuple[str, bool]:
    """The server's ``--host`` and whether it serves TLS, as it reads its arguments."""
    try:
        from server.process.config import load_config

        cfg = load_config(argv)
    except (Exception, SystemExit):
        return "0.0.0.0", False
    return cfg.host, bool(cfg.tls_cert)


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server; we end at EOF
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            msg = None
        if isinstance(msg, dict) and isinstance(msg.get("listening"), int):
            host, tls = _server_settings(argv)
            impl = msg.get("implementation")
            shown = impl if isinstance(impl, str) else ""
            print(announcement(host, int(msg["listening"]), tls, shown), flush=True)
        else:
            sys.stdout.write(line)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main(sys.argv[1:]))
