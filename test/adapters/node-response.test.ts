/**
 * `writeGatewayResponse` never leaves a stream body unreleased: when the
 * head cannot be written, the body (the relay holding the upstream) is
 * returned without being read. A stream's head goes out with its first
 * chunk when that chunk is ready at once, and on its own when it is not.
 */
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { writeGatewayResponse } from '../../adapters/node-response.js';
import type { GatewayResponse } from '../../src/types.js';
import { recordSocketWrites } from '../helpers/socket-writes.js';
import { listen } from '../helpers/start-app.js';

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

/** A node:http server (the suite's `listen`) answering every request with `response()` through `writeGatewayResponse`; `writes` gets each socket's writes. */
async function serve(response: () => GatewayResponse): Promise<{ port: number; writes: string[][]; close: () => Promise<void> }> {
  const writes: string[][] = [];
  const { url, close } = await listen((_req, res) => {
    writes.push(recordSocketWrites(res.socket!));
    void writeGatewayResponse(res, response());
  });
  return { port: Number(new URL(url).port), writes, close };
}

/** Sends one GET over a raw socket; resolves with what it received once the server closes. */
function rawGet(port: number, onData?: (received: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n'));
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => {
      received += text;
      onData?.(received);
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

const sseHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

describe('writeGatewayResponse: the head of a stream', () => {
  it('goes out in the same write as the first chunk when that chunk is ready at once', async () => {
    async function* body(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('data: {"first":true}\n\n');
      await new Promise((resolve) => setTimeout(resolve, 50));
      yield Buffer.from('data: [DONE]\n\n');
    }
    const server = await serve(() => ({ type: 'sse', status: 200, headers: sseHeaders, body: body() }));
    try {
      const received = await rawGet(server.port);
      expect(received).toContain('data: [DONE]');
      const writes = server.writes[0]!;
      expect(writes[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(writes[0]).toContain('data: {"first":true}');
      expect(writes[0]).not.toContain('[DONE]');
    } finally {
      await server.close();
    }
  });

  it('goes out on its own when the first chunk is not ready (a silent upstream never holds the head back)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* body(): AsyncGenerator<Uint8Array> {
      // The first chunk waits until the client has seen the head: without the head on its own, this never ends.
      await gate;
      yield Buffer.from('data: [DONE]\n\n');
    }
    const server = await serve(() => ({ type: 'sse', status: 200, headers: sseHeaders, body: body() }));
    try {
      const received = await rawGet(server.port, (text) => {
        if (text.includes('\r\n\r\n')) release();
      });
      expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(received).toContain('data: [DONE]');
      const writes = server.writes[0]!;
      expect(writes[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(writes[0]).not.toContain('[DONE]');
    } finally {
      await server.close();
    }
  }, 10_000);

  it('goes out with the end of a stream that has no chunk at all', async () => {
    async function* body(): AsyncGenerator<Uint8Array> {}
    const server = await serve(() => ({ type: 'sse', status: 200, headers: sseHeaders, body: body() }));
    try {
      const received = await rawGet(server.port);
      expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(received.toLowerCase()).toContain('content-type: text/event-stream');
    } finally {
      await server.close();
    }
  });

  it('a body that fails right after its first chunk: the client gets the head and the chunk, then the cut', async () => {
    async function* body(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('data: {"first":true}\n\n');
      throw new Error('body broke');
    }
    const server = await serve(() => ({ type: 'sse', status: 200, headers: sseHeaders, body: body() }));
    try {
      const received = await rawGet(server.port);
      expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(received).toContain('data: {"first":true}');
      // No terminating chunk: the connection was cut, so the client cannot take the stream for complete.
      expect(received).not.toContain('\r\n0\r\n\r\n');
    } finally {
      await server.close();
    }
  });
});
