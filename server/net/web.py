"""The browser client's files, served on the WebSocket's port (docs/web.md "Serving").

The bundle (``clients/web``, built by Vite into ``server/webapp/``, shipped as package
data) is read once into memory. A request is answered only when its path is *exactly* one
of the bundle's files (or ``/``, ``/r/<room code>``, ``/g/<game id>`` and ``/my``, all the
app's ``index.html``):
nothing is decoded, joined or normalised, so ``..``, ``%2e%2e``, ``%2f``, backslashes and
every other spelling of a path outside the bundle find nothing and get 404.

Caching: files under ``/assets/`` carry a content hash in their names (Vite), so they are
served ``immutable`` for a year, with the pre-compressed ``.br`` / ``.gz`` copy the build
wrote next to them when the browser accepts it; ``index.html`` and ``/r/…`` are
``no-cache`` (a new deploy is picked up at the next load); other top-level files (the icon)
an hour.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

#: where the build puts the bundle (package data of ``server``)
DEFAULT_ROOT = Path(__file__).parents[1] / "webapp"
#: the build id the bundle was built with (vite.config.ts writes it; the client has it too)
BUILD_FILE = "build-id.txt"
IMMUTABLE = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"
SHORT = "public, max-age=3600"
#: ``/r/<code>``: a room code as players type it (letters, digits, dashes)
ROOM_PATH = re.compile(r"/r/[A-Za-z0-9-]{1,16}")
#: the app's other pages: a finished game's page and replay (``/g/<game id>``: URL-safe
#: letters, digits, ``-`` and ``_``) and the player's own games (``/my``)
APP_PATH = re.compile(r"/g/[A-Za-z0-9_-]{1,64}|/my")
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
}
NO_BUNDLE = (
    "This server has no web client bundle: build it with `bash scripts/serve` in a checkout "
    "with Node.js (see docs/web.md); terminal clients can still connect here.\n"
)


@dataclass(frozen=True)
class File:
    body: bytes
    ctype: str
    cache: str
    br: bytes | None = None
    gz: bytes | None = None


def is_websocket(request: Request) -> bool:
    """The request asks for a WebSocket (``Upgrade: websocket``), whatever its path."""
    return any(v.strip().lower() == "websocket" for v in request.headers.get_all("Upgrade"))


class Site:
    """The bundle under ``root``, in memory. ``root`` missing or without ``index.html``:
    every page answers 404 with a one-line explanation (``NO_BUNDLE``)."""

    def __init__(self, root: Path = DEFAULT_ROOT) -> None:
        self.root = root
        self.files: dict[str, File] = {}
        #: the bundle's build id (``build-id.txt``, written by the build): ``welcome.build``
        self.build: str | None = None
        index = root / "index.html"
        if not index.is_file():
            self.index: File | None = None
            return
        build = root / BUILD_FILE
        if build.is_file():
            self.build = build.read_text().strip()[:64] or None
        for path in sorted(root.rglob("*")):
            if not path.is_file() or path.suffix in (".br", ".gz") or path.name.startswith("."):
                continue
            rel = path.relative_to(root).as_posix()
            hashed = rel.startswith("assets/")
            cache = IMMUTABLE if hashed else (NO_CACHE if rel == "index.html" else SHORT)
            br = path.with_name(path.name + ".br")
            gz = path.with_name(path.name + ".gz")
            self.files["/" + rel] = File(
                body=path.read_bytes(),
                ctype=TYPES.get(path.suffix, "application/octet-stream"),
                cache=cache,
                br=br.read_bytes() if br.is_file() else None,
                gz=gz.read_bytes() if gz.is_file() else None,
            )
        self.index = self.files["/index.html"]

    def respond(self, request: Request) -> Response:
        """The answer to a plain (non-WebSocket) GET: a bundle file, the app, or 404."""
        path = request.path.split("?", 1)[0]
        f = self.files.get(path)
        if f is None and (path == "/" or ROOM_PATH.fullmatch(path) or APP_PATH.fullmatch(path)):
            f = self.index
            if f is None:
                return _plain(HTTPStatus.NOT_FOUND, NO_BUNDLE)
        if f is None:
            return _plain(HTTPStatus.NOT_FOUND, "not found\n")
        accept = {
            part.split(";", 1)[0].strip().lower()
            for value in request.headers.get_all("Accept-Encoding")
            for part in value.split(",")
        }
        body, encoding = f.body, None
        if f.br is not None and "br" in accept:
            body, encoding = f.br, "br"
        elif f.gz is not None and "gzip" in accept:
            body, encoding = f.gz, "gzip"
        headers = Headers(
            [
                ("Content-Type", f.ctype),
                ("Content-Length", str(len(body))),
                ("Cache-Control", f.cache),
                ("X-Content-Type-Options", "nosniff"),
                ("Connection", "close"),  # websockets ends the connection after the answer
            ]
        )
        if f.br is not None or f.gz is not None:
            headers["Vary"] = "Accept-Encoding"
        if encoding is not None:
            headers["Content-Encoding"] = encoding
        return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, headers, body)


def _plain(status: HTTPStatus, text: str) -> Response:
    data = text.encode()
    headers = Headers(
        [
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", str(len(data))),
            ("Cache-Control", NO_CACHE),
            ("Connection", "close"),
        ]
    )
    return Response(status.value, status.phrase, headers, data)
