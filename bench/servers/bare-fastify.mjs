/**
 * Bare proxy in Fastify 5: the body's bytes kept as a Buffer by a catch-all
 * content-type parser (no JSON parse), forwarded with undici; the upstream
 * body stream handed to `reply.send`. No validation, no auth.
 */
import { Pool } from 'undici';
import { announce } from './announce.mjs';
import { rawBodyFastify } from './fastify-app.mjs';

const pool = new Pool(process.env.STUB, { keepAliveTimeout: 60_000 });

const { app, server: httpServer } = rawBodyFastify();
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
const server = httpServer();
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => pool.close());
