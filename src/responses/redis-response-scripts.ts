/**
 * The Lua scripts of the Redis response store. Each names its keys in
 * KEYS, and every key of one call carries the same owner's hash tag, so a
 * call runs on one Redis Cluster node. Time comes from Redis (`TIME`): one
 * clock for every gateway instance.
 *
 * The owner's bookkeeping (its "owner keys", always KEYS[1..4]): a sorted
 * set of its response ids scored by their expiry (how many it keeps), a
 * hash of each one's size, their total, and a hash of each linked
 * response's previous response id (the chains).
 *
 * @internal
 */

const CLOCK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** Responses expired at most per sweep: a sweep after a long idle spell stays quick; the rest go on later calls. */
const SWEEP_LIMIT = 1000;

/**
 * Holders of one item read at most: the newest ones. An item is held by the
 * response that added it (and by any that was sent it again); a bound keeps
 * an owner who stored one id many times from making a lookup read them all.
 */
export const HOLDERS_LIMIT = 32;

/** Forgets the owner's expired responses (KEYS[1..4]: the owner keys). */
const SWEEP = `
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now), 'LIMIT', 0, ${SWEEP_LIMIT})
for _, gone in ipairs(expired) do
  local size = redis.call('HGET', KEYS[2], gone)
  if size then redis.call('DECRBY', KEYS[3], size) end
  redis.call('HDEL', KEYS[2], gone)
  redis.call('HDEL', KEYS[4], gone)
  redis.call('ZREM', KEYS[1], gone)
end
`;

/** What the owner keeps (KEYS[1..4]: the owner keys): { responses, bytes }. */
export const ROOM_SCRIPT = `${CLOCK}${SWEEP}
return { redis.call('ZCARD', KEYS[1]), tonumber(redis.call('GET', KEYS[3]) or '0') }
`;

/**
 * Stores a record, atomically: its owner's quotas checked, the record
 * written, the chain it continues renewed, its items indexed (a reader
 * never finds an index entry before its record).
 *
 * KEYS: the owner keys [1..4]; [5] the record; then A ancestors' records
 * (the chain it continues, latest first), C index keys of the chain's
 * items, K index keys of its own items. ARGV: [1] JSON, [2] TTL ms, [3]
 * id, [4] the previous id ('' for none), [5] A, [6] C, [7] the most
 * responses, [8] the most bytes, [9] the JSON's size, [10..] the A
 * ancestors' ids.
 *
 * Replies { 1 } stored; { -1 } an ancestor is gone (store it whole
 * instead); { 0, 'count' | 'bytes' | 'size', what it has } refused: the
 * owner keeps the most responses or bytes already, or the record alone is
 * larger than the byte quota.
 *
 * An index entry's score is its holder's expiry, nudged a microsecond past
 * the highest when writes share a millisecond: with one TTL (every
 * instance configured alike) the order of the scores is the order of the
 * writes (the chain's renewed entries before the record's own), and
 * readers take the last one first.
 */
export const PUT_SCRIPT = `${CLOCK}${SWEEP}
local ttl = tonumber(ARGV[2])
local id = ARGV[3]
local ancestors = tonumber(ARGV[5])
local chained = tonumber(ARGV[6])
local size = tonumber(ARGV[9])
for i = 1, ancestors do
  if redis.call('EXISTS', KEYS[5 + i]) == 0 then return { -1 } end
end
local replaced = tonumber(redis.call('HGET', KEYS[2], id) or '0')
local count = redis.call('ZCARD', KEYS[1])
if redis.call('ZSCORE', KEYS[1], id) then count = count - 1 end
local total = tonumber(redis.call('GET', KEYS[3]) or '0') - replaced
if count >= tonumber(ARGV[7]) then return { 0, 'count', count } end
if total >= tonumber(ARGV[8]) then return { 0, 'bytes', total } end
if size > tonumber(ARGV[8]) then return { 0, 'size', size } end

local expiry = now + ttl
local expired = string.format('%.0f', now)
local function index(key, member)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', expired)
  local score = expiry
  local top = redis.call('ZREVRANGE', key, 0, 0, 'WITHSCORES')
  if top[2] then
    local highest = tonumber(top[2])
    if highest >= score and highest < score + 1 then score = highest + 0.001 end
  end
  redis.call('ZADD', key, string.format('%.17g', score), member)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ARGV[2]) end
end

redis.call('SET', KEYS[5], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[1], string.format('%.0f', expiry), id)
redis.call('HSET', KEYS[2], id, size)
redis.call('INCRBY', KEYS[3], size - replaced)
if ancestors > 0 then redis.call('HSET', KEYS[4], id, ARGV[4]) else redis.call('HDEL', KEYS[4], id) end

-- The chain lives as long as its latest turn: its records, their places in the quota, their items.
local renewed = {}
for i = 1, ancestors do
  local key = KEYS[5 + i]
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ARGV[2]) end
  renewed[ARGV[9 + i]] = true
  redis.call('ZADD', KEYS[1], 'XX', string.format('%.0f', expiry), ARGV[9 + i])
end
for i = 6 + ancestors, 5 + ancestors + chained do
  for _, holder in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
    if renewed[holder] then index(KEYS[i], holder) end
  end
end
for i = 6 + ancestors + chained, #KEYS do index(KEYS[i], id) end
for i = 1, 4 do
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return { 1 }
`;

/**
 * A response and the chain it continues. KEYS[1] the owner's links hash,
 * KEYS[2] the record; ARGV[1] its id, ARGV[2] the longest chain walked,
 * ARGV[3] '1' to read the record too. Replies { the record's JSON or nil,
 * its id, the id it continues, ... }: the ids latest first, one more than
 * ARGV[2] when the walk stopped there.
 */
export const CHAIN_SCRIPT = `
local reply = { ARGV[3] == '1' and redis.call('GET', KEYS[2]) or false, ARGV[1] }
local longest = tonumber(ARGV[2])
local at = ARGV[1]
while #reply <= longest + 1 do
  local previous = redis.call('HGET', KEYS[1], at)
  if not previous then return reply end
  reply[#reply + 1] = previous
  at = previous
end
return reply
`;

/** Deletes the record (KEYS[5]; KEYS[1..4] the owner keys, ARGV[1] its id); 1 when it existed. Its items' index entries lapse: readers skip ids whose record is gone. */
export const DELETE_SCRIPT = `
local existed = redis.call('DEL', KEYS[5])
local size = redis.call('HGET', KEYS[2], ARGV[1])
if size then redis.call('DECRBY', KEYS[3], size) end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
return existed
`;

/** The ids of the unexpired responses holding an item (index KEYS[1]), stored last first, at most HOLDERS_LIMIT. */
export const HOLDERS_SCRIPT = `${CLOCK}
return redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', '(' .. string.format('%.0f', now), 'LIMIT', 0, ${HOLDERS_LIMIT})
`;

/** For each item index in KEYS, the ids of the unexpired responses holding it, stored last first (at most HOLDERS_LIMIT): one list per key. */
export const HOLDERS_OF_EACH_SCRIPT = `${CLOCK}
local since = '(' .. string.format('%.0f', now)
local lists = {}
for i = 1, #KEYS do
  lists[i] = redis.call('ZREVRANGEBYSCORE', KEYS[i], '+inf', since, 'LIMIT', 0, ${HOLDERS_LIMIT})
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
