/**
 * A scripted upstream on 127.0.0.1:0 (node:http): records every request and
 * answers from a script of replies (JSON, SSE with delays, cuts, hangs,
 * resets), and records when each response's connection closed, so tests
 * can assert on the upstream's side what the gateway did.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/** A request the stub received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** `performance.now()` when the response's connection closed (set later). */
  closedAt?: number;
  /** True when the stub finished its answer before the connection closed. */
  completed?: boolean;
}

/** One SSE event to send: a raw string is written as is. */
export type StubEvent = string | { event?: string; data: string; id?: string; delayMs?: number };

export type StubReply =
  | { kind: 'json'; status?: number; headers?: Record<string, string>; body: unknown; delayMs?: number }
  | {
      kind: 'sse';
      status?: number;
      headers?: Record<string, string>;
      events: readonly StubEvent[];
      /** Wait before the response head. */
      delayMs?: number;
      /** After the events: end cleanly (default), destroy the socket, or go silent. */
      then?: 'end' | 'cut' | 'hang';
    }
  | { kind: 'text'; status?: number; headers?: Record<string, string>; body: string }
  /** Never answer. */
  | { kind: 'hang' }
  /** Destroy the connection without answering. */
  | { kind: 'reset' }
  | { kind: 'handler'; handle: (req: IncomingMessage, res: ServerResponse) => void | Promise<void> };

export interface StubUpstream {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** TCP connections accepted so far (keep-alive reuse keeps this low). */
  readonly connections: number;
  /** Connections currently open. */
  readonly openConnections: number;
  /** Resolves with `performance.now()` when request `index` (default: the latest) closes its connection. */
  closed(index?: number): Promise<number>;
  /** Closes the server and destroys every open connection. */
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function encodeEvent(event: StubEvent): string {
  if (typeof event === 'string') return event;
  let out = event.event === undefined ? '' : `event: ${event.event}\n`;
  if (event.id !== undefined) out += `id: ${event.id}\n`;
  return `${out}data: ${event.data}\n\n`;
}

/** Writes respecting backpressure; false once the client has gone. */
export async function writeChunk(res: ServerResponse, chunk: string | Uint8Array): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(chunk)) {
    // The listener that loses the race is removed, so long streams do not pile up listeners.
    const done = new AbortController();
    try {
      await Promise.race([once(res, 'drain', { signal: done.signal }), once(res, 'close', { signal: done.signal })]);
    } finally {
      done.abort();
    }
  }
  return !res.destroyed;
}

async function answer(reply: StubReply, req: IncomingMessage, res: ServerResponse): Promise<void> {
  switch (reply.kind) {
    case 'json':
      if (reply.delayMs) await sleep(reply.delayMs);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
      return;
    case 'text':
      res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body);
      return;
    case 'sse': {
      if (reply.delayMs) await sleep(reply.delayMs);
      res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', ...reply.headers });
      res.flushHeaders();
      for (const event of reply.events) {
        if (typeof event !== 'string' && event.delayMs) await sleep(event.delayMs);
        if (!(await writeChunk(res, encodeEvent(event)))) return;
      }
      // destroySoon: the events already written still go out, then the connection drops mid-response.
      if (reply.then === 'cut') res.socket?.destroySoon();
      else if (reply.then !== 'hang') res.end();
      return;
    }
    case 'hang':
      return;
    case 'reset':
      req.socket.destroy();
      return;
    case 'handler':
      await reply.handle(req, res);
      return;
  }
}

/**
 * Starts a stub. `script` is a list of replies used in order (the last one
 * repeats) or a function of the request and its index.
 */
export async function startStubUpstream(
  script: readonly StubReply[] | ((request: RecordedRequest, index: number) => StubReply),
): Promise<StubUpstream> {
  const requests: RecordedRequest[] = [];
  const closeWaiters = new Map<number, Array<(at: number) => void>>();
  const sockets = new Set<Socket>();
  let connections = 0;

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const index = requests.length;
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(recorded);
    res.on('close', () => {
      recorded.closedAt = performance.now();
      recorded.completed = res.writableFinished;
      for (const resolve of closeWaiters.get(index) ?? []) resolve(recorded.closedAt);
    });
    const reply = typeof script === 'function' ? script(recorded, index) : (script[Math.min(index, script.length - 1)] as StubReply);
    try {
      await answer(reply, req, res);
    } catch {
      res.destroy();
    }
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return connections;
    },
    get openConnections() {
      return sockets.size;
    },
    closed(index = requests.length - 1) {
      const request = requests[index];
      if (request?.closedAt !== undefined) return Promise.resolve(request.closedAt);
      return new Promise((resolve) => {
        const list = closeWaiters.get(index) ?? [];
        list.push(resolve);
        closeWaiters.set(index, list);
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
