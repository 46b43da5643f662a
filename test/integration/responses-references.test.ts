/**
 * A Responses request's references to stored items over real HTTP (the
 * node:http handler): 2,000 references to one 10 KB item read the store
 * once and reach the upstream within the resolved-size cap, or are refused
 * (too many references, too large once resolved) before any upstream call;
 * token limits count the stored items a request brings in. And the token
 * counts under admission control and request-rate limits like any call.
 */
import { createGateway, type GatewayOptions, memoryResponseStore, type Upstream } from 'modelgate';
import { afterEach, describe, expect, it } from 'vitest';
import { countingResponseStore, type CountingResponseStore } from '../helpers/counting-response-store.js';
import { heldUpstream, type HeldUpstream } from '../helpers/held-upstream.js';
import { message, storedResponse } from '../helpers/response-store-contract.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const KEY = 'sk-references-0123456789';
const AUTH = { keys: [{ key: KEY, id: 'alice' }] };
const MODEL = 'gpt-4o';
const TEXT = 'x'.repeat(10_000);
/** About 2,000 tokens whatever the tokenizer: 2,000 words. */
const WORDS = 'word '.repeat(2_000);

type Json = Record<string, any>;

/** A chat upstream that keeps what it was sent and answers one short completion. */
function capturingUpstream(): Upstream & { bodies: string[] } {
  const bodies: string[] = [];
  return {
    name: 'capturing',
    format: 'chat',
    bodies,
    async send(call) {
      bodies.push(JSON.stringify(call.body));
      const answer = {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: MODEL,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 2_100, completion_tokens: 2, total_tokens: 2_102 },
      };
      const bytes = new TextEncoder().encode(JSON.stringify(answer));
      return { status: 200, headers: { 'content-type': 'application/json' }, body: (async function* () { yield bytes; })() };
    },
  };
}

let app: StartedApp | undefined;
let held: HeldUpstream | undefined;
afterEach(async () => {
  for (const body of held?.bodies ?? []) void body.return();
  held = undefined;
  await app?.close();
  app = undefined;
});

async function start(options: Partial<GatewayOptions>): Promise<{ url: string; store: CountingResponseStore; upstream: ReturnType<typeof capturingUpstream> }> {
  const inner = memoryResponseStore();
  await inner.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_big', TEXT), message('msg_words', WORDS)], output: [] }));
  const store = countingResponseStore(inner);
  const upstream = capturingUpstream();
  app = await startApp('node', createGateway({ auth: AUTH, routes: [{ match: '*', upstream, serveMessages: true }], responseStore: store, ...options }));
  return { url: app.url, store, upstream };
}

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
}

const references = (count: number, id = 'msg_big') => Array.from({ length: count }, () => ({ type: 'item_reference', id }));

describe('2,000 references to one stored 10 KB item', () => {
  it('with room for them (maxItemReferences 2,000, the default 32 MiB): one store read, the upstream gets the item 2,000 times', async () => {
    const { url, store, upstream } = await start({ requestBounds: { maxItemReferences: 2_000 } });
    const answer = await post(url, '/v1/responses', { model: MODEL, input: references(2_000), store: false });
    expect(answer.status).toBe(200);
    expect(answer.body.output[0].content[0].text).toBe('Done.');
    expect(store.reads).toEqual({ get: [], getItem: [], getItems: [['msg_big']] });
    expect(upstream.bodies).toHaveLength(1);
    expect(upstream.bodies[0]!.split(TEXT).length - 1).toBe(2_000);
  });

  it('with the default bound of 1,000 references → 400 naming input and requestBounds.maxItemReferences; no store read, no upstream call', async () => {
    const { url, store, upstream } = await start({});
    const answer = await post(url, '/v1/responses', { model: MODEL, input: references(2_000) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param: 'input' });
    expect(answer.body.error.message).toContain('requestBounds.maxItemReferences');
    expect(store.readCount).toBe(0);
    expect(upstream.bodies).toHaveLength(0);
  });

  it('under a 1 MiB cap on the resolved input → 400 naming requestBounds.maxResolvedInputBytes; no upstream call', async () => {
    const { url, upstream } = await start({ requestBounds: { maxItemReferences: 2_000, maxResolvedInputBytes: 1_048_576 } });
    const answer = await post(url, '/v1/responses', { model: MODEL, input: references(2_000) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param: 'input' });
    expect(answer.body.error.message).toContain('requestBounds.maxResolvedInputBytes');
    expect(upstream.bodies).toHaveLength(0);
  });

  it('input_tokens is bounded the same way', async () => {
    const { url, store } = await start({});
    const answer = await post(url, '/v1/responses/input_tokens', { model: MODEL, input: references(1_001) });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('requestBounds.maxItemReferences');
    expect(store.readCount).toBe(0);
  });
});

