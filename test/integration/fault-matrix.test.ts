/**
 * The fault matrix: every upstream fault × chat / messages / translated
 * (both directions) × streamed / not × Express / Koa / node:http, through real HTTP on
 * both sides. Each case asserts the status, the caller's error format, the
 * order of magnitude of the time taken, that no configured secret (the
 * gateway's upstream key, the caller's key) appears anywhere in the answer,
 * and that the next request on the same path is served.
 *
 * Time-outs are scaled down to T = 3 s with the ratios of the defaults
 * (first byte = idle = request deadline; one retry, default backoff), so
 * the README's fault table holds here with T in place of 300 s.
 */
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { messagesUpstream, openAICompatible, type Route } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fault, FAULTS, startFaultStub } from '../helpers/fault-stub.js';
import { type Mount, type StartedApp, startApp } from '../helpers/start-app.js';
import type { StubUpstream } from '../helpers/stub-upstream.js';

// Long enough that a request the stub answers at once stays well inside it on a loaded 2-core machine.
const T = 5_000;
const UPSTREAM_SECRET = 'sk-upstream-SECRET-7f3a9c';
const CALLER_KEY = 'sk-caller-SECRET-0b12de';
const MOUNTS: readonly Mount[] = ['express5', 'koa3', 'node'];

/** The four ways a call crosses the gateway: client interface → upstream format. */
const PATHS = [
  { name: 'chat', client: 'chat', upstream: 'chat' },
  { name: 'messages', client: 'messages', upstream: 'messages' },
  { name: 'translated chat→messages', client: 'chat', upstream: 'messages' },
  { name: 'translated messages→chat', client: 'messages', upstream: 'chat' },
] as const;
type Path = (typeof PATHS)[number];

/** What the client must get: an error response, or a 200 stream ending in an error event. */
interface Expected {
  status: number;
  /** The error arrives in-band, after a 200 stream head. */
  inStream: boolean;
  /** Takes about T (a time-out), else under T (typically 0.1–1.1 s: a backoff, a 1 s retry-after). */
  timed: boolean;
  retryAfter?: string;
}

function expected(fault: Fault, stream: boolean): Expected {
  switch (fault) {
    case 'refused':
      return { status: 502, inStream: false, timed: false };
    case 'never-answers':
      return { status: 504, inStream: false, timed: true };
    case 'headers-then-silence':
    case 'silence-mid-stream':
      return { status: 504, inStream: stream, timed: true };
    case 'cut-mid-stream':
      return { status: 502, inStream: stream, timed: false };
    case 'truncated-json':
    case 'html-page':
    case 'wrong-content-type':
      return { status: 502, inStream: false, timed: false };
    case '5xx':
      return { status: 500, inStream: false, timed: false };
    case '429':
      return { status: 429, inStream: false, timed: false };
    case '429-retry-after':
      return { status: 429, inStream: false, timed: false, retryAfter: '1' };
    case '529':
      return { status: 529, inStream: false, timed: false };
    case '529-retry-after':
      return { status: 529, inStream: false, timed: false, retryAfter: '1' };
  }
}

/** The messages interface's error type per status (PROTOCOLS A.7); the chat one where it is fixed (B.5). */
const MESSAGES_TYPE: Record<number, string> = { 429: 'rate_limit_error', 500: 'api_error', 502: 'api_error', 504: 'timeout_error', 529: 'overloaded_error' };
const CHAT_TYPE: Record<number, string> = { 429: 'rate_limit_error', 504: 'timeout_error' };

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  elapsedMs: number;
}

