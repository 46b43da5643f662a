/**
 * The Lua scripts of the Redis response store. Each names its keys in
 * KEYS, and every key of one call carries the same owner's hash tag, so a
 * call runs on one Redis Cluster node. Time comes from Redis (`TIME`): one
 * clock for every gateway instance.
 *
 * @internal
 */

const CLOCK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * Stores a record and indexes its items, atomically: a reader never finds
 * an item's index entry before the record it points to.
 * KEYS[1] the record, KEYS[2..] the index of each of its item ids (a sorted
 * set of response ids scored by their expiry); ARGV[1] the record's JSON,
 * ARGV[2] the TTL in ms, ARGV[3] the response id. Each index drops the
 * members that expired, and lives as long as its longest-lived member. A
 * member's score is its expiry, nudged a microsecond past the highest when
 * writes share a millisecond: with one TTL (every instance configured
 * alike), the order of the scores is the order of the writes, and readers
 * take the last one first.
 */
export const PUT_SCRIPT = `${CLOCK}
local ttl = tonumber(ARGV[2])
local expired = string.format('%.0f', now)
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
for i = 2, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', expired)
  local score = now + ttl
  local top = redis.call('ZREVRANGE', KEYS[i], 0, 0, 'WITHSCORES')
  if top[2] then
    local highest = tonumber(top[2])
    if highest >= score and highest < score + 1 then score = highest + 0.001 end
  end
  redis.call('ZADD', KEYS[i], string.format('%.17g', score), ARGV[3])
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return 1
`;

/** The record's JSON (KEYS[1]), or nil. */
export const GET_SCRIPT = `return redis.call('GET', KEYS[1])`;

/** Deletes the record (KEYS[1]); 1 when it existed. Its items' index entries lapse: readers skip ids whose record is gone. */
export const DELETE_SCRIPT = `return redis.call('DEL', KEYS[1])`;

/** The ids of the unexpired responses holding an item (index KEYS[1]), stored last first. */
export const HOLDERS_SCRIPT = `${CLOCK}
return redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', '(' .. string.format('%.0f', now))
`;

/** For each item index in KEYS, the ids of the unexpired responses holding it, stored last first: one list per key. */
export const HOLDERS_OF_EACH_SCRIPT = `${CLOCK}
local since = '(' .. string.format('%.0f', now)
local lists = {}
for i = 1, #KEYS do
  lists[i] = redis.call('ZREVRANGEBYSCORE', KEYS[i], '+inf', since)
end
return lists
`;

/**
 * The JSON of each record in KEYS, nil where there is none, within a byte
 * budget: ARGV[1] the bytes the records may total (negative: no limit),
 * ARGV[2] '1' when the lookup has read a record already. Each record's size
 * (STRLEN) is looked at before it is read, and the script stops before one
 * that would pass the budget, unless it is the lookup's first: a reply
 * carries at most the budget or one record. Replies { bytes read, 1 when it
 * stopped (else 0), the records read, in KEYS order }.
 */
export const GET_EACH_SCRIPT = `
local budget = tonumber(ARGV[1])
local started = ARGV[2] == '1'
local reply = { 0, 0 }
for i = 1, #KEYS do
  local size = redis.call('STRLEN', KEYS[i])
  if budget >= 0 and (started or reply[1] > 0) and reply[1] + size > budget then
    reply[2] = 1
    return reply
  end
  reply[1] = reply[1] + size
  reply[i + 2] = redis.call('GET', KEYS[i])
end
return reply
`;
