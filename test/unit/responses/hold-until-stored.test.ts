/**
 * A streamed response's terminal chunk waits for the store: chunks before
 * it pass at once, the chunk after which the transform has its final
 * response is handed on only once `store` resolved, the store runs once,
 * and a stream that never finishes stores nothing.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type FinishedResponseSource, holdUntilStored } from '../../../src/responses/hold-until-stored.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (chunk: Uint8Array) => new TextDecoder().decode(chunk);

/** A body of `chunks`; `final` is set when the chunk at `finalAt` has been produced. */
function source(chunks: string[], finalAt: number | undefined): { body: AsyncIterable<Uint8Array>; state: FinishedResponseSource & { final?: Record<string, unknown> }; returned: () => boolean } {
  const state: { final: Record<string, unknown> | undefined } = { final: undefined };
  let returned = false;
  async function* body(): AsyncGenerator<Uint8Array> {
    try {
      for (let i = 0; i < chunks.length; i++) {
        if (i === finalAt) state.final = { id: 'resp_1', status: 'completed' };
        yield bytes(chunks[i]!);
      }
    } finally {
      returned = true;
    }
  }
  return { body: body(), state, returned: () => returned };
}

describe('holdUntilStored', () => {
  it('passes every chunk in order and stores the final response once', async () => {
    const { body, state } = source(['a', 'b', 'done'], 2);
    const stored: Record<string, unknown>[] = [];
    const seen: string[] = [];
    for await (const chunk of holdUntilStored(body, state, async (response) => void stored.push(response))) seen.push(text(chunk));
    expect(seen).toEqual(['a', 'b', 'done']);
    expect(stored).toEqual([{ id: 'resp_1', status: 'completed' }]);
  });

  it('the terminal chunk is handed on only after store resolved', async () => {
    const { body, state } = source(['a', 'done', 'tail'], 1);
    const log: string[] = [];
    const held = holdUntilStored(body, state, async () => {
      log.push('store started');
      await delay(50);
      log.push('store resolved');
    });
    for await (const chunk of held) log.push(`chunk ${text(chunk)}`);
    expect(log).toEqual(['chunk a', 'store started', 'store resolved', 'chunk done', 'chunk tail']);
  });

  it('chunks before the terminal one are not delayed by the store', async () => {
    const { body, state } = source(['a', 'b', 'done'], 2);
    let storeCalls = 0;
    const held = holdUntilStored(body, state, async () => {
      storeCalls += 1;
    });
    const first = await held.next();
    const second = await held.next();
    expect([first.value, second.value].map((chunk) => text(chunk!))).toEqual(['a', 'b']);
    expect(storeCalls).toBe(0);
  });

  it('a stream that never produces its final response stores nothing', async () => {
    const { body, state } = source(['a', 'b'], undefined);
    let storeCalls = 0;
    for await (const _chunk of holdUntilStored(body, state, async () => void (storeCalls += 1))) {
      // drain
    }
    expect(storeCalls).toBe(0);
  });

  it('return() (a client that left) ends the inner body and stores nothing', async () => {
    const { body, state, returned } = source(['a', 'b', 'done'], 2);
    let storeCalls = 0;
    const held = holdUntilStored(body, state, async () => void (storeCalls += 1));
    await held.next();
    await held.return?.();
    expect(returned()).toBe(true);
    expect(storeCalls).toBe(0);
  });

  it('a store that rejects fails the iteration (the handler catches store errors itself)', async () => {
    const { body, state } = source(['a', 'done'], 1);
    const held = holdUntilStored(body, state, () => Promise.reject(new Error('down')));
    await held.next();
    await expect(held.next()).rejects.toThrow('down');
  });
});
