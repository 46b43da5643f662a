/** The floor (see floor-work.mjs) in Fastify 5, set up as bare-fastify.mjs is (raw-body parser). */
import { Pool } from 'undici';
import { announce } from './announce.mjs';
import { rawBodyFastify } from './fastify-app.mjs';
import { checkRequest, isCompleteAnswer } from './floor-work.mjs';

const pool = new Pool(process.env.STUB, { keepAliveTimeout: 60_000 });

const { app, server: httpServer } = rawBodyFastify();
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
const server = httpServer();
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => pool.close());
