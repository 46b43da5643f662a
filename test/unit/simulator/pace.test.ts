import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/simulator/index.js';
import { ask } from './support/simulator-calls.js';

async function timeEvents(body: AsyncIterable<Uint8Array>): Promise<number[]> {
  const started = performance.now();
  const times: number[] = [];
  for await (const _chunk of body) times.push(performance.now() - started);
  return times;
}

describe('stream pacing', () => {
  it('sends nothing late without pace', async () => {
    const sim = createSimulator();
    const response = await sim.upstreams.messages.send({ operation: 'messages', body: ask('Hello', { stream: true }), headers: {}, signal: new AbortController().signal });
    const times = await timeEvents(response.body);
    // Generous: an unpaced stream is written at once (a paced one takes seconds).
    expect(times[times.length - 1]).toBeLessThan(1000);
  });

  it('waits firstTokenMs before the first content and paces tokens per second', async () => {
    // A long first-token delay, so that the bounds stay generous on a loaded machine.
    const sim = createSimulator({ pace: { firstTokenMs: 1500, tokensPerSecond: 300 } });
    const response = await sim.upstreams.messages.send({
      operation: 'messages',
      body: ask('Hello there', { stream: true, max_tokens: 30 }),
      headers: {},
      signal: new AbortController().signal,
    });
    const times = await timeEvents(response.body);
    // message_start, content_block_start and ping come at once; the first delta after the first-token delay.
    expect(times[2]).toBeLessThan(1000);
    expect(times[3]).toBeGreaterThanOrEqual(1490);
    // 30 tokens at 300/s is at least 100 ms more.
    expect(times[times.length - 1]).toBeGreaterThanOrEqual(1490 + 90);
  });

  it('stops writing when the call is aborted', async () => {
    const sim = createSimulator({ pace: { tokensPerSecond: 20 } });
    const controller = new AbortController();
    const response = await sim.upstreams.messages.send({ operation: 'messages', body: ask('Hello', { stream: true }), headers: {}, signal: controller.signal });
    setTimeout(() => controller.abort(), 120);
    const times = await timeEvents(response.body);
    // Structural: the same answer unpaced has many more events; the aborted one stopped early.
    const whole = await createSimulator().upstreams.messages.send({ operation: 'messages', body: ask('Hello', { stream: true }), headers: {}, signal: new AbortController().signal });
    const wholeCount = (await timeEvents(whole.body)).length;
    expect(wholeCount).toBeGreaterThan(20);
    expect(times.length).toBeLessThan(wholeCount / 2);
  });
});
