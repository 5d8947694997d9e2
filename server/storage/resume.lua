-- A resuming player in one round trip (single Redis only: it reads keys it derives from the
-- player's data, which Redis Cluster does not allow; ClusterStore keeps the multi-step path).
-- KEYS[1] mj:tok:<sha256 of the token>   -> player id
-- KEYS[2] mj:leavers                     zset: players of a graceful stop not back yet
-- ARGV[1] player key prefix ("mj:player:"): <prefix><pid> hash (name), <prefix><pid>:rooms set
-- ARGV[2], ARGV[3] a room's state key is ARGV[2] .. room .. ARGV[3]
-- ARGV[4] seconds the player's keys (token, hash, room set) live from now on ("0": forever)
-- Returns nil for an unknown token, else {pid, name or nil, {rooms whose state exists, sorted}};
-- rooms gone (expired after their retention) are removed from the player's set.
local pid = redis.call('GET', KEYS[1])
if not pid then
  return false
end
local pkey = ARGV[1] .. pid
local name = redis.call('HGET', pkey, 'name')
redis.call('ZREM', KEYS[2], pid)
local rkey = pkey .. ':rooms'
local ttl = tonumber(ARGV[4])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', pkey, ttl)
  redis.call('EXPIRE', rkey, ttl)
end
local rooms = redis.call('SMEMBERS', rkey)
table.sort(rooms)
local alive = {}
for _, room in ipairs(rooms) do
  if redis.call('EXISTS', ARGV[2] .. room .. ARGV[3]) == 1 then
    alive[#alive + 1] = room
  else
    redis.call('SREM', rkey, room)
  end
end
return {pid, name, alive}
