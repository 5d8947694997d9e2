-- Hold a player's answer to the open claim window, outside the room's commits (the window
-- closes in one commit that applies every answer: server/room/game_room.py, docs/protocol.md
-- "Simultaneous claims").
-- KEYS[1] {room:<id>}:state    hash: version, deadline (see commit.lua)
-- KEYS[2] {room:<id>}:answers  hash: <seat> -> the answer (msgpack), n -> answers written
-- KEYS[3] {room:<id>}:seq      hash: <player> -> last applied client seq, <player>:v -> version
-- ARGV[1] the room version the answer was checked against (the window still open)
-- ARGV[2] the n of the answers hash read with it (no answer added since)
-- ARGV[3] the seat
-- ARGV[4] the answer (msgpack)
-- ARGV[5] player id of a sequenced request, or ""
-- ARGV[6] client seq, or ""
-- ARGV[7] the room's next deadline in ms, or "" for none: the window's close now that this
--         answer is held (stored in the state hash like a commit's)
-- KEYS[4] (optional, single Redis only) mj:timers, updated here too; ARGV[8] the room id
-- Returns {"held", version, n} | {"conflict", current_version} | {"dup", version, last_seq}
--       | {"answers", version}: not the answers the caller read (read them, check again)
local cur = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local player = ARGV[5]
if player ~= '' then
  local seq = tonumber(ARGV[6])
  local last = tonumber(redis.call('HGET', KEYS[3], player) or '0')
  if seq <= last then
    local v = tonumber(redis.call('HGET', KEYS[3], player .. ':v') or '0')
    return {'dup', v, last}
  end
end
if cur ~= tonumber(ARGV[1]) then
  return {'conflict', cur}
end
local n = tonumber(redis.call('HGET', KEYS[2], 'n') or '0')
if n ~= tonumber(ARGV[2]) or redis.call('HEXISTS', KEYS[2], ARGV[3]) == 1 then
  return {'answers', cur}
end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4], 'n', n + 1)
redis.call('HSET', KEYS[1], 'deadline', ARGV[7])
if player ~= '' then
  redis.call('HSET', KEYS[3], player, ARGV[6], player .. ':v', cur)
end
if KEYS[4] then
  if ARGV[7] ~= '' then
    redis.call('ZADD', KEYS[4], ARGV[7], ARGV[8])
  else
    redis.call('ZREM', KEYS[4], ARGV[8])
  end
end
return {'held', cur, n + 1}
