/**
 * A client that stops reading a stream must stop the gateway reading its
 * upstream, on every mount: what the gateway holds for a slow client is
 * bounded by the socket buffers, not by how fast the upstream can send.
 * The upstream here answers every read at once, so only backpressure from
 * the client's socket can hold it back. When the client reads again, the
 * upstream reads resume; when it leaves, the upstream is stopped and the
 * call's `signal` (which a custom upstream may follow) is aborted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AUTH, KEY } from '../helpers/e2e-fixtures.js';
import { startChatStream } from '../helpers/raw-chat-stream.js';
import { ScriptedBody, scriptedUpstream } from '../helpers/scripted-upstream.js';
import { CLIENT_GONE, MOUNTS, type StartedApp, startApp } from '../helpers/start-app.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const EVENT = `data: {"id":"chatcmpl-b","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"${'x'.repeat(100)}"},"finish_reason":null}]}\n\n`;
/** 16 KiB of whole events per upstream read. */
const CHUNK = new TextEncoder().encode(EVENT.repeat(Math.floor((16 * 1024) / EVENT.length)));
/**
 * Loopback socket buffers on both sides of the client connection, plus the
 * stream buffers of the adapter and the framework, hold a few MiB at most.
 * A relay that ignored backpressure would pass this within a fraction of a
 * second and go on reading.
 */
const BOUND_BYTES = 32 * 1024 * 1024;
/** Where the upstream gives up, so that a relay ignoring backpressure fails the test instead of exhausting the heap. */
const UPSTREAM_BYTES = 2 * BOUND_BYTES;

describe.each(MOUNTS)('a client that stops reading, on %s', (mount) => {
  let app: StartedApp | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('stops the upstream reads within bounded bytes, resumes them when it reads again, and stops the upstream when it leaves', async () => {
    const upstream = scriptedUpstream(() => new ScriptedBody(CHUNK, UPSTREAM_BYTES));
    app = await startApp(mount, { auth: AUTH, routes: [{ match: '*', upstream }] });
    const res = await startChatStream(app.url, KEY);
    res.pause();
    expect(res.statusCode).toBe(200);
    const body = upstream.bodies[0]!;

    const stalledAt = await body.untilStalled();
    await sleep(200);
    // Still not reading: an unpaced relay would be buffering the upstream here.
    expect(body.reads).toBe(stalledAt);
    expect(body.bytesRead).toBeGreaterThan(0);
    expect(body.bytesRead).toBeLessThan(BOUND_BYTES);

    let received = 0;
    res.on('data', (chunk: Buffer) => {
      received += chunk.byteLength;
    });
    res.resume();
    await expect.poll(() => body.reads, { timeout: 10_000 }).toBeGreaterThan(stalledAt + 100);
    expect(received).toBeGreaterThan(0);

    res.pause();
    const stalledAgain = await body.untilStalled();
    // Whatever the client has not read yet sits in the same bounded buffers.
    expect(body.bytesRead - received).toBeLessThan(BOUND_BYTES);
    await sleep(200);
    expect(body.reads).toBe(stalledAgain);

    res.destroy();
    // The relay stops the upstream body (for an HTTP upstream, that closes its connection), and the call's signal fires.
    await expect.poll(() => body.returned, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => upstream.calls[0]?.signal.aborted, { timeout: 10_000 }).toBe(true);
    // Koa reports the reset socket to the app; nothing else may be reported.
    expect(app.appErrors.filter((error) => !CLIENT_GONE.has(error.code))).toEqual([]);
  }, 30_000);
});
