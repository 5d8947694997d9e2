"""Print the files of ours one discard passes through, in order, and how often it comes back
to a file it had already left.

    python scripts/action_path.py [--ruleset hk-tw16] [--runs 5] [--all] [--with-core]
        [--room-files] [--resumes] [--layers] [--entries]

It starts a Redis (a temporary ``redis-server``) and the game server in this process, seats
four players over real WebSocket connections (the load test's client, ``loadtest.conn``),
starts a game, and when the dealer is asked for a discard, sends one (each of ``--runs`` in a
room of its own: the deal is the server's, so whether the discard opens a claim window
varies from run to run). From the moment the
discard is sent until every one of the four connections has received the events frame of
its commit, ``sys.setprofile`` records each Python call (and each call into a compiled
module, whose frames it also sees) whose code lies in the server's shell and the wire
(``server``, ``protocol``; not the client's own ``loadtest``). The pure core (``table``,
``scoring``, ``bots``) is one step of the shell's and is left out, as its own modules
calling each other are not what the path is about (``--with-core`` counts them too). The
room logic, ``server/room/`` (pure too: ``.importlinter``), is one step of the path, counted
as one file, ``server/room/``, however many of its modules it goes through (``--room-files``
counts them one by one, as the path of before the package was, at ``354bfb2``; ``--layers``
counts each layer, a folder of ``server/`` or ``protocol/``, as one step). A
coroutine taking up again where it awaited (the commit's caller when Redis has answered) is
the same visit going on, not a call into its file: it is not a step of the path
(``--resumes`` counts it as one, as the figures of before ``c00e750`` did). The
path is the sequence of files those calls are in, a file counted again only when the path
moves to another file and back:

* **files**: the distinct files on the path;
* **returns**: the times the path enters a file it had already left.

A file's call to a function of its own after a call it made elsewhere has returned (the
commit calling its own ``_committed`` once the store has answered) counts as a return to
it here; ``--entries`` counts only calls from another file (a file is entered when another
file calls into it), so what remains are the times one file calls into another it had
called before (the session into the transport again, the store into the codec).

Run it on the pure modules (``MAHJONG_PURE=1``, the default here: a compiled module's calls
are not seen file by file) for the figure BENCHMARKS.md quotes (``action-path``). Anything
else the server does in that window (a keepalive, a timer) is counted too; ``--all`` prints
every step of the path, to check.
"""

from __future__ import annotations

import argparse
import asyncio
import dis
import functools
import inspect
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

