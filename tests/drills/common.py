"""What every drill does with its clients: set up a table, play through failures (reconnecting
and resending as a real client would), and check the room afterwards."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from server_tests.helpers import Player, check_against_log, check_held, check_view_message
from server_tests.wsclient import Client
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

JSON = dict[str, Any]
FAST = {"turn_seconds": 0, "claim_seconds": 0, "hand_pause_ms": 0, "bot_delay_ms": 0}


def ruleset() -> str:
    from server.room import game

    assert game.available() and game.rulesets(), "the drills need the table engine + a rule set"
    return game.rulesets()[0]


async def connect_retrying(port: int, label: str, timeout: float = 30.0) -> Client:
    """Connect (through a load balancer, a server may be down): retry until ``timeout``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    delay = 0.1
    while True:
        try:
            return await Client.connect(port, label, check_view_message)
        except (OSError, InvalidHandshake, InvalidStatus, TimeoutError):
            if loop.time() > end:
                raise
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)


async def resume(port: int, old: Client, timeout: float = 30.0) -> tuple[Client, JSON]:
    """A new connection for ``old``'s player (token resume); returns it and the welcome."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        c = await connect_retrying(port, old.label + "'", max(1.0, end - loop.time()))
        c.seq = old.seq  # client sequence numbers keep increasing across connections
        try:
            w = await c.hello(old.label, token=old.token)
        except (ConnectionClosed, TimeoutError, AssertionError):
            # the connection was accepted by a server that died right then, or storage hiccup
            await c.close()
            if loop.time() > end:
                raise
            await asyncio.sleep(0.2)
            continue
        assert w["resumed"] is True and w["player_id"] == old.player_id
        return c, w


class Seat:
    """One human seat across reconnections: the Players it went through and what was acked."""

    def __init__(self, client: Client, rng_seed: int) -> None:
        self.rng = random.Random(rng_seed)
        self.player = Player(client, self.rng)
        self.history: list[Player] = [self.player]
        self.servers: list[str] = []
        self.reconnects = 0

    @property
    def acked(self) -> list[tuple[int, int]]:
        return [a for p in self.history for a in p.acked]

    @property
    def held(self) -> list[tuple[int, int | None, JSON]]:
        return [a for p in self.history for a in p.held]

    @property
    def game_over(self) -> JSON | None:
        return self.player.game_over

    async def play(
        self,
        port: int,
        room: str,
        timeout: float = 90.0,
        until: Callable[[Player], bool] | None = None,
    ) -> None:
        """Play until the game ends (or ``until``), reconnecting through ``port`` on drops."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            try:
                await self.player.run(until=until, timeout=max(1.0, end - loop.time()))
                return
            except ConnectionClosed:
                pass
            if loop.time() > end:
                raise TimeoutError(f"{self.player.c.label}: did not finish")
            old = self.player.c
            c, w = await resume(port, old, timeout=max(5.0, end - loop.time()))
            self.servers.append(w["server"])
            self.reconnects += 1
            await c.wait_for(lambda m: m["type"] == "snapshot" and m["room"] == room, timeout=30)
            self.player = Player(c, self.rng)
            self.history.append(self.player)


def check_room(log: dict[int, JSON], seats: list[Seat], hands: int) -> None:
    """After a drill: every acknowledged action is in the log at the acked version with its
    client seq; every seat saw the same summary; every message any client got is the logged
    event with the other seats' secrets removed; the log replays to the same final scores."""
    import table

    for s in seats:
        for cseq, v in s.acked:
            assert v in log, f"acked version {v} missing from the log"
            assert log[v]["kind"] == "action" and log[v].get("cseq") == cseq, (cseq, log[v])
        check_held(log, s.held)
        for p in s.history:
            check_against_log(p.c, log)
    summaries = [s.game_over["summary"] for s in seats if s.game_over]
    assert len(summaries) == len(seats), "not every seat saw the game end"
    assert all(x == summaries[0] for x in summaries)
    assert sum(summaries[0]["scores"]) == 0
    # versions are contiguous: nothing lost in the middle, nothing duplicated
    versions = sorted(log)
    assert versions == list(range(1, versions[-1] + 1))
    # replay the table actions of the (last) game: same final scores as everyone saw
    actions: list[JSON] = []
    cfg = None
    for v in versions:
        e = log[v]
        if e.get("kind") == "start":
            actions = []
            cfg = True
        if cfg:
            actions.extend(e.get("actions") or [])
    st = table.new_game(table.GameConfig(ruleset(), max_hands=hands))
    for a in actions:
        st, _ = table.apply(st, table.Action.from_json(a))
    assert list(st.scores) == summaries[0]["scores"]


async def setup_room(clients: list[Client], options: JSON, bots: int = 0) -> str:
    """clients[0] creates a room, the others join; all sit and get ready; bots fill the
    remaining seats; returns the room id. The game is not started."""
    for c in clients:
        if c.player_id is None:
            await c.hello(c.label)
    host = clients[0]
    ack = await host.request({"type": "create_room", "ruleset": ruleset(), "options": options})
    assert ack["type"] == "ack", ack
    room = ack["room"]
    snap = await host.wait_for(lambda m: m["type"] == "snapshot" and m["room"] == room)
    for c in clients[1:]:
        r = await c.request({"type": "join_room", "code": snap["lobby"]["code"]})
        assert r["type"] == "ack", r
    for i, c in enumerate(clients):
        assert (await c.request({"type": "sit", "room": room, "seat": i}))["type"] == "ack"
        assert (await c.request({"type": "ready", "room": room, "ready": True}))["type"] == "ack"
    for seat in range(len(clients), len(clients) + bots):
        r = await host.request({"type": "add_bot", "room": room, "seat": seat})
        assert r["type"] == "ack", r
    return room


async def start_and_play(
    port: int, hands: int, rng_base: int, actions: int = 20
) -> tuple[str, list[Seat]]:
    """Three players and a bot at a fast table of ``hands`` hands on the server at ``port``:
    start the game and play until ``actions`` versions have passed. Returns (room, the three
    human seats)."""
    clients = [await connect_retrying(port, f"p{i}") for i in range(3)]
    room = await setup_room(clients, {**FAST, "length": "hands", "hands": hands}, bots=1)
    r = await clients[0].request({"type": "start_game", "room": room})
    assert r["type"] == "ack", r
    start = r["seq"]
    seats = [Seat(c, rng_base + i) for i, c in enumerate(clients)]
    await asyncio.gather(
        *(s.play(port, room, until=lambda p: p.seq_seen >= start + actions) for s in seats)
    )
    return room, seats
