"""The browser client's files on the WebSocket's port (server/net/web.py): the app at ``/`` and
``/r/<code>``, hashed assets cached for good with pre-compressed copies, and nothing outside
the bundle, however the path is spelled."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
from pathlib import Path

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import serve

from server.app import App
from server.net.web import IMMUTABLE, NO_BUNDLE, NO_CACHE, Site
from server.storage.store import Store
from server_tests.conftest import make_config

pytestmark = pytest.mark.timeout(60)

INDEX = b"<!doctype html><title>mahjong</title><script src=/assets/app-abc123.js></script>"
JS = b"console.log('hello from the bundle');\n" * 40


async def get(port: int, path: str, *headers: str) -> tuple[int, dict[str, str], bytes]:
    """(status, headers with lower-case names, body) of a raw HTTP/1.1 GET: the path is sent
    exactly as given (no client-side normalisation of ``..`` or ``%2e``)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    extra = "".join(h + "\r\n" for h in headers)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    out = {}
    for h in lines[1:]:
        k, _, v = h.partition(":")
        out[k.strip().lower()] = v.strip()
    return int(lines[0].split()[1]), out, body


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    root = tmp_path / "webapp"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_bytes(INDEX)
    (root / "favicon.svg").write_bytes(b"<svg xmlns='http://www.w3.org/2000/svg'/>")
    (root / "assets" / "app-abc123.js").write_bytes(JS)
    (root / "assets" / "app-abc123.js.gz").write_bytes(gzip.compress(JS))
    (root / "assets" / "app-abc123.js.br").write_bytes(b"pretend-brotli")
    # files next to the bundle that must never be reachable
    (tmp_path / "secret.txt").write_text("outside the bundle")
    (root / ".hidden").write_text("dotfile")
    return root


@contextlib.asynccontextmanager
async def serving(redis_url: str, root: Path):  # type: ignore[no-untyped-def]
    app = App(make_config(), Store.from_url(redis_url))
    app.web = Site(root)
    async with serve(app.handler, "127.0.0.1", 0, process_request=app.process_request) as s:
        yield next(iter(s.sockets)).getsockname()[1]
    with contextlib.suppress(Exception):
        await app.store.close()


async def test_app_assets_and_caching(redis_url: str, bundle: Path) -> None:
    async with serving(redis_url, bundle) as port:
        for path in (
            "/",
            "/index.html",
            "/r/K7QX2M",
            "/r/k7qx-2m",
            "/?x=1",
            "/g/aB3_x-9ZqL0pR7sT",
            "/g/R1-3?hand=2&step=41",
            "/my",
        ):
            status, h, body = await get(port, path)
            assert (status, body) == (200, INDEX), path
            assert h["content-type"] == "text/html; charset=utf-8"
            assert h["cache-control"] == NO_CACHE

        status, h, body = await get(port, "/assets/app-abc123.js")
        assert (status, body) == (200, JS)
        assert h["cache-control"] == IMMUTABLE
        assert h["content-type"].startswith("text/javascript")
        assert "content-encoding" not in h and h["vary"] == "Accept-Encoding"

        status, h, body = await get(port, "/assets/app-abc123.js", "Accept-Encoding: gzip, deflate")
        assert status == 200 and h["content-encoding"] == "gzip"
        assert gzip.decompress(body) == JS and int(h["content-length"]) == len(body)

        status, h, body = await get(port, "/assets/app-abc123.js", "Accept-Encoding: gzip, br")
        assert (status, h["content-encoding"], body) == (200, "br", b"pretend-brotli")

        status, h, _ = await get(port, "/favicon.svg")
        assert status == 200 and h["content-type"] == "image/svg+xml"


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/assets/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt",
        "/%252e%252e/secret.txt",
        "/..\\secret.txt",
        "/assets/..%5c..%5csecret.txt",
        "//etc/passwd",
        "/etc/passwd",
        "/assets/app-abc123.js.gz",
        "/assets/app-abc123.js.br",
        "/.hidden",
        "/assets/",
        "/assets",
        "/r/",
        "/r/../index.html",
        "/r/K7QX2M/extra",
        "/r/%2e%2e",
        "/g/",
        "/g/../index.html",
        "/g/abc/log",
        "/g/%2e%2e",
        "/my/",
        "/mygames",
        "/index.html/",
        "/./index.html",
        "/assets/./app-abc123.js",
        "/ASSETS/app-abc123.js",
        "/nope",
    ],
)
async def test_nothing_outside_the_bundle(redis_url: str, bundle: Path, path: str) -> None:
    async with serving(redis_url, bundle) as port:
        status, _, body = await get(port, path)
        assert status == 404, path
        assert b"outside" not in body and b"dotfile" not in body and b"mahjong" not in body


async def test_websocket_on_any_path_and_no_bundle(redis_url: str, tmp_path: Path) -> None:
    async with serving(redis_url, tmp_path / "missing") as port:
        status, _, body = await get(port, "/")
        assert status == 404 and body.decode() == NO_BUNDLE
        assert (await get(port, "/r/ABCDEF"))[0] == 404
        # an Upgrade request is a WebSocket whatever the path, bundle or not
        for path in ("/", "/ws", "/r/ABCDEF"):
            async with connect(f"ws://127.0.0.1:{port}{path}") as ws:
                await ws.send(msgpack.packb({"type": "hello", "v": 1, "name": "Ann", "id": 1}))
                w = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 5))
                assert (w["type"], w["re"]) == ("welcome", 1)


@pytest.mark.parametrize(("written", "build"), [("abc123\n", "abc123"), ("", None), (None, None)])
def test_the_bundles_build_id_is_read_from_build_id_txt(
    tmp_path: Path, written: str | None, build: str | None
) -> None:
    """``welcome.build`` comes from the bundle's ``build-id.txt`` (none, or empty: no build)."""
    (tmp_path / "index.html").write_text("<!doctype html>")
    if written is not None:
        (tmp_path / "build-id.txt").write_text(written)
    assert Site(tmp_path).build == build
    assert Site(tmp_path / "missing").build is None
