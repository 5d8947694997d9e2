"""Child processes: starting a server as one and waiting until it listens, and a server's helper process ending with it.

``mahjong-server`` (``python -m server``) and the load test's baseline
(``python -m loadtest.baseline``) print one line, ``{"listening": port}``, once they accept
connections (:func:`announce_listening`). :func:`start_listening` starts such a command and
returns the port from that line; the load-test harness, the benchmarks and the tests all
start their servers with it. A server's own helper processes (its bot workers, the archive's
process) call :func:`end_with_parent` first.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Final, Literal

import mahjong_native

__all__ = [
    "COLLECT",
    "StartError",
    "announce_listening",
    "end_with_parent",
    "pinned",
    "server_command",
    "start_listening",
    "stop",
]


def announce_listening(port: int) -> None:
    """Print the one machine-readable line a started server owes its starter (supervisors,
    :func:`start_listening`): ``{"listening": port, "implementation": "compiled"}`` on stdout,
    flushed (``implementation``: which modules of the hot paths this process runs,
    ``compiled`` or ``pure``: :func:`mahjong_native.implementation`)."""
    line = {"listening": port, "implementation": mahjong_native.implementation()}
    print(json.dumps(line), flush=True)


class StartError(RuntimeError):
    """The command exited, printed something else, or printed nothing in time, instead of
    its ``{"listening": port}`` line. The message has its exit status and its stderr when
    that was collected (``stderr`` :data:`COLLECT` or a file)."""


def pinned(cpu: int | None, cmd: Sequence[str]) -> list[str]:
    """``cmd`` run on CPU ``cpu`` only (``taskset -c``; Linux), or as it is for None."""
    return list(cmd) if cpu is None else ["taskset", "-c", str(cpu), *cmd]


def _pump(out: IO[str], first: queue.Queue[str]) -> None:
    """Hand over the first line, then keep reading (and dropping) the rest of stdout, so the
    process never blocks on a full pipe."""
    try:
        first.put(out.readline())
        for _ in out:
            pass
    except (OSError, ValueError):  # closed under us
        first.put("")


#: ``stderr`` of :func:`start_listening`: into an anonymous temporary file, read for the
#: error message if the process does not start (a file, not a pipe: nobody reads it later,
#: and a full pipe would block the process).
COLLECT: Final = "collect"


def start_listening(
    cmd: Sequence[str],
    *,
    timeout: float = 60.0,
    stderr: Literal["collect"] | Path | int | IO[Any] | None = COLLECT,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    name: str = "server",
) -> tuple[subprocess.Popen[str], int]:
    """Start ``cmd`` and wait (at most ``timeout`` seconds) for its ``{"listening": port}``
    line on stdout; (the process, the port). Its stdin is /dev/null; its further stdout is
    read and dropped.

    ``stderr``: :data:`COLLECT`, a ``Path`` (appended to; read for the error message), or
    what :class:`subprocess.Popen` takes except ``PIPE`` (``None``: this process's stderr,
    ``DEVNULL``, an open file). On failure the process is stopped and :class:`StartError`
    names ``name``.
    """

    with contextlib.ExitStack() as stack:  # our copy of a stderr file: the child has its own
        collected: IO[bytes] | None = None
        err_to: int | IO[Any] | None
        if isinstance(stderr, str):  # COLLECT
            err_to = collected = stack.enter_context(tempfile.TemporaryFile())
        elif isinstance(stderr, Path):
            err_to = stack.enter_context(stderr.open("ab"))
        else:
            err_to = stderr
        proc = subprocess.Popen(
            list(cmd),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err_to,
            cwd=cwd,
            env=env,
            text=True,
        )
        assert proc.stdout is not None
        first: queue.Queue[str] = queue.Queue()
        threading.Thread(target=_pump, args=(proc.stdout, first), daemon=True).start()
        try:
            line = first.get(timeout=timeout)
        except queue.Empty:
            line = None
        try:
            if line is not None:
                return proc, int(json.loads(line)["listening"])
        except (ValueError, KeyError, TypeError):
            pass
        _stop(proc, line)
        if collected is not None:
            collected.seek(0)
            err = collected.read().decode(errors="replace")
        elif isinstance(stderr, Path):
            err = stderr.read_text(errors="replace")
        else:
            err = ""
    raise _start_error(name, timeout, line, proc.returncode, err)


def _start_error(
    name: str, timeout: float, line: str | None, returncode: int | None, err: str
) -> StartError:
    """What went wrong at a start, with the end of what the process wrote on stderr."""
    if line is None:
        what = f"{name} printed no listening line within {timeout:g} s"
    elif line:
        what = f"{name} printed {line.strip()[:200]!r} instead of its listening line"
    else:
        what = f"{name} exited with {returncode} before listening"
    err = err.strip()[-4000:]
    return StartError(f"{what}: {err}" if err else what)


def server_command(*args: str) -> list[str]:
    """``python -m server`` on 127.0.0.1 and a free port (read its ``{"listening": port}``
    line with :func:`start_listening`), plus ``args``."""
    return [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0", *args]


def stop(proc: subprocess.Popen[Any], timeout: float = 15) -> None:
    """Stop ``proc`` if it still runs: SIGTERM (a graceful stop), then SIGKILL if it has
    not exited after ``timeout`` seconds."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _stop(proc: subprocess.Popen[str], line: str | None) -> None:
    """Stop a process that did not start: wait for it if it closed its stdout (it is
    exiting), kill it otherwise (or if it does not exit in time)."""
    if line == "":
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def end_with_parent(parent: int, every_s: float = 1.0) -> None:
    """In a helper process of a server: a daemon thread that ends this process once its
    server process ``parent`` is gone. A server killed with SIGKILL cannot stop its helpers,
    which would otherwise live on (the orphan is re-parented, so its parent id changes)."""
    threading.Thread(
        target=_end_when_orphaned, args=(parent, every_s), name="parent-watch", daemon=True
    ).start()


def _end_when_orphaned(parent: int, every_s: float) -> None:
    while os.getppid() == parent:
        time.sleep(every_s)
    os._exit(0)
