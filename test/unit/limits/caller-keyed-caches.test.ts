/**
 * What the limits remember per caller string stays bounded: the rules that
 * apply to each model id, the counter keys per principal and model, and the
 * in-memory store's counters, however many distinct ids callers send.
 */
import { describe, expect, it } from 'vitest';
import { MAX_REMEMBERED_MODEL_CHARS, MAX_REMEMBERED_MODELS, ruleSet } from '../../../src/limits/rule-set.js';
import { isSyncStore, MAX_COUNTERS, memoryLimitStore } from '../../../src/limits/memory-limit-store.js';
import { MAX_CACHED_KEY_CHARS, MAX_CACHED_KEYS, MAX_KEYED_MODEL_LENGTH, planLimits } from '../../../src/limits/plan-limits.js';
import type { LimitCheck } from '../../../src/limits/limit-store.js';

const long = (i: number, chars: number) => `${i}-`.padEnd(chars, 'x');

describe('the rules remembered per model id', () => {
  it('are kept for the 1,000 most recently used model ids', () => {
    expect(MAX_REMEMBERED_MODELS).toBe(1_000);
    const rules = ruleSet([{ models: 'gpt-*', requests: { limit: 5 } }]);
    const hot = rules.forModel('gpt-hot');
    for (let i = 0; i < 5_000; i++) {
      rules.forModel(`gpt-${i}`);
      if (i % 100 === 0) rules.forModel('gpt-hot');
    }
    expect(rules.rememberedModels).toBe(1_000);
    // The model used all along is still remembered: the same object comes back.
    expect(rules.forModel('gpt-hot')).toBe(hot);
  });

  it('hold at most 1 Mi characters of model ids', () => {
    expect(MAX_REMEMBERED_MODEL_CHARS).toBe(1_048_576);
    const rules = ruleSet([{ requests: { limit: 5 } }]);
    for (let i = 0; i < 30; i++) rules.forModel(long(i, 64 * 1024));
    expect(rules.rememberedModels).toBe(16);
  });
});

describe('the counter keys remembered per rule', () => {
  const plan = (rules: ReturnType<typeof ruleSet>, principalId: string, model: string) =>
    planLimits({ principalId, model, rules: rules.all, estimate: { inputTokens: 1, outputTokens: 1, choices: 1, calls: 1 }, prices: undefined, leaseMs: 60_000 });

  it('are kept for the 10,000 most recent principal and model pairs with eachModel', () => {
    expect(MAX_CACHED_KEYS).toBe(10_000);
    const rules = ruleSet([{ eachModel: true, requests: { limit: 5 }, concurrent: 2 }]);
    for (let i = 0; i < 25_000; i++) plan(rules, 'p1', `model-${i}`);
    expect(rules.all[0]!.keys.size).toBe(10_000);
  });

  it('hold at most 4 Mi characters of ids and keys', () => {
    expect(MAX_CACHED_KEY_CHARS).toBe(4 * 1_048_576);
    const rules = ruleSet([{ requests: { limit: 5 } }]);
    // Principal ids come from `verify`, which may return long ones.
    for (let i = 0; i < 30; i++) plan(rules, long(i, 64 * 1024), 'm');
    const keys = rules.all[0]!.keys;
    // Each entry holds the id and four keys with the principal in them: five copies of 64 Ki characters.
    expect(keys.size).toBe(12);
    expect(keys.heldChars).toBeLessThanOrEqual(4 * 1_048_576);
  });

  it('hold a model id of up to 256 characters as it is, and a longer one as its digest', () => {
    expect(MAX_KEYED_MODEL_LENGTH).toBe(256);
    const rules = ruleSet([{ eachModel: true, requests: { limit: 5 } }]);
    const model256 = 'm'.repeat(256);
    expect(plan(rules, 'p1', model256).checks[0]!.key).toBe(`{p1}:*:${model256}:rq`);
    const first = plan(rules, 'p1', long(1, 1024 * 1024)).checks[0]!.key;
    const second = plan(rules, 'p1', long(2, 1024 * 1024)).checks[0]!.key;
    // SHA-256 in base64url: 43 characters.
    expect(first).toMatch(/^\{p1\}:\*:sha256:[A-Za-z0-9_-]{43}:rq$/);
    expect(second).not.toBe(first);
    expect(plan(rules, 'p1', long(1, 1024 * 1024)).checks[0]!.key).toBe(first);
  });

  it('build the same keys again for a forgotten pair', () => {
    const rules = ruleSet([{ eachModel: true, requests: { limit: 5 } }]);
    const first = plan(rules, 'p1', 'model-0').checks[0]!.key;
    for (let i = 1; i <= 10_000; i++) plan(rules, 'p1', `model-${i}`);
    expect(plan(rules, 'p1', 'model-0').checks[0]!.key).toBe(first);
  });
});

