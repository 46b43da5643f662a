/**
 * The Responses endpoints through real HTTP on every mount, with raw
 * requests: the SSE grammar on the wire (`event:` lines, sequence numbers,
 * no `[DONE]`), the stored-response resources, the refused transports and
 * fields, authentication, validation before any upstream call, `store`,
 * the store-before-terminal guarantee (a slow store, a failing store), and
 * a client that leaves mid-stream.
 */
import { request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { createGateway, memoryResponseStore, type ResponseStore, type Upstream, type UpstreamCall } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH, KEY, LIMITED_KEY } from '../helpers/e2e-fixtures.js';
import { recordUpstream, type RecordingUpstream } from '../helpers/recording-upstream.js';
import { MOUNTS, type StartedApp, startApp } from '../helpers/start-app.js';

/** Served by the simulator's chat face (not one of the twelve). */
const CHAT_MODEL = 'gpt-4o-mini';
/** One of the twelve: served by the messages face. */
const VENDOR_MODEL = 'vendora-sonnet-4-6';
const MODELS = [CHAT_MODEL, VENDOR_MODEL] as const;
const PUT_DELAY_MS = 300;

type Json = Record<string, any>;

interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

/** An upstream that counts the calls it is sent. */
function counting(inner: Upstream): Upstream & { calls: UpstreamCall[] } {
  const calls: UpstreamCall[] = [];
  return {
    name: inner.name,
    format: inner.format,
    calls,
    send(call) {
      calls.push(call);
      return inner.send(call);
    },
  };
}

/** A memory store whose `put` resolves `ms` late and records when it did. */
function slowStore(ms: number): ResponseStore & { resolvedAt: Map<string, number> } {
  const inner = memoryResponseStore();
  const resolvedAt = new Map<string, number>();
  return {
    resolvedAt,
    async put(record) {
      await delay(ms);
      await inner.put(record);
      resolvedAt.set(record.id, performance.now());
    },
    get: (owner, id) => inner.get(owner, id),
    getItem: (owner, id) => inner.getItem(owner, id),
    delete: (owner, id) => inner.delete(owner, id),
  };
}

/** A store whose `put` always throws. */
function failingStore(): ResponseStore {
  const inner = memoryResponseStore();
  return {
    put: () => Promise.reject(new Error('store unavailable')),
    get: (owner, id) => inner.get(owner, id),
    getItem: (owner, id) => inner.getItem(owner, id),
    delete: (owner, id) => inner.delete(owner, id),
  };
}

function headersOf(key: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...extra };
}

async function call(url: string, method: string, path: string, body?: unknown, headers = headersOf(KEY)): Promise<Answer> {
  const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Json) };
}

interface SseEvent {
  event: string | undefined;
  data: string;
  /** performance.now() when the chunk carrying the event's end arrived. */
  at: number;
}

/** Reads an SSE body event by event, noting when each arrived; `onEvent` may stop the reading by returning true. */
async function readEvents(response: Response, onEvent?: (event: SseEvent) => boolean | void): Promise<{ events: SseEvent[]; raw: string }> {
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let raw = '';
  let buffer = '';
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const at = performance.now();
    const text = decoder.decode(value, { stream: true });
    raw += text;
    buffer += text;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n').filter((line) => !line.startsWith(':'));
      if (lines.length === 0) continue;
      const event: SseEvent = {
        event: lines.find((line) => line.startsWith('event: '))?.slice(7),
        data: lines
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n'),
        at,
      };
      events.push(event);
      if (onEvent?.(event) === true) {
        await reader.cancel();
        return { events, raw };
      }
    }
  }
  return { events, raw };
}

function stream(url: string, body: Json, init: RequestInit = {}): Promise<Response> {
  return fetch(`${url}/v1/responses`, { method: 'POST', headers: headersOf(KEY), body: JSON.stringify({ ...body, stream: true }), ...init });
}

/** A WebSocket handshake request on GET `path`: the status and body of the answer, or the failure. */
function upgrade(url: string, path: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      hostname,
      port,
      path,
      method: 'GET',
      headers: {
        authorization: `Bearer ${KEY}`,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
      timeout: 5000,
    });
    req.on('timeout', () => {
      req.destroy();
      reject(new Error('the upgrade request got no answer in 5 s'));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '', headers: res.headers });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function expectError(answer: Answer, status: number, fields: { param?: string | null; code?: string; message?: RegExp | string }): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toHaveProperty('error');
  expect(answer.body.error).toHaveProperty('type', expect.any(String));
  if (fields.param !== undefined) expect(answer.body.error.param).toBe(fields.param);
  if (fields.code !== undefined) expect(answer.body.error.code).toBe(fields.code);
  if (typeof fields.message === 'string') expect(answer.body.error.message).toContain(fields.message);
  else if (fields.message) expect(answer.body.error.message).toMatch(fields.message);
}

