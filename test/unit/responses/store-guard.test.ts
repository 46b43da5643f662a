/**
 * The store guard: a time-out per command, a back-off after each failure
 * (commands fail at once during it, without reaching the store), the
 * store's own answers passed through, each failure reported once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStoreGuard, StoreFailure, type StoreGuardOptions } from '../../../src/store-guard.js';

const never = <T>(): Promise<T> => new Promise<T>(() => {});

function guardWith(overrides: Partial<StoreGuardOptions> = {}) {
  const failures: StoreFailure[] = [];
  const guard = createStoreGuard({ name: 'test store', timeoutMs: 200, retryMs: 3000, onFailure: (failure) => failures.push(failure), ...overrides });
  return { guard, failures };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('createStoreGuard', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes an answer given within the time-out', async () => {
    const { guard, failures } = guardWith();
    await expect(guard.run('get', async () => 'value')).resolves.toBe('value');
    expect(failures).toEqual([]);
    expect(guard.backoffLeft()).toBe(0);
  });

  it('a command that does not answer fails at the time-out, not later', async () => {
    const { guard, failures } = guardWith();
    const pending = rejection(guard.run('get', never));
    await vi.advanceTimersByTimeAsync(199);
    expect(failures).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error).toBeInstanceOf(StoreFailure);
    expect(error).toMatchObject({ store: 'test store', operation: 'get', reason: 'timeout', retryInMs: 3000 });
    expect((error as Error).message).toContain('no answer within 200 ms');
    expect(failures).toEqual([error]);
  });

  it('after a failure the store is left alone for retryMs: commands fail at once without reaching it, and are not reported again', async () => {
    const { guard, failures } = guardWith();
    await rejection(guard.run('put', () => Promise.reject(new Error('connection refused'))));
    expect(failures).toHaveLength(1);

    const command = vi.fn(async () => 'value');
    await vi.advanceTimersByTimeAsync(1000);
    const skipped = await rejection(guard.run('get', command));
    expect(skipped).toMatchObject({ reason: 'backoff', operation: 'get', retryInMs: 2000 });
    expect((skipped as StoreFailure).retryAfterSeconds).toBe(2);
    expect(command).not.toHaveBeenCalled();
    expect(failures).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(2000);
    await expect(guard.run('get', command)).resolves.toBe('value');
    expect(command).toHaveBeenCalledTimes(1);
  });

  it("keeps the store's error as the cause, and counts a command that throws instead of rejecting as failed", async () => {
    const { guard } = guardWith();
    const cause = new Error('connect ECONNREFUSED 10.0.0.7:6379');
    const rejected = await rejection(guard.run('get', () => Promise.reject(cause)));
    expect(rejected).toMatchObject({ reason: 'failed' });
    expect((rejected as Error).cause).toBe(cause);
    // The store's own text (an address) stays in the cause, out of the message.
    expect((rejected as Error).message).not.toContain('10.0.0.7');

    vi.advanceTimersByTime(3000);
    const thrown = await rejection(
      guard.run('get', () => {
        throw new TypeError('bad client');
      }),
    );
    expect(thrown).toMatchObject({ reason: 'failed' });
  });

  it("passes the store's own answers (isAnswer) as they are, without a back-off", async () => {
    const refusal = new Error('quota full');
    const { guard, failures } = guardWith({ isAnswer: (error) => error === refusal });
    await expect(guard.run('put', () => Promise.reject(refusal))).rejects.toBe(refusal);
    expect(failures).toEqual([]);
    expect(guard.backoffLeft()).toBe(0);
    await expect(guard.run('get', async () => 1)).resolves.toBe(1);
  });

  it('a late answer after the time-out changes nothing', async () => {
    const { guard } = guardWith();
    let answer!: (value: string) => void;
    const pending = rejection(guard.run('get', () => new Promise<string>((resolve) => (answer = resolve))));
    await vi.advanceTimersByTimeAsync(200);
    answer('late');
    expect(await pending).toMatchObject({ reason: 'timeout' });
  });

  it('a logger that throws does not change the failure', async () => {
    const { guard } = guardWith({
      onFailure: () => {
        throw new Error('logger down');
      },
    });
    expect(await rejection(guard.run('get', () => Promise.reject(new Error('x'))))).toMatchObject({ reason: 'failed' });
  });

  it('retry-after is whole seconds, at least 1', () => {
    const failure = (retryInMs: number) => new StoreFailure({ store: 's', operation: 'get', reason: 'backoff', retryInMs, timeoutMs: 1 });
    expect(failure(0).retryAfterSeconds).toBe(1);
    expect(failure(1).retryAfterSeconds).toBe(1);
    expect(failure(5000).retryAfterSeconds).toBe(5);
    expect(failure(5001).retryAfterSeconds).toBe(6);
  });
});
