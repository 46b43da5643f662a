/**
 * A guarded stream keeps the relay's keep-alive: while the upstream is
 * silent for longer than `heartbeatMs`, the client still gets the `: ping`
 * comments between the (held back, redacted) text, over node:http, on the
 * chat interface and on the Responses interface.
 */
import { openAICompatible, piiRedactor } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { type StubUpstream, startStubUpstream } from '../helpers/stub-upstream.js';

const KEY = 'sk-guard-test-0000000000';
const HEARTBEAT_MS = 40;
/** Several heartbeat intervals of upstream silence. */
const PAUSE_MS = 6 * HEARTBEAT_MS;

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });

let upstream: StubUpstream;
let app: StartedApp;

beforeAll(async () => {
  upstream = await startStubUpstream([
    {
      kind: 'sse',
      events: [
        { data: chunk({ role: 'assistant', content: 'Mail jane.doe@' }) },
        { data: chunk({ content: 'example.com today.' }), delayMs: PAUSE_MS },
        { data: chunk({}, 'stop') },
        { data: '[DONE]' },
      ],
    },
  ]);
  app = await startApp('node', {
    auth: { keys: [KEY] },
    heartbeatMs: HEARTBEAT_MS,
    guards: [piiRedactor()],
    routes: [{ match: '*', upstream: openAICompatible({ baseURL: `${upstream.url}/v1`, apiKey: 'sk-upstream-key-0000000000aa', name: 'chat-up' }) }],
  });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
});

async function rawStream(path: string, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

/** The text deltas of a chat stream, joined. */
function chatText(raw: string): string {
  return raw
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => (JSON.parse(line.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
    .join('');
}

describe('keep-alives in guarded streams', () => {
  it('chat: the heartbeat reaches the client while the upstream pauses, and the text is still redacted', async () => {
    const raw = await rawStream('/v1/chat/completions', { model: 'any', messages: [{ role: 'user', content: 'hi' }] });
    expect(raw).toContain(': ping\n\n');
    expect(chatText(raw)).toBe('Mail [EMAIL] today.');
    expect(raw.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('Responses: the heartbeat reaches the client while the upstream pauses', async () => {
    const raw = await rawStream('/v1/responses', { model: 'any', input: 'hi' });
    expect(raw).toContain(': ping\n\n');
    expect(raw).toContain('[EMAIL]');
    expect(raw).not.toContain('jane.doe');
  });
});
