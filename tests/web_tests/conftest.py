"""The browser tests' fixtures: a real ``mahjong-server`` process (embedded Redis) serving the
built bundle, and Debian's ``/usr/bin/chromium`` through Playwright (never a downloaded
browser). Each test module gets its own server."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import leftovers
import pytest

from server.net.web import DEFAULT_ROOT

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(
    port: int | None = None,
    web_root: Path | None = None,
    data: str | None = None,
    extra: tuple[str, ...] = (),
) -> Iterator[str]:
    """A ``mahjong-server`` on ``port`` (a free one by default) serving the bundle in
    ``web_root`` (the built one by default), its data in ``data`` (a new directory by
    default, removed afterwards), with the flags ``extra`` (e.g. a short
    ``--grace-seconds``); yields its http URL."""
    port = port or free_port()
    own = data is None
    data = data or tempfile.mkdtemp(prefix="mahjong-web-")
    # this checkout's server (python -m server from its root), whatever is installed
    args = [
        sys.executable,
        "-m",
        "server",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data-dir",
        data,
    ]
    if web_root is not None:
        args += ["--web-root", str(web_root)]
    args += list(extra)
    log = open(Path(data) / f"server-{port}.log", "a")  # noqa: SIM115
    proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    leftovers.track(proc, data)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url + "/readyz", timeout=1)
                break
            except Exception:
                time.sleep(0.05)
        else:
            raise AssertionError(
                "mahjong-server did not come up: " + (Path(data) / f"server-{port}.log").read_text()
            )
        yield url
    finally:
        proc.terminate()
        proc.wait(15)
        log.close()
        if own:
            shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    assert (DEFAULT_ROOT / "index.html").is_file(), (
        "no web bundle in server/webapp: build it (bash scripts/serve, or "
        "cd clients/web && npm ci && npm run build)"
    )
    with serving() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).is_file(), "Debian's chromium is not installed (scripts/test installs it)"
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
