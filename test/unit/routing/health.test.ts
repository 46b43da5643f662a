import { describe, expect, it } from 'vitest';
import { type AttemptHealth, type HealthChange, type HealthTicket, HealthTracker, MAX_TARGET_CHARS, MAX_TARGETS, targetKey } from '../../../src/routing/health.js';

const KEY = targetKey('vendor-a', 'claude-x');

function tracker(options: ConstructorParameters<typeof HealthTracker>[0] = {}) {
  let now = 1_000_000;
  const health = new HealthTracker({ failures: 3, baseMs: 5_000, maxMs: 300_000, probeTimeoutMs: 30_000, ...options }, () => now);
  const changes: HealthChange[] = [];
  health.onChange((change) => changes.push(change));
  return {
    health,
    changes,
    advance: (ms: number) => (now += ms),
    ticket(): HealthTicket {
      const admitted = health.admit(KEY);
      if ('until' in admitted) throw new Error(`not admitted: cooling until ${admitted.until - now} ms from now`);
      return admitted;
    },
    settle: (ticket: HealthTicket, outcome: AttemptHealth) => health.settle(ticket, outcome, 'vendor-a', 'claude-x'),
    remaining: () => {
      const cooling = health.cooling(KEY);
      return cooling === undefined ? 0 : cooling.until - now;
    },
  };
}

const FAIL: AttemptHealth = { kind: 'failure' };
const OK: AttemptHealth = { kind: 'success' };

/** Fails `n` admitted attempts in a row. */
function failTimes(t: ReturnType<typeof tracker>, n: number): void {
  for (let i = 0; i < n; i++) t.settle(t.ticket(), FAIL);
}

