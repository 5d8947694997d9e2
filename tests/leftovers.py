"""The processes the tests start (redis-server, mahjong-server, nginx), and the finaliser that stops the ones a test leaves running.

Every helper that starts one registers it (:func:`track`), with the data directory of a
server that runs an embedded Redis. The suite's conftest stops, when a test ends (passed or
failed, whatever became of the code around the start), every process registered during the
test that still runs (:func:`reap`), and the rest at the end of the session (those of module
and session fixtures, whose own teardown normally stopped them already). A server stopped
here gets SIGTERM first (a graceful stop, which stops its embedded Redis), SIGKILL after a
few seconds. Then the embedded redis-server of each registered data directory is stopped if
it still runs: the one a server killed with SIGKILL leaves for its restart (docs/server.md
"Embedded Redis") is kept only while the test that killed it runs.

So a step that fails after a start (an assertion, a fixture that cannot find chromium or
nginx) never leaves a process behind (issue 34: a full run once left a ``python -m server``
and its redis-server running an hour later); ``tests/server_tests/test_leftovers.py``
checks it. A run stopped by SIGTERM or SIGHUP (a CI job's timeout, a closed terminal)
stops them too before it dies of the signal (:func:`stop_on_signals`; ``atexit`` alone
does not run on a signal). Stdlib only: the conformance suite uses it too.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["data_dir_of", "mark", "reap", "stop_on_signals", "track"]

#: how long a stopped process gets for its graceful stop before SIGKILL
GRACE_S = 4.0


@dataclass
class _Started:
    proc: subprocess.Popen[Any]
    data_dir: Path | None


_STARTED: list[_Started] = []


def track(proc: subprocess.Popen[Any], data_dir: str | Path | None = None) -> None:
    """``proc`` was started by a test or a fixture (``data_dir``: the directory of its
    embedded Redis, for a server without ``--redis-url``)."""
    _STARTED.append(_Started(proc, Path(data_dir).resolve() if data_dir is not None else None))


def data_dir_of(args: Sequence[str], cwd: Path | None = None) -> Path | None:
    """The data directory of the embedded Redis of a server started with ``args`` (None:
    it has ``--redis-url``)."""
    if "--redis-url" in args:
        return None
    i = args.index("--data-dir") if "--data-dir" in args else -1
    d = Path(args[i + 1]) if 0 <= i < len(args) - 1 else Path("data")
    return d if d.is_absolute() else (cwd or Path.cwd()) / d


def mark() -> int:
    """The point from which :func:`reap` stops processes (those registered after it)."""
    return len(_STARTED)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:  # a zombie (exited, not yet reaped by its parent) is gone for our purpose
        return " Z " not in Path(f"/proc/{pid}/stat").read_text().split(")", 1)[1][:4]
    except OSError:
        return True


def _embedded_redis(data_dir: Path) -> int | None:
    """The pid of the redis-server still running for ``data_dir`` (its pidfile), if any."""
    try:
        pid = int((data_dir / "redis.pid").read_text().strip())
    except (OSError, ValueError):
        return None
    try:
        if b"redis" not in Path(f"/proc/{pid}/cmdline").read_bytes():
            return None  # the pid was reused by something else
    except OSError:
        return None
    return pid if _alive(pid) else None


def _stop(pids: list[int], popens: dict[int, subprocess.Popen[Any]]) -> None:
    """SIGTERM, then SIGKILL what is still there after :data:`GRACE_S`; reap our children."""
    for pid in pids:
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            os.kill(pid, signal.SIGCONT)  # a frozen process (a drill) cannot act on SIGTERM
            os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + GRACE_S
    while time.monotonic() < end:
        for pid, p in popens.items():
            if pid in pids:
                p.poll()
        if not any(_alive(pid) for pid in pids):
            break
        time.sleep(0.05)
    for pid in pids:
        if _alive(pid):
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                os.kill(pid, signal.SIGKILL)
    for pid, p in popens.items():
        if pid in pids:
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                p.wait(5)


def reap(since: int = 0) -> list[int]:
    """Stop every process registered from ``since`` on that still runs, then the embedded
    redis-server left in their data directories; forget them. Returns the pids stopped."""
    started = _STARTED[since:]
    del _STARTED[since:]
    popens = {s.proc.pid: s.proc for s in started}
    running = [s.proc.pid for s in started if s.proc.poll() is None]
    _stop(running, popens)
    dirs = {s.data_dir for s in started if s.data_dir is not None}
    redis = [pid for pid in (_embedded_redis(d) for d in dirs) if pid is not None]
    _stop(redis, {})
    return running + redis


def _reap_then_die(signum: int, frame: object) -> None:
    reap()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)  # die of the signal, as without this handler


def stop_on_signals(signals: Sequence[int] = (signal.SIGTERM, signal.SIGHUP)) -> None:
    """On each of ``signals`` whose handler is still the default, stop what was registered,
    then die of the signal as before (an xdist worker gets the signal with its process
    group, and stops its own processes)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in signals:
        if signal.getsignal(sig) == signal.SIG_DFL:
            signal.signal(sig, _reap_then_die)


atexit.register(reap)  # a run that ends without its session teardown (an interrupt)
stop_on_signals()  # a run stopped by SIGTERM or SIGHUP: atexit does not run then
