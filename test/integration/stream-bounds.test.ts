/**
 * `streamBounds` over real HTTP on both sides: an upstream that streams
 * without end (fast: the size bound; slowly: the duration bound) is cut off
 * by the gateway, which aborts the upstream request (the stub sees its
 * connection close) and ends the client's stream the way a broken upstream
 * stream ends in its format: a chat error chunk, a messages `error` event,
 * a Responses `error` + `response.failed`; each naming the bound. The
 * usage seen so far is reported, not as an abort. Every caller format is
 * served by both upstream formats (relayed and translated), and the
 * official clients surface the error.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { messagesUpstream, openAICompatible, type Route, type UsageRecord } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { anthropicClient, failure, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { type StubEvent, type StubUpstream, startStubUpstream, writeChunk } from '../helpers/stub-upstream.js';

const CALLER_KEY = 'sk-caller-stream-bounds-01';
const MAX_BYTES = 64 * 1024;
const MAX_DURATION_MS = 300;
/** Text of each streamed delta: fast streams pass 64 KiB after ~130 events. */
const PIECE = 'lorem ipsum '.repeat(40);

function encode(event: StubEvent): string {
  if (typeof event === 'string') return event;
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${event.data}\n\n`;
}

/** The endless stream's opening events and its repeated delta, in the format of the request's path. */
function streamOf(path: string, model: string): { head: StubEvent[]; delta: StubEvent } {
  if (path.endsWith('/chat/completions')) {
    const chunk = (delta: object) => JSON.stringify({ id: 'chatcmpl-endless', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: null }] });
    return { head: [{ data: chunk({ role: 'assistant', content: '' }) }], delta: { data: chunk({ content: PIECE }) } };
  }
  const event = (name: string, data: object): StubEvent => ({ event: name, data: JSON.stringify({ type: name, ...data }) });
  return {
    head: [
      event('message_start', { message: { id: 'msg_endless', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 11, output_tokens: 1 } } }),
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ],
    delta: event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: PIECE } }),
  };
}

/** An upstream that never ends its stream: as fast as the gateway reads (`*-fast`), or one delta every 20 ms (`*-slow`). */
function startEndlessStub(): Promise<StubUpstream> {
  return startStubUpstream((request) => ({
    kind: 'handler',
    async handle(_req, res) {
      const model = (JSON.parse(request.body) as { model: string }).model;
      const { head, delta } = streamOf(request.url, model);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      for (const event of head) if (!(await writeChunk(res, encode(event)))) return;
      const text = encode(delta);
      for (;;) {
        if (!(await writeChunk(res, text))) return;
        if (model.endsWith('-slow')) await new Promise((resolve) => setTimeout(resolve, 20));
        else await nextTurn();
      }
    },
  }));
}

const CLIENTS = ['chat', 'messages', 'responses'] as const;
type Client = (typeof CLIENTS)[number];
const UPSTREAMS = ['chat', 'msg'] as const;

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
  elapsedMs: number;
}

async function call(app: StartedApp, client: Client, model: string): Promise<Answer> {
  const input = [{ role: 'user', content: 'Tell me everything.' }];
  const [path, headers, body] =
    client === 'chat'
      ? ['/v1/chat/completions', { authorization: `Bearer ${CALLER_KEY}` }, { model, messages: input, stream: true }]
      : client === 'messages'
        ? ['/v1/messages', { 'x-api-key': CALLER_KEY, 'anthropic-version': '2023-06-01' }, { model, max_tokens: 64_000, messages: input, stream: true }]
        : ['/v1/responses', { authorization: `Bearer ${CALLER_KEY}` }, { model, input, stream: true, store: false }];
  const started = performance.now();
  const response = await fetch(`${app.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), text, elapsedMs: performance.now() - started };
}

/** The message of the error the stream ends with, checked against the format's error ending. */
function endingError(answer: Answer, client: Client): string {
  expect(answer.status, answer.text.slice(-500)).toBe(200);
  expect(answer.contentType).toMatch(/^text\/event-stream/);
  const events = answer.text.trim().split('\n\n');
  const last = events.at(-1)!;
  if (client === 'chat') {
    // PROTOCOLS B.4: a data event whose top-level `error` makes the official client throw; no [DONE] after it.
    expect(last.startsWith('data: {"error":'), last).toBe(true);
    expect(answer.text).not.toContain('[DONE]');
    const { error } = JSON.parse(last.slice('data: '.length)) as { error: { message: string; type: string; param: unknown; code: unknown } };
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'type']);
    return error.message;
  }
  if (client === 'messages') {
    // PROTOCOLS A.6: `event: error` with `{type: 'error', error: {type, message}}`; no message_stop.
    const match = /^event: error\ndata: (.*)$/.exec(last);
    expect(match, last).not.toBeNull();
    expect(answer.text).not.toContain('message_stop');
    const json = JSON.parse(match![1]!) as { type: string; error: { type: string; message: string } };
    expect(json.type).toBe('error');
    return json.error.message;
  }
  // Responses: an `error` event, then `response.failed` carrying `error {code, message}`.
  const failed = /^event: response\.failed\ndata: (.*)$/.exec(last);
  const error = /^event: error\ndata: (.*)$/.exec(events.at(-2)!);
  expect(failed, last).not.toBeNull();
  expect(error, events.at(-2)).not.toBeNull();
  expect(answer.text).not.toContain('response.completed');
  const response = (JSON.parse(failed![1]!) as { response: { status: string; error: { code: string; message: string } } }).response;
  expect(response.status).toBe('failed');
  expect((JSON.parse(error![1]!) as { message: string }).message).toBe(response.error.message);
  return response.error.message;
}

