/**
 * Bare proxy in Koa 3: reads the raw body bytes (no body parser), forwards
 * them with undici, and hands the upstream body stream to `ctx.body`.
 * No validation, no auth.
 */
import { createServer } from 'node:http';
import Koa from 'koa';
import { Pool } from 'undici';
import { announce } from './announce.mjs';
import { readBody } from './read-body.mjs';

const pool = new Pool(process.env.STUB, { keepAliveTimeout: 60_000 });


const app = new Koa();
app.use(async (ctx) => {
  const headers = { 'content-type': 'application/json' };
  for (const name of ['authorization', 'x-api-key', 'anthropic-version']) {
    const value = ctx.get(name);
    if (value) headers[name] = value;
  }
  const upstream = await pool.request({
    method: ctx.method,
    path: ctx.get('x-bench-prefix') + ctx.url,
    headers,
    body: await readBody(ctx.req),
  });
  ctx.status = upstream.statusCode;
  ctx.type = upstream.headers['content-type'];
  if (upstream.headers['content-length']) ctx.length = Number(upstream.headers['content-length']);
  // Koa destroys the body stream when the client leaves; undici then emits an error nobody else listens to.
  upstream.body.on('error', () => {});
  ctx.body = upstream.body;
});
const server = createServer({ keepAliveTimeout: 60_000 }, app.callback());
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => pool.close());
