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

pytestmark = pytest.mark.timeout(90)


async def _until(cond, what: str, timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    try:
        async with asyncio.timeout(timeout):
            while not cond():
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"never happened: {what}") from None


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
        opts = {"turn_seconds": 0, "claim_seconds": 0, "length": "hands", "hands": 1}
        ack = await session.request(m.CreateRoom(ruleset=model.rulesets[0], options=opts))
        assert isinstance(ack, m.Ack)
        rid = ack.room
        for msg in (
            m.Sit(room=rid, seat=0),
            m.AddBot(room=rid, seat=1),
            m.AddBot(room=rid, seat=2),
            m.AddBot(room=rid, seat=3),
            m.Ready(room=rid),
            m.StartGame(room=rid),
        ):
            assert isinstance(await session.request(msg), m.Ack), msg
        room = model.rooms[rid]
        # the hand is dealt and it is our decision (no timers: the table waits for us)
        await _until(lambda: room.hand is not None and room.can_act(), "our first decision")
        tiles_before = room.my_tiles()
        seq_before = room.seq
        with caplog.at_level(logging.WARNING, logger="mahjong.cli.model"):
            # the message arrives as if from the server (the session's frame handler)
            session._handle(m.Events(room=rid, seq=room.seq + 1, events=[bad(room.seat)]))
        assert any("asking for a fresh snapshot" in r.getMessage() for r in caplog.records)
        assert room.stale and not room.can_act()
        # the session asked for a snapshot; it replaces the view
        await _until(lambda: not room.stale, "the fresh snapshot")
        assert room.seq >= seq_before
        assert room.my_tiles() == tiles_before, "the snapshot's hand is the server's"
        assert room.can_act()
        # and play goes on from it: our action is applied and its events arrive
        action = room.legal[0]
        room.mark_acted()
        reply = await session.act(rid, action)
        room.action_done(reply)
        assert isinstance(reply, m.Ack), reply
        await _until(lambda: room.seq >= reply.seq, "the events of our action")
        assert not room.stale
    finally:
        await session.close()
        task.cancel()
