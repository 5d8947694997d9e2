-- Set a room's timer only if the room is still at the version the deadline was computed from.
-- KEYS[1] {room:<id>}:state  KEYS[2] timers sorted set
-- ARGV[1] version  ARGV[2] deadline ms or ""  ARGV[3] room id
local cur = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if cur ~= tonumber(ARGV[1]) then
  return 0
end
if ARGV[2] == '' then
  redis.call('ZREM', KEYS[2], ARGV[3])
else
  redis.call('ZADD', KEYS[2], tonumber(ARGV[2]), ARGV[3])
end
return 1
