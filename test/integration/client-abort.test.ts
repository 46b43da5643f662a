/**
 * A client that aborts mid-stream (AbortController on the SDK call) stops
 * the upstream call, on every mount, and the usage hook reports the call
 * once, as aborted.
 */
import { DEFAULT_CATALOG, type UsageRecord } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { anthropicClient, AUTH, openAIClient } from '../helpers/e2e-fixtures.js';
import { recordUpstream, type RecordingUpstream } from '../helpers/recording-upstream.js';
import { MOUNTS, type StartedApp, startApp } from '../helpers/start-app.js';

const PROMPT = 'Write a long paragraph about the history of lighthouses.';

describe.each(MOUNTS)('client abort on %s', (mount) => {
  let app: StartedApp;
  let messages: RecordingUpstream;
  let chat: RecordingUpstream;
  const usage: UsageRecord[] = [];

  beforeAll(async () => {
    // 20 tokens per second: the whole answer would take seconds; the test aborts after the first words.
    const sim = createSimulator({ pace: { tokensPerSecond: 20 } });
    messages = recordUpstream(sim.upstreams.messages);
    chat = recordUpstream(sim.upstreams.chat);
    app = await startApp(mount, {
      auth: AUTH,
      routes: [
        { match: (model) => DEFAULT_CATALOG.has(model), upstream: messages },
        { match: '*', upstream: chat },
      ],
      onUsage: (record) => usage.push(record),
    });
  });
  afterAll(() => app.close());

  it.each(['vendora-sonnet-4-6', 'gpt-4o'])('openai stream of %s: abort reaches the upstream', async (model) => {
    const upstream = model === 'gpt-4o' ? chat : messages;
    const before = upstream.calls.length;
    const controller = new AbortController();
    const stream = await openAIClient(app.url).chat.completions.create(
      { model, stream: true, messages: [{ role: 'user', content: PROMPT }] },
      { signal: controller.signal },
    );
    let received = '';
    // openai 6 ends the iteration quietly when its own signal aborts.
    for await (const chunk of stream) {
      received += chunk.choices[0]?.delta.content ?? '';
      if (received.length > 0) controller.abort();
    }
    expect(received.length).toBeGreaterThan(0);
    const call = upstream.calls[before];
    await vi.waitFor(() => expect(call?.endedAt).toBeDefined(), { timeout: 2000 });
    expect(call?.completed).toBe(false);
    expect(call?.abortedAt).toBeDefined();
    await vi.waitFor(() => expect(usage.filter((record) => record.model === model && record.aborted)).toHaveLength(1), { timeout: 2000 });
  });

  it('anthropic messages.stream(): abort() reaches the upstream', async () => {
    const before = messages.calls.length;
    const stream = anthropicClient(app.url).messages.stream({ model: 'vendora-opus-4-8', max_tokens: 1024, messages: [{ role: 'user', content: PROMPT }] });
    stream.on('text', () => stream.abort());
    await expect(stream.finalMessage()).rejects.toThrow(/abort/i);
    const call = messages.calls[before];
    await vi.waitFor(() => expect(call?.endedAt).toBeDefined(), { timeout: 2000 });
    expect(call?.completed).toBe(false);
    expect(call?.abortedAt).toBeDefined();
    await vi.waitFor(() => expect(usage.filter((record) => record.model === 'vendora-opus-4-8')).toHaveLength(1), { timeout: 2000 });
    const record = usage.find((candidate) => candidate.model === 'vendora-opus-4-8');
    expect(record).toMatchObject({ aborted: true, stream: true, endpoint: 'messages' });
    // The tokens seen before the abort are still accounted for.
    expect(record?.inputTokens).toBeGreaterThan(0);
  });
});