describe('HealthTracker', () => {
  it('stays healthy below the threshold, and a success resets the count', () => {
    const t = tracker();
    failTimes(t, 2);
    expect(t.health.state(KEY)).toBe('healthy');
    t.settle(t.ticket(), OK);
    failTimes(t, 2);
    expect(t.health.state(KEY)).toBe('healthy');
    expect(t.changes).toEqual([]);
  });

  it('cools after the third consecutive failure for the base cooldown, then goes half-open', () => {
    const t = tracker();
    failTimes(t, 3);
    expect(t.health.state(KEY)).toBe('cooling');
    expect(t.remaining()).toBe(5_000);
    expect('until' in t.health.admit(KEY)).toBe(true);
    expect(t.changes).toEqual([{ key: KEY, upstream: 'vendor-a', model: 'claude-x', state: 'cooling', started: { cause: 'failures', durationMs: 5_000, level: 0 } }]);
    t.advance(4_999);
    expect(t.health.state(KEY)).toBe('cooling');
    t.advance(1);
    expect(t.health.state(KEY)).toBe('half-open');
  });

  it('doubles the cooldown for every failed probe, up to the cap', () => {
    const t = tracker({ maxMs: 60_000 });
    failTimes(t, 3);
    const durations = [t.remaining()];
    for (let i = 0; i < 6; i++) {
      t.advance(t.remaining());
      const probe = t.ticket();
      expect(probe.probe).toBe(true);
      t.settle(probe, FAIL);
      durations.push(t.remaining());
    }
    expect(durations).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000]);
  });

  it('lets exactly one probe through in half-open while concurrent requests keep skipping', () => {
    const t = tracker();
    failTimes(t, 3);
    t.advance(5_000);
    const probe = t.ticket();
    expect(probe.probe).toBe(true);
    // Ten concurrent requests while the probe is out: none admitted, each told to come back within a second.
    for (let i = 0; i < 10; i++) {
      expect('until' in t.health.admit(KEY)).toBe(true);
      expect(t.remaining()).toBe(1_000);
    }
    t.settle(probe, OK);
    expect(t.health.state(KEY)).toBe('healthy');
    expect(t.ticket().probe).toBe(false);
    expect(t.ticket().probe).toBe(false);
    expect(t.changes.map((change) => change.state)).toEqual(['cooling', 'healthy']);
  });

  it('a success after recovery starts the growth over at the base cooldown', () => {
    const t = tracker();
    failTimes(t, 3);
    t.advance(5_000);
    t.settle(t.ticket(), FAIL); // 10 s now
    t.advance(10_000);
    t.settle(t.ticket(), OK);
    failTimes(t, 3);
    expect(t.remaining()).toBe(5_000);
  });

  it('a probe whose outcome says nothing frees the probe slot for the next request', () => {
    const t = tracker();
    failTimes(t, 3);
    t.advance(5_000);
    const probe = t.ticket();
    expect('until' in t.health.admit(KEY)).toBe(true);
    t.settle(probe, { kind: 'neutral' });
    expect(t.ticket().probe).toBe(true);
  });

  it('a probe that never settles lets another through after probeTimeoutMs', () => {
    const t = tracker({ probeTimeoutMs: 2_000 });
    failTimes(t, 3);
    t.advance(5_000);
    t.ticket();
    t.advance(1_999);
    expect('until' in t.health.admit(KEY)).toBe(true);
    t.advance(1);
    expect(t.ticket().probe).toBe(true);
  });

  it('a 429 with retry-after cools the target for exactly that long, capped at maxMs', () => {
    const t = tracker({ maxMs: 60_000 });
    t.settle(t.ticket(), { kind: 'rate_limited', retryAfterMs: 7_250 });
    expect(t.health.state(KEY)).toBe('cooling');
    expect(t.remaining()).toBe(7_250);
    expect(t.changes[0]?.started).toEqual({ cause: 'rate_limit', durationMs: 7_250, level: 0 });
    expect(t.health.cooling(KEY)?.cause).toBe('rate_limit');
    t.advance(7_250);
    expect(t.health.state(KEY)).toBe('half-open');
    t.settle(t.ticket(), { kind: 'rate_limited', retryAfterMs: 3_600_000 });
    expect(t.remaining()).toBe(60_000);
  });

  it('late failures of requests admitted before the cooldown do not extend it', () => {
    const t = tracker();
    const early = [t.ticket(), t.ticket(), t.ticket(), t.ticket()];
    for (const ticket of early.slice(0, 3)) t.settle(ticket, FAIL);
    t.advance(1_000);
    t.settle(early[3]!, FAIL);
    expect(t.remaining()).toBe(4_000);
  });

  it('adopts a longer cooldown from another instance, never a shorter one', () => {
    const t = tracker();
    t.health.adopt({ key: KEY, upstream: 'vendor-a', model: 'claude-x', remainingMs: 8_000, level: 2, cause: 'failures' });
    expect(t.remaining()).toBe(8_000);
    expect(t.changes).toEqual([{ key: KEY, upstream: 'vendor-a', model: 'claude-x', state: 'cooling' }]);
    t.health.adopt({ key: KEY, upstream: 'vendor-a', model: 'claude-x', remainingMs: 1_000, level: 0, cause: 'failures' });
    expect(t.remaining()).toBe(8_000);
    // The adopted level carries the growth on: the failed probe cools for 5 s · 2³.
    t.advance(8_000);
    t.settle(t.ticket(), FAIL);
    expect(t.remaining()).toBe(40_000);
  });

  it('keeps targets apart: upstream name and model id together are the identity', () => {
    const t = tracker();
    failTimes(t, 3);
    expect(t.health.state(targetKey('vendor-a', 'claude-y'))).toBe('healthy');
    expect(t.health.state(targetKey('vendor-b', 'claude-x'))).toBe('healthy');
    expect(t.health.snapshot()).toEqual([{ upstream: 'vendor-a', model: 'claude-x', state: 'cooling' }]);
  });
});

describe('HealthTracker bounds', () => {
  it('remembers at most 4,096 targets, forgetting closed ones before cooling ones', () => {
    expect(MAX_TARGETS).toBe(4_096);
    const { health, advance } = tracker({ failures: 2 });
    const fail = (model: string) => health.settle({ key: targetKey('u', model), probe: false }, FAIL, 'u', model);
    fail('cooling');
    fail('cooling');
    for (let i = 0; i < 10_000; i++) fail(`model-${i}`);
    expect(health.size).toBe(4_096);
    expect(health.state(targetKey('u', 'cooling'))).toBe('cooling');
    advance(1);
    // The oldest closed target was forgotten: one failure no longer completes its count.
    fail('model-0');
    expect(health.state(targetKey('u', 'model-0'))).toBe('healthy');
    fail('model-9999');
    expect(health.state(targetKey('u', 'model-9999'))).toBe('cooling');
  });

  it('remembers at most 1 Mi characters of target keys', () => {
    expect(MAX_TARGET_CHARS).toBe(1_048_576);
    const { health } = tracker();
    for (let i = 0; i < 30; i++) {
      const model = `${i}-`.padEnd(64 * 1024, 'x');
      health.settle({ key: targetKey('u', model), probe: false }, FAIL, 'u', model);
    }
    // Each key is the JSON of [upstream, model]: a little over 64 Ki characters.
    expect(health.size).toBe(15);
  });
});
