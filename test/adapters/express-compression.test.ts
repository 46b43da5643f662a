/**
 * Express behind `compression()`: streams are still delivered event by
 * event (the adapter flushes after every write), so the first event reaches
 * the client while the paced upstream is still writing.
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_CATALOG } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, openAIClient } from '../helpers/e2e-fixtures.js';
import { recordUpstream, type RecordingUpstream } from '../helpers/recording-upstream.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

describe('express 5 behind compression()', () => {
  let app: StartedApp;
  let messages: RecordingUpstream;
  let chat: RecordingUpstream;

  beforeAll(async () => {
    // 50 tokens per second: a 40-token answer takes about 0.8 s to write.
    const sim = createSimulator({ pace: { tokensPerSecond: 50 } });
    messages = recordUpstream(sim.upstreams.messages);
    chat = recordUpstream(sim.upstreams.chat);
    app = await startApp('express5+compression', {
      auth: AUTH,
      routes: [
        { match: (model) => DEFAULT_CATALOG.has(model), upstream: messages },
        { match: '*', upstream: chat },
      ],
    });
  });
  afterAll(() => app.close());

  it.each(['vendora-sonnet-4-6', 'gpt-4o'])('chat stream of %s arrives gzipped and incrementally', async (model) => {
    const upstream = model === 'gpt-4o' ? chat : messages;
    const { data: stream, response } = await openAIClient(app.url)
      .chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'Write a few sentences about tides.' }] })
      .withResponse();
    expect(response.headers.get('content-encoding')).toBe('gzip');
    let firstContentAt: number | undefined;
    let text = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta.content ?? '';
      if (delta !== '' && firstContentAt === undefined) firstContentAt = performance.now();
      text += delta;
    }
    const call = upstream.calls.at(-1);
    expect(call?.completed).toBe(true);
    expect(text).toContain('Write a few sentences about tides');
    expect(firstContentAt).toBeDefined();
    // The first words were on screen while the upstream still had most of the answer to write.
    expect(call!.endedAt! - firstContentAt!).toBeGreaterThan(300);
  });

  it('messages stream arrives incrementally', async () => {
    const stream = anthropicClient(app.url).messages.stream({
      model: 'vendora-sonnet-4-6',
      max_tokens: 512,
      messages: [{ role: 'user', content: 'Write a few sentences about tides.' }],
    });
    let firstTextAt: number | undefined;
    stream.on('text', () => {
      firstTextAt ??= performance.now();
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('end_turn');
    const call = messages.calls.at(-1);
    expect(call?.completed).toBe(true);
    expect(call!.endedAt! - firstTextAt!).toBeGreaterThan(300);
  });

  it('compresses JSON answers too, and the client still reads them', async () => {
    const { data, response } = await openAIClient(app.url).models.list().withResponse();
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(data.data).toHaveLength(12);
  });
});
