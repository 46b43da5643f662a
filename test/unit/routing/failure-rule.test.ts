/**
 * The default failure rule: a target cools once 9 of its last 10 attempts
 * failed. A small random error rate never gets there; a hard-down target
 * does on its 9th failure, and is then probed once per cooldown.
 */
import { describe, expect, it } from 'vitest';
import { resolveCooldown } from '../../../src/routing/cooldown-options.js';
import { FailureWindow } from '../../../src/routing/failure-window.js';
import { type AttemptHealth, type HealthChange, HealthTracker, targetKey } from '../../../src/routing/health.js';
import { createRandom } from '../../helpers/split-randomly.js';

const KEY = targetKey('up', 'model-1');
const FAIL: AttemptHealth = { kind: 'failure' };
const OK: AttemptHealth = { kind: 'success' };

/** A tracker with the default options and a clock the test moves. */
function defaults() {
  let now = 0;
  const health = new HealthTracker({}, () => now);
  const changes: HealthChange[] = [];
  health.onChange((change) => changes.push(change));
  /** Sends one attempt if the tracker admits it; returns whether it was sent. */
  const attempt = (outcome: AttemptHealth): boolean => {
    const ticket = health.admit(KEY);
    if ('until' in ticket) return false;
    health.settle(ticket, outcome, 'up', 'model-1');
    return true;
  };
  return { health, changes, attempt, advance: (ms: number) => (now += ms) };
}

describe('FailureWindow', () => {
  it('counts the failures among the last `size` attempts, forgetting the oldest', () => {
    const window = new FailureWindow(3);
    expect([true, true, false, true, false, false].map((failed) => window.record(failed))).toEqual([1, 2, 2, 2, 1, 1]);
    window.clear();
    expect(window.record(true)).toBe(1);
  });
});

describe('resolveCooldown', () => {
  it('defaults to 9 failures of the last 10 attempts', () => {
    expect(resolveCooldown()).toMatchObject({ failures: 9, window: 10, baseMs: 5_000, maxMs: 300_000 });
  });
  it('with only `failures` given, looks back on exactly that many attempts: N failures in a row', () => {
    expect(resolveCooldown({ failures: 3 })).toMatchObject({ failures: 3, window: 3 });
    expect(resolveCooldown({ failures: 3, window: 20 })).toMatchObject({ failures: 3, window: 20 });
    expect(resolveCooldown({ window: 20 })).toMatchObject({ failures: 9, window: 20 });
  });
});

describe('the default failure rule', () => {
  it('does not cool on 8 failures among 10 attempts, cools on the 9th', () => {
    const t = defaults();
    for (let i = 0; i < 8; i++) t.attempt(FAIL);
    t.attempt(OK);
    expect(t.health.state(KEY)).toBe('healthy');
    // The window now holds 8 failures and a success: one more failure makes 9 of the last 10.
    t.attempt(FAIL);
    expect(t.health.state(KEY)).toBe('cooling');
    expect(t.changes.at(-1)?.started).toEqual({ cause: 'failures', durationMs: 5_000, level: 0 });
  });

  it('forgets failures older than the last 10 attempts', () => {
    const t = defaults();
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 8; i++) t.attempt(FAIL);
      t.attempt(OK);
      t.attempt(OK);
    }
    expect(t.health.state(KEY)).toBe('healthy');
  });

  it('a target failing 15 % of its attempts at random is never cooled over 12,000 attempts', () => {
    for (const seed of [1, 2, 3]) {
      const t = defaults();
      const random = createRandom(seed);
      let failures = 0;
      for (let i = 0; i < 12_000; i++) {
        const failed = random() < 0.15;
        if (failed) failures++;
        expect(t.attempt(failed ? FAIL : OK)).toBe(true);
      }
      // The seeded draws really are ~15 % failures (binomial: 4 standard deviations is 1.3 points).
      expect(Math.abs(failures / 12_000 - 0.15)).toBeLessThan(0.013);
      expect(t.changes).toEqual([]);
    }
  });

  it('the rule before (3 failures in a row) cools the same 15 % target within 1,200 attempts', () => {
    const random = createRandom(1);
    let now = 0;
    const health = new HealthTracker({ failures: 3 }, () => now);
    let cooled = false;
    health.onChange(() => (cooled = true));
    for (let i = 0; i < 1_200 && !cooled; i++, now += 10) {
      const ticket = health.admit(KEY);
      if (!('until' in ticket)) health.settle(ticket, random() < 0.15 ? FAIL : OK, 'up', 'model-1');
    }
    expect(cooled).toBe(true);
  });

  it('a target failing half its attempts is cooled within 1,200', () => {
    const t = defaults();
    const random = createRandom(9);
    for (let i = 0; i < 1_200 && t.changes.length === 0; i++) t.attempt(random() < 0.5 ? FAIL : OK);
    expect(t.health.state(KEY)).toBe('cooling');
  });

  it('a hard-down target: cooled on its 9th attempt, then one probe per cooldown, each cooldown twice as long', () => {
    const t = defaults();
    let sent = 0;
    for (let i = 0; i < 9; i++) if (t.attempt(FAIL)) sent++;
    expect(sent).toBe(9);
    expect(t.health.state(KEY)).toBe('cooling');
    const probesAt: number[] = [];
    let elapsed = 0;
    // 60 s of calls every 50 ms: only the probes reach the target.
    for (; elapsed < 60_000; elapsed += 50) {
      if (t.attempt(FAIL)) probesAt.push(elapsed);
      t.advance(50);
    }
    // Cooldowns of 5, 10, 20 s after the first: probes at 5 s, 15 s, 35 s (to the 50 ms step).
    expect(probesAt).toEqual([5_000, 15_000, 35_000]);
  });
});
