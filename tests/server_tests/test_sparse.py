"""Sparse delivery (``hello.sparse``): a connection is not sent the commits that show its
seat nothing, and each frame it is sent chains to the one before by ``prev``.

The claim behind it (``App.deliver``): a client that applies only the frames it is sent knows,
after every commit, exactly what a client applying every commit knows — the same events
in the same order, the same legal actions and deadline. Checked here over played games of
two rule sets for every seat and a spectator, then end to end on a real server."""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

import msgpack
import pytest

from loadtest.selfplay import next_change, started_room
from server.app import App, quiet, visible_events
from server.process.config import Config
from server.room import commands, frames
from server_tests.helpers import FAST_ONE_HAND, Player, read_log, setup_table

JSON = dict[str, Any]
VIEWS: list[int | None] = [0, 1, 2, 3, None]


def _entries(
    ruleset: str, seed: int, n: int, app: App | None = None, claim_seconds: int = 5
) -> list[JSON]:
    """The log entries of a room playing ``n`` actions (the load test's policy), from the
    game's start: with claim windows (``claim_seconds``, 0: no time limit), hands ending, and
    deadlines."""
    if app is None:
        app = App(Config(), None)  # type: ignore[arg-type]  # no store: nothing is committed
    # the deals from ``seed`` too (the server's own seeds are the OS's randomness): the same
    # entries every run, so the counts the tests assert cannot change from run to run
    deals = random.Random(f"deals-{seed}")

    def wall_seed() -> str:
        return deals.randbytes(32).hex()

    _, ch = started_room(
        ruleset, 0, hands=3, turn_seconds=30, claim_seconds=claim_seconds, wall_seed=wall_seed
    )
    entries = [commands.outcome(None, ch, 0, app.commits.timing).entry]
    s, rng, now = ch.state, random.Random(seed), 0
    while s["status"] == "playing" and len(entries) < n:
        now += 100
        ch, _ = next_change(s, entries[-1], rng, now, wall_seed=wall_seed)
        entries.append(commands.outcome(None, ch, now, app.commits.timing).entry)
        s = ch.state
    return entries


def _client_view(frames: list[JSON]) -> tuple[list[JSON], Any, Any]:
    """What a client knows after applying ``frames``: every event in order, and the legal
    actions and deadline of the last frame."""
    events = [e for f in frames for e in f["events"]]
    last = frames[-1] if frames else {}
    return events, last.get("legal"), last.get("deadline")


@pytest.mark.parametrize("ruleset", ["zung-jung", "hk-tw16"])
def test_a_sparse_client_knows_what_a_dense_one_knows(ruleset: str) -> None:
    entries = _entries(ruleset, seed=7, n=500)
    skipped = unasked = 0
    for view in VIEWS:
        dense: list[JSON] = []
        sparse: list[JSON] = []
        last_sent = 0
        for v, entry in enumerate(entries, start=1):
            frame = msgpack.unpackb(frames.events_frame("r_1", v, entry, view))
            before = entries[v - 2] if v > 1 else None
            if view is not None and before is not None and before["legal"].get(str(view)) == []:
                # the server's pass for a seat it did not ask (no choice), mid-window: its
                # own confirmation is the one thing a sparse client is not sent
                own = [e for e in frame["events"] if e["type"] == "answered"]
                if own and own == frame["events"]:
                    unasked += 1
                    frame["events"] = []
            dense.append(frame)
            seen = visible_events(entry, view)  # what App.deliver computes once per seat
            if before is not None:
                assert quiet(entry, before, view, seen) == quiet(entry, before, view)
            if before is not None and quiet(entry, before, view):
                skipped += 1
            else:
                raw = frames.events_frame("r_1", v, entry, view, last_sent)
                assert frames.events_frame("r_1", v, entry, view, last_sent, seen) == raw
                frame = msgpack.unpackb(raw)
                assert frame["prev"] == last_sent and frame["seq"] == v
                sparse.append(frame)
                last_sent = v
            assert _client_view(sparse) == _client_view(dense), (view, v)
    # the check above holds trivially if nothing is ever skipped (the players' passes, which
    # this self-play commits one by one with ``game_room.play``; the server holds them and
    # closes each window in one commit, with its own passes for the seats it did not ask:
    # never alone in a commit)
    assert skipped > len(entries) // 4
    assert unasked == 0


