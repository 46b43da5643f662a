/**
 * The Lua scripts of the Redis store. Each runs atomically in Redis and
 * reads the time from Redis (`TIME`), so every gateway instance sees one
 * clock. Same semantics as the in-memory store (limit-store.ts).
 *
 * Reserve: first the settles queued for the same principal (so that a
 * request costs one round trip, its settle riding with a later reserve),
 * then the checks. KEYS = one per queued adjustment, then one per check;
 * ARGV[1] = the number of adjustments m, then 4 values per adjustment (as
 * for Settle), then 4 values per check:
 *   b capacity windowMs amount | c limit leaseMs leaseId | q limit periodMs amount
 * Returns { now, ok, then per check: remaining, resetMs, retryAfterMs, period }.
 *
 * Settle: KEYS = one per adjustment; ARGV = 4 values per adjustment:
 *   b capacity windowMs delta | c leaseId - - | q periodMs period delta
 *
 * Renew: KEYS = one concurrency set per lease; ARGV = leaseId leaseMs per
 * lease. An unexpired lease's expiry moves to leaseMs from now (and the
 * set's own expiry with it); a released or expired one stays gone.
 *
 * @internal
 */

const CLOCK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

const BUCKET_LEVEL = `
local function level(key, cap, win)
  local v = redis.call('HMGET', key, 'l', 't')
  if not v[1] then return cap end
  return math.min(cap, tonumber(v[1]) + (now - tonumber(v[2])) * cap / win)
end
local function setlevel(key, cap, win, l)
  redis.call('HSET', key, 'l', string.format('%.17g', l), 't', now)
  redis.call('PEXPIRE', key, math.ceil((cap - l) * win / cap) + 1000)
end
`;

// Applies adjustment i (KEYS[ko + i], ARGV[ao + 4i - 3 .. ao + 4i]).
const SETTLE_ONE = `
local function settleone(key, kind, a, b, c)
  if kind == 'b' then
    local cap, win = tonumber(a), tonumber(b)
    setlevel(key, cap, win, math.min(cap, level(key, cap, win) - tonumber(c)))
  elseif kind == 'c' then
    redis.call('ZREM', key, a)
  else
    local v = redis.call('HMGET', key, 'p')
    if v[1] and tonumber(v[1]) == tonumber(b) then
      redis.call('HINCRBYFLOAT', key, 's', c)
    end
  end
end
`;

export const RESERVE_SCRIPT = `${CLOCK}${BUCKET_LEVEL}${SETTLE_ONE}
local m = tonumber(ARGV[1])
for i = 1, m do
  settleone(KEYS[i], ARGV[i * 4 - 2], ARGV[i * 4 - 1], ARGV[i * 4], ARGV[i * 4 + 1])
end
local ko, ao = m, 1 + m * 4
local n = #KEYS - m
local out = {now, 1}
local ok = true
local pending = {}
for i = 1, n do
  local kind = ARGV[ao + i * 4 - 3]
  local a, b, c = ARGV[ao + i * 4 - 2], ARGV[ao + i * 4 - 1], ARGV[ao + i * 4]
  local key = KEYS[ko + i]
  local remaining, reset, retry, period = 0, 0, 0, 0
  if kind == 'b' then
    local cap, win, amount = tonumber(a), tonumber(b), tonumber(c)
    local l = level(key, cap, win)
    if amount > cap then retry = -1 elseif l < amount then retry = math.ceil((amount - l) * win / cap) end
    local after = l
    if retry == 0 then after = l - amount end
    pending[i] = after
    remaining = math.max(0, math.floor(after))
    reset = math.ceil((cap - after) * win / cap)
  elseif kind == 'c' then
    local limit = tonumber(a)
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
    local open = redis.call('ZCARD', key)
    if limit < 1 then retry = -1 elseif open >= limit then retry = 1000 end
    local taken = 0
    if retry == 0 then taken = 1 end
    remaining = math.max(0, limit - open - taken)
  else
    local limit, pms, amount = tonumber(a), tonumber(b), tonumber(c)
    period = math.floor(now / pms)
    local v = redis.call('HMGET', key, 'p', 's')
    local spent = 0
    if v[1] and tonumber(v[1]) == period then spent = tonumber(v[2]) end
    reset = (period + 1) * pms - now
    if amount > limit then retry = -1 elseif spent + amount > limit then retry = reset end
    local after = spent
    if retry == 0 then after = spent + amount end
    pending[i] = after
    remaining = math.max(0, math.floor(limit - after))
  end
  if retry ~= 0 then ok = false end
  out[#out + 1] = remaining
  out[#out + 1] = reset
  out[#out + 1] = retry
  out[#out + 1] = period
end
if not ok then
  out[2] = 0
  return out
end
for i = 1, n do
  local kind = ARGV[ao + i * 4 - 3]
  local a, b, c = ARGV[ao + i * 4 - 2], ARGV[ao + i * 4 - 1], ARGV[ao + i * 4]
  local key = KEYS[ko + i]
  if kind == 'b' then
    setlevel(key, tonumber(a), tonumber(b), pending[i])
  elseif kind == 'c' then
    redis.call('ZADD', key, now + tonumber(b), c)
    -- Only ever later: a shorter lease must not cut the set's life below a longer one's.
    if redis.call('PTTL', key) < tonumber(b) then redis.call('PEXPIRE', key, tonumber(b)) end
  else
    local pms = tonumber(b)
    local period = out[2 + i * 4]
    redis.call('HSET', key, 'p', period, 's', string.format('%.17g', pending[i]))
    redis.call('PEXPIRE', key, (period + 1) * pms - now + 60000)
  end
end
return out
`;

export const SETTLE_SCRIPT = `${CLOCK}${BUCKET_LEVEL}${SETTLE_ONE}
for i = 1, #KEYS do
  settleone(KEYS[i], ARGV[i * 4 - 3], ARGV[i * 4 - 2], ARGV[i * 4 - 1], ARGV[i * 4])
end
return 1
`;

export const RENEW_SCRIPT = `${CLOCK}
for i = 1, #KEYS do
  local id, ms = ARGV[i * 2 - 1], tonumber(ARGV[i * 2])
  local score = redis.call('ZSCORE', KEYS[i], id)
  if score and tonumber(score) > now then
    redis.call('ZADD', KEYS[i], 'XX', now + ms, id)
    if redis.call('PTTL', KEYS[i]) < ms then redis.call('PEXPIRE', KEYS[i], ms) end
  end
end
return 1
`;
