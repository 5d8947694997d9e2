"""Real processes for the deployment tests and failure drills, all on loopback and free ports:
redis-server (single, AOF, or a 6-node cluster), ``mahjong-server`` and nginx."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import leftovers
import redis

from server.process.procs import server_command, start_listening, stop

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"
REDIS_CLI = shutil.which("redis-cli") or "/usr/bin/redis-cli"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class SetupError(RuntimeError):
    """A process the drill needs died while starting: stop waiting at once."""


def wait_until(pred, timeout: float, what: str, interval: float = 0.05):  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    last_exc: Exception | None = None
    while time.monotonic() < end:
        try:
            v = pred()
            if v:
                return v
        except SetupError:
            raise
        except Exception as exc:  # the thing is not up yet
            last_exc = exc
        time.sleep(interval)
    raise TimeoutError(f"timed out waiting for {what} (last error: {last_exc!r})")


class RedisNode:
    """One redis-server process; can be killed, frozen and restarted on the same port/dir."""

    def __init__(
        self, dir: Path, *extra: str, port: int | None = None, password: str | None = None
    ) -> None:
        self.dir = dir
        self.password = password
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.extra = list(extra)
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5, password=self.password)

    def start(self) -> None:
        args = [
            REDIS,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.dir),
            "--save",
            "",
            "--daemonize",
            "no",
            "--loglevel",
            "warning",
            "--logfile",
            str(self.dir / "redis.log"),
            *self.extra,
        ]
        if self.password:
            args += ["--requirepass", self.password, "--masterauth", self.password]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True)
        leftovers.track(self.proc)

        def up() -> bool:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise SetupError(f"redis-server exited: {(self.dir / 'redis.log').read_text()}")
            c = self.client()
            try:
                return bool(c.ping())
            finally:
                c.close()

        wait_until(up, 20, f"redis-server on {self.port}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
            self.proc.wait(10)

    def freeze(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)  # a frozen process cannot act on SIGTERM
            stop(self.proc, 10)


class RedisCluster:
    """``masters`` masters with one replica each, made by ``redis-cli --cluster create``,
    password-protected as a production cluster would be."""

    def __init__(
        self,
        dir: Path,
        masters: int = 3,
        node_timeout_ms: int = 2000,
        password: str = "drill-secret",
    ) -> None:
        self.password = password
        self.nodes: list[RedisNode] = []
        try:
            for i in range(masters * 2):
                self.nodes.append(
                    RedisNode(
                        dir / f"n{i}",
                        "--cluster-enabled",
                        "yes",
                        "--cluster-port",
                        str(free_port()),
                        "--cluster-config-file",
                        "nodes.conf",
                        "--cluster-node-timeout",
                        str(node_timeout_ms),
                        "--appendonly",
                        "yes",
                        "--appendfsync",
                        "everysec",
                        password=password,
                    )
                )
            addrs = [f"127.0.0.1:{n.port}" for n in self.nodes]
            out = subprocess.run(
                [
                    REDIS_CLI,
                    "--no-auth-warning",
                    "-a",
                    password,
                    "--cluster",
                    "create",
                    *addrs,
                    "--cluster-replicas",
                    "1",
                    "--cluster-yes",
                ],
                capture_output=True,
                text=True,
                timeout=60,
            )
            if out.returncode != 0:
                raise RuntimeError(f"cluster create failed: {out.stdout}\n{out.stderr}")
            wait_until(self._healthy, 30, "a healthy cluster")
        except BaseException:
            self.stop()
            raise

    def _healthy(self) -> bool:
        """cluster_state:ok everywhere, and every replica in sync with a live master."""
        for n in self.nodes:
            if n.proc is None or n.proc.poll() is not None:
                continue
            c = n.client()
            try:
                info = c.execute_command("CLUSTER", "INFO")
                repl = c.info("replication")
            finally:
                c.close()
            text = info.decode() if isinstance(info, bytes) else str(info)
            if "cluster_state:ok" not in text:
                return False
            if repl["role"] == "slave" and repl.get("master_link_status") != "up":
                return False
        return True

    @property
    def url(self) -> str:
        """A seed URL naming a live node."""
        live = [n for n in self.nodes if n.proc is not None and n.proc.poll() is None]
        return f"redis://:{self.password}@127.0.0.1:{live[0].port}"

    def role_of(self, node: RedisNode) -> str:
        c = node.client()
        try:
            return str(c.info("replication")["role"])
        finally:
            c.close()

    def master_of_key(self, key: str) -> RedisNode:
        live = [n for n in self.nodes if n.proc is not None and n.proc.poll() is None]
        c = live[0].client()
        try:
            slot = int(c.execute_command("CLUSTER", "KEYSLOT", key))
            for row in c.execute_command("CLUSTER", "SLOTS"):
                if int(row[0]) <= slot <= int(row[1]):
                    port = int(row[2][1])
                    return next(n for n in self.nodes if n.port == port)
        finally:
            c.close()
        raise LookupError(key)

    def replica_of_key(self, key: str) -> RedisNode:
        """The replica of the master owning ``key``'s slot (from ``CLUSTER NODES``)."""
        master = self.master_of_key(key)
        c = master.client()
        try:
            master_id = c.execute_command("CLUSTER", "MYID")
            master_id = master_id.decode() if isinstance(master_id, bytes) else str(master_id)
            nodes = c.execute_command("CLUSTER", "NODES")
        finally:
            c.close()
        text = nodes.decode() if isinstance(nodes, bytes) else str(nodes)
        for line in text.splitlines():
            fields = line.split()
            if len(fields) > 3 and "slave" in fields[2] and fields[3] == master_id:
                port = int(fields[1].split("@")[0].rsplit(":", 1)[1])
                return next(n for n in self.nodes if n.port == port)
        raise LookupError(key)

    def wait_healthy(self, timeout: float = 30) -> None:
        wait_until(self._healthy, timeout, "the cluster to be healthy again", interval=0.2)

    def stop(self) -> None:
        for n in self.nodes:
            n.stop()


