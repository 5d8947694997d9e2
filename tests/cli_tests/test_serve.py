"""scripts/serve's announcement: once the server listens, the addresses friends can use --
one ws:// per network interface (and http:// for the browser client) -- are printed, and
they work: a client connects to each."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import leftovers
import pytest

import mahjong_native
from clients.cli.model import ClientModel
from clients.cli.session import Session

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import serve_addresses  # noqa: E402


def test_every_interface_gets_an_address() -> None:
    found = serve_addresses.interface_addresses()
    assert ("lo", "127.0.0.1") in found and found[-1][1].startswith("127.")  # loopback last
    text = serve_addresses.announcement("0.0.0.0", 8765, tls=False)
    for _, addr in found:
        assert f"mahjong-cli --url ws://{addr}:8765" in text and f"http://{addr}:8765/" in text
    assert "ws://127.0.0.1:8765    (this machine only)" in text
    only = serve_addresses.announcement("10.1.2.3", 443, tls=True)
    assert "wss://10.1.2.3:443" in only and "https://10.1.2.3:443/" in only
    assert "127.0.0.1" not in only


async def test_the_printed_addresses_reach_the_server(tmp_path) -> None:
    """``mahjong-server --host 0.0.0.0 | serve_addresses.py``, as scripts/serve runs them: a
    client connects to every ws:// address printed."""
    from server_tests.conftest import RedisProc

    redis = RedisProc(tmp_path)
    args = ["--host", "0.0.0.0", "--port", "0", "--redis-url", redis.url, "--log-level", "WARNING"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "server", *args], stdout=subprocess.PIPE, env=env, cwd=ROOT
    )
    announcer = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "serve_addresses.py"), *args],
        stdin=server.stdout,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    leftovers.track(server)
    leftovers.track(announcer)
    assert server.stdout is not None and announcer.stdout is not None
    server.stdout.close()  # the announcer's now
    try:
        lines: list[str] = []
        loop = asyncio.get_running_loop()
        while not lines or not lines[-1].startswith("or with a browser"):
            line = await asyncio.wait_for(loop.run_in_executor(None, announcer.stdout.readline), 30)
            assert line, f"the announcer ended: {lines}"
            lines.append(line.rstrip("\n"))
        assert lines[0].startswith("mahjong-server is listening on port ")
        # which implementation runs, as the README says (the suite knows which it expects)
        impl = os.environ.get("MAHJONG_EXPECT_IMPL") or mahjong_native.implementation()
        assert f"({impl} modules)" in lines[0], lines[0]
        urls = [line.split("--url ")[1].split()[0] for line in lines if "--url " in line]
        assert len(urls) == len(serve_addresses.interface_addresses()) >= 1
        for url in urls:
            session = Session(url, "Ann", ClientModel(), lambda _: None)
            task = asyncio.create_task(session.run())
            try:
                await asyncio.wait_for(session.ready.wait(), 10)
            finally:
                await session.close()
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
    finally:
        server.terminate()
        server.wait(15)
        announcer.wait(15)  # it ends with the server's output
        redis.stop()
    assert announcer.returncode == 0


@pytest.mark.parametrize("pure", [False, True])
def test_version_names_the_release_and_the_implementation(pure: bool) -> None:
    """``mahjong-server --version``: the release and which modules run (README, "The two
    commands"); ``MAHJONG_PURE=1`` always runs the pure ones and says why."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if pure:
        env["MAHJONG_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, "-m", "server", "--version"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=True,
    ).stdout
    assert out.startswith("mahjong-server ")
    if pure:
        assert "pure Python (MAHJONG_PURE is set)" in out
    else:
        want = os.environ.get("MAHJONG_EXPECT_IMPL") or mahjong_native.implementation()
        assert ("compiled (mypyc" in out) == (want == "compiled"), out
