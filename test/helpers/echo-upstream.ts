/**
 * An upstream on 127.0.0.1:0 that fails by quoting the request back: its
 * URL, its headers (so the key it was sent) in the error body, the key in a
 * response header. The first path segment picks the failure:
 *
 * - `json`: 400, the format's JSON error (message, type, code and param quote the request)
 * - `detail`: 422, `{"detail": "..."}` (FastAPI style)
 * - `html`: 500, an HTML page quoting the request
 * - `text`: 400, `text/plain` quoting the request
 * - `midstream`: a 200 SSE stream whose first event is data and second an
 *   in-band error event quoting the request (JSON, the format's error shape)
 * - `midstream-text`: the same, with an error event whose data is plain text
 *
 * The rest of the path is the upstream API's (`/v1/chat/completions`, `/v1/messages`).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type EchoMode = 'json' | 'detail' | 'html' | 'text' | 'midstream' | 'midstream-text';

export interface EchoUpstream {
  url: string;
  /** Requests served, by mode. */
  hits: Record<string, number>;
  close(): Promise<void>;
}

function keyOf(req: IncomingMessage): string {
  const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''));
  return bearer?.[1] ?? String(req.headers['x-api-key'] ?? '');
}

function quote(req: IncomingMessage): string {
  return `Request ${req.method} ${req.url} with headers ${JSON.stringify(req.headers)} used key ${keyOf(req)}`;
}

/** Starts the echoing upstream. */
export async function startEchoUpstream(): Promise<EchoUpstream> {
  const hits: Record<string, number> = {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const [, mode = '', ...rest] = (req.url ?? '/').split('?')[0]!.split('/');
      hits[mode] = (hits[mode] ?? 0) + 1;
      const messagesFormat = rest.join('/').endsWith('messages');
      const key = keyOf(req);
      const echoHeaders = { 'x-request-id': `req-for-${key}`, 'retry-after': '1' };
      switch (mode) {
        case 'json': {
          const body = messagesFormat
            ? { type: 'error', error: { type: `invalid_request_error`, message: `Invalid request. ${quote(req)}` } }
            : { error: { message: `Invalid request. ${quote(req)}`, type: 'invalid_request_error', param: `auth:${key}`, code: `bad_key_${key}` } };
          res.writeHead(400, { 'content-type': 'application/json', ...echoHeaders }).end(JSON.stringify(body));
          return;
        }
        case 'detail':
          res.writeHead(422, { 'content-type': 'application/json', ...echoHeaders }).end(JSON.stringify({ detail: `Unprocessable. ${quote(req)}` }));
          return;
        case 'html':
          res.writeHead(500, { 'content-type': 'text/html', ...echoHeaders }).end(`<html><body><h1>Internal error</h1><pre>${quote(req)}</pre></body></html>`);
          return;
        case 'text':
          res.writeHead(400, { 'content-type': 'text/plain', ...echoHeaders }).end(`Bad request: ${quote(req)}`);
          return;
        case 'midstream':
        case 'midstream-text': {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req-stream' });
          const plain = mode === 'midstream-text';
          if (messagesFormat) {
            res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 0 } } })}\n\n`);
            const data = plain ? `upstream exploded: ${quote(req)}` : JSON.stringify({ type: 'error', error: { type: 'api_error', message: `Stream failed. ${quote(req)}` } });
            res.end(`event: error\ndata: ${data}\n\n`);
          } else {
            res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] })}\n\n`);
            const error = plain ? `Stream failed. ${quote(req)}` : { message: `Stream failed. ${quote(req)}`, type: 'server_error', code: `c_${key}` };
            res.end(`data: ${JSON.stringify({ error })}\n\n`);
          }
          return;
        }
        default:
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"echo: unknown mode"}}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