class ServerProcess:
    """``mahjong-server`` (``python -m server``) as a separate process."""

    def __init__(self, *args: str, cwd: Path | None = None, log: Path | None = None) -> None:
        env = dict(os.environ)
        env.pop("REDIS_URL", None)
        self.args = args
        # stderr goes to a file: a pipe nobody reads would block the server once it is full
        if log is None:
            fd, name = tempfile.mkstemp(prefix="mahjong-server-", suffix=".log")
            os.close(fd)
            log = Path(name)
        self.log = log
        self.proc, self.port = start_listening(
            server_command(
                "--no-log-json",
                "--log-level",
                "WARNING",
                "--timer-poll-ms",
                "20",
                *args,
            ),
            stderr=log,
            env=env,
            cwd=cwd or ROOT,
        )
        leftovers.track(self.proc, leftovers.data_dir_of(args, cwd or ROOT))

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        stop(self.proc)


NGINX_CONF = """
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {dir}/tmp;
  proxy_temp_path {dir}/tmp;
  fastcgi_temp_path {dir}/tmp;
  uwsgi_temp_path {dir}/tmp;
  scgi_temp_path {dir}/tmp;
  map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
  upstream mahjong {{
{servers}
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://mahjong;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_connect_timeout 2s;
      proxy_read_timeout 3600s;
      proxy_send_timeout 3600s;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 3;
    }}
  }}
}}
"""


class Nginx:
    """A private nginx (the Debian package's binary) proxying WebSockets to ``backends``."""

    def __init__(self, dir: Path, backends: list[int]) -> None:
        if not Path(NGINX).exists():
            raise RuntimeError(
                "nginx is not installed: scripts/test installs it (scripts/ensure_system_deps.sh)"
            )
        self.dir = dir
        (dir / "tmp").mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        servers = "\n".join(
            f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in backends
        )
        self.conf = dir / "nginx.conf"
        self.conf.write_text(NGINX_CONF.format(dir=dir, port=self.port, servers=servers))
        self.proc = subprocess.Popen(
            [NGINX, "-e", str(dir / "error.log"), "-p", str(dir), "-c", str(self.conf)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        leftovers.track(self.proc)

        def up() -> bool:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise SetupError(f"nginx exited: {err}")
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True

        wait_until(up, 15, "nginx")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
