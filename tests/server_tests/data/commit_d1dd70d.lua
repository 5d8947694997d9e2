-- Atomically commit one change to a room.
-- KEYS[1] {room:<id>}:state   hash: state (msgpack), version (int)
-- KEYS[2] {room:<id>}:log     stream: one entry per version, ID "<version>-1", field d
-- KEYS[3] {room:<id>}:seq     hash: <player> -> last applied client seq, <player>:v -> its version
-- ARGV[1] expected version ("0": the room must not exist yet)
-- ARGV[2] new state (msgpack)
-- ARGV[3] log entry (msgpack)
-- ARGV[4] player id of a sequenced request, or ""
-- ARGV[5] client seq, or ""
-- ARGV[6] pub/sub channel for the notification
-- ARGV[7] the room's next deadline in ms, or "" for none (stored in the state hash; the
--         global timers index is updated by the caller, see server/storage/store.py)
-- KEYS[4] (optional, single Redis only) mj:timers: the global deadline index, updated here
--         too (ZADD ARGV[8] at ARGV[7]) so a commit is one round trip; with Redis Cluster
--         it lives in another slot and the caller updates it after the commit
-- ARGV[8] the room id (with KEYS[4])
-- KEYS[5] (optional, with KEYS[4]) mj:procs: the live server processes (zset, score = the
--         time in ms until which the process counts as live, refreshed while it runs);
--         ARGV[9] now in ms, ARGV[10] this process's id. The notification is published only
--         if a live process other than the committer exists: a lone process, which delivers
--         its own commits from memory, is not sent a message per commit it has to ignore.
--         Without KEYS[5], always published.
-- Returns {"ok", new_version} | {"conflict", current_version} | {"dup", version_of_that_seq}
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
local nv = cur + 1
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'version', nv, 'deadline', ARGV[7])
redis.call('XADD', KEYS[2], nv .. '-1', 'd', ARGV[3])
if player ~= '' then
  redis.call('HSET', KEYS[3], player, ARGV[5], player .. ':v', nv)
end
local publish = true
if KEYS[5] then
  local now = tonumber(ARGV[9])
  local others = redis.call('ZCOUNT', KEYS[5], now, '+inf')
  local mine = redis.call('ZSCORE', KEYS[5], ARGV[10])
  if mine and tonumber(mine) >= now then
    others = others - 1
  end
  publish = others > 0
end
if publish then
redis.call('PUBLISH', ARGV[6], nv)
end
if KEYS[4] and ARGV[7] ~= '' then
  redis.call('ZADD', KEYS[4], ARGV[7], ARGV[8])
end
return {'ok', nv}
