/**
 * The core's `GatewayResponse` → a Node response: JSON and bytes in one
 * write, streams chunk by chunk, flushed per chunk, paced by `drain`, and
 * stopped (the relay told to abort its upstream) when the client leaves.
 * A stream's head goes out with its first chunk when that chunk is ready
 * within the turn (the usual case: an upstream sends its first event with
 * its head), else on its own at the end of the turn.
 * Shared by the node:http, Express and Fastify adapters.
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

/** Sends the head of a stream whose first chunk was not ready within the turn (SSE clients wait for it). */
function flushHead(res: ServerResponse): void {
  if (!res.destroyed) res.flushHeaders();
}

/** Cuts the connection (the client must not take a failed stream for a complete one), after what this turn wrote has left. */
function cut(res: ServerResponse): void {
  if (!res.destroyed) res.destroy();
}

/**
 * Writes chunks one by one (the relay makes one per upstream read), waiting
 * for `drain` (backpressure) and flushing each (compression middlewares).
 * The head is sent with the first chunk, or by itself at the end of the turn
 * if that chunk is not ready by then: one socket write (and one wake-up of
 * the client) less per stream, never a head held back while the upstream is
 * silent.
 */
async function writeChunks(res: Flushable, body: AsyncIterable<Uint8Array>): Promise<void> {
  const iterator = body[Symbol.asyncIterator]();
  // Cleared by the first write, which takes the head with it.
  let headTimer: NodeJS.Immediate | undefined = setImmediate(flushHead, res);
  try {
    while (!res.destroyed) {
      const next = await iterator.next();
      if (next.done) break;
      const drained = res.write(next.value);
      if (headTimer !== undefined) {
        clearImmediate(headTimer);
        headTimer = undefined;
      }
      res.flush?.();
      if (!drained) await waitForDrain(res);
    }
  } finally {
    clearImmediate(headTimer);
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
    bodyTaken = true;
    await writeChunks(res, response.body);
    if (!res.destroyed) res.end();
  } catch {
    // The client went away or the body failed after the head was sent: nothing left to tell it.
    // The cut waits for the turn's writes (the head and first chunk may still be corked) to leave.
    if (!res.destroyed) setImmediate(cut, res);
    // The head could not be written (headers already sent, an invalid value): a stream body never
    // read still holds its upstream (and its telemetry); release it.
    if (!bodyTaken && response.type !== 'json' && !(response.body instanceof Uint8Array)) {
      void Promise.resolve(response.body[Symbol.asyncIterator]().return?.()).catch(() => {});
    }
  }
}
