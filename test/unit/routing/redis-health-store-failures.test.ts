/**
 * The shared health store's failures: its own `onError` hears every one;
 * the gateway's logger hears when it starts failing (a time-out or an
 * error), once per outage, and again after a success.
 */
import { createGateway, redisHealthStore } from 'modelgate';
import { afterEach, describe, expect, it } from 'vitest';

type Mode = 'up' | 'fail' | 'hang';

/** An ioredis-like client whose scripts answer, fail or hang on demand. */
function fakeClient() {
  const state = { mode: 'up' as Mode, calls: 0 };
  const answer = (): Promise<unknown> => {
    state.calls++;
    if (state.mode === 'fail') return Promise.reject(new Error('connect ECONNREFUSED 10.0.0.9:6379'));
    if (state.mode === 'hang') return new Promise(() => {});
    return Promise.resolve([]);
  };
  return { state, client: { evalsha: answer, eval: answer } };
}

const until = async (check: () => boolean, ms = 5000): Promise<void> => {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > ms) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('redisHealthStore failures', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  function setup(mode: Mode) {
    const { state, client } = fakeClient();
    state.mode = mode;
    const heard: unknown[] = [];
    const logged: { object: Record<string, unknown>; message: string | undefined }[] = [];
    const logger = { info() {}, warn() {}, debug() {}, error: (object: Record<string, unknown>, message?: string) => logged.push({ object, message }), child: () => logger };
    const gateway = createGateway({
      auth: { keys: ['sk-health-failures'] },
      routing: { health: redisHealthStore({ client, refreshMs: 50, onError: (error) => heard.push(error) }) },
      logger,
    });
    closers.push(() => gateway.close());
    return { state, heard, logged };
  }

  it('logs the first failure of an outage once, with the store named; onError hears each', async () => {
    const { state, heard, logged } = setup('fail');
    await until(() => heard.length >= 3);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.object).toMatchObject({ component: 'modelgate', event: 'store_failed', store: 'health store', operation: 'refresh', reason: 'failed' });
    expect(logged[0]!.message).toContain('health store failed');

    state.mode = 'up';
    const calls = state.calls;
    await until(() => state.calls > calls + 1);
    state.mode = 'fail';
    await until(() => logged.length === 2);
    expect(logged[1]!.object).toMatchObject({ event: 'store_failed', store: 'health store' });
  });

  it('a Redis that does not answer is a time-out, logged as such', async () => {
    const { logged } = setup('hang');
    await until(() => logged.length === 1);
    expect(logged[0]!.object).toMatchObject({ reason: 'timeout', operation: 'refresh' });
    expect(logged[0]!.message).toContain('no answer within 1000 ms');
  });
});
