/**
 * How the Koa adapter hands a streamed answer to Koa, on Koa 2 and 3, seen
 * from a raw HTTP client and from an upstream whose every read the test
 * controls: each event reaches the client before the upstream produces the
 * next one, a client that leaves stops the upstream, the app's headers
 * apply, and a disconnect is not logged as a server fault.
 */
import type { IncomingMessage } from 'node:http';
import Koa3, { type Context, type Next } from 'koa';
import Koa2 from 'koa2';
import type { GatewayResponse, Upstream } from 'modelgate';
import { createGateway, koaGateway } from 'modelgate/koa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startChatStream } from '../helpers/raw-chat-stream.js';
import { ScriptedBody, scriptedUpstream } from '../helpers/scripted-upstream.js';
import { recordSocketWrites } from '../helpers/socket-writes.js';
import { listen } from '../helpers/start-app.js';

const KEY = 'sk-koa-streaming-0123456789';
const encoder = new TextEncoder();

const chatEvent = (text: string): string =>
  `data: {"id":"chatcmpl-k","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"${text}"},"finish_reason":null}]}\n\n`;
const DONE_EVENT = 'data: [DONE]\n\n';

/** Starts a chat stream request with this suite's key (the head must arrive at once). */
const startStream = (url: string): Promise<IncomingMessage> => startChatStream(url, KEY);

