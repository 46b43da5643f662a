/**
 * The non-streamed concurrency-slot cases, run on each store (memory in
 * non-stream-slot.test.ts, Redis in non-stream-slot.redis.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../../../src/gateway.js';
import type { LimitStore } from '../../../../src/limits/limit-store.js';
import type { UpstreamResponse } from '../../../../src/upstreams/upstream.js';

const encoder = new TextEncoder();
const answer = (status: number, body: unknown): UpstreamResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: (async function* () { yield encoder.encode(JSON.stringify(body)); })(),
});
const OK = {
  id: 'c1', object: 'chat.completion', created: 1, model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
};

/** An upstream whose calls wait until the test ends them, one way or another. */
function heldUpstream() {
  const pending: Array<{ end: (outcome: UpstreamResponse | Error) => void }> = [];
  return {
    pending,
    upstream: {
      name: 'held',
      format: 'chat' as const,
      send(call: { signal?: AbortSignal }): Promise<UpstreamResponse> {
        return new Promise((resolve, reject) => {
          const end = (outcome: UpstreamResponse | Error) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
          call.signal?.addEventListener('abort', () => reject(call.signal!.reason), { once: true });
          pending.push({ end });
        });
      },
    },
  };
}

const waitFor = async (test: () => boolean) => {
  const deadline = Date.now() + 5000;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/** The cases on one store (`undefined`: the default in-memory store). */
export function describeNonStreamSlot(name: string, makeStore: () => LimitStore | undefined): void {
  describe(`a non-streamed call under a concurrency limit (${name} store)`, () => {
    function setUp(retries = 0) {
      const held = heldUpstream();
      const store = makeStore();
      const gateway = createGateway({
        auth: { keys: ['sk-a'] },
        routes: [{ match: '*', upstream: held.upstream, retries }],
        limits: { rules: [{ requests: { limit: 1000 }, concurrent: 1 }], ...(store ? { store, storeTimeoutMs: 5000 } : {}) },
      });
      const ask = (signal = new AbortController().signal) =>
        gateway.handle({
          method: 'POST',
          url: '/v1/chat/completions',
          headers: { authorization: 'Bearer sk-a', 'content-type': 'application/json' },
          body: { model: 'm', messages: [{ role: 'user', content: 'Hi' }] },
          signal,
        });
      /** Whether a new request is admitted now (it is answered at once and so frees its slot again). */
      const admitsAnother = async () => {
        const before = held.pending.length;
        let status: number | undefined;
        const probe = ask().then((response) => {
          status = response.status;
          return response;
        });
        // Refused at once, or its upstream call has started: either way the answer is known.
        await waitFor(() => status !== undefined || held.pending.length > before);
        if (status === 429) return false;
        held.pending.pop()!.end(answer(200, OK));
        expect((await probe).status).toBe(200);
        return true;
      };
      return { held, ask, admitsAnother, close: () => gateway.close() };
    }

    it('holds the slot while the upstream works, and frees it with the answer', async () => {
      const { held, ask, admitsAnother, close } = setUp();
      const first = ask();
      await waitFor(() => held.pending.length === 1);
      const refused = await ask();
      expect(refused.status).toBe(429);
      expect(refused.headers['x-ratelimit-limit-requests']).toBe('1000');
      held.pending.pop()!.end(answer(200, OK));
      expect((await first).status).toBe(200);
      expect(await admitsAnother()).toBe(true);
      await close();
    });

    it('frees it after an upstream error status and after an upstream that throws', async () => {
      const { held, ask, admitsAnother, close } = setUp();
      const failing = ask();
      await waitFor(() => held.pending.length === 1);
      held.pending.pop()!.end(answer(400, { error: { message: 'bad', type: 'invalid_request_error', param: null, code: null } }));
      expect((await failing).status).toBe(400);
      expect(await admitsAnother()).toBe(true);

      const throwing = ask();
      await waitFor(() => held.pending.length === 1);
      held.pending.pop()!.end(new Error('socket hang up'));
      expect((await throwing).status).toBeGreaterThanOrEqual(500);
      expect(await admitsAnother()).toBe(true);
      await close();
    });

    it('holds it across a retry and frees it once, after the last attempt', async () => {
      const { held, ask, admitsAnother, close } = setUp(1);
      const retried = ask();
      await waitFor(() => held.pending.length === 1);
      held.pending.pop()!.end(answer(503, { error: { message: 'busy', type: 'server_error', param: null, code: null } }));
      await waitFor(() => held.pending.length === 1);
      // Between the attempts the slot stays taken.
      expect((await ask()).status).toBe(429);
      held.pending.pop()!.end(answer(200, OK));
      expect((await retried).status).toBe(200);
      expect(await admitsAnother()).toBe(true);
      await close();
    });

    it('frees it when the client leaves while the upstream still works', async () => {
      const { held, ask, admitsAnother, close } = setUp();
      const controller = new AbortController();
      const leaving = ask(controller.signal);
      await waitFor(() => held.pending.length === 1);
      controller.abort();
      await leaving.catch(() => undefined);
      held.pending.length = 0;
      expect(await admitsAnother()).toBe(true);
      await close();
    });
  });
}