function routes(stub: StubUpstream): Route[] {
  return [
    { match: 'chat-*', upstream: openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-upstream-stream-bounds', name: 'stub-chat' }), serveMessages: true },
    { match: 'msg-*', upstream: messagesUpstream({ baseURL: stub.url, apiKey: 'sk-upstream-stream-bounds', name: 'stub-messages' }), serveMessages: true },
  ];
}

let stub: StubUpstream;
beforeAll(async () => {
  stub = await startEndlessStub();
});
afterAll(() => stub.close());

describe('streamBounds.maxBytes: an upstream that streams without end, fast', () => {
  let app: StartedApp;
  const usage: UsageRecord[] = [];
  beforeAll(async () => {
    app = await startApp('node', { auth: { keys: [CALLER_KEY] }, routes: routes(stub), streamBounds: { maxBytes: MAX_BYTES, maxDurationMs: 0 }, onUsage: (record) => usage.push(record) });
  });
  afterAll(() => app.close());

  describe.each(CLIENTS)('%s caller', (client) => {
    it.each(UPSTREAMS)('%s upstream: the stream ends with the format\'s error naming the bound; the upstream request is aborted', async (upstream) => {
      const model = `${upstream}-fast-${client}`;
      const answer = await call(app, client, model);
      const index = stub.requests.findIndex((request) => (JSON.parse(request.body) as { model: string }).model === model);
      expect(endingError(answer, client)).toBe('Upstream "stub-' + (upstream === 'chat' ? 'chat' : 'messages') + '" streamed more than 64 KiB, the gateway\'s limit for one stream (streamBounds.maxBytes); the stream was ended.');
      // What came within the bound was relayed; not much more than the bound reached the client.
      expect(answer.text).toContain('lorem ipsum');
      expect(answer.text.length).toBeLessThan(3 * MAX_BYTES);
      await stub.closed(index);
      expect(stub.requests[index]!.completed).toBe(false);
      // Usage as for a cut stream: reported once, as a delivered (not aborted) stream.
      await vi.waitFor(() => expect(usage.filter((record) => record.model === model)).toHaveLength(1));
      const record = usage.find((entry) => entry.model === model)!;
      expect(record).toMatchObject({ status: 200, stream: true, aborted: false });
      if (upstream === 'msg') expect(record.inputTokens).toBe(11);
    });
  });

  it('the official clients throw the error', async () => {
    const chat = openAIClient(app.url, CALLER_KEY);
    const chatError = await failure(async () => {
      for await (const _ of await chat.chat.completions.create({ model: 'chat-fast-sdk', messages: [{ role: 'user', content: 'Hi' }], stream: true }));
    });
    expect(String(chatError)).toContain('streamBounds.maxBytes');
    const responsesError = await failure(async () => {
      for await (const _ of await chat.responses.create({ model: 'chat-fast-sdk', input: 'Hi', stream: true, store: false }));
    });
    expect(String(responsesError)).toContain('streamBounds.maxBytes');
    const messagesError = await failure(() => anthropicClient(app.url, CALLER_KEY).messages.stream({ model: 'msg-fast-sdk', max_tokens: 64_000, messages: [{ role: 'user', content: 'Hi' }] }).finalMessage());
    expect(String(messagesError)).toContain('streamBounds.maxBytes');
  });
});

describe('streamBounds.maxDurationMs: an upstream that streams without end, slowly', () => {
  let app: StartedApp;
  beforeAll(async () => {
    app = await startApp('node', { auth: { keys: [CALLER_KEY] }, routes: routes(stub), streamBounds: { maxBytes: 0, maxDurationMs: MAX_DURATION_MS } });
  });
  afterAll(() => app.close());

  describe.each(CLIENTS)('%s caller', (client) => {
    it.each(UPSTREAMS)('%s upstream: after the bound the stream ends with the format\'s error naming it; the upstream request is aborted', async (upstream) => {
      const model = `${upstream}-slow-${client}`;
      const answer = await call(app, client, model);
      const index = stub.requests.findIndex((request) => (JSON.parse(request.body) as { model: string }).model === model);
      expect(endingError(answer, client)).toBe('Upstream "stub-' + (upstream === 'chat' ? 'chat' : 'messages') + '" streamed for longer than 300 ms, the gateway\'s limit for one stream (streamBounds.maxDurationMs); the stream was ended.');
      expect(answer.text).toContain('lorem ipsum');
      // Order of magnitude only (a loaded machine): the bound, not the 300 s idle time-out.
      expect(answer.elapsedMs).toBeGreaterThanOrEqual(MAX_DURATION_MS * 0.9);
      expect(answer.elapsedMs).toBeLessThan(MAX_DURATION_MS + 5_000);
      await stub.closed(index);
      expect(stub.requests[index]!.completed).toBe(false);
    });
  });
});
