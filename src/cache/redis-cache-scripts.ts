/**
 * The Lua scripts of the Redis response cache, one per command. The entry
 * and lock scripts name two keys that share the cache key's hash tag (one
 * Cluster slot); the byte count has its own key. Time comes from Redis
 * (`TIME`): one clock for every gateway instance.
 *
 * An entry is a hash: `e` the serialised answer, `t` when it was stored
 * (ms), `b` the minute its bytes stop being counted (see BYTES_ADD_SCRIPT),
 * and under a per-owner quota `o` its owner's count key and `ob` the
 * minute it counts there until (see OWNER_RESERVE_SCRIPT).
 *
 * @internal
 */

const CLOCK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** Ms in one bucket of the byte count. */
export const BUCKET_MS = 60_000;

/**
 * A lookup. KEYS[1] the entry, KEYS[2] its fill lock; ARGV[1] the oldest
 * age in ms that may answer (negative: any), ARGV[2] lock ms (0: no lock),
 * ARGV[3] the caller's token. Replies { 'hit', entry, age ms } or
 * { 'lead' | 'wait' | 'none' }.
 */
export const LOOKUP_SCRIPT = `${CLOCK}
local found = redis.call('HMGET', KEYS[1], 'e', 't')
if found[1] then
  local age = now - (tonumber(found[2]) or now)
  if age < 0 then age = 0 end
  local oldest = tonumber(ARGV[1])
  if oldest < 0 or age <= oldest then return { 'hit', found[1], age } end
end
if tonumber(ARGV[2]) <= 0 then return { 'none' } end
if redis.call('SET', KEYS[2], ARGV[3], 'NX', 'PX', ARGV[2]) then return { 'lead' } end
return { 'wait' }
`;

/**
 * A fill. KEYS[1] the entry, KEYS[2] its fill lock; ARGV[1] the entry,
 * ARGV[2] TTL seconds, ARGV[3] the caller's token, ARGV[4] the owner's
 * count key ('' without a quota), ARGV[5] the minute the entry counts there
 * until. Stores the entry with its time and expiry minute (and owner),
 * deletes the lock only if it holds the token. Replies { the new entry's
 * bucket, its bytes, the bucket and bytes of the entry it replaced (0, 0
 * when none), the replaced entry's owner count key ('' when none) and its
 * minute there } for BYTES_ADD_SCRIPT and OWNER_RETURN_SCRIPT.
 */
export const FILL_SCRIPT = `${CLOCK}
local ttl = tonumber(ARGV[2])
local replaced = redis.call('HMGET', KEYS[1], 'b', 'o', 'ob')
local replacedBytes = redis.call('HSTRLEN', KEYS[1], 'e')
local bucket = math.ceil((now + ttl * 1000) / ${BUCKET_MS})
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'e', ARGV[1], 't', string.format('%.0f', now), 'b', string.format('%.0f', bucket))
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'o', ARGV[4], 'ob', ARGV[5]) end
redis.call('EXPIRE', KEYS[1], ttl)
if redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
return { bucket, string.len(ARGV[1]), tonumber(replaced[1]) or 0, replacedBytes, replaced[2] or '', tonumber(replaced[3]) or 0 }
`;

/** Deletes the fill lock KEYS[1] only while it holds the token ARGV[1]. */
export const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Counts a fill's bytes. KEYS[1] the byte count: a hash from the minute
 * (since the epoch) entries stop being live to their bytes. ARGV[1] the new
 * entry's minute, ARGV[2] its bytes, ARGV[3] the replaced entry's minute
 * (0: none), ARGV[4] its bytes. Once a minute, the minutes gone are
 * dropped (each once, so O(1) per fill over time); the hash lives as long
 * as its latest minute.
 */