/** Reads `res` until the text received so far contains `marker`; fails after `timeoutMs`. */
function readUntil(res: IncomingMessage, marker: string, timeoutMs = 2000): Promise<string> {
  let text = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      res.off('data', onData);
      reject(new Error(`"${marker}" did not arrive within ${timeoutMs} ms; got ${JSON.stringify(text.slice(-200))}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (!text.includes(marker)) return;
      clearTimeout(timer);
      res.off('data', onData);
      res.pause();
      resolve(text);
    };
    res.on('data', onData);
    res.resume();
  });
}

/** Reads `res` to its end ('end' may already have been emitted while the last chunk was read). */
function readToEnd(res: IncomingMessage): Promise<void> {
  if (res.readableEnded) return Promise.resolve();
  return new Promise((resolve) => res.once('end', resolve).resume());
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.each([
  ['koa 3', Koa3],
  ['koa 2', Koa2],
] as const)('streamed answers through Koa (%s)', (name, Koa) => {
  let running: Awaited<ReturnType<typeof listen>> | undefined;
  /** Errors Koa's own default handler was given. */
  let reported: (Error & { code?: string; expose?: boolean })[];
  /** What each request's socket handed the kernel, write by write. */
  let socketWrites: string[][];

  async function start(upstream: Upstream, dispatch?: () => Promise<GatewayResponse>): Promise<string> {
    const app = new Koa();
    reported = [];
    // Koa's default error handler (no listener of the app's own), watched without replacing its behaviour.
    const defaultHandler = app.onerror.bind(app);
    app.onerror = (error: Error) => {
      reported.push(error);
      defaultHandler(error);
    };
    socketWrites = [];
    app.use(async (ctx: Context, next: Next) => {
      socketWrites.push(recordSocketWrites(ctx.req.socket));
      ctx.set('x-app-before', 'yes');
      await next();
      ctx.set('x-app-after', 'yes');
    });
    const gateway = createGateway({ auth: { keys: [KEY] }, routes: [{ match: '*', upstream }] });
    app.use(koaGateway(dispatch ? { ...gateway, dispatch } : gateway));
    running = await listen(app.callback());
    return running.url;
  }

  afterEach(async () => {
    vi.restoreAllMocks();
    await running?.close();
    running = undefined;
  });

  it('each event reaches the client before the upstream produces the next one; the app headers apply', async () => {
    const upstream = scriptedUpstream(() => new ScriptedBody());
    const url = await start(upstream);
    const res = await startStream(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['x-app-before']).toBe('yes');
    expect(res.headers['x-app-after']).toBe('yes');
    const body = upstream.bodies[0]!;

    body.feed(chatEvent('one'));
    const first = await readUntil(res, '"one"');
    expect(first).not.toContain('"two"');
    // The client has the first event while the upstream has not even been asked for more than one more read.
    expect(body.reads).toBe(1);

    body.feed(chatEvent('two'));
    const second = await readUntil(res, '"two"');
    expect(second).not.toContain('[DONE]');

    body.feed(DONE_EVENT);
    const rest = await readUntil(res, '[DONE]');
    expect(rest).toContain('data: [DONE]');
    await readToEnd(res);
    expect(body.returned).toBe(false);
  });

  it('the head goes out in the same write as the first event when the upstream has it ready', async () => {
    const upstream = scriptedUpstream(() => {
      const body = new ScriptedBody();
      body.feed(chatEvent('ready'));
      body.feed(DONE_EVENT);
      return body;
    });
    const url = await start(upstream);
    const res = await startStream(url);
    await readToEnd(res);
    const writes = socketWrites[0]!;
    expect(writes[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(writes[0]).toContain('x-app-after: yes');
    expect(writes[0]).toContain('"ready"');
    expect(writes.join('')).toContain('data: [DONE]');
  });

  it('a client that leaves mid-stream stops the upstream, and Koa does not log it as an error', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const upstream = scriptedUpstream(() => new ScriptedBody());
    const url = await start(upstream);
    const res = await startStream(url);
    const body = upstream.bodies[0]!;
    body.feed(chatEvent('one'));
    await readUntil(res, '"one"');

    res.destroy();
    await vi.waitFor(() => expect(body.returned).toBe(true), { timeout: 10_000 });
    expect(upstream.calls[0]?.signal.aborted).toBe(true);
    if (name === 'koa 3') {
      // Koa 3 pipes with stream.pipeline, which reports the disconnect; its default handler must stay quiet.
      await vi.waitFor(() => expect(reported).toHaveLength(1), { timeout: 10_000 });
      expect(reported[0]?.code).toBe('ERR_STREAM_PREMATURE_CLOSE');
      expect(reported[0]?.expose).toBe(true);
    } else {
      await sleep(50);
      expect(reported).toHaveLength(0);
    }
    expect(consoleError).not.toHaveBeenCalled();
  });

  // Backpressure itself (reads stop, resume, stay bounded) is tested on every mount in slow-client-backpressure.test.ts.
  it('a client that leaves with unread data (a reset) is a disconnect, not logged', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    // 16 KiB of events per read, as fast as the gateway asks: the client's socket fills up.
    const chunk = encoder.encode(chatEvent('x'.repeat(100)).repeat(16 * 1024 / chatEvent('x'.repeat(100)).length));
    const upstream = scriptedUpstream(() => new ScriptedBody(chunk));
    const url = await start(upstream);
    const res = await startStream(url);
    const body = upstream.bodies[0]!;
    res.pause();
    await body.untilStalled();

    res.destroy();
    await vi.waitFor(() => expect(body.returned).toBe(true), { timeout: 10_000 });
    await vi.waitFor(() => expect(reported.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(reported.every((error) => error.expose === true)).toBe(true);
    expect(consoleError).not.toHaveBeenCalled();
  }, 10_000);

  it('an upstream that fails mid-stream ends the stream with an error event in the chat format', async () => {
    const upstream: Upstream = {
      name: 'failing',
      format: 'chat',
      async send() {
        async function* body(): AsyncGenerator<Uint8Array> {
          yield encoder.encode(chatEvent('one'));
          throw new Error('socket hang up');
        }
        return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: body() };
      },
    };
    const url = await start(upstream);
    const res = await startStream(url);
    const text = await readUntil(res, '"error"');
    await readToEnd(res);
    expect(text).toContain('"one"');
    const errorLine = text.split('\n').find((line) => line.includes('"error"'));
    expect(JSON.parse(errorLine!.slice('data: '.length))).toMatchObject({ error: { message: expect.any(String) } });
    expect(reported).toHaveLength(0);
  });

  it('a body that fails after the head cuts the connection and reports the error to the app', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield encoder.encode(chatEvent('one'));
      throw new Error('body broke');
    }
    const dispatch = async (): Promise<GatewayResponse> => ({ type: 'sse', status: 200, headers: { 'content-type': 'text/event-stream' }, body: failing() });
    const url = await start(scriptedUpstream(() => new ScriptedBody()), dispatch);
    const res = await startStream(url);
    const outcome = await new Promise<string>((resolve) => {
      res.once('end', () => resolve('end'));
      res.once('error', () => resolve('error'));
      res.once('aborted', () => resolve('aborted'));
      res.resume();
    });
    expect(outcome).not.toBe('end');
    await vi.waitFor(() => expect(reported.map((error) => error.message)).toContain('body broke'), { timeout: 10_000 });
    expect(reported.find((error) => error.message === 'body broke')?.expose).toBeUndefined();
  });
});
