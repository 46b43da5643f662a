/**
 * The simulator's HTTP face: a `node:http` server on the vendor paths that
 * hands each request to the in-process upstreams, so the official clients
 * (openai with `baseURL: url + '/v1'`, the messages SDK with `baseURL: url`)
 * work against it unchanged.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError } from '../errors.js';
import type { Upstream, UpstreamCall, UpstreamOperation } from '../upstreams/upstream.js';
import { errorResponse } from './face-support.js';
import type { SimulatorServer } from './simulator-options.js';

/** The vendor's request size limit for messages and count_tokens. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

interface Target {
  face: 'chat' | 'messages';
  operation: UpstreamOperation;
  id?: string;
}

/** Maps method and path to a face and operation; `undefined` for unknown routes, a 405 error for a wrong method. */
function matchRoute(method: string, path: string, headers: Record<string, string>): Target | GatewayError | undefined {
  // Messages clients always send `anthropic-version`; chat clients never do (PROTOCOLS C.1).
  const modelsFace = headers['anthropic-version'] ? 'messages' : 'chat';
  const routes: Array<[string, RegExp, Target['face'], UpstreamOperation]> = [
    ['POST', /^\/v1\/chat\/completions$/, 'chat', 'chat.completions'],
    ['POST', /^\/v1\/embeddings$/, 'chat', 'embeddings'],
    ['POST', /^\/v1\/messages$/, 'messages', 'messages'],
    ['POST', /^\/v1\/messages\/count_tokens$/, 'messages', 'messages.count_tokens'],
    ['GET', /^\/v1\/models$/, modelsFace, 'models.list'],
    ['GET', /^\/v1\/models\/([^/]+)$/, modelsFace, 'models.retrieve'],
    ['GET', /^\/v1\/files$/, 'messages', 'files.list'],
    ['GET', /^\/v1\/files\/([^/]+)$/, 'messages', 'files.retrieve'],
    ['GET', /^\/v1\/files\/([^/]+)\/content$/, 'messages', 'files.content'],
    ['DELETE', /^\/v1\/files\/([^/]+)$/, 'messages', 'files.delete'],
  ];
  let pathMatched = false;
  for (const [routeMethod, pattern, face, operation] of routes) {
    const match = pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (routeMethod !== method) continue;
    return match[1] === undefined ? { face, operation } : { face, operation, id: decodeURIComponent(match[1]) };
  }
  return pathMatched ? new GatewayError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed on ${path}.`) : undefined;
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readBody(req: IncomingMessage): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.byteLength;
    if (size > MAX_BODY_BYTES) throw new GatewayError('REQUEST_TOO_LARGE', 'Request exceeds the maximum allowed number of bytes.');
    parts.push(part);
  }
  return Buffer.concat(parts);
}

async function write(res: ServerResponse, response: { status: number; headers: Record<string, string>; body: AsyncIterable<Uint8Array> }): Promise<void> {
  res.writeHead(response.status, response.headers);
  // Send the head now: stream clients wait for it before the first event.
  res.flushHeaders();
  for await (const chunk of response.body) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
  }
  res.end();
}

async function handle(upstreams: { chat: Upstream; messages: Upstream }, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const url = new URL(req.url ?? '/', 'http://simulator.local');
  const headers = flattenHeaders(req);
  const method = (req.method ?? 'GET').toUpperCase();
  const fallbackFormat = headers['anthropic-version'] || url.pathname.startsWith('/v1/messages') ? 'messages' : 'chat';
  try {
    const target = matchRoute(method, url.pathname, headers);
    if (target === undefined) throw new GatewayError('NOT_FOUND', `Not found: ${method} ${url.pathname}`);
    if (target instanceof GatewayError) throw target;
    const query = Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'beta'));
    const call: UpstreamCall = {
      operation: target.operation,
      headers,
      signal: controller.signal,
      ...(target.id !== undefined ? { id: target.id } : {}),
      ...(Object.keys(query).length > 0 ? { query } : {}),
    };
    if (method === 'POST') call.rawBody = await readBody(req);
    await write(res, await upstreams[target.face].send(call));
  } catch (error) {
    if (controller.signal.aborted || res.headersSent) {
      res.destroy();
      return;
    }
    await write(res, errorResponse(fallbackFormat, error, 'req_simulator'));
  }
}

/** Starts the HTTP face on `host` (default 127.0.0.1) and `port` (default 0: any free port). */
export function serveHttp(upstreams: { chat: Upstream; messages: Upstream }, options: { port?: number; host?: string } = {}): Promise<SimulatorServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    void handle(upstreams, req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${port}`,
        port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            // Open keep-alive and streaming connections would hold close() forever.
            server.closeAllConnections();
          }),
      });
    });
  });
}
