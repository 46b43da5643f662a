/**
 * The core's `GatewayResponse` → a Node response: JSON and bytes in one
 * write, streams chunk by chunk, flushed per chunk, paced by `drain`, and
 * stopped (the relay told to abort its upstream) when the client leaves.
 * Shared by the node:http and Express adapters.
 */
import type { ServerResponse } from 'node:http';
import type { GatewayResponse } from '../src/types.js';

type Flushable = ServerResponse & { flush?: () => void };

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Writes chunks one by one (the relay makes one per upstream read), waiting for `drain` (backpressure) and flushing each (compression middlewares). */
async function writeChunks(res: Flushable, body: AsyncIterable<Uint8Array>): Promise<void> {
  const iterator = body[Symbol.asyncIterator]();
  try {
    while (!res.destroyed) {
      const next = await iterator.next();
      if (next.done) break;
      const drained = res.write(next.value);
      res.flush?.();
      if (!drained) await waitForDrain(res);
    }
  } finally {
    // Stopping early (client gone) tells the relay to abort its upstream.
    if (res.destroyed) await iterator.return?.();
  }
}

/** Writes a `GatewayResponse` to a Node response. Resolves when done; never rejects. */
export async function writeGatewayResponse(res: ServerResponse, response: GatewayResponse): Promise<void> {
  let bodyTaken = false;
  try {
    if (response.type === 'json') {
      const text = JSON.stringify(response.body);
      res.writeHead(response.status, {
        ...response.headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
      return;
    }
    res.writeHead(response.status, response.headers);
    if (response.body instanceof Uint8Array) {
      res.end(response.body);
      return;
    }
    // Send the head now: SSE clients wait for it before reading events.
    res.flushHeaders();
    bodyTaken = true;
    await writeChunks(res, response.body);
    if (!res.destroyed) res.end();
  } catch {
    // The client went away or the body failed after the head was sent: nothing left to tell it.
    if (!res.destroyed) res.destroy();
    // The head could not be written (headers already sent, an invalid value): a stream body never
    // read still holds its upstream (and its telemetry); release it.
    if (!bodyTaken && response.type !== 'json' && !(response.body instanceof Uint8Array)) {
      void Promise.resolve(response.body[Symbol.asyncIterator]().return?.()).catch(() => {});
    }
  }
}
