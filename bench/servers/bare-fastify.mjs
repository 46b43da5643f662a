/**
 * Bare proxy in Fastify 5: the body's bytes kept as a Buffer by a catch-all
 * content-type parser (no JSON parse), forwarded with undici; the upstream
 * body stream handed to `reply.send`. No validation, no auth.
 */
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { announce } from './announce.mjs';

const pool = new Pool(process.env.STUB, { keepAliveTimeout: 60_000 });

let server;
const app = Fastify({
  bodyLimit: 50 * 1024 * 1024,
  serverFactory: (handler) => {
    server = createServer({ keepAliveTimeout: 60_000 }, handler);
    return server;
  },
});
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
app.all('/*', async (request, reply) => {
  const headers = { 'content-type': 'application/json' };
  for (const name of ['authorization', 'x-api-key', 'anthropic-version']) {
    const value = request.headers[name];
    if (value) headers[name] = value;
  }
  const upstream = await pool.request({
    method: request.method,
    path: (request.headers['x-bench-prefix'] ?? '') + request.url,
    headers,
    body: request.body,
  });
  reply.code(upstream.statusCode).header('content-type', upstream.headers['content-type']);
  if (upstream.headers['content-length']) reply.header('content-length', upstream.headers['content-length']);
  upstream.body.on('error', () => {});
  return reply.send(upstream.body);
});
await app.ready();
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => pool.close());
