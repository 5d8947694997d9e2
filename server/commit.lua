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
--         global timers index is updated by the caller, see server/store.py)
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
redis.call('PUBLISH', ARGV[6], nv)
return {'ok', nv}
