/**
 * Run inside a fresh app that installed the packed tarball (see
 * check-package.mjs): loads `modelgate/fastify` and `modelgate/fetch` with
 * `require()` (argv[2] === 'cjs') or `import()`, mounts each in a real
 * Fastify / Hono (on @hono/node-server) app beside a route of the app's own,
 * and makes a plain and a streamed call to the embedded simulator through each.
 * Prints one JSON line with what it saw; exits 1 on a failed check.
 */
const assert = require('node:assert/strict');

const KEY = 'sk-probe';
const load = process.argv[2] === 'cjs' ? async (name) => require(name) : (name) => import(name);

async function call(base, path, body) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

async function exercise(base) {
  const plain = await call(base, '/v1/messages', { model: 'vendora-sonnet-4-6', max_tokens: 32, messages: [{ role: 'user', content: 'Hi' }] });
  assert.equal(plain.status, 200, plain.text);
  assert.equal(JSON.parse(plain.text).type, 'message');
  const streamed = await call(base, '/v1/chat/completions', { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
  assert.equal(streamed.status, 200, streamed.text);
  assert.match(streamed.type ?? '', /^text\/event-stream/);
  assert.match(streamed.text, /data: \[DONE\]/);
  const own = await fetch(`${base}/health`);
  assert.deepEqual(await own.json(), { status: 'ok' });
  return { plain: plain.status, streamed: streamed.status, own: own.status };
}

async function main() {
  const { fastifyGateway } = await load('modelgate/fastify');
  const { createFetchHandler } = await load('modelgate/fetch');
  const fastifyModule = await load('fastify');
  const Fastify = fastifyModule.default ?? fastifyModule;
  const { Hono } = await load('hono');
  const { serve } = await load('@hono/node-server');

  const fastify = Fastify();
  fastify.get('/health', async () => ({ status: 'ok' }));
  await fastify.register(fastifyGateway, { auth: { keys: [KEY] } });
  const fastifyUrl = await fastify.listen({ port: 0, host: '127.0.0.1' });
  const fastifyResult = await exercise(fastifyUrl);
  assert.equal(typeof fastify.modelgate.authenticate, 'function');
  await fastify.close();

  const hono = new Hono();
  hono.get('/health', (c) => c.json({ status: 'ok' }));
  const handler = createFetchHandler({ auth: { keys: [KEY] } });
  hono.all('/v1/*', (c) => handler(c.req.raw));
  const server = await new Promise((resolve) => {
    const started = serve({ fetch: hono.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  const honoResult = await exercise(`http://127.0.0.1:${server.address().port}`);
  server.close();
  await handler.gateway.close();

  process.stdout.write(`${JSON.stringify({ format: process.argv[2], fastify: fastifyResult, hono: honoResult })}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