describe.each(MOUNTS)('the Responses endpoints on %s', (mount) => {
  let app: StartedApp;
  let bare: StartedApp;
  let slow: StartedApp;
  let failing: StartedApp;
  let paced: StartedApp;
  let chat: ReturnType<typeof counting>;
  let messages: ReturnType<typeof counting>;
  let pacedMessages: RecordingUpstream;
  let pacedChat: RecordingUpstream;
  let slowPuts: ReturnType<typeof slowStore>;

  beforeAll(async () => {
    const sim = createSimulator();
    chat = counting(sim.upstreams.chat);
    messages = counting(sim.upstreams.messages);
    const routes = [
      { match: 'vendora-*', upstream: messages },
      { match: '*', upstream: chat },
    ];
    app = await startApp(mount, createGateway({ auth: AUTH, responseStore: memoryResponseStore(), routes }));
    bare = await startApp(mount, createGateway({ auth: AUTH, routes }));
    slowPuts = slowStore(PUT_DELAY_MS);
    slow = await startApp(mount, createGateway({ auth: AUTH, responseStore: slowPuts, routes }));
    failing = await startApp(mount, createGateway({ auth: AUTH, responseStore: failingStore(), routes }));
    const pacedSim = createSimulator({ pace: { tokensPerSecond: 20 } });
    pacedMessages = recordUpstream(pacedSim.upstreams.messages);
    pacedChat = recordUpstream(pacedSim.upstreams.chat);
    paced = await startApp(mount, {
      auth: AUTH,
      routes: [
        { match: 'vendora-*', upstream: pacedMessages },
        { match: '*', upstream: pacedChat },
      ],
    });
  });
  afterAll(async () => {
    for (const started of [app, bare, slow, failing, paced]) await started?.close();
  });

  describe.each(MODELS)('%s', (model) => {
    it('POST /v1/responses answers a completed Response as JSON', async () => {
      const answer = await call(app.url, 'POST', '/v1/responses', { model, input: 'Describe a lighthouse.' });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.body).toMatchObject({ object: 'response', status: 'completed', model });
      expect(answer.body.id).toMatch(/^resp_/);
      const text = answer.body.output.find((item: Json) => item.type === 'message')?.content?.[0]?.text;
      expect(text).toContain('Describe a lighthouse');
    });

    it('streams the Responses event grammar: event lines, sequence numbers from 0, no [DONE]', async () => {
      const response = await stream(app.url, { model, input: 'Describe a harbour.' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const { events, raw } = await readEvents(response);
      expect(raw).not.toContain('[DONE]');
      expect(events.length).toBeGreaterThan(3);
      events.forEach((event, index) => {
        expect(event.event).toBeDefined();
        const data = JSON.parse(event.data) as Json;
        expect(data.type).toBe(event.event);
        expect(data.sequence_number).toBe(index);
      });
      expect(events[0]?.event).toBe('response.created');
      expect(events[1]?.event).toBe('response.in_progress');
      expect(events.at(-1)?.event).toBe('response.completed');
      const completed = JSON.parse(events.at(-1)!.data) as Json;
      expect(completed.response.status).toBe('completed');
      const deltas = events.filter((event) => event.event === 'response.output_text.delta').map((event) => (JSON.parse(event.data) as Json).delta as string);
      expect(deltas.join('')).toContain('Describe a harbour');
    });

    it('GET, input_items and DELETE a stored response', async () => {
      const created = await call(app.url, 'POST', '/v1/responses', { model, input: [{ role: 'user', content: 'First question.' }] });
      const id = created.body.id as string;
      const got = await call(app.url, 'GET', `/v1/responses/${id}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ id, object: 'response', status: 'completed' });
      expect(got.body.output).toEqual(created.body.output);

      const items = await call(app.url, 'GET', `/v1/responses/${id}/input_items`);
      expect(items.status).toBe(200);
      expect(items.body).toMatchObject({ object: 'list', has_more: false });
      expect(items.body.data).toHaveLength(1);
      expect(items.body.data[0]).toMatchObject({ type: 'message', role: 'user' });
      expect(items.body.first_id).toBe(items.body.data[0].id);
      expect(items.body.last_id).toBe(items.body.data[0].id);

      const deleted = await call(app.url, 'DELETE', `/v1/responses/${id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id, object: 'response', deleted: true });
      expectError(await call(app.url, 'GET', `/v1/responses/${id}`), 404, { code: 'response_not_found' });
      expectError(await call(app.url, 'DELETE', `/v1/responses/${id}`), 404, { code: 'response_not_found' });
    });

    it('POST /v1/responses/input_tokens counts the input', async () => {
      const answer = await call(app.url, 'POST', '/v1/responses/input_tokens', { model, input: 'Count these words for me, please.' });
      expect(answer.status).toBe(200);
      expect(answer.body.object).toBe('response.input_tokens');
      expect(answer.body.input_tokens).toBeGreaterThan(0);
    });

    it('store: false persists nothing; store omitted persists', async () => {
      const unstored = await call(app.url, 'POST', '/v1/responses', { model, input: 'Hello.', store: false });
      expect(unstored.status).toBe(200);
      expectError(await call(app.url, 'GET', `/v1/responses/${unstored.body.id}`), 404, { code: 'response_not_found' });
      const stored = await call(app.url, 'POST', '/v1/responses', { model, input: 'Hello.' });
      expect(stored.status).toBe(200);
      expect((await call(app.url, 'GET', `/v1/responses/${stored.body.id}`)).status).toBe(200);
    });

    it('holds response.completed until the slow store has the response, and the next turn finds it at once', async () => {
      const response = await stream(slow.url, { model, input: 'Describe a pier.' });
      const { events } = await readEvents(response);
      const completed = events.find((event) => event.event === 'response.completed')!;
      const id = (JSON.parse(completed.data) as Json).response.id as string;
      const storedAt = slowPuts.resolvedAt.get(id);
      expect(storedAt).toBeDefined();
      expect(completed.at).toBeGreaterThanOrEqual(storedAt!);
      const next = await call(slow.url, 'POST', '/v1/responses', { model, input: 'And then?', previous_response_id: id });
      expect(next.status).toBe(200);

      const json = await call(slow.url, 'POST', '/v1/responses', { model, input: 'Describe a quay.' });
      expect(slowPuts.resolvedAt.has(json.body.id)).toBe(true);
      const after = await stream(slow.url, { model, input: 'And then?', previous_response_id: json.body.id });
      expect(after.status).toBe(200);
      const { events: afterEvents } = await readEvents(after);
      expect(afterEvents.at(-1)?.event).toBe('response.completed');
    });

    it('a store whose put fails: the answer is delivered all the same, says it is not stored, and reads answer 503 while the store is left alone', async () => {
      const json = await call(failing.url, 'POST', '/v1/responses', { model, input: 'Hello.' });
      expect(json.status).toBe(200);
      expect(json.body.status).toBe('completed');
      expect(json.body.store).toBe(false);
      expect(json.headers.get('x-modelgate-warnings')).toContain('not stored');
      expectError(await call(failing.url, 'GET', `/v1/responses/${json.body.id}`), 503, { code: 'response_store_unavailable', message: 'response store is unavailable' });
      const { events } = await readEvents(await stream(failing.url, { model, input: 'Hello.' }));
      expect(events.at(-1)?.event).toBe('response.completed');
    });

    it('a client that leaves mid-stream stops the upstream call', async () => {
      const upstream = model === CHAT_MODEL ? pacedChat : pacedMessages;
      const before = upstream.calls.length;
      const controller = new AbortController();
      const response = await stream(paced.url, { model, input: 'Write a long paragraph about the history of lighthouses.' }, { signal: controller.signal });
      let sawText = false;
      await readEvents(response, (event) => {
        if (event.event !== 'response.output_text.delta') return false;
        sawText = true;
        controller.abort();
        return true;
      }).catch((error: unknown) => {
        if ((error as Error).name !== 'AbortError') throw error;
      });
      expect(sawText).toBe(true);
      const recorded = upstream.calls[before];
      await vi.waitFor(() => expect(recorded?.endedAt).toBeDefined(), { timeout: 3000 });
      expect(recorded?.completed).toBe(false);
      expect(recorded?.abortedAt).toBeDefined();
    });
  });

  it('a WebSocket upgrade on /v1/responses is a 426 in the OpenAI envelope', async () => {
    const answer = await upgrade(app.url, '/v1/responses');
    expect(answer.status).toBe(426);
    const body = JSON.parse(answer.body) as Json;
    expect(body.error).toMatchObject({ code: 'websocket_not_supported', type: 'invalid_request_error' });
    expect(body.error.message).toContain('POST /v1/responses');
  });

  it.each([
    ['POST', '/v1/responses/compact'],
    ['POST', '/v1/responses/resp_0123456789abcdef01234567/cancel'],
  ])('%s %s → 404 that says why', async (method, path) => {
    const answer = await call(app.url, method, path, { model: CHAT_MODEL, input: 'x' });
    expectError(answer, 404, { code: 'unknown_url', message: /not served here|only background responses/ });
  });

  it.each([
    ['background', { background: true }],
    ['conversation', { conversation: 'conv_123' }],
    ['prompt', { prompt: { id: 'pmpt_123' } }],
  ])('%s → 400 naming the parameter', async (param, extra) => {
    const before = chat.calls.length;
    const answer = await call(app.url, 'POST', '/v1/responses', { model: CHAT_MODEL, input: 'Hello.', ...extra });
    expectError(answer, 400, { param });
    expect(chat.calls.length).toBe(before);
  });

  it.each([
    ['no Authorization', headersOf(undefined)],
    ['an unknown Bearer key', headersOf('sk-not-a-key-000000000000')],
    ['x-api-key alone', headersOf(undefined, { 'x-api-key': KEY })],
  ])('%s → 401', async (_name, headers) => {
    const answer = await call(app.url, 'POST', '/v1/responses', { model: CHAT_MODEL, input: 'Hello.' }, headers);
    // As for chat completions: the OpenAI envelope's 401, code invalid_api_key.
    expectError(answer, 401, { code: 'invalid_api_key' });
    expect(answer.body.error.message).toMatch(/API key/);
  });

  it('built-in tools and history items no upstream runs are dropped and named; with builtInTools: reject, refused before any upstream call', async () => {
    const body = {
      model: CHAT_MODEL,
      tools: [{ type: 'web_search' }, { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } }],
      input: [
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
        { role: 'user', content: 'Hello.' },
      ],
    };
    const dropped = await call(app.url, 'POST', '/v1/responses', body);
    expect(dropped.status).toBe(200);
    expect(dropped.headers.get('x-modelgate-dropped-params')).toBe('tools.0 (web_search), input.0 (web_search_call)');
    const sent = chat.calls.at(-1)?.body as { tools: { function: { name: string } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(['get_weather']);

    const strict = await startApp(mount, createGateway({ auth: AUTH, routes: [{ match: '*', upstream: chat }], responses: { builtInTools: 'reject' } }));
    try {
      const before = chat.calls.length;
      const refused = await call(strict.url, 'POST', '/v1/responses', body);
      expectError(refused, 400, { param: 'tools.0' });
      expect(chat.calls.length).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it('a key limited to other models → 403', async () => {
    const answer = await call(app.url, 'POST', '/v1/responses', { model: CHAT_MODEL, input: 'Hello.' }, headersOf(LIMITED_KEY));
    expectError(answer, 403, {});
  });

  it.each([
    ['input.0.role', { input: [{ type: 'message', role: 'wizard', content: 'Hi.' }] }],
    ['input.0.call_id', { input: [{ type: 'function_call', call_id: 5, name: 'f', arguments: '{}' }] }],
    ['input.1.call_id', { input: [{ role: 'user', content: 'Hi.' }, { type: 'function_call_output', output: 'ok' }] }],
  ])('a bad item (%s) → 400 naming the field, before any upstream call', async (param, extra) => {
    const before = chat.calls.length + messages.calls.length;
    for (const model of MODELS) {
      const answer = await call(app.url, 'POST', '/v1/responses', { model, ...extra });
      expectError(answer, 400, { param });
    }
    expect(chat.calls.length + messages.calls.length).toBe(before);
  });

  describe('without a response store', () => {
    it('previous_response_id → 400 previous_response_not_found saying no store is configured', async () => {
      const before = chat.calls.length;
      const answer = await call(bare.url, 'POST', '/v1/responses', { model: CHAT_MODEL, input: 'Hi.', previous_response_id: 'resp_0123456789abcdef01234567' });
      expectError(answer, 400, { param: 'previous_response_id', code: 'previous_response_not_found', message: 'no `responseStore` is configured' });
      expect(chat.calls.length).toBe(before);
    });

    it('item_reference → 400 item_not_found', async () => {
      const answer = await call(bare.url, 'POST', '/v1/responses', { model: CHAT_MODEL, input: [{ type: 'item_reference', id: 'msg_0123456789abcdef' }] });
      expectError(answer, 400, { param: 'input.0.id', code: 'item_not_found', message: 'no `responseStore` is configured' });
    });

    it('store omitted: the answer is not kept (GET → 404 saying there is no store)', async () => {
      const created = await call(bare.url, 'POST', '/v1/responses', { model: CHAT_MODEL, input: 'Hi.' });
      expect(created.status).toBe(200);
      const got = await call(bare.url, 'GET', `/v1/responses/${created.body.id}`);
      expectError(got, 404, { code: 'response_not_found', message: 'no `responseStore` is configured' });
    });
  });
});
