/** The floor (see floor-work.mjs) in Hono on `@hono/node-server`, set up as bare-hono.mjs is. */
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { Pool } from 'undici';
import { announce } from './announce.mjs';
import { checkRequest, isCompleteAnswer } from './floor-work.mjs';

const pool = new Pool(process.env.STUB, { keepAliveTimeout: 60_000 });
const app = new Hono();
app.all('*', async (c) => {
  const raw = Buffer.from(await c.req.arrayBuffer());
  const url = new URL(c.req.url);
  const checked = checkRequest(url.pathname, (name) => c.req.header(name), raw);
  if (checked.status) return c.body(checked.body, checked.status, { 'content-type': 'application/json' });
  const upstream = await pool.request({
    method: 'POST',
    path: (c.req.header('x-bench-prefix') ?? '') + url.pathname + url.search,
    headers: checked.headers,
    body: raw,
  });
  const bytes = Buffer.from(await upstream.body.arrayBuffer());
  if (!isCompleteAnswer(bytes)) return c.body(null, 502);
  return new Response(bytes, { status: upstream.statusCode, headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) } });
});
const server = createServer({ keepAliveTimeout: 60_000 }, getRequestListener(app.fetch));
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => pool.close());
