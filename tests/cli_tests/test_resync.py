"""The client against a real server, fed a message that does not fit its view (as a buggy or
out-of-order delivery would): it logs a warning, asks the server for a fresh snapshot
(``resync {since: 0}``) and plays on from it, instead of crashing on an assert."""

from __future__ import annotations

import asyncio
import logging

import pytest

from clients.cli.model import ClientModel
from clients.cli.session import Session
from protocol import messages as m

from .live import start_with_three_bots, until

pytestmark = pytest.mark.timeout(90)


@pytest.mark.parametrize(
    "bad",
    [
        # out of order: we discard a tile we do not hold
        lambda seat: {"type": "discard", "seat": seat, "tile": "not-a-tile"},
        # malformed: a seat that does not exist
        lambda seat: {"type": "draw", "seat": 11, "tile": "1m", "wall_left": 3},
    ],
    ids=["out-of-order", "malformed"],
)
async def test_the_model_recovers_from_a_bad_message_with_a_snapshot(
    mahjong_server, caplog, bad
) -> None:
    model = ClientModel()
    session = Session(mahjong_server.url, "Ann", model, lambda _lines: None)
    task = asyncio.create_task(session.run())
    try:
        await asyncio.wait_for(session.ready.wait(), 10)
        rid = await start_with_three_bots(session, model.rulesets[0])
        room = model.rooms[rid]
        # the hand is dealt and it is our decision (no timers: the table waits for us)
        await until(lambda: room.hand is not None and room.can_act(), "our first decision")
        tiles_before = room.my_tiles()
        seq_before = room.seq
        with caplog.at_level(logging.WARNING, logger="mahjong.cli.model"):
            # the message arrives as if from the server (the session's frame handler)
            session._handle(m.Events(room=rid, seq=room.seq + 1, events=[bad(room.seat)]))
        assert any("asking for a fresh snapshot" in r.getMessage() for r in caplog.records)
        assert room.stale and not room.can_act()
        # the session asked for a snapshot; it replaces the view
        await until(lambda: not room.stale, "the fresh snapshot")
        assert room.seq >= seq_before
        assert room.my_tiles() == tiles_before, "the snapshot's hand is the server's"
        assert room.can_act()
        # and play goes on from it: our action is applied and its events arrive
        action = room.legal[0]
        room.mark_acted()
        reply = await session.act(rid, action)
        room.action_done(reply)
        assert isinstance(reply, m.Ack), reply
        await until(lambda: room.seq >= reply.seq, "the events of our action")
        assert not room.stale
    finally:
        await session.close()
        task.cancel()