describe('token limits count the stored items a request brings in', () => {
  const request = { model: MODEL, input: [{ type: 'item_reference', id: 'msg_words' }, { role: 'user', content: 'Count them.' }], max_output_tokens: 16, store: false };

  it('a limit the request fits unresolved but not resolved → 429 before any upstream call', async () => {
    const { url, upstream } = await start({ limits: { rules: [{ tokens: { limit: 1_000, count: 'input' } }] } });
    const answer = await post(url, '/v1/responses', request);
    expect(answer.status).toBe(429);
    expect(answer.body.error.type).toBe('rate_limit_error');
    expect(upstream.bodies).toHaveLength(0);
  });

  it('the reservation holds the resolved size; the store is read once for the limits and the call together', async () => {
    const { url, store, upstream } = await start({ limits: { rules: [{ tokens: { limit: 100_000, count: 'input' } }] } });
    const answer = await post(url, '/v1/responses', request);
    expect(answer.status).toBe(200);
    expect(Number(answer.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThanOrEqual(100_000 - 2_000);
    expect(store.reads.getItems).toEqual([['msg_words']]);
    expect(upstream.bodies).toHaveLength(1);
  });
});

describe('the token counts under admission control and request-rate limits', () => {
  const countBody = { model: MODEL, messages: [{ role: 'user', content: 'Hi' }] };

  it('with maxInFlight 1 and a call in flight: each count is refused at once in its format (529 messages, 503 Responses)', async () => {
    held = heldUpstream();
    app = await startApp('node', createGateway({ auth: AUTH, routes: [{ match: '*', upstream: held, serveMessages: true }], admission: { maxInFlight: 1 } }));
    const stream = fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true }),
    });
    await held.calledTimes(1);

    const counted = await post(app.url, '/v1/messages/count_tokens', countBody, { 'anthropic-version': '2023-06-01' });
    expect(counted.status).toBe(529);
    expect(counted.body).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(counted.headers.get('retry-after')).not.toBeNull();
    const inputTokens = await post(app.url, '/v1/responses/input_tokens', { model: MODEL, input: 'Hi' });
    expect(inputTokens.status).toBe(503);
    expect(inputTokens.body.error).toMatchObject({ code: 'overloaded' });

    held.complete(0);
    await (await stream).text();
    expect((await post(app.url, '/v1/messages/count_tokens', countBody, { 'anthropic-version': '2023-06-01' })).status).toBe(200);
    expect(held.calls).toHaveLength(1);
  });

  it('with a limit of 3 requests per window: the fourth count is refused 429, in its format, whichever endpoint', async () => {
    const { url } = await start({ limits: { rules: [{ requests: { limit: 3, windowSeconds: 60 } }] } });
    const messagesHeaders = { 'anthropic-version': '2023-06-01' };
    expect((await post(url, '/v1/messages/count_tokens', countBody, messagesHeaders)).status).toBe(200);
    expect((await post(url, '/v1/responses/input_tokens', { model: MODEL, input: 'Hi' })).status).toBe(200);
    const third = await post(url, '/v1/messages/count_tokens', countBody, messagesHeaders);
    expect(third.status).toBe(200);
    expect(third.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');

    const refused = await post(url, '/v1/messages/count_tokens', countBody, messagesHeaders);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    const refusedToo = await post(url, '/v1/responses/input_tokens', { model: MODEL, input: 'Hi' });
    expect(refusedToo.status).toBe(429);
    expect(refusedToo.body.error.type).toBe('rate_limit_error');
  });
});
