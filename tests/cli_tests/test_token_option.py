"""``--token`` takes a token that begins with '-' (URL-safe base64: 1 token in 64 does), in
both forms, for ``games`` and ``replay``; argparse alone read it as an option of its own."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator

import pytest

from clients.cli.main import glue_values, main


@pytest.mark.parametrize(
    ("argv", "want"),
    [
        (["K7", "--token", "-abc"], ["K7", "--token=-abc"]),
        (["K7", "--token", "abc", "--lang", "en"], ["K7", "--token=abc", "--lang", "en"]),
        (["K7", "--token=-abc"], ["K7", "--token=-abc"]),
        (["K7", "--token"], ["K7", "--token"]),  # no value: argparse says so
        (["K7", "--token-file", "-f"], ["K7", "--token-file", "-f"]),  # another option
    ],
)
def test_glue_values(argv: list[str], want: list[str]) -> None:
    assert glue_values(argv) == want


@pytest.fixture
def archive() -> Iterator[tuple[int, list[str]]]:
    """A real HTTP server answering the archive's two reads, recording each bearer token."""
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.headers.get("Authorization", ""))
            body: dict[str, object] = {"games": []}
            if self.path.endswith("/log"):
                body = {"not": "a log"}
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    try:
        yield srv.server_address[1], seen
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.mark.parametrize("form", ["apart", "joined"])
def test_games_sends_a_token_beginning_with_a_dash(
    archive: tuple[int, list[str]], form: str, capsys: pytest.CaptureFixture[str]
) -> None:
    port, seen = archive
    token = "-Zx9_a"
    opt = ["--token", token] if form == "apart" else [f"--token={token}"]
    rc = main(["games", "K7QF2M", "--url", f"ws://127.0.0.1:{port}", *opt])
    assert rc == 0, capsys.readouterr().err
    assert seen == [f"Bearer {token}"]


def test_replay_sends_a_token_beginning_with_a_dash(
    archive: tuple[int, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    port, seen = archive
    url = f"http://127.0.0.1:{port}/api/games/g1/log"
    # the server answers something that is not a log: the replay stops there, after the read
    rc = main(["replay", url, "--token", "-Zx9_a"])
    assert rc == 2
    assert seen == ["Bearer -Zx9_a"]
    assert "expected one argument" not in capsys.readouterr().err