os.environ.setdefault("MAHJONG_PURE", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from loadtest.conn import Conn  # noqa: E402
from loadtest.stats import Recorder  # noqa: E402
from server.app import run_server  # noqa: E402
from server.process.config import load_config  # noqa: E402
from server.storage.store import Store  # noqa: E402

SHELL = ("server", "protocol")
CORE = ("table", "scoring", "bots")
ROOM = "server/room/"
JSON = dict[str, Any]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: the code flags of a function whose frame can be suspended and taken up again
SUSPENDS = inspect.CO_COROUTINE | inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR


@functools.cache
def first_resume(code: CodeType) -> int:
    """The offset of ``code``'s first RESUME: where a frame of it starts (3.11+)."""
    for ins in dis.get_instructions(code):
        if ins.opname == "RESUME":
            return ins.offset
    return 0


def resumed(frame: FrameType) -> bool:
    """Whether this "call" event is a suspended coroutine or generator taken up again
    (its frame is past its first instruction), not a new call."""
    code = frame.f_code
    return bool(code.co_flags & SUSPENDS) and frame.f_lasti > first_resume(code)


def layer_of(rel: str) -> str:
    """The layer of a file of ours: its folder of ``server/`` (``server/flow/``), the wiring
    at ``server/``'s top (``server/``), or its package (``protocol/``)."""
    parts = rel.split(os.sep)
    if parts[0] == "server" and len(parts) > 2:
        return f"server/{parts[1]}/"
    return f"{parts[0]}/"


class Path_:
    """The sequence of our files that calls went through."""

    def __init__(
        self,
        packages: tuple[str, ...],
        room_files: bool = False,
        resumes: bool = False,
        layers: bool = False,
        entries: bool = False,
    ) -> None:
        self.steps: list[str] = []
        self.entries = entries
        self.room_files = room_files
        self.layers = layers
        self.resumes = resumes
        self.packages = packages
        self.prefixes = tuple(str(ROOT / p) + os.sep for p in packages)

    def profile(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            if not self.resumes and resumed(frame):
                return
            name = frame.f_code.co_filename
            caller = frame.f_back
        elif event == "c_call":  # a compiled module's function: its module's file
            mod = getattr(arg, "__module__", None) or ""
            top = mod.split(".")[0]
            if top not in self.packages:
                return
            name = str(ROOT / (mod.replace(".", os.sep) + ".py"))
            caller = frame
        else:
            return
        rel = self.step_of(name)
        if rel is None:
            return
        if (
            self.entries
            and caller is not None
            and self.step_of(caller.f_code.co_filename) == rel
            and rel in self.steps
        ):
            return  # a call from the file itself, once on the path: the path is in it already
        if not self.steps or self.steps[-1] != rel:
            self.steps.append(rel)

    def step_of(self, name: str) -> str | None:
        """The step of the path a file of code is (None: not one of ours)."""
        if not name.startswith(self.prefixes):
            return None
        rel = os.path.relpath(name, ROOT)
        if self.layers:
            return layer_of(rel)
        if not self.room_files and rel.startswith(ROOM):
            return ROOM  # the room's step: one file of the path
        return rel

    def files(self) -> list[str]:
        return list(dict.fromkeys(self.steps))

    def returns(self) -> int:
        seen: set[str] = set()
        back = 0
        for f in self.steps:
            if f in seen:
                back += 1
            seen.add(f)
        return back


async def seat_four(url: str, ruleset: str) -> tuple[list[Conn], str, list[JSON]]:
    rec = Recorder("action-path")
    conns = [Conn(url, rec, i) for i in range(4)]
    latest: list[JSON] = [{} for _ in range(4)]
    code: list[str] = []

    def on_message(conn: Conn, msg: JSON, now: float) -> None:
        if msg.get("type") in ("events", "snapshot"):
            latest[conn.index] = msg
        lobby = msg.get("lobby") or {}
        if conn.index == 0 and lobby.get("code") and not code:
            code.append(str(lobby["code"]))

    for i, c in enumerate(conns):
        c.on_message = on_message
        await c.open()
        await c.request({"type": "hello", "v": 1, "name": f"p{i}", "sparse": True})
    opts = {"length": "hands", "hands": 1, "turn_seconds": 0, "claim_seconds": 0}
    ack = await conns[0].request({"type": "create_room", "ruleset": ruleset, "options": opts})
    room = str(ack["room"])
    for _ in range(500):
        if code:
            break
        await asyncio.sleep(0.01)
    for c in conns[1:]:
        await c.request({"type": "join_room", "code": code[0]})
    for i, c in enumerate(conns):
        await c.request({"type": "sit", "room": room, "seat": i})
        await c.request({"type": "ready", "room": room, "ready": True})
    await conns[0].request({"type": "start_game", "room": room})
    return conns, room, latest


async def wait_for(cond: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise SystemExit(f"action_path: timed out waiting for {what}")
        await asyncio.sleep(0.005)


async def measure(
    url: str,
    ruleset: str,
    packages: tuple[str, ...],
    room_files: bool,
    resumes: bool,
    layers: bool = False,
    entries: bool = False,
) -> Path_:
    conns, room, latest = await seat_four(url, ruleset)

    def asked() -> tuple[int, JSON] | None:
        for i, m in enumerate(latest):
            for a in m.get("legal") or []:
                if a.get("type") == "discard":
                    return i, m
        return None

    await wait_for(lambda: asked() is not None, "a seat asked to discard")
    found = asked()
    assert found is not None
    seat, msg = found
    version = int(msg.get("seq", 0))
    discard = next(a for a in msg["legal"] if a.get("type") == "discard")
    body = {k: v for k, v in discard.items() if k != "seat"}
    await asyncio.sleep(0.2)  # the server's own work after the deal has settled
    path = Path_(packages, room_files, resumes, layers, entries)
    sys.setprofile(path.profile)
    try:
        await conns[seat].send(
            {"type": "action", "room": room, "seq": 1, "action": body, "id": 999_999}
        )
        await wait_for(
            lambda: all(
                m.get("type") in ("events", "snapshot") and int(m.get("seq", 0)) > version
                for m in latest
            ),
            "the discard's events frame on all four connections",
        )
    finally:
        sys.setprofile(None)
    for c in conns:
        await c.close()
    return path


async def run(args: argparse.Namespace, redis_url: str) -> list[Path_]:
    cfg = load_config(["--host", "127.0.0.1", "--port", "0", "--log-level", "WARNING"])
    store = Store.from_url(redis_url, cfg.redis_pool_size)
    stop = asyncio.Event()
    ports: list[int] = []
    server = asyncio.create_task(run_server(cfg, store, ports.append, stop=stop))
    await wait_for(lambda: bool(ports), "the server to listen")
    try:
        url = f"ws://127.0.0.1:{ports[0]}"
        packages = SHELL + CORE if args.with_core else SHELL
        return [
            await measure(
                url,
                args.ruleset,
                packages,
                args.room_files,
                args.resumes,
                args.layers,
                args.entries,
            )
            for _ in range(args.runs)
        ]
    finally:
        stop.set()
        await asyncio.wait_for(server, 30)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="hk-tw16")
    ap.add_argument("--runs", type=int, default=5, help="discards measured, a room each")
    ap.add_argument("--all", action="store_true", help="print every step of the path")
    ap.add_argument("--with-core", action="store_true", help="count table/, scoring/, bots/")
    ap.add_argument(
        "--room-files", action="store_true", help="count server/room/'s modules one by one"
    )
    ap.add_argument(
        "--resumes", action="store_true", help="count a coroutine taken up again as a call"
    )
    ap.add_argument(
        "--layers",
        action="store_true",
        help="count each layer (server/'s folders, protocol/) as one step, not each file",
    )
    ap.add_argument(
        "--entries",
        action="store_true",
        help="count only calls from another file: a file's calls to its own functions, after "
        "a call it made elsewhere has returned, are not a return to it",
    )
    args = ap.parse_args(argv)
    redis = shutil.which("redis-server") or "/usr/bin/redis-server"
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="action-path-") as tmp:
        proc = subprocess.Popen(
            [redis, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", tmp],
            stdout=subprocess.DEVNULL,
        )
        try:
            time.sleep(0.3)
            paths = asyncio.run(run(args, f"redis://127.0.0.1:{port}/0"))
        finally:
            proc.terminate()
            proc.wait(10)
    impl = "pure" if os.environ.get("MAHJONG_PURE") == "1" else "compiled"
    first = paths[0]
    if args.all:
        for step in first.steps:
            print(f"  {step}")
    print(f"one discard ({args.ruleset}, {impl} modules), the first run's files in order:")
    for f in first.files():
        print(f"  {f}")
    for i, p in enumerate(paths, 1):
        print(f"run {i}: files {len(p.files())}  returns {p.returns()}  steps {len(p.steps)}")
    files = sorted(len(p.files()) for p in paths)
    back = sorted(p.returns() for p in paths)
    print(f"files: {files[0]}-{files[-1]}  returns: {back[0]}-{back[-1]}  ({len(paths)} runs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
