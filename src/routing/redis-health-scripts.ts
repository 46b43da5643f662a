/**
 * The Lua scripts of `redisHealthStore`: one hash of cooldowns, field =
 * target key, value = JSON with `untilMs` on Redis's own clock (`TIME`), so
 * instances whose clocks differ still agree on when a cooldown ends.
 *
 * @internal
 */

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS[1] hash; ARGV[1] field, ARGV[2] duration ms, ARGV[3] record JSON. Keeps the later-ending cooldown. */
export const PUBLISH_SCRIPT = `${NOW}
local untilMs = now + tonumber(ARGV[2])
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current then
  local ok, held = pcall(cjson.decode, current)
  if ok and type(held) == 'table' and tonumber(held.untilMs) and tonumber(held.untilMs) >= untilMs then return 0 end
end
local record = cjson.decode(ARGV[3])
record.untilMs = untilMs
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(record))
return 1`;

/** KEYS[1] hash. Returns field, remaining ms, record JSON, ... for the live cooldowns; deletes the ended ones. */
export const READ_SCRIPT = `${NOW}
local all = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #all, 2 do
  local ok, held = pcall(cjson.decode, all[i + 1])
  local untilMs = ok and type(held) == 'table' and tonumber(held.untilMs)
  if untilMs and untilMs > now then
    out[#out + 1] = all[i]
    out[#out + 1] = tostring(untilMs - now)
    out[#out + 1] = all[i + 1]
  else
    redis.call('HDEL', KEYS[1], all[i])
  end
end
return out`;

/** KEYS[1] hash; ARGV[1] field. */
export const RECOVER_SCRIPT = `return redis.call('HDEL', KEYS[1], ARGV[1])`;
