import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PREDICT_CONCURRENCY, predictEach } from '../../../src/upstreams/gemini/predict-each.js';
import type { UpstreamResponse } from '../../../src/upstreams/upstream.js';

const json = (status: number, value: unknown): UpstreamResponse => ({
  status,
  headers: { 'x-index': String(value) },
  body: (async function* () {
    yield new TextEncoder().encode(JSON.stringify(value));
  })(),
});

const readIndex = async (response: UpstreamResponse): Promise<unknown> => {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString()) as unknown;
};

describe('predictEach', () => {
  it('keeps answers in input order when later calls finish first, with at most PREDICT_CONCURRENCY under way', async () => {
    let open = 0;
    let most = 0;
    const outcome = await predictEach(10, async (index) => {
      open++;
      most = Math.max(most, open);
      await sleep((10 - index) * 3);
      open--;
      return json(200, index);
    }, readIndex);
    expect(outcome).toMatchObject({ kind: 'answered', answers: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });
    expect(most).toBe(PREDICT_CONCURRENCY);
  });

  it('answers the first refusal and starts no call after it', async () => {
    const started: number[] = [];
    const outcome = await predictEach(20, async (index) => {
      started.push(index);
      await sleep(index === 1 ? 1 : 20);
      return index === 1 ? json(429, 'slow down') : json(200, index);
    }, readIndex);
    expect(outcome.kind).toBe('refused');
    expect(outcome.kind === 'refused' && outcome.response.status).toBe(429);
    expect(started.length).toBeLessThanOrEqual(PREDICT_CONCURRENCY + 1);
  });

  it('rethrows a failed call (a dropped connection) once the calls under way end', async () => {
    await expect(predictEach(3, async (index) => {
      if (index === 2) throw new Error('socket hang up');
      return json(200, index);
    }, readIndex)).rejects.toThrow('socket hang up');
  });
});
