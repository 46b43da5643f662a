import { describe, expect, it } from 'vitest';
import { createCacheFill, MAX_ENTRY_BYTES } from '../../../src/cache/cache-fill.js';
import type { ResponseCacheStore } from '../../../src/cache/cache-types.js';
import type { RouteTarget } from '../../../src/routing/route-types.js';
import type { Upstream } from '../../../src/upstreams/upstream.js';

const upstream: Upstream = { name: 'primary', format: 'chat', send: () => Promise.reject(new Error('not called')) };
const primary: RouteTarget = { upstream, model: 'gpt-4o' };
const fallback: RouteTarget = { upstream: { ...upstream, name: 'backup' }, model: 'gpt-4o-mini' };

/** A complete chat answer that ended on its own (`stop`), as the chat completions reference describes one. */
function completion(text: string): Record<string, unknown> {
  return { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } };
}

function recordingStore() {
  const calls: string[] = [];
  const fills: Array<{ entry: string; ttlSeconds: number; token: string; owner?: string }> = [];
  const store: ResponseCacheStore = {
    lookup: async () => ({ lock: 'none' }),
    fill: async (_key, entry, options) => {
      calls.push('fill');
      fills.push({ entry, ...options });
    },
    release: async () => {
      calls.push('release');
    },
  };
  return { store, calls, fills };
}

function fillWith(store: ResponseCacheStore, settled: unknown[], locked = true) {
  return createCacheFill({
    key: 'k', store, ttlSeconds: 60, token: 'tok', owner: 'alice', locked,
    lead: { settle: (result) => settled.push(result) },
    isPrimary: (target) => target === primary,
  });
}

describe('createCacheFill', () => {
  it("stores a complete primary answer with the TTL, the lookup's token and its owner, and hands it to the waiters", async () => {
    const { store, fills } = recordingStore();
    const settled: unknown[] = [];
    fillWith(store, settled).json(completion('hello'), primary);
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({ ttlSeconds: 60, token: 'tok', owner: 'alice' });
    expect(JSON.parse(fills[0]!.entry)).toMatchObject({ v: 1, format: 'chat', upstream: 'primary', body: completion('hello') });
    expect(settled).toEqual([{ entry: fills[0]!.entry, ageMs: 0 }]);
  });

  it('releases the lock for a fallback answer, a cut answer and an oversized one', () => {
    const cut = completion('partial');
    (cut.choices as Array<Record<string, unknown>>)[0]!.finish_reason = 'length';
    for (const [body, target] of [[completion('x'), fallback], [cut, primary], [completion('x'.repeat(MAX_ENTRY_BYTES)), primary]] as const) {
      const { store, calls } = recordingStore();
      const settled: unknown[] = [];
      fillWith(store, settled).json(body, target);
      expect(calls).toEqual(['release']);
      expect(settled).toEqual([undefined]);
    }
  });

  it('settles once: a later fill or release does nothing; no lock, no release command', () => {
    const { store, calls } = recordingStore();
    const settled: unknown[] = [];
    const fill = fillWith(store, settled, false);
    fill.release();
    fill.json(completion('late'), primary);
    fill.release();
    expect(calls).toEqual([]);
    expect(settled).toEqual([undefined]);
  });

  it('a stream that did not complete releases', () => {
    const { store, calls } = recordingStore();
    const settled: unknown[] = [];
    const recorder = fillWith(store, settled).stream(primary);
    recorder.observe({ data: '{"choices":[]}' });
    recorder.end(false);
    expect(calls).toEqual(['release']);
    expect(settled).toEqual([undefined]);
  });

  it('lets the lock and the waiters go as soon as the client leaves, and stores nothing after', () => {
    const { store, calls } = recordingStore();
    const settled: unknown[] = [];
    const client = new AbortController();
    const fill = createCacheFill({
      key: 'k', store, ttlSeconds: 60, token: 'tok', owner: 'alice', locked: true,
      lead: { settle: (result) => settled.push(result) },
      isPrimary: () => true,
      client: client.signal,
    });
    const recorder = fill.stream(primary);
    recorder.observe({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] }) });
    client.abort();
    expect(calls).toEqual(['release']);
    expect(settled).toEqual([undefined]);
    // A route that drains the rest still ends the stream as completed: nothing is stored.
    recorder.end(true);
    fill.json(completion('late'), primary);
    expect(calls).toEqual(['release']);
  });

  it('a client already gone when the call is sent releases at once; one that stays changes nothing', () => {
    const gone = recordingStore();
    const left = new AbortController();
    left.abort();
    createCacheFill({ key: 'k', store: gone.store, ttlSeconds: 60, token: 'tok', owner: 'alice', locked: true, lead: undefined, isPrimary: () => true, client: left.signal });
    expect(gone.calls).toEqual(['release']);
    const stays = recordingStore();
    const client = new AbortController();
    createCacheFill({ key: 'k', store: stays.store, ttlSeconds: 60, token: 'tok', owner: 'alice', locked: true, lead: undefined, isPrimary: () => true, client: client.signal }).json(completion('ok'), primary);
    client.abort();
    expect(stays.calls).toEqual(['fill']);
  });
});