async function call(app: StartedApp, path: Path, fault: Fault | 'good', stream: boolean): Promise<Answer> {
  const model = `${path.upstream === 'chat' ? 'chat' : 'msg'}-${fault}`;
  const messages = [{ role: 'user', content: 'Hi' }];
  const started = performance.now();
  const response = path.client === 'chat'
    ? await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CALLER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages, stream }),
    })
    : await fetch(`${app.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': CALLER_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 32, messages, stream }),
    });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, elapsedMs: performance.now() - started };
}

/** The error object of an answer, from its JSON body or its stream's error event, checked against the interface's format. */
function errorOf(answer: Answer, client: Path['client'], inStream: boolean): { type: string; message: string } {
  let json: unknown;
  if (inStream) {
    expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    if (client === 'messages') {
      const match = /event: error\ndata: (.*)\n\n$/.exec(answer.text);
      expect(match, answer.text).not.toBeNull();
      json = JSON.parse(match![1]!);
    } else {
      const last = answer.text.trim().split('\n\n').at(-1)!;
      expect(last.startsWith('data: '), answer.text).toBe(true);
      json = JSON.parse(last.slice('data: '.length));
    }
  } else {
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    json = JSON.parse(answer.text);
  }
  if (client === 'messages') {
    expect(json).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.any(String) } });
    return (json as { error: { type: string; message: string } }).error;
  }
  const error = (json as { error: Record<string, unknown> }).error;
  expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(error.message).toEqual(expect.any(String));
  return error as { type: string; message: string };
}

function expectNoSecret(answer: Answer): void {
  const everything = `${answer.status}\n${[...answer.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n${answer.text}`;
  expect(everything).not.toContain(UPSTREAM_SECRET);
  expect(everything).not.toContain(CALLER_KEY);
}

function expectServed(answer: Answer, client: Path['client'], stream: boolean): void {
  expect(answer.status, answer.text).toBe(200);
  if (!stream) {
    const json = JSON.parse(answer.text) as { choices?: Array<{ message: { content: string } }>; content?: Array<{ text: string }> };
    expect(client === 'chat' ? json.choices?.[0]?.message.content : json.content?.[0]?.text).toBe('all good');
    return;
  }
  expect(answer.text).toContain('all ');
  expect(answer.text).toContain(client === 'chat' ? 'data: [DONE]' : 'event: message_stop');
}

/** A port nothing listens on: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let stub: StubUpstream;
let refusedURL: string;
beforeAll(async () => {
  stub = await startFaultStub();
  refusedURL = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(() => stub.close());

function routes(): Route[] {
  const timeouts = { firstByteMs: T, idleMs: T };
  const chat = (baseURL: string) => openAICompatible({ baseURL: `${baseURL}/v1`, apiKey: UPSTREAM_SECRET, name: 'stub-chat', timeouts });
  const vendor = (baseURL: string) => messagesUpstream({ baseURL, apiKey: UPSTREAM_SECRET, name: 'stub-messages', timeouts });
  return [
    { match: 'chat-refused', upstream: chat(refusedURL), serveMessages: true },
    { match: 'msg-refused', upstream: vendor(refusedURL), serveMessages: true },
    { match: 'chat-*', upstream: chat(stub.url), serveMessages: true },
    { match: 'msg-*', upstream: vendor(stub.url), serveMessages: true },
  ];
}

describe.each(MOUNTS)('fault matrix behind %s', (mount) => {
  let app: StartedApp;
  beforeAll(async () => {
    // Every case is one occurrence of its fault: cooldowns (the same fault again and again) have their own tests.
    app = await startApp(mount, { auth: { keys: [CALLER_KEY] }, routes: routes(), requestTimeoutMs: T, routing: { health: false } });
  });
  afterAll(() => app.close());

  // Each fault runs its eight cases (four paths × streamed or not) at once; faults run concurrently too.
  describe.concurrent.each(FAULTS)('%s', (fault) => {
    it('every path, streamed or not: the right status and format, in time, no secret, next request served', async () => {
      const cases = PATHS.flatMap((path) => [false, true].map((stream) => ({ path, stream })));
      await Promise.all(cases.map(async ({ path, stream }) => {
        const label = `${path.name}, ${stream ? 'streamed' : 'not streamed'}`;
        const want = expected(fault, stream);
        const answer = await call(app, path, fault, stream);
        expect(answer.status, `${label}: ${answer.text}`).toBe(want.inStream ? 200 : want.status);
        const error = errorOf(answer, path.client, want.inStream);
        if (path.client === 'messages') expect(error.type, label).toBe(MESSAGES_TYPE[want.status]);
        else if (CHAT_TYPE[want.status] !== undefined) expect(error.type, label).toBe(CHAT_TYPE[want.status]);
        if (want.inStream && fault === 'silence-mid-stream') expect(answer.text, label).toContain('all ');
        if (want.retryAfter !== undefined) expect(answer.headers.get('retry-after'), label).toBe(want.retryAfter);
        // Order of magnitude only (a loaded 2-core machine): time-outs take about T, other faults well under it.
        if (want.timed) {
          expect(answer.elapsedMs, label).toBeGreaterThanOrEqual(T * 0.9);
          expect(answer.elapsedMs, label).toBeLessThan(T * 4);
        } else expect(answer.elapsedMs, label).toBeLessThan(T);
        expectNoSecret(answer);
        const next = await call(app, path, 'good', stream);
        expectServed(next, path.client, stream);
        expectNoSecret(next);
      }));
    });
  });
});
