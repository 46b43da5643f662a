/**
 * Bare proxy in Hono on Node (`@hono/node-server`): the body's bytes
 * (`arrayBuffer()`), forwarded with undici; the upstream body handed back as
 * a web stream (pulled chunk by chunk) in a `Response`. No validation, no
 * auth. (`Readable.toWeb` is not used: on Node 20 it throws "Controller is
 * already closed" when a client leaves, killing the process.)
 */
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { Pool } from 'undici';
import { announce } from './announce.mjs';

const pool = new Pool(process.env.STUB, { keepAliveTimeout: 60_000 });
const app = new Hono();
app.all('*', async (c) => {
  const headers = { 'content-type': 'application/json' };
  for (const name of ['authorization', 'x-api-key', 'anthropic-version']) {
    const value = c.req.header(name);
    if (value) headers[name] = value;
  }
  const url = new URL(c.req.url);
  const upstream = await pool.request({
    method: c.req.method,
    path: (c.req.header('x-bench-prefix') ?? '') + url.pathname + url.search,
    headers,
    body: Buffer.from(await c.req.arrayBuffer()),
  });
  const responseHeaders = { 'content-type': upstream.headers['content-type'] };
  if (upstream.headers['content-length']) responseHeaders['content-length'] = upstream.headers['content-length'];
  upstream.body.on('error', () => {});
  const chunks = upstream.body[Symbol.asyncIterator]();
  const body = new ReadableStream(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: () => upstream.body.destroy(),
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: upstream.statusCode, headers: responseHeaders });
});
const server = createServer({ keepAliveTimeout: 60_000 }, getRequestListener(app.fetch));
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => pool.close());
