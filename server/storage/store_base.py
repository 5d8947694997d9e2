"""The store's connection to Redis: key names, value encoding, scripts and the one- or many-command round trips every part of the store (:mod:`server.storage.store`) uses.

Split from ``server/storage/store.py``, which documents every key (its module docstring).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, ClassVar, Self

import msgpack
import redis.asyncio as aioredis
from redis.exceptions import NoScriptError

from protocol.codec import encode
from server.process.clock import REAL, Clock
from server.room.held_answers import HeldAnswer
from server.storage.peers import Peers
from server.storage.resp import PipelinedConnection
from server.storage.resp import supported as resp_supported

JSON = dict[str, Any]

TIMERS = "mj:timers"
ROOMS = "mj:rooms"
PUBLIC = "mj:public"
#: rooms per pipelined round trip of the batched reads (heal loop, timer re-index)
BATCH = 256
#: players disconnected by a graceful stop -> when to mark them away unless they are back
LEAVERS = "mj:leavers"
CHANNEL_PATTERN = "{room:*}:ch"
#: what restarts taught the processes (server/process/reconnect.py): ``stopped_at``,
#: ``planned_until`` (ms) and ``planned_rate`` (the last graceful stop and its reconnect plan,
#: until a process starting after it takes them), ``gap_ms`` (stop -> the next process
#: listening), ``hello_rate`` (hellos/s of a saturated process)
RESTART = "mj:restart"
SWEEP_LOCK = "mj:sweep:lock"  # the retention sweeper's turn (server/flow/retention.py)
SWEEP_CURSOR = "mj:sweep:cursor"  # its SSCAN cursor over mj:rooms, shared by the processes


def k_state(room: str) -> str:
    return f"{{room:{room}}}:state"


def k_log(room: str) -> str:
    return f"{{room:{room}}}:log"


def k_seq(room: str) -> str:
    return f"{{room:{room}}}:seq"


def k_tail(room: str) -> str:
    """The state patches since the room's last snapshot (server/storage/store.py)."""
    return f"{{room:{room}}}:tail"


def k_answers(room: str) -> str:
    """The answers held for the room's open claim window (server/storage/answer.lua)."""
    return f"{{room:{room}}}:answers"


def k_channel(room: str) -> str:
    return f"{{room:{room}}}:ch"


PLAYER_PREFIX = "mj:player:"


def k_player(pid: str) -> str:
    return PLAYER_PREFIX + pid


def k_player_rooms(pid: str) -> str:
    return f"{PLAYER_PREFIX}{pid}:rooms"


def k_online(pid: str) -> str:
    return f"{PLAYER_PREFIX}{pid}:on"


def k_token(token: str) -> str:
    """The key of a token (only its hash is stored; see :func:`token_hash`)."""
    return f"mj:tok:{token_hash(token)}"


def room_of_channel(channel: str) -> str | None:
    if channel.startswith("{room:") and channel.endswith("}:ch"):
        return channel[len("{room:") : -len("}:ch")]
    return None


def pack(value: Any) -> bytes:
    """msgpack of ``value`` (the wire codec's reusable per-thread packer)."""
    return encode(value)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def expire_room_keys(p: Any, room: str, ttl_seconds: float) -> None:
    """Queue on pipeline ``p`` the expiry of the room's own keys (state, log, client seqs,
    patches, held answers)."""
    ms = max(1, int(ttl_seconds * 1000))
    for key in (k_state(room), k_log(room), k_seq(room), k_tail(room), k_answers(room)):
        p.pexpire(key, ms)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class CommitResult:
    #: "ok" | "conflict" | "dup" | "held" (an answer held, no commit: server/storage/answer.lua;
    #: ``version`` the room's, unchanged) | "answers" (the held answers are not those the
    #: caller read: read them again) (| "snap": internal to Store.commit)
    status: str
    version: int
    client_seq: int | None = None
    #: the commit wrote the room's whole state (a snapshot, or the format of before them)
    snapshot: bool = True


