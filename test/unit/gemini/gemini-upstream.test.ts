/**
 * `geminiUpstream().send(call)` against the Gemini stub, below the gateway:
 * what it sends Google, what it answers in the chat format (whole answers,
 * SSE, errors with the status Google meant), and its use of the call's
 * sealing for thought signatures.
 */
import { geminiUpstream, type Upstream, type UpstreamCall, type UpstreamResponse, type UpstreamSealing } from 'modelgate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { geminiChunks, geminiJson } from '../../helpers/gemini-fixtures.js';
import { type GeminiStub, startGeminiStub } from '../../helpers/gemini-stub.js';

const KEY = 'AIzaSy-unit-key-0123456789';
const PRO = 'gemini-3-pro-preview';
const PARALLEL_SIGNATURE = (geminiJson('answer-parallel-calls').candidates as { content: { parts: { thoughtSignature?: string }[] } }[])[0]!.content.parts[1]!.thoughtSignature!;

type Json = Record<string, unknown>;

let stub: GeminiStub;
let gemini: Upstream;

beforeAll(async () => {
  stub = await startGeminiStub({ keys: [KEY] });
  gemini = geminiUpstream({ apiKey: KEY, baseURL: stub.baseURL, name: 'gemini' });
});
afterAll(async () => {
  await gemini.close?.();
  await stub.close();
});
beforeEach(() => {
  stub.requests.length = 0;
  stub.script.length = 0;
});

function call(body: Json, extra: Partial<UpstreamCall> = {}): UpstreamCall {
  return { operation: 'chat.completions', body, stream: body.stream === true, headers: {}, signal: new AbortController().signal, ...extra };
}

async function text(response: UpstreamResponse): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** A sealing that marks what it sealed, so the test sees where it went (not a secure one). */
const marking: UpstreamSealing = {
  seal: (signature) => `sealed-${Buffer.from(signature).toString('base64url')}`,
  open: (sealed) => (sealed.startsWith('sealed-') ? Buffer.from(sealed.slice(7), 'base64url').toString() : undefined),
};

describe('geminiUpstream.send', () => {
  it('answers a chat.completion and names what it left out in warnings', async () => {
    const response = await gemini.send(call({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Bonjour' }], logprobs: true }));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    const completion = JSON.parse(await text(response)) as { object: string; choices: { message: { content: string } }[] };
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]!.message.content).toBe('Gemini says: Bonjour');
    expect(response.warnings?.join('\n')).toMatch(/`logprobs` left out/);
    expect(stub.requests[0]!.json).not.toHaveProperty('logprobs');
  });

  it('streams chat-completion chunks ending in [DONE]', async () => {
    const response = await gemini.send(call({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Bonjour' }], stream: true }));
    expect(response.headers['content-type']).toBe('text/event-stream');
    const events = (await text(response)).split('\n\n').filter((event) => event !== '');
    expect(events.at(-1)).toBe('data: [DONE]');
    const content = events.slice(0, -1).map((event) => (JSON.parse(event.slice('data: '.length)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '').join('');
    expect(content).toBe('Gemini says: Bonjour');
  });

  it("seals a call's signature into its id and restores it from the id on the next turn", async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-parallel-calls') });
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];
    const messages: Json[] = [{ role: 'user', content: 'Weather?' }];
    const first = JSON.parse(await text(await gemini.send(call({ model: PRO, messages, tools }, { sealing: marking })))) as { choices: { message: { tool_calls: { id: string }[] } }[] };
    const calls = first.choices[0]!.message.tool_calls;
    expect(calls[0]!.id).toMatch(new RegExp(`\\.sealed-${Buffer.from(PARALLEL_SIGNATURE).toString('base64url')}$`));
    expect(calls[1]!.id).not.toContain('sealed-');
    messages.push({ role: 'assistant', content: null, tool_calls: calls }, ...calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: 'ok' })));
    const second = await gemini.send(call({ model: PRO, messages, tools }, { sealing: marking }));
    expect(second.status).toBe(200);
    const parts = (stub.requests.at(-1)!.json!.contents as { parts: Json[] }[])[1]!.parts;
    expect(parts[0]!.thoughtSignature).toBe(PARALLEL_SIGNATURE);
  });

  it('tells an invalid API key as a 401 in the chat format', async () => {
    const wrong = geminiUpstream({ apiKey: 'AIzaSy-wrong-key-000000000', baseURL: stub.baseURL, name: 'wrong' });
    const response = await wrong.send(call({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }] }));
    expect(response.status).toBe(401);
    // As OpenAI tells a bad key: type invalid_request_error, code invalid_api_key.
    expect(JSON.parse(await text(response))).toMatchObject({ error: { message: 'API key not valid. Please pass a valid API key.', type: 'invalid_request_error', code: 'invalid_api_key' } });
    await wrong.close?.();
  });

  it("keeps Google's 429 with when to come back (RetryInfo)", async () => {
    const { error } = geminiJson('error-rate-limited') as { error: { message: string; details: unknown[] } };
    stub.script.push({ kind: 'google', status: 429, googleStatus: 'RESOURCE_EXHAUSTED', message: error.message, details: error.details });
    const response = await gemini.send(call({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }] }));
    expect(response.status).toBe(429);
    // The fixture's RetryInfo says "27s".
    expect(response.headers['retry-after']).toBe('27');
    expect(JSON.parse(await text(response))).toMatchObject({ error: { type: 'rate_limit_error' } });
  });

  it('answers a blocked prompt as a 400 content_filter, streamed or not', async () => {
    for (const stream of [false, true]) {
      stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-blocked-prompt') });
      const response = await gemini.send(call({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'x' }], stream }));
      expect(response.status).toBe(400);
      expect(JSON.parse(await text(response))).toMatchObject({ error: { code: 'content_filter', type: 'invalid_request_error' } });
    }
  });

  it('refuses operations other than chat completions with 501', async () => {
    await expect(gemini.send({ operation: 'models.list', headers: {}, signal: new AbortController().signal })).rejects.toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
    expect(stub.requests).toHaveLength(0);
  });

  it('sends the allowed caller headers, never another vendor\'s', async () => {
    await text(await gemini.send(call({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }] }, { headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'anthropic-version': '2023-06-01' } })));
    expect(stub.requests[0]!.headers.traceparent).toBe('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    expect(stub.requests[0]!.headers['anthropic-version']).toBeUndefined();
  });
});
