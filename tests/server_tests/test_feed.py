"""When a feed reads the room's log after a connection joins it (``Feed.attached``): only
when a commit newer than the joining connection's snapshot may exist. A restarted server
used to read the log of every resumed room for nothing."""

from __future__ import annotations

from typing import Any

from server.flow.fanout import Feed


async def _never(*args: object) -> Any:
    raise AssertionError("never reads here")


def _feed() -> Feed:
    return Feed("r_1", _never, lambda *args: None, _never)


async def test_a_join_at_the_latest_known_version_reads_nothing() -> None:
    f = _feed()
    f.attached(0)
    assert not f.wake.is_set()
    f.kick_if_behind(7)  # another process's commit, nobody attached yet: remembered
    assert f.latest == 7 and not f.wake.is_set()
    f.attached(7)
    assert not f.wake.is_set()
    f.close()


async def test_a_join_behind_a_known_commit_reads_the_log() -> None:
    """A commit notified between the snapshot's load (version 5) and the join."""
    f = _feed()
    f.kick_if_behind(6)
    f.attached(5)
    assert f.wake.is_set()
    f.close()


async def test_a_notification_without_a_version_makes_the_next_join_read() -> None:
    f = _feed()
    f.kick_if_behind(None)
    f.wake.clear()  # (the feed's task would have found nobody to deliver to)
    f.attached(9)
    assert f.unknown and f.wake.is_set()
    f.close()