COMMIT_LUA = resources.files("server.storage").joinpath("commit.lua").read_text()
ANSWER_LUA = resources.files("server.storage").joinpath("answer.lua").read_text()
RESUME_LUA = resources.files("server.storage").joinpath("resume.lua").read_text()
#: the committed version of each room whose state key is given (0: none), in one reply
VERSIONS_LUA = """
local out = {}
for i, key in ipairs(KEYS) do
  out[i] = tonumber(redis.call('HGET', key, 'version') or '0')
end
return out
"""

#: every Redis call is bounded: a reply not read within this many seconds is a
#: ``redis.exceptions.TimeoutError`` (redis-py before 8 waits forever by default; nothing
#: here uses blocking commands), a connection not made within the connect timeout too
SOCKET_TIMEOUT = 5.0
CONNECT_TIMEOUT = 5.0


def commit_reply(res: list[Any]) -> CommitResult:
    """The reply of commit.lua as a :class:`CommitResult`."""
    status = res[0].decode() if isinstance(res[0], bytes) else str(res[0])
    if status == "dup":
        return CommitResult("dup", int(res[1]), int(res[2]))
    if status == "ok":
        return CommitResult("ok", int(res[1]), snapshot=bool(int(res[2])))
    return CommitResult(status, int(res[1]))


#: ARGV[9] of commit.lua: the format a whole state is written in (see server/storage/store.py)
FORMAT_STATE, FORMAT_SNAP = "state", "snap"


def commit_args(
    room: str,
    expected_version: int,
    state: Mapping[str, object] | None,
    entry: Mapping[str, object],
    player: str | None,
    client_seq: int | None,
    deadline: int | None,
    patch: Any = None,
    fmt: str = FORMAT_SNAP,
    answers_n: int | None = None,
    close_window: bool = False,
) -> list[Any]:
    """ARGV[1..11] of commit.lua (see the script), shared by Store and ClusterStore: the
    whole ``state`` (a snapshot), or with ``state`` None the ``patch`` from the committed
    state; ``answers_n``: the n of the held answers the commit read (checked), and
    ``close_window``: it closes their window (deleted)."""
    return [
        expected_version,
        b"" if state is None else pack(state),
        pack(entry),
        player if client_seq is not None and player else "",
        client_seq if client_seq is not None else "",
        k_channel(room),
        "" if deadline is None else deadline,
        b"" if state is not None else pack(patch),
        fmt,
        "" if answers_n is None else answers_n,
        "1" if close_window else "",
    ]


def answer_args(
    expected_version: int,
    answers_n: int,
    seat: int,
    record: Mapping[str, object],
    player: str | None,
    client_seq: int | None,
    deadline: int | None,
) -> list[Any]:
    """ARGV[1..7] of answer.lua (see the script), shared by Store and ClusterStore."""
    return [
        expected_version,
        answers_n,
        seat,
        pack(record),
        player if client_seq is not None and player else "",
        client_seq if client_seq is not None else "",
        "" if deadline is None else deadline,
    ]


def answers_reply(raw: dict[Any, Any] | list[Any] | None) -> tuple[int, dict[int, HeldAnswer]]:
    """HGETALL of a room's answers hash: (n, seat -> record)."""
    if isinstance(raw, list):
        raw = dict(zip(raw[::2], raw[1::2], strict=True))
    n = 0
    out: dict[int, HeldAnswer] = {}
    for k, v in (raw or {}).items():
        name = k.decode() if isinstance(k, bytes) else str(k)
        if name == "n":
            n = int(v)
        elif name.isdigit():
            out[int(name)] = unpack(v)
    return n, out