describe('memoryLimitStore counters', () => {
  const bucket = (key: string): LimitCheck => ({ kind: 'bucket', key, capacity: 2, windowMs: 60_000, amount: 1 });

  function syncStore(options: Parameters<typeof memoryLimitStore>[0] = {}) {
    const store = memoryLimitStore({ now: () => 1_000_000, ...options });
    if (!isSyncStore(store)) throw new Error('the memory store answers synchronously');
    return store;
  }

  it('keeps the 100,000 most recently used live counters; a forgotten one starts over', () => {
    expect(MAX_COUNTERS).toBe(100_000);
    const store = syncStore();
    for (let i = 0; i <= 100_000; i++) store.reserveNow([bucket(`k${i}`)]);
    // k1 and k100000 still count (one left before, none after); k0 was forgotten: its bucket is full again.
    expect(store.reserveNow([bucket('k1')]).states[0]!.remaining).toBe(0);
    expect(store.reserveNow([bucket('k100000')]).states[0]!.remaining).toBe(0);
    expect(store.reserveNow([bucket('k0')]).states[0]!.remaining).toBe(1);
  });

  it('takes its cap from maxCounters, keeping counters in use', () => {
    const store = syncStore({ maxCounters: 3 });
    store.reserveNow([bucket('hot')]);
    for (let i = 0; i < 10; i++) {
      store.reserveNow([bucket(`cold-${i}`)]);
      store.settleNow([{ kind: 'bucket', key: 'hot', capacity: 2, windowMs: 60_000, delta: 0 }]);
    }
    expect(store.reserveNow([bucket('hot')]).states[0]!.remaining).toBe(0);
    expect(store.reserveNow([bucket('cold-0')]).states[0]!.remaining).toBe(1);
  });

  it('holds at most 16 Mi characters of keys', () => {
    const store = syncStore();
    const keys = Array.from({ length: 30 }, (_, i) => long(i, 1024 * 1024));
    for (const key of keys) store.reserveNow([bucket(key)]);
    // 16 keys of 1 Mi fit: the 14 oldest were forgotten, the 16 newest still count.
    expect(store.reserveNow([bucket(keys[13]!)]).states[0]!.remaining).toBe(1);
    expect(store.reserveNow([bucket(keys[29]!)]).states[0]!.remaining).toBe(0);
    expect(store.reserveNow([bucket(keys[15]!)]).states[0]!.remaining).toBe(0);
  });
});

describe('memoryLimitStore when full', () => {
  it('forgets request buckets before spend: a flood of new keys leaves an earlier budget counted', async () => {
    const store = memoryLimitStore({ maxCounters: 10 });
    const spend = { kind: 'budget', key: 'budget:{alice}', limit: 1_000_000, amount: 900_000, periodMs: 86_400_000 } as const;
    expect((await store.reserve([spend])).ok).toBe(true);
    for (let i = 0; i < 50; i++) await store.reserve([{ kind: 'bucket', key: `requests:{mallory}:${i}`, capacity: 10, windowMs: 60_000, amount: 1 }]);
    // Alice's spend is still there: another 900,000 does not fit her 1,000,000.
    expect((await store.reserve([spend])).ok).toBe(false);
  });
});
