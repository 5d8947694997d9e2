-- Atomically commit one change to a room.
-- KEYS[1] {room:<id>}:state   hash: version (int), deadline, and the room's state: snap
--                             (msgpack) at version sv, or (the format of before snapshots)
--                             state (msgpack) at version; see server/storage/store.py
-- KEYS[2] {room:<id>}:log     stream: one entry per version, ID "<version>-1", field d
-- KEYS[3] {room:<id>}:seq     hash: <player> -> last applied client seq, <player>:v -> its version
-- KEYS[4] {room:<id>}:tail    list: the state patches of versions sv+1 .. version, in order
-- ARGV[1] expected version ("0": the room must not exist yet)
-- ARGV[2] new state (msgpack), or "" when ARGV[8] is a patch
-- ARGV[3] log entry (msgpack)
-- ARGV[4] player id of a sequenced request, or ""
-- ARGV[5] client seq, or ""
-- ARGV[6] pub/sub channel for the notification
-- ARGV[7] the room's next deadline in ms, or "" for none (stored in the state hash; the
--         global timers index is updated by the caller, see server/storage/store.py)
-- ARGV[8] with ARGV[2] "": the patch (msgpack, server/room/patches.py) from the state at the
--         expected version to the new one
-- ARGV[9] the format of a whole state: "snap" (snap + sv, the tail emptied) or "state" (the
--         format of before snapshots, which their processes read: state, no snap, no tail)
-- KEYS[5] {room:<id>}:answers hash: the answers players gave to the open claim window,
--         held outside the commits (server/storage/answer.lua): <seat> -> msgpack, n -> how many
--         were ever written to it
-- ARGV[10] "" (the commit does not read them), or the n the commit read: if an answer was
--         added since, nothing is written ({"answers", version}: read them, compute again)
-- ARGV[11] "1": the commit closes the window: the answers hash is deleted
-- KEYS[6] (optional, single Redis only) mj:timers: the global deadline index, updated here
--         too (ZADD ARGV[12] at ARGV[7]; ZREM when the room has no deadline, else its stale
--         entry would fire for nothing: a timer fire with nothing due and a re-index, 28 % of
--         the fires at paced play) so a commit is one round trip; with Redis Cluster
--         it lives in another slot and the caller updates it after the commit
-- ARGV[12] the room id (with KEYS[6])
-- KEYS[7] (optional, with KEYS[6]) mj:procs: the live server processes (zset, score = the
--         time in ms until which the process counts as live, refreshed while it runs);
--         ARGV[13] now in ms, ARGV[14] this process's id. The notification is published only
--         if a live process other than the committer exists: a lone process, which delivers
--         its own commits from memory, is not sent a message per commit it has to ignore.
--         Without KEYS[7], always published.
-- Returns {"ok", new_version, 1 if the whole state was written else 0}
--       | {"conflict", current_version} | {"dup", version_of_that_seq}
--       | {"answers", current_version}: the held answers are not the ARGV[10] read
--       | {"snap", current_version}: a patch, but the hash has no snapshot the patches reach
--         the expected version from (written by a process of before snapshots, or in their
--         format): nothing was written; commit again with the whole state
local cur = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local player = ARGV[4]
if player ~= '' then
  local seq = tonumber(ARGV[5])
  local last = tonumber(redis.call('HGET', KEYS[3], player) or '0')
  if seq <= last then
    local v = tonumber(redis.call('HGET', KEYS[3], player .. ':v') or '0')
    return {'dup', v, last}
  end
end
if cur ~= tonumber(ARGV[1]) then
  return {'conflict', cur}
end
local answers_n = ARGV[10] or ''
if answers_n ~= '' and tonumber(redis.call('HGET', KEYS[5], 'n') or '0') ~= tonumber(answers_n) then
  return {'answers', cur}
end
local nv = cur + 1
local whole = 1
if ARGV[2] ~= '' then
  if ARGV[9] == 'state' then
    redis.call('HSET', KEYS[1], 'state', ARGV[2], 'version', nv, 'deadline', ARGV[7])
    redis.call('HDEL', KEYS[1], 'snap', 'sv')
  else
    redis.call('HSET', KEYS[1], 'snap', ARGV[2], 'sv', nv, 'version', nv, 'deadline', ARGV[7])
    redis.call('HDEL', KEYS[1], 'state')
  end
  redis.call('DEL', KEYS[4])
else
  local sv = redis.call('HGET', KEYS[1], 'sv')
  if not sv or redis.call('HEXISTS', KEYS[1], 'state') == 1
      or tonumber(sv) + redis.call('LLEN', KEYS[4]) ~= cur then
    return {'snap', cur}
  end
  redis.call('RPUSH', KEYS[4], ARGV[8])
  redis.call('HSET', KEYS[1], 'version', nv, 'deadline', ARGV[7])
  whole = 0
end
redis.call('XADD', KEYS[2], nv .. '-1', 'd', ARGV[3])
if ARGV[11] == '1' then
  redis.call('DEL', KEYS[5])
end
if player ~= '' then
  redis.call('HSET', KEYS[3], player, ARGV[5], player .. ':v', nv)
end
local publish = true
if KEYS[7] then
  local now = tonumber(ARGV[13])
  local others = redis.call('ZCOUNT', KEYS[7], now, '+inf')
  local mine = redis.call('ZSCORE', KEYS[7], ARGV[14])
  if mine and tonumber(mine) >= now then
    others = others - 1
  end
  publish = others > 0
end
if publish then
redis.call('PUBLISH', ARGV[6], nv)
end
if KEYS[6] then
  if ARGV[7] ~= '' then
    redis.call('ZADD', KEYS[6], ARGV[7], ARGV[12])
  else
    redis.call('ZREM', KEYS[6], ARGV[12])
  end
end
return {'ok', nv, whole}