class StoreBase:
    """The clients of one store and the ways commands go through them."""

    def __init__(self, client: aioredis.Redis, commits: PipelinedConnection | None = None) -> None:
        # redis-py's stubs type replies as ``bytes | str`` unions that depend on
        # decode_responses; we always use bytes, so the client is used untyped.
        self.r: Any = client
        self._shas: dict[str, str] = {}
        #: the connection the commit script runs on (server/storage/resp.py), None: redis-py's pool
        self.commits = commits
        #: this process's id once it is registered as live (:meth:`register_process`):
        #: commits then publish their notification only if another live process exists
        self.proc_id: str | None = None
        #: seconds a player's keys live after its last hello (0: forever); set by the App
        self.player_ttl = 0
        #: what "now" is for process liveness and commit notifications; set by the App
        self.clock: Clock = REAL
        #: the older versions live among the other processes (a rolling upgrade:
        #: server/storage/peers.py; kept up to date by ``register_process``)
        self.peers = Peers()
        #: write the format of before snapshots always (``--snapshot-every 1``)
        self.old_format = False
        #: the URL the store was made from (:meth:`from_url`; None: made otherwise): another
        #: process of this server (the archiver's) connects to the same Redis with it
        self.url: str | None = None

    #: whether :attr:`url` names a Redis Cluster (``server.storage.cluster.ClusterStore``)
    IS_CLUSTER: ClassVar[bool] = False

    @classmethod
    def from_url(cls, url: str, pool_size: int = 32) -> Self:
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=pool_size,
            timeout=10,
            decode_responses=False,
            socket_timeout=SOCKET_TIMEOUT,
            socket_connect_timeout=CONNECT_TIMEOUT,
        )
        commits = PipelinedConnection(url) if resp_supported(url) else None
        store = cls(aioredis.Redis(connection_pool=pool), commits)
        store.url = url
        return store

    async def close(self) -> None:
        """Close the client and its pool's connections (bounded: a connection that does not
        close in time is dropped with the pool)."""
        if self.commits is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.commits.close(), CONNECT_TIMEOUT)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.r.aclose(close_connection_pool=True), CONNECT_TIMEOUT)

    async def ping(self) -> bool:
        return bool(await self.r.ping())

    async def loading(self) -> bool:
        """Whether Redis is still loading its data set (PING answers during loading; most
        other commands fail with ``BusyLoadingError`` until it is done)."""
        info = await self.r.info("persistence")
        return bool(int(info.get("loading", 0)))

    # ------------------------------------------------------------------------ script

    async def _eval(self, script: str, keys: list[str], args: list[Any]) -> Any:
        sha = self._shas.get(script)
        if sha is None:
            sha = self._shas[script] = await self.r.script_load(script)
        run = self.r.evalsha if self.commits is None else self._evalsha_pipelined
        try:
            return await run(sha, len(keys), *keys, *args)
        except NoScriptError:
            # Redis restarted or failed over and lost its script cache: load it again.
            sha = self._shas[script] = await self.r.script_load(script)
            return await run(sha, len(keys), *keys, *args)

    async def _evalsha_pipelined(self, sha: str, numkeys: int, *args: Any) -> Any:
        assert self.commits is not None
        return await self.commits.execute("EVALSHA", sha, numkeys, *args)

    async def _cmd(self, *args: Any) -> Any:
        """One command whose reply is used raw (bytes, int, None, a list) or not at all: on
        the pipelined connection when there is one, else through redis-py's pool. The
        requests that come in bursts use it (joins and leaves of a whole load test at once
        waited past the pool's 10 s for one of its 32 connections)."""
        if self.commits is not None:
            return await self.commits.execute(*args)
        return await self.r.execute_command(*args)

    async def round_trip(self, *commands: tuple[str | int | float | bytes, ...]) -> list[object]:
        """Several commands of a caller outside the store (the archive's queue), in one round
        trip and in this order; their raw replies (:meth:`_cmds`)."""
        return await self._cmds(*commands)

    async def _cmds(self, *commands: tuple[Any, ...]) -> list[Any]:
        """Several commands in one round trip, run in this order, their replies as
        :meth:`_cmd` gives them: on the pipelined connection when there is one, else a
        redis-py pipeline (no transaction)."""
        if self.commits is not None:
            return await self.commits.execute_many(*commands)
        async with self.r.pipeline(transaction=False) as p:
            for c in commands:
                p.execute_command(*c)
            return list(await p.execute())
