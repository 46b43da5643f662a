/**
 * The Lua script of the Redis store. It runs atomically in Redis and reads
 * the time from Redis (`TIME`), so every gateway instance sees one clock.
 * Same semantics as the in-memory store (limit-store.ts).
 *
 * One call applies what the store queued (over two turns of the event loop), in the order the
 * gateway made the calls: settles (so that a request costs no round trip of
 * its own to settle, riding with later reserves), lease renewals and
 * reservations, each reservation all-or-nothing (a later one sees what an
 * earlier one took). The
 * counters are named once each in KEYS (a batch of one principal's
 * requests names the same few keys); ARGV[1] packs the rest as
 * space-separated words (one argument, not four per check: the client's
 * cost grows with the number of arguments), ARGV[2..] hold the lease ids:
 *   the number of operations, then per operation
 *     s m, then per adjustment:   key kind x y z
 *       b capacity windowMs delta | c lease - - | q periodMs period delta
 *     r n, then per check:        key kind x y z
 *       b capacity windowMs amount | c limit leaseMs lease | q limit periodMs amount
 *     n m, then per renewal:      key lease leaseMs
 * where `key` is an index into KEYS and `lease` an index into ARGV.
 * Returns { now, then per reservation: ok, then per check: remaining,
 * resetMs, retryAfterMs, period }.
 *
 * A renewal moves an unexpired lease's expiry to leaseMs from now (and
 * the set's own expiry with it); a released or expired one stays gone.
 *
 * @internal
 */

const CLOCK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

// Numbers handed back to Redis never make a call fail, whatever a caller's limits are (0, fractions,
// infinity): an expiry is whole ms between 1 and 1e14 written out in full (Lua would print 1e15 as
// "1e+15", which PEXPIRE refuses); a reply value is finite and within 2^53 (Redis would turn
// infinity into a wrong integer). One request's odd limits must not fail the others of its call.
const NUMBERS = `
local function ms(x)
  if x ~= x or x < 1 then return '1' end
  if x > 1e14 then return '100000000000000' end
  return string.format('%.0f', math.ceil(x))
end
local function int(x)
  if x ~= x then return 0 end
  if x > 9007199254740991 then return 9007199254740991 end
  if x < -9007199254740991 then return -9007199254740991 end
  return x
end
`;

const BUCKET_LEVEL = `
local function level(key, cap, win)
  local v = redis.call('HMGET', key, 'l', 't')
  if not v[1] then return cap end
  return math.min(cap, tonumber(v[1]) + (now - tonumber(v[2])) * cap / win)
end
local function setlevel(key, cap, win, l)
  redis.call('HSET', key, 'l', string.format('%.17g', l), 't', now)
  redis.call('PEXPIRE', key, ms((cap - l) * win / cap + 1000))
end
`;

// A lease's expiry in its set, and the set's own expiry: only ever later, so that a shorter lease
// never cuts the life of a set holding a longer one.
const PLACE_LEASE = `
local function placelease(key, id, lease, onlyexisting)
  if onlyexisting then redis.call('ZADD', key, 'XX', now + lease, id) else redis.call('ZADD', key, now + lease, id) end
  if redis.call('PTTL', key) < lease then redis.call('PEXPIRE', key, ms(lease)) end
end
`;

export const APPLY_SCRIPT = `${CLOCK}${NUMBERS}${BUCKET_LEVEL}${PLACE_LEASE}
local w = {}
for word in string.gmatch(ARGV[1], '%S+') do w[#w + 1] = word end
local p = 0
local function nextword()
  p = p + 1
  return w[p]
end
-- One check or adjustment: its key, kind and three values (read in this order, one statement each).
local function item()
  local key = KEYS[tonumber(nextword())]
  local kind = nextword()
  local a = nextword()
  local b = nextword()
  local c = nextword()
  return key, kind, a, b, c
end
local function settle(m)
  for _ = 1, m do
    local key, kind, a, b, c = item()
    if kind == 'b' then
      local cap, win = tonumber(a), tonumber(b)
      setlevel(key, cap, win, math.min(cap, level(key, cap, win) - tonumber(c)))
    elseif kind == 'c' then
      redis.call('ZREM', key, ARGV[tonumber(a)])
    else
      local v = redis.call('HMGET', key, 'p')
      if v[1] and tonumber(v[1]) == tonumber(b) then
        redis.call('HINCRBYFLOAT', key, 's', c)
      end
    end
  end
end
local out = {now}
local function reserve(n)
  local base = #out
  out[base + 1] = 1
  local ok = true
  local checks = {}
  for i = 1, n do
    local key, kind, a, b, c = item()
    local remaining, reset, retry, period, after = 0, 0, 0, 0, 0
    if kind == 'b' then
      local cap, win, amount = tonumber(a), tonumber(b), tonumber(c)
      local l = level(key, cap, win)
      if amount > cap then retry = -1 elseif l < amount then retry = math.ceil((amount - l) * win / cap) end
      after = l
      if retry == 0 then after = l - amount end
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
      after = spent
      if retry == 0 then after = spent + amount end
      remaining = math.max(0, math.floor(limit - after))
    end
    checks[i] = {key, kind, a, b, c, after, period}
    if retry ~= 0 then ok = false end
    out[base + i * 4 - 2] = int(remaining)
    out[base + i * 4 - 1] = int(reset)
    out[base + i * 4] = int(retry)
    out[base + i * 4 + 1] = int(period)
  end
  if not ok then
    out[base + 1] = 0
    return
  end
  for i = 1, n do
    local key, kind, a, b, c, after, period = unpack(checks[i])
    if kind == 'b' then
      setlevel(key, tonumber(a), tonumber(b), after)
    elseif kind == 'c' then
      placelease(key, ARGV[tonumber(c)], tonumber(b), false)
    else
      redis.call('HSET', key, 'p', string.format('%.17g', period), 's', string.format('%.17g', after))
      redis.call('PEXPIRE', key, ms((period + 1) * tonumber(b) - now + 60000))
    end
  end
end
-- A running request's lease moves to leaseMs from now; a released or expired one stays gone.
local function renew(m)
  for _ = 1, m do
    local key = KEYS[tonumber(nextword())]
    local id = ARGV[tonumber(nextword())]
    local lease = tonumber(nextword())
    local score = redis.call('ZSCORE', key, id)
    if score and tonumber(score) > now then placelease(key, id, lease, true) end
  end
end
for _ = 1, tonumber(nextword()) do
  local op = nextword()
  local count = tonumber(nextword())
  if op == 's' then settle(count) elseif op == 'n' then renew(count) else reserve(count) end
end
return out
`;
