/** The floor (see floor-work.mjs) in Fastify 5, set up as bare-fastify.mjs is (raw-body parser). */
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { announce } from './announce.mjs';
import { checkRequest, isCompleteAnswer } from './floor-work.mjs';

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
  const checked = checkRequest(request.url.split('?', 1)[0], (name) => request.headers[name], request.body);
  if (checked.status) return reply.code(checked.status).type('application/json').send(checked.body);
  const prefix = request.headers['x-bench-prefix'] ?? '';
  const upstream = await pool.request({ method: 'POST', path: prefix + request.url, headers: checked.headers, body: request.body });
  const bytes = Buffer.from(await upstream.body.arrayBuffer());
  if (!isCompleteAnswer(bytes)) return reply.code(502).send();
  reply.code(upstream.statusCode).header('content-type', 'application/json').header('content-length', bytes.length);
  return reply.send(bytes);
});
await app.ready();
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => pool.close());
