/**
 * A gateway that is its own upstream (a client's OPENAI_BASE_URL exported
 * into the server's environment) answers 508 at once, in the caller's
 * format, after exactly one hop, instead of calling itself without end; a
 * chain of different gateways still works. Real HTTP on 127.0.0.1, the
 * official clients with their default retries (a 508 must not be retried).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { IncomingHttpHeaders, RequestListener } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGateway, DEFAULT_CATALOG, type Gateway, messagesUpstream, openAICompatible, type Route, upstreamFileStore } from 'modelgate';
import { createListener, listen, MOUNTS, type Mount } from '../helpers/start-app.js';
import { AUTH, failure, KEY } from '../helpers/e2e-fixtures.js';

/** Routes sending every model to the gateway at `url`, with the gateway's key (what the banner's client lines hold). */
function routesTo(url: string): Route[] {
  return [
    { match: (model) => DEFAULT_CATALOG.has(model), upstream: messagesUpstream({ baseURL: url, apiKey: KEY }) },
    { match: '*', upstream: openAICompatible({ baseURL: `${url}/v1`, apiKey: KEY }) },
  ];
}

interface Running {
  url: string;
  gateway: Gateway;
  /** Requests the server received, in order. */
  inbound: Array<{ url: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/** A server that counts its requests; the gateway behind it is made once its URL is known (so it can point at itself). */
async function startCounting(mount: Mount, options: (url: string) => Parameters<typeof createGateway>[0]): Promise<Running> {
  let listener: RequestListener | undefined;
  const inbound: Running['inbound'] = [];
  const running = await listen((req, res) => {
    inbound.push({ url: req.url ?? '', headers: req.headers });
    listener!(req, res);
  });
  const gateway = createGateway(options(running.url));
  listener = await createListener(mount, gateway);
  return {
    url: running.url,
    gateway,
    inbound,
    async close() {
      await running.close();
      await gateway.close();
    },
  };
}

/** Clients as users make them: base URL and key only, default retries. */
const chatClient = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: KEY });
const messagesClient = (url: string) => new Anthropic({ baseURL: url, apiKey: KEY });

const ask = [{ role: 'user' as const, content: 'Hi' }];

