"""Helpers for driving the terminal client's session (no screen) against a real server."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from clients.cli.session import Session
from protocol import messages as m


async def until(cond: Callable[[], object], what: str = "condition", timeout: float = 20.0) -> None:
    """Wait until ``cond()`` is true; fail naming ``what`` after ``timeout`` seconds."""
    try:
        async with asyncio.timeout(timeout):
            while not cond():
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"never happened: {what}") from None


async def start_with_three_bots(session: Session, ruleset: str) -> str:
    """Create a one-hand room without timers, sit in seat 0, fill the others with bots and
    start the game; return the room's code."""
    opts = {"turn_seconds": 0, "claim_seconds": 0, "length": "hands", "hands": 1}
    ack = await session.request(m.CreateRoom(ruleset=ruleset, options=opts))
    assert isinstance(ack, m.Ack), ack
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
    return rid
