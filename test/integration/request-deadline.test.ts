/**
 * `requestTimeoutMs`: one deadline across every attempt, retry wait and
 * fallback of a model call. It bounds the wait for a stream's head and for
 * a non-streamed answer's whole body, never a stream already relayed; a
 * retry that would wait past it is not made.
 */
import { performance } from 'node:perf_hooks';
import { openAICompatible, type GatewayOptions } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { type RecordedRequest, type StubReply, type StubUpstream, startStubUpstream, writeChunk } from '../helpers/stub-upstream.js';

const KEY = 'sk-deadline-test';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ANSWER = JSON.stringify({
  id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'slow but whole' }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 },
});

async function chat(app: StartedApp, model: string, stream = false): Promise<{ status: number; text: string; elapsedMs: number }> {
  const started = performance.now();
  const response = await fetch(`${app.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Hi' }] }),
  });
  const text = await response.text();
  return { status: response.status, text, elapsedMs: performance.now() - started };
}

describe('requestTimeoutMs', () => {
  let primary: StubUpstream;
  let fallback: StubUpstream;
  let app: StartedApp;

  beforeAll(async () => {
    // Chosen by model: `hang` never answers; `limited` answers 429 asking for 5 s; `trickle` sends its body (or stream) over ~1.5 s.
    const script = (request: RecordedRequest): StubReply => {
      const { model, stream } = JSON.parse(request.body) as { model: string; stream?: boolean };
      if (model === 'hang') return { kind: 'hang' };
      if (model === 'limited') {
        return { kind: 'json', status: 429, headers: { 'retry-after': '5' }, body: { error: { message: 'slow down', type: 'rate_limit_error', param: null, code: null } } };
      }
      if (stream) {
        const data = JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] });
        return { kind: 'sse', events: [...Array.from({ length: 5 }, () => ({ data, delayMs: 300 })), { data: '[DONE]' }] };
      }
      return {
        kind: 'handler',
        handle: async (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          for (let index = 0; index < ANSWER.length; index += Math.ceil(ANSWER.length / 5)) {
            if (!(await writeChunk(res, ANSWER.slice(index, index + Math.ceil(ANSWER.length / 5))))) return;
            await sleep(300);
          }
          res.end();
        },
      };
    };
    primary = await startStubUpstream(script);
    fallback = await startStubUpstream(script);
    const timeouts = { firstByteMs: 1_000, idleMs: 1_000 };
    const options: GatewayOptions = {
      auth: { keys: [KEY] },
      requestTimeoutMs: 1_000,
      routes: [
        {
          match: '*',
          upstream: openAICompatible({ baseURL: `${primary.url}/v1`, name: 'primary', timeouts }),
          fallbacks: [openAICompatible({ baseURL: `${fallback.url}/v1`, name: 'fallback', timeouts })],
          retries: 2,
        },
      ],
    };
    app = await startApp('node', options);
  });
  afterAll(async () => {
    await app.close();
    await primary.close();
    await fallback.close();
  });

  it('an upstream that never answers costs one deadline, not one first-byte time-out per attempt (3 tries × 2 targets)', async () => {
    const answer = await chat(app, 'hang');
    expect(answer.status).toBe(504);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { type: 'timeout_error' } });
    // Without the deadline: 6 attempts × 1 s plus backoffs, over 7 s.
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(900);
    expect(answer.elapsedMs).toBeLessThan(3_500);
    // The attempt in flight was aborted, not left hanging.
    await primary.closed();
    expect(fallback.requests).toHaveLength(0);
  });

  it('a retry whose retry-after wait would pass the deadline is not made: the 429 is relayed at once', async () => {
    const before = primary.requests.length;
    const answer = await chat(app, 'limited');
    expect(answer.status).toBe(429);
    // retry-after 5 s is within maxRetryAfterMs (10 s), so only the deadline stops the wait (waiting would take over 5 s).
    expect(answer.elapsedMs).toBeLessThan(3_000);
    expect(primary.requests.length - before).toBe(1);
  });

  it('covers a non-streamed answer\'s whole body: one trickled over 1.5 s is a 504', async () => {
    const answer = await chat(app, 'trickle');
    expect(answer.status).toBe(504);
    expect(answer.text).toContain('requestTimeoutMs');
  });

  it('never cuts a stream once relayed: one lasting 1.5 s arrives whole', async () => {
    const answer = await chat(app, 'trickle', true);
    expect(answer.status).toBe(200);
    expect(answer.elapsedMs).toBeGreaterThan(1_000);
    expect(answer.text.match(/"content":"x"/g)).toHaveLength(5);
    expect(answer.text).toContain('data: [DONE]');
  });
});
