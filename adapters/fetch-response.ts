/**
 * The core's `GatewayResponse` → a Web `Response`. Streams become a
 * `ReadableStream` that pulls the relay one chunk (one event) at a time,
 * only as fast as the server reads it, and tells the relay to abort its
 * upstream when the stream is cancelled (the client left).
 */
import type { GatewayResponse } from '../src/types.js';

/**
 * A byte stream over the relay's chunks: one enqueue per chunk, nothing
 * pulled ahead of the reader. `onCancel` runs first when the reader cancels
 * (the server's sign that the client left), then the relay is stopped.
 */
export function toReadableStream(body: AsyncIterable<Uint8Array>, onCancel?: () => void): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          // The relay reports faults in-band; should the body still fail, the server cuts the response.
          controller.error(error);
        }
      },
      async cancel() {
        onCancel?.();
        await iterator.return?.();
      },
    },
    // Pull only when the server asks: each event is handed over as the relay yields it.
    { highWaterMark: 0 },
  );
}

/** Converts a `GatewayResponse` to a `Response`; `onCancel` as for `toReadableStream`. */
export function toResponse(response: GatewayResponse, onCancel?: () => void): Response {
  const init = { status: response.status, headers: response.headers };
  if (response.type === 'json') {
    return new Response(JSON.stringify(response.body), {
      status: response.status,
      headers: { ...response.headers, 'content-type': 'application/json' },
    });
  }
  if (response.body instanceof Uint8Array) return new Response(response.body, init);
  return new Response(toReadableStream(response.body, onCancel), init);
}
