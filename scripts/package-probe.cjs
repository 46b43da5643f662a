/**
 * Run inside a fresh app that installed the package (see check-package.mjs):
 * loads every subpath with `require()` (argv[2] === 'cjs') or `import()` and
 * checks its main export; then (unless `--imports-only`) mounts
 * `modelgate/fastify` and `modelgate/fetch` in a real Fastify / Hono (on
 * @hono/node-server) app beside a route of the app's own, and makes a plain
 * and a streamed call to the embedded simulator through each.
 * Prints one JSON line with what it saw; exits 1 on a failed check.
 */
const assert = require('node:assert/strict');

const KEY = 'sk-probe';
const load = process.argv[2] === 'cjs' ? async (name) => require(name) : (name) => import(name);

/** Each subpath and a function it exports. */
const SUBPATHS = {
  modelgate: 'createGateway',
  'modelgate/express': 'expressGateway',
  'modelgate/koa': 'koaGateway',
  'modelgate/fastify': 'fastifyGateway',
  'modelgate/fetch': 'createFetchHandler',
  'modelgate/node': 'createNodeHandler',
  'modelgate/testing': 'createSimulator',
};

/** Loads every subpath; returns how many. */
async function loadEvery() {
  for (const [subpath, name] of Object.entries(SUBPATHS)) {
    const module = await load(subpath);
    assert.equal(typeof module[name], 'function', `${subpath} should export ${name}`);
  }
  return Object.keys(SUBPATHS).length;
}

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
  const subpaths = await loadEvery();
  if (process.argv.includes('--imports-only')) {
    process.stdout.write(`${JSON.stringify({ format: process.argv[2], subpaths })}\n`);
    return;
  }
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

  process.stdout.write(`${JSON.stringify({ format: process.argv[2], subpaths, fastify: fastifyResult, hono: honoResult })}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
