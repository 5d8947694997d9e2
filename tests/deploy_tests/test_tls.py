"""wss:// end to end: ``mahjong-server --tls-cert/--tls-key`` and the client-side contexts of
``protocol.tls``, with a CA and certificate the test makes."""

from __future__ import annotations

import ssl
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest
from drills.procs import ROOT, RedisNode, ServerProcess
from websockets.asyncio.client import connect

from deploy_tests.certs import Certs, make_certs
from protocol.tls import (
    TLSConfigError,
    client_ssl_for_url,
    make_client_ssl_context,
    make_server_ssl_context,
)

pytestmark = pytest.mark.timeout(90)


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    return make_certs(tmp_path_factory.mktemp("certs"))


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory, certs: Certs):  # type: ignore[no-untyped-def]
    r = RedisNode(tmp_path_factory.mktemp("redis-tls"), "--appendonly", "no")
    s = ServerProcess(
        "--redis-url", r.url, "--tls-cert", str(certs.cert), "--tls-key", str(certs.key)
    )
    yield s
    s.stop()
    r.stop()


async def hello(url: str, ctx: ssl.SSLContext | None) -> dict:  # type: ignore[type-arg]
    async with connect(url, ssl=ctx, open_timeout=10) as ws:
        await ws.send(msgpack.packb({"type": "hello", "v": 1, "name": "tls", "id": 1}))
        reply = msgpack.unpackb(await ws.recv(), raw=False)
    return reply  # type: ignore[no-any-return]


async def test_wss_with_the_private_ca_verifies_and_plays(tls_server, certs):
    url = f"wss://localhost:{tls_server.port}/"
    reply = await hello(url, client_ssl_for_url(url, ca_file=certs.ca))
    assert reply["type"] == "welcome" and reply["re"] == 1


async def test_system_trust_store_rejects_the_self_signed_ca(tls_server):
    url = f"wss://localhost:{tls_server.port}/"
    with pytest.raises(ssl.SSLCertVerificationError):
        await hello(url, make_client_ssl_context())


async def test_host_name_is_verified(tls_server, certs):
    # the certificate names localhost only: 127.0.0.1 must be refused even with the right CA
    url = f"wss://127.0.0.1:{tls_server.port}/"
    with pytest.raises(ssl.SSLCertVerificationError, match=r"mismatch|match"):
        await hello(url, make_client_ssl_context(certs.ca))


async def test_insecure_flag_skips_verification(tls_server):
    url = f"wss://127.0.0.1:{tls_server.port}/"
    reply = await hello(url, make_client_ssl_context(insecure=True))
    assert reply["type"] == "welcome"


async def test_plain_ws_to_a_tls_port_fails(tls_server):
    with pytest.raises(Exception) as info:
        await hello(f"ws://localhost:{tls_server.port}/", None)
    assert not isinstance(info.value, AssertionError)


def test_health_endpoint_over_https(tls_server, certs):
    import http.client

    ctx = make_client_ssl_context(certs.ca)
    c = http.client.HTTPSConnection("localhost", tls_server.port, context=ctx, timeout=10)
    c.request("GET", "/healthz")
    r = c.getresponse()
    assert r.status == 200 and r.read() == b"ok\n"


def test_url_scheme_decides(certs):
    assert client_ssl_for_url("ws://h:1/") is None
    ctx = client_ssl_for_url("WSS://h:1/", ca_file=certs.ca)
    assert ctx is not None and ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname
    assert ctx.minimum_version >= ssl.TLSVersion.TLSv1_2
    with pytest.raises(TLSConfigError):
        client_ssl_for_url("ws://h:1/", ca_file=certs.ca)
    with pytest.raises(TLSConfigError):
        client_ssl_for_url("http://h:1/")


def test_bad_files_are_reported(tmp_path: Path, certs):
    with pytest.raises(TLSConfigError, match="does not exist"):
        make_server_ssl_context(tmp_path / "nope.pem", certs.key)
    with pytest.raises(TLSConfigError, match="does not exist"):
        make_client_ssl_context(tmp_path / "nope.pem")
    with pytest.raises(TLSConfigError, match="cannot load"):
        make_server_ssl_context(certs.cert, certs.ca)  # a key that is not the key


@pytest.mark.parametrize(
    "args",
    [["--tls-cert", "x.pem"], ["--tls-key", "x.key"], ["--tls-cert", "/nope", "--tls-key", "/no"]],
)
def test_server_refuses_incomplete_tls_flags(args: list[str]):
    out = subprocess.run(
        [sys.executable, "-m", "server", "--redis-url", "redis://127.0.0.1:1", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 2, out.stderr


async def _cli_session_status(url: str, **tls: object) -> tuple[bool, list[str]]:
    """Run the terminal client's session against ``url``; (welcomed?, status lines)."""
    import asyncio

    from clients.cli.model import ClientModel
    from clients.cli.session import Session

    status: list[str] = []
    session = Session(
        url, "tls-cli", ClientModel(), lambda _lines: None, None, status.append, **tls
    )  # type: ignore[arg-type]
    task = asyncio.get_running_loop().create_task(session.run())
    welcomed = False
    for _ in range(200):  # up to 10 s: welcomed, or a connection / TLS failure reported
        if session.ready.is_set():
            welcomed = True
            break
        if any(x.startswith(("cannot connect", "TLS settings")) for x in status):
            break
        await asyncio.sleep(0.05)
    await session.close()
    task.cancel()
    return welcomed, status


async def test_terminal_client_connects_over_wss(tls_server, certs):
    url = f"wss://localhost:{tls_server.port}/"
    ok, _ = await _cli_session_status(url, ca_file=str(certs.ca))
    assert ok
    ok, status = await _cli_session_status(url)  # the system trust store: refused
    assert not ok and any("cannot connect" in s for s in status)
    ok, status = await _cli_session_status(f"ws://localhost:{tls_server.port}/", insecure=True)
    assert not ok and any("TLS settings" in s for s in status)
