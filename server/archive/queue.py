"""The archive's queue in Redis: the keys that say which rooms have something to archive and where each one's next pass reads from, and the script that ends a room's pass.

Shared by every process of the fleet (hash tag ``{mj:archive}``: one Redis Cluster slot);
:class:`server.archive.archiver.Archiver` queues rooms, takes them and ends their passes
(docs/archive.md). The retention of closed rooms asks it whether a room still waits
(:func:`waits_for_archive`).
"""

from __future__ import annotations

from server.storage.store import Store

#: sorted set: room -> when it first waited (ms): the lag metric's oldest age
DUE = "{mj:archive}:due"
#: hash: room -> how many times it was queued (a pass removes the room only if nobody
#: queued it again meanwhile)
QUEUED = "{mj:archive}:n"
#: hash: room -> the log version the next pass reads from (the start of the room's first
#: game not yet archived whole); dropped once a closed room is done
POS = "{mj:archive}:pos"
#: hash: room -> "<version> <game id>": where the game in progress (whose start is at
#: ``pos``) goes on after its last hand archived, so a pass reads its new hands only
HANDS = "{mj:archive}:hands"
#: hash: room -> 1 for a closed room whose keys :meth:`Archiver.hold` kept (no expiry) while
#: it waited: the pass that takes it off the queue starts their expiry
HELD = "{mj:archive}:held"

#: a pass's end for a room, in one round trip: set where the next pass reads from (``pos``;
#: the game in progress's mark, or none), then take the room off the queue only if it was
#: not queued again since it was read; returns 0 (queued again), 1 (done) or 2 (done, and
#: the room was closed while it waited: :meth:`Archiver.hold` marked it, and the pass
#: starts its expiry)
DONE = """
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[4], ARGV[1], ARGV[4])
elseif ARGV[5] == '1' then
  redis.call('HDEL', KEYS[4], ARGV[1])
end
local n = redis.call('HGET', KEYS[2], ARGV[1])
if n == ARGV[2] or (n == false and ARGV[2] == '') then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  if redis.call('HDEL', KEYS[5], ARGV[1]) == 1 then
    return 2
  end
  return 1
end
return 0
"""


async def waits_for_archive(store: Store, room: str) -> bool:
    """Whether the room is queued for the archive (its keys must not expire yet)."""
    return await store.r.zscore(DUE, room) is not None
