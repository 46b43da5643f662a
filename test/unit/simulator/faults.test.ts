import { describe, expect, it } from 'vitest';
import { createSimulator, parseFaultHeader, type FaultRequestInfo } from '../../../src/simulator/index.js';
import { chatErrorBodySchema, messagesErrorBodySchema } from '../../../src/schemas/index.js';
import { ask, asMessage, chat, messagesEvents, send, splitSse } from './support/simulator-calls.js';

describe('parseFaultHeader', () => {
  it('reads status, latency, cut-after, type and message', () => {
    expect(parseFaultHeader('status=529; latency=200, cut-after=5; type=overloaded_error; message=Busy%2C%20retry')).toEqual({
      status: 529,
      latencyMs: 200,
      cutAfterEvents: 5,
      error: { type: 'overloaded_error', message: 'Busy, retry' },
    });
  });

  it('ignores unknown keys and statuses outside 400..599', () => {
    expect(parseFaultHeader('status=200; colour=blue')).toEqual({});
  });
});

describe('fault injection', () => {
  it('answers a header status fault with the vendor error body of each face', async () => {
    const sim = createSimulator();
    const headers = { 'x-simulator-fault': 'status=529' };
    const messages = await send(sim.upstreams.messages, 'messages', ask('hi'), { headers });
    expect(messages.status).toBe(529);
    expect(messages.headers['request-id']).toMatch(/^req_/);
    expect(messagesErrorBodySchema.parse(messages.json()).error).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
    const chatAnswer = await send(sim.upstreams.chat, 'chat.completions', chat('hi'), { headers: { 'x-simulator-fault': 'status=429' } });
    expect(chatAnswer.status).toBe(429);
    expect(chatErrorBodySchema.parse(chatAnswer.json()).error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null });
  });

  it('uses the type and message of a rule, only as many times as asked', async () => {
    const seen: FaultRequestInfo[] = [];
    const sim = createSimulator({
      faults: [
        {
          match: (info) => {
            seen.push(info);
            return info.model === 'vendora-opus-4-8';
          },
          status: 500,
          error: { type: 'api_error', message: 'Simulated outage' },
          headers: { 'retry-after': '1' },
          times: 2,
        },
      ],
    });
    const body = ask('hi', { model: 'vendora-opus-4-8' });
    for (let i = 0; i < 2; i += 1) {
      const answer = await send(sim.upstreams.messages, 'messages', body);
      expect(answer.status).toBe(500);
      expect(answer.headers['retry-after']).toBe('1');
      expect(messagesErrorBodySchema.parse(answer.json()).error).toEqual({ type: 'api_error', message: 'Simulated outage' });
    }
    expect((await send(sim.upstreams.messages, 'messages', body)).status).toBe(200);
    expect((await send(sim.upstreams.messages, 'messages', ask('hi'))).status).toBe(200);
    expect(seen[0]).toMatchObject({ operation: 'messages', model: 'vendora-opus-4-8' });
    sim.reset();
    expect((await send(sim.upstreams.messages, 'messages', body)).status).toBe(500);
  });

  it('adds latency before answering', async () => {
    const sim = createSimulator({ faults: [{ latencyMs: 120 }] });
    const started = performance.now();
    asMessage(await send(sim.upstreams.messages, 'messages', ask('hi')));
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('cuts a messages stream after N events with no terminating event', async () => {
    const sim = createSimulator();
    const answer = await send(sim.upstreams.messages, 'messages', ask('Tell me a long story', { stream: true }), { headers: { 'x-simulator-fault': 'cut-after=5' } });
    expect(answer.status).toBe(200);
    const events = messagesEvents(answer.text);
    expect(events).toHaveLength(5);
    expect(events.some((event) => event.type === 'message_stop' || event.type === 'message_delta')).toBe(false);
  });

  it('cuts a chat stream before [DONE]', async () => {
    const sim = createSimulator({ faults: [{ match: (info) => info.operation === 'chat.completions', cutAfterEvents: 3 }] });
    const answer = await send(sim.upstreams.chat, 'chat.completions', chat('Tell me a long story', { stream: true }));
    const frames = splitSse(answer.text);
    expect(frames).toHaveLength(3);
    expect(frames.some((frame) => frame.data === '[DONE]')).toBe(false);
  });

  it('lets the header override a matching rule', async () => {
    const sim = createSimulator({ faults: [{ status: 500 }] });
    const answer = await send(sim.upstreams.messages, 'messages', ask('hi'), { headers: { 'x-simulator-fault': 'status=503' } });
    expect(answer.status).toBe(503);
  });
});
