-- commit.lua for Redis Cluster: every key is in the room's slot ({room:<id>}). The timer set
-- (another slot) is updated by the caller after the commit; the notification (SPUBLISH) is
-- sent by the caller after WAIT, in the same pipeline (see server/cluster.py).
-- KEYS[1] {room:<id>}:state   KEYS[2] {room:<id>}:log   KEYS[3] {room:<id>}:seq
-- ARGV[1] expected version  ARGV[2] new state  ARGV[3] log entry
-- ARGV[4] player id of a sequenced request, or ""  ARGV[5] client seq, or ""
-- Returns {"ok", new_version} | {"conflict", current_version} | {"dup", version_of_that_seq, seq}
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
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'version', nv)
redis.call('XADD', KEYS[2], nv .. '-1', 'd', ARGV[3])
if player ~= '' then
  redis.call('HSET', KEYS[3], player, ARGV[5], player .. ':v', nv)
end
return {'ok', nv}