def test_another_seats_answer_is_not_sent_to_anyone_else() -> None:
    """A pass in a claim window that does not close it shows the others nothing: with sparse
    delivery they get no frame at all (they cannot tell that, or when, the seat answered)."""
    entries = _entries("zung-jung", seed=3, n=300)
    mid_window = unasked = 0
    for before, entry in itertools.pairwise(entries):
        acts = entry.get("actions") or []
        if len(acts) != 1 or acts[0]["type"] != "pass":
            continue
        if [e["type"] for e in entry.get("events") or []] != ["answered"]:
            continue  # the last answer: the window closes, everyone sees what follows
        mid_window += 1
        actor = acts[0]["seat"]
        # the actor is sent its own answer, unless it was not asked (no choice: the
        # server passed for it, and it knew it would)
        asked = before["legal"].get(str(actor)) != []
        unasked += not asked
        for view in VIEWS:
            assert quiet(entry, before, view) == (view != actor or not asked), (view, entry)
    assert mid_window > 20
    assert unasked == 0  # the server's passes are in the window's close, never alone


async def test_sparse_clients_play_a_game_on_the_server(server, redis_url) -> None:
    """Four sparse players finish a game on a real server: every frame chains to the one
    before it by ``prev`` (the test player asserts it), and every commit missing from a seat's stream shows that seat
    nothing (checked against the log in Redis)."""
    clients, room = await setup_table(
        server.port, 4, "zung-jung", FAST_ONE_HAND, label="sp", sparse=True
    )
    r = await clients[0].request({"type": "start_game", "room": room})
    assert r["type"] == "ack"
    players = [Player(c, random.Random(i), claim_rate=0.5) for i, c in enumerate(clients)]
    await asyncio.wait_for(asyncio.gather(*(p.run(timeout=90) for p in players)), 100)
    log = await read_log(redis_url, room)
    last = max(log)
    for seat, c in enumerate(clients):
        got = {m["seq"] for m in c.inbox if m["type"] == "events" and m["room"] == room}
        first = min(got)
        # (every window closes in one commit that shows everyone something, so a game may
        # have no commit a seat is not sent)
        missing = [v for v in range(first, last + 1) if v not in got]
        for v in missing:
            assert quiet(log[v], log[v - 1], seat), (seat, v, log[v])
    for c in clients:
        await c.close()


_PASS = {"type": "answered", "seat": 1, "answer": "pass", "_owner": 1, "_secret": ["answer"]}
_BEFORE: JSON = {
    "playing": True,
    "legal": {"2": [{"type": "pass", "seat": 2, "seq": 6}]},
    "deadlines": {"2": 1000},
}


@pytest.mark.parametrize(
    ("change", "seat", "expected"),
    [
        ({}, 2, True),
        ({}, None, True),
        ({"events": [_PASS]}, 2, True),  # another seat's answer: hidden from seat 2
        ({"events": [_PASS]}, 1, False),  # the answering seat sees its own answer
        # ... unless the server passed for it, not asked (no choice): nothing it did not know
        ({"events": [_PASS], "before": {"1": []}}, 1, True),
        ({"events": [_PASS, {"type": "draw", "seat": 2}], "before": {"1": []}}, 1, False),
        ({"events": [_PASS], "before": {"1": []}, "deadlines": {"1": 900}}, 1, False),
        ({"before": {"1": []}, "legal": {"1": [{"type": "pass", "seat": 1}]}}, 1, False),
        ({"events": [{"type": "discard", "seat": 1, "tile": "5p"}]}, 2, False),
        ({"legal": {"2": [{"type": "pass", "seat": 2, "seq": 7}]}}, 2, False),
        ({"legal": {}}, 2, False),
        ({"legal": {"3": [{"type": "pass", "seat": 3, "seq": 6}]}}, 3, False),
        ({"deadlines": {"2": 2000}}, 2, False),
        ({"deadlines": {}}, 2, False),
        ({"playing": None}, None, False),
        ({"chat": {"from": "p1", "text": "hi"}}, 2, False),
        ({"notice": {"type": "bot_took_over", "seat": 1}}, None, False),
        ({"lobby": {"seats": []}}, 2, False),
    ],
)
def test_quiet_rules(change: JSON, seat: int | None, expected: bool) -> None:
    """Each thing a frame can carry for a seat makes the entry not quiet for it."""
    change = dict(change)
    before = _BEFORE
    if "before" in change:  # the legal actions of other seats in the entry before
        before = {**_BEFORE, "legal": {**_BEFORE["legal"], **change.pop("before")}}
    entry = {**_BEFORE, "actions": [{"type": "pass", "seat": 1, "seq": 6}], **change}
    entry = {k: v for k, v in entry.items() if v is not None}
    assert quiet(entry, before, seat) is expected


async def test_a_client_that_does_not_ask_sees_no_new_field(server) -> None:
    """A client from before sparse delivery refuses fields it does not know: the welcome
    carries ``sparse`` only in answer to ``hello.sparse``."""
    from server_tests.wsclient import Client

    old = await Client.connect(server.port, "old")
    new = await Client.connect(server.port, "new")
    try:
        assert "sparse" not in await old.hello("old")
        assert (await new.hello("new", sparse=True))["sparse"] is True
    finally:
        await old.close()
        await new.close()
