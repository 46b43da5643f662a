/**
 * `writeGatewayResponse` never leaves a stream body unreleased: when the
 * head cannot be written, the body (the relay holding the upstream) is
 * returned without being read.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { writeGatewayResponse } from '../../adapters/node-response.js';
import type { GatewayResponse } from '../../src/types.js';

function trackedBody(): { body: AsyncIterable<Uint8Array>; released: () => boolean; read: () => number } {
  let released = false;
  let reads = 0;
  const iterator: AsyncIterator<Uint8Array> = {
    next: async () => {
      reads++;
      return { done: false, value: new Uint8Array([1]) };
    },
    return: async () => {
      released = true;
      return { done: true, value: undefined };
    },
  };
  return { body: { [Symbol.asyncIterator]: () => iterator }, released: () => released, read: () => reads };
}

describe('writeGatewayResponse', () => {
  it('releases a stream body it could not start (the head failed to write)', async () => {
    const tracked = trackedBody();
    let destroyed = false;
    const res = {
      get destroyed() {
        return destroyed;
      },
      writeHead() {
        throw new Error('ERR_HTTP_HEADERS_SENT');
      },
      destroy() {
        destroyed = true;
      },
    } as unknown as ServerResponse;
    const response: GatewayResponse = { type: 'sse', status: 200, headers: {}, body: tracked.body };
    await writeGatewayResponse(res, response);
    await new Promise((resolve) => setImmediate(resolve));
    expect(tracked.read()).toBe(0);
    expect(tracked.released()).toBe(true);
    expect(destroyed).toBe(true);
  });
});
