"""TLS contexts for ``wss://``: one policy for the server and every client.

Server side (``mahjong-server --tls-cert FILE --tls-key FILE``)::

    ssl=make_server_ssl_context(cert_file, key_file)

Client side (the CLI, bots, load tests)::

    from protocol.tls import client_ssl_for_url
    async with websockets.asyncio.client.connect(url, ssl=client_ssl_for_url(url, ca_file)):
        ...

``make_client_ssl_context`` always verifies the server's certificate chain *and* host name
against the system trust store, or against ``ca_file`` (a PEM bundle, e.g. the certificate of a
self-signed server or of a private CA) when given. ``insecure=True`` turns verification off
entirely; it exists for throw-away local tests and must never be the default of a user-facing
tool (prefer ``ca_file``: it keeps the connection authenticated).

Both contexts require TLS 1.2 or newer. Stdlib only, no I/O beyond reading the given files.
"""

from __future__ import annotations

import ssl
from pathlib import Path
from urllib.parse import urlsplit

MIN_VERSION = ssl.TLSVersion.TLSv1_2


class TLSConfigError(ValueError):
    """A certificate/key file is missing or unusable (raised before any socket is opened)."""


def _readable(path: str | Path, what: str) -> str:
    p = Path(path)
    if not p.is_file():
        raise TLSConfigError(f"{what} {str(p)!r} does not exist or is not a file")
    return str(p)


def make_server_ssl_context(cert_file: str | Path, key_file: str | Path) -> ssl.SSLContext:
    """A server context for ``websockets.asyncio.server.serve(..., ssl=...)``.

    ``cert_file`` is the PEM certificate chain (leaf first, as written by certbot's
    ``fullchain.pem``), ``key_file`` its private key.
    """
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = MIN_VERSION
    try:
        ctx.load_cert_chain(
            _readable(cert_file, "TLS certificate"), _readable(key_file, "TLS private key")
        )
    except ssl.SSLError as exc:
        raise TLSConfigError(f"cannot load the TLS certificate/key: {exc}") from exc
    ctx.set_alpn_protocols(["http/1.1"])
    return ctx


def make_client_ssl_context(
    ca_file: str | Path | None = None, insecure: bool = False
) -> ssl.SSLContext:
    """A client context that verifies the server (system CAs, or ``ca_file`` when given).

    ``insecure=True``: no certificate or host name verification at all (local testing only).
    """
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # check_hostname + CERT_REQUIRED
    ctx.minimum_version = MIN_VERSION
    if insecure:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        return ctx
    if ca_file is not None:
        try:
            ctx.load_verify_locations(cafile=_readable(ca_file, "CA file"))
        except ssl.SSLError as exc:
            raise TLSConfigError(f"cannot load the CA file: {exc}") from exc
    else:
        ctx.load_default_certs(ssl.Purpose.SERVER_AUTH)
    return ctx


def client_ssl_for_url(
    url: str, ca_file: str | Path | None = None, insecure: bool = False
) -> ssl.SSLContext | None:
    """The ``ssl=`` argument for connecting to ``url``: a verifying context for ``wss://``,
    ``None`` for ``ws://`` (websockets refuses an SSL context for a plain URL)."""
    scheme = urlsplit(url).scheme.lower()
    if scheme == "wss":
        return make_client_ssl_context(ca_file, insecure)
    if scheme == "ws":
        if ca_file is not None or insecure:
            raise TLSConfigError("a CA file / insecure mode only makes sense with a wss:// URL")
        return None
    raise TLSConfigError(f"not a WebSocket URL (ws:// or wss://): {url!r}")