export const BYTES_ADD_SCRIPT = `${CLOCK}
local minute = math.floor(now / ${BUCKET_MS})
redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
local replaced = tonumber(ARGV[3])
if replaced > minute then redis.call('HINCRBY', KEYS[1], ARGV[3], -tonumber(ARGV[4])) end
local swept = tonumber(redis.call('HGET', KEYS[1], 'swept') or '0')
if minute > swept then
  local fields = redis.call('HKEYS', KEYS[1])
  for _, field in ipairs(fields) do
    local at = tonumber(field)
    if at and at <= minute then redis.call('HDEL', KEYS[1], field) end
  end
  redis.call('HSET', KEYS[1], 'swept', string.format('%.0f', minute))
end
local lives = tonumber(ARGV[1]) * ${BUCKET_MS} - now
if redis.call('PTTL', KEYS[1]) < lives then redis.call('PEXPIRE', KEYS[1], lives) end
return 1
`;

/** The bytes of the live minutes in the byte count KEYS[1]. */
export const BYTES_HELD_SCRIPT = `${CLOCK}
local minute = math.floor(now / ${BUCKET_MS})
local counts = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #counts, 2 do
  local at = tonumber(counts[i])
  if at and at > minute then total = total + tonumber(counts[i + 1]) end
end
return total
`;

/**
 * Drops the minutes gone from a count hash (a minute → bytes field each,
 * plus `total` and `swept`), once a minute, taking their bytes off `total`;
 * leaves `minute` and `total` set. Never creates the hash (it would have no
 * TTL). Each minute is dropped once, so O(1) per
 * call over time.
 */
const OWNER_SWEEP = `
local minute = math.floor(now / ${BUCKET_MS})
local total = 0
if redis.call('EXISTS', KEYS[1]) == 1 then
  total = tonumber(redis.call('HGET', KEYS[1], 'total') or '0')
  local swept = tonumber(redis.call('HGET', KEYS[1], 'swept') or '0')
  if minute > swept then
    local counts = redis.call('HGETALL', KEYS[1])
    for i = 1, #counts, 2 do
      local at = tonumber(counts[i])
      if at and at <= minute then
        total = total - tonumber(counts[i + 1])
        redis.call('HDEL', KEYS[1], counts[i])
      end
    end
    if total < 0 then total = 0 end
    redis.call('HSET', KEYS[1], 'swept', string.format('%.0f', minute), 'total', string.format('%.0f', total))
  end
end
`;

/**
 * Reserves room under one owner's quota before its fill. KEYS[1] the
 * owner's count: a hash from the minute entries stop counting to their
 * bytes, with their `total`. ARGV[1] the entry's TTL seconds, ARGV[2] its
 * bytes, ARGV[3] the quota. Replies the minute the entry counts until, or 0
 * when it would take the owner past the quota (nothing is counted then).
 * Atomic per owner: concurrent fills of one owner never pass the quota
 * together. The hash lives as long as its latest minute.
 */
export const OWNER_RESERVE_SCRIPT = `${CLOCK}${OWNER_SWEEP}
local bytes = tonumber(ARGV[2])
if total + bytes > tonumber(ARGV[3]) then return 0 end
local bucket = math.ceil((now + tonumber(ARGV[1]) * 1000) / ${BUCKET_MS})
redis.call('HINCRBY', KEYS[1], string.format('%.0f', bucket), bytes)
redis.call('HSET', KEYS[1], 'total', string.format('%.0f', total + bytes))
local lives = bucket * ${BUCKET_MS} - now
if redis.call('PTTL', KEYS[1]) < lives then redis.call('PEXPIRE', KEYS[1], lives) end
return bucket
`;

/**
 * Gives back to an owner's count KEYS[1] the bytes ARGV[2] of an entry that
 * counted until minute ARGV[1] and is gone early (replaced by a fill).
 */
export const OWNER_RETURN_SCRIPT = `${CLOCK}${OWNER_SWEEP}
local at = ARGV[1]
if tonumber(at) <= minute then return 0 end
local held = tonumber(redis.call('HGET', KEYS[1], at) or '0')
local bytes = math.min(held, tonumber(ARGV[2]))
if bytes <= 0 then return 0 end
redis.call('HINCRBY', KEYS[1], at, -bytes)
redis.call('HSET', KEYS[1], 'total', string.format('%.0f', math.max(0, total - bytes)))
return bytes
`;