describe('a gateway that is its own upstream (node handler)', () => {
  let self: Running;

  beforeAll(async () => {
    // The vendor's files (here: itself) behind the file endpoints, shared with every key.
    self = await startCounting('node', (url) => ({ auth: AUTH, routes: routesTo(url), files: { store: upstreamFileStore(messagesUpstream({ baseURL: url, apiKey: KEY })), shared: true } }));
    // One refused loop first, so that the timed ones below measure the refusal, not the first call's module loading and connecting.
    await failure(() => chatClient(self.url).chat.completions.create({ model: 'gpt-4o', messages: ask }));
    await failure(() => messagesClient(self.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 32, messages: ask }));
  });
  afterAll(async () => {
    await self.close();
  });
  beforeEach(() => {
    self.inbound.length = 0;
  });

  /** Runs `call`, which must fail with the loop's 508, and returns the error with the time it took. */
  async function loopFailure(call: () => Promise<unknown>): Promise<{ error: { status?: number; error?: unknown; headers?: Headers }; ms: number }> {
    const started = performance.now();
    const error = (await failure(call)) as { status?: number; error?: unknown; headers?: Headers };
    return { error, ms: performance.now() - started };
  }

  it.each([false, true])('chat completions (stream: %s): 508 in the OpenAI format within a second, after one hop, not retried', async (stream) => {
    const { error, ms } = await loopFailure(() => chatClient(self.url).chat.completions.create({ model: 'gpt-4o', messages: ask, stream }));
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBe(508);
    expect(error.error).toMatchObject({ type: 'server_error', code: 'loop_detected', param: null });
    expect((error.error as { message: string }).message).toMatch(/this gateway is its own upstream.*upstream base URL/);
    expect(ms).toBeLessThan(1000);
    // The client's request, then the gateway's one call to itself, refused there: no third request, no retry.
    expect(self.inbound.map((request) => request.url)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(self.inbound[1]?.headers.via).toMatch(/^1\.1 modelgate-[0-9a-f]{16}$/);
    expect(error.headers?.get('x-should-retry')).toBe('false');
  });

  it.each([false, true])('messages (stream: %s): 508 in the vendor format within a second, after one hop, not retried', async (stream) => {
    const { error, ms } = await loopFailure(() => messagesClient(self.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 32, messages: ask, stream }));
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error.status).toBe(508);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect((error.error as { error: { message: string } }).error.message).toMatch(/this gateway is its own upstream/);
    expect(ms).toBeLessThan(1000);
    expect(self.inbound.map((request) => request.url)).toEqual(['/v1/messages', '/v1/messages']);
  });

  it('a chat call for a vendor model (sent to the messages upstream, itself) and a token count: 508 after one hop each', async () => {
    const chat = (await failure(() => chatClient(self.url).chat.completions.create({ model: 'vendora-opus-4-8', messages: ask }))) as { status?: number };
    expect(chat.status).toBe(508);
    const count = (await failure(() => messagesClient(self.url).messages.countTokens({ model: 'vendora-opus-4-8', messages: ask }))) as { status?: number };
    expect(count.status).toBe(508);
    expect(self.inbound.map((request) => request.url)).toEqual(['/v1/chat/completions', '/v1/messages', '/v1/messages/count_tokens', '/v1/messages/count_tokens']);
  });

  it('file calls of a vendor file store carry the mark too: 508 after one hop', async () => {
    const error = (await failure(() => messagesClient(self.url).beta.files.list())) as { status?: number };
    expect(error.status).toBe(508);
    expect(self.inbound.map((request) => request.url.split('?')[0])).toEqual(['/v1/files', '/v1/files']);
  });

  it('stays healthy: after a refused loop, the next request answers', async () => {
    await failure(() => chatClient(self.url).chat.completions.create({ model: 'gpt-4o', messages: ask }));
    const models = await chatClient(self.url).models.list();
    expect(models.data).toHaveLength(12);
    expect(self.inbound).toHaveLength(3);
  });

  it('refuses before authentication: the looping request carries no key of the caller, and is still 508, not 401', async () => {
    // The gateway's own upstream call is the only one that can carry its mark: read it, then replay it without a key.
    await failure(() => chatClient(self.url).chat.completions.create({ model: 'gpt-4o', messages: ask }));
    const via = self.inbound[1]?.headers.via as string;
    const response = await fetch(`${self.url}/v1/chat/completions`, { method: 'POST', headers: { via, 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(508);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('loop_detected');
  });
});

describe.each(MOUNTS)('a gateway that is its own upstream, mounted on %s', (mount) => {
  let self: Running;

  beforeAll(async () => {
    self = await startCounting(mount, (url) => ({ auth: AUTH, routes: routesTo(url) }));
  });
  afterAll(async () => {
    await self.close();
  });

  it('the adapter hands Via to the core: a streamed messages call and a chat call are refused after one hop', async () => {
    const messages = (await failure(() => messagesClient(self.url).messages.create({ model: 'vendora-haiku-4-5', max_tokens: 16, messages: ask, stream: true }))) as { status?: number };
    expect(messages.status).toBe(508);
    const chat = (await failure(() => chatClient(self.url).chat.completions.create({ model: 'gpt-4o', messages: ask }))) as { status?: number };
    expect(chat.status).toBe(508);
    expect(self.inbound).toHaveLength(4);
  });
});

describe('two different gateways in a chain', () => {
  let back: Running;
  let front: Running;

  beforeAll(async () => {
    // The back gateway serves from its simulator; the front one sends everything to it.
    back = await startCounting('node', () => ({ auth: AUTH }));
    front = await startCounting('express5', () => ({ auth: AUTH, routes: routesTo(back.url) }));
  });
  afterAll(async () => {
    await front.close();
    await back.close();
  });
  afterEach(() => {
    back.inbound.length = 0;
  });

  it('work: the back gateway accepts the front one\'s mark, on both interfaces, streamed and not', async () => {
    const completion = await chatClient(front.url).chat.completions.create({ model: 'gpt-4o', messages: ask });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    const message = await messagesClient(front.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 32, messages: ask });
    expect(message.type).toBe('message');
    const stream = await chatClient(front.url).chat.completions.create({ model: 'gpt-4o', messages: ask, stream: true });
    let chunks = 0;
    for await (const _chunk of stream) chunks += 1;
    expect(chunks).toBeGreaterThan(0);
    expect(back.inbound).toHaveLength(3);
    for (const request of back.inbound) expect(request.headers.via).toMatch(/^1\.1 modelgate-[0-9a-f]{16}$/);
  });

  it('the back gateway receives the modelgate entries only: other proxies\' entries (internal host names) stay behind', async () => {
    await fetch(`${front.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', via: '1.1 lb.internal.corp:8443 (nginx, internal)' },
      body: JSON.stringify({ model: 'gpt-4o', messages: ask }),
    });
    const via = back.inbound.at(-1)?.headers.via as string;
    expect(via).toMatch(/^1\.1 modelgate-[0-9a-f]{16}$/);
    expect(via).not.toContain('internal');
  });

  it('a request that already passed through 8 modelgate gateways is refused; through 7 it is served', async () => {
    const entries = (count: number) => Array.from({ length: count }, (_, i) => `1.1 modelgate-${String(i).padStart(16, 'a')}`).join(', ');
    const send = (via: string) =>
      fetch(`${back.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', via },
        body: JSON.stringify({ model: 'vendora-sonnet-4-6', max_tokens: 16, messages: ask }),
      });
    expect((await send(entries(7))).status).toBe(200);
    const refused = await send(entries(8));
    expect(refused.status).toBe(508);
    const body = (await refused.json()) as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(body.error.message).toMatch(/passed through 8 modelgate gateways/);
  });
});
