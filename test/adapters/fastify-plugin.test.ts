/**
 * The Fastify plugin's own contract, on Fastify 5 and 4: the usual `prefix`,
 * its body handling kept inside its encapsulated context (the app's own JSON
 * parser neither used by the gateway nor removed from the app's routes),
 * the gateway's limit and 415 in the caller's format, headers the app's
 * hooks set kept on streamed answers, and `decorate: false` for a second gateway.
 */
import fastify5, { type FastifyInstance } from 'fastify';
import fastify4 from 'fastify4';
import { createGateway } from 'modelgate';
import { createFastifyHooks, fastifyGateway } from 'modelgate/fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, KEY, openAIClient } from '../helpers/e2e-fixtures.js';

const LIMIT = 64 * 1024;
const user = [{ role: 'user' as const, content: 'Hello there.' }];

describe.each([
  ['fastify 5', fastify5],
  ['fastify 4', fastify4],
] as const)('fastifyGateway on %s', (_name, fastify) => {
  let url: string;
  let app: FastifyInstance;
  const appBodies: unknown[] = [];

  beforeAll(async () => {
    app = fastify() as unknown as FastifyInstance;
    // The app's own JSON parser, which the gateway must not use: it tags what it parsed.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      done(null, { parsedByApp: JSON.parse(body as string) as unknown });
    });
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('x-app-hook', 'seen');
    });
    app.post('/echo', async (request) => {
      appBodies.push(request.body);
      return { ok: true };
    });
    await app.register(fastifyGateway, { auth: AUTH, maxBodyBytes: LIMIT, prefix: '/ai' });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    await app.modelgate.gateway.close();
  });

  it('serves the official clients under the prefix, and nothing outside it', async () => {
    const message = await anthropicClient(`${url}/ai`).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user });
    expect(message.type).toBe('message');
    const completion = await openAIClient(`${url}/ai`).chat.completions.create({ model: 'gpt-4o-mini', messages: user });
    expect(completion.object).toBe('chat.completion');
    const outside = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } });
    // Fastify's own 404 (not a gateway answer: no request-id).
    expect(outside.status).toBe(404);
    expect(outside.headers.get('request-id')).toBeNull();
  });

  it("reads bodies itself, while the app's parser still serves the app's routes", async () => {
    const completion = await openAIClient(`${url}/ai`).chat.completions.create({ model: 'vendora-haiku-4-5', messages: user });
    expect(completion.choices[0]?.message.content).toContain('Hello there');
    const echo = await fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(echo.status).toBe(200);
    expect(appBodies.at(-1)).toEqual({ parsedByApp: { a: 1 } });
  });

  it('answers a body over the limit with 413 in the caller format, and a missing content type with 415', async () => {
    const big = JSON.stringify({ model: 'vendora-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'x'.repeat(LIMIT) }] });
    const tooLarge = await fetch(`${url}/ai/v1/messages`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: big });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });

    const chatBig = await fetch(`${url}/ai/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: big });
    expect(chatBig.status).toBe(413);
    expect(await chatBig.json()).toMatchObject({ error: { message: expect.stringContaining(String(LIMIT)) } });

    const untyped = await fetch(`${url}/ai/v1/messages`, { method: 'POST', headers: { 'x-api-key': KEY }, body: new Uint8Array(Buffer.from('{"model":"x"}')) });
    expect(untyped.status).toBe(415);
    expect(await untyped.json()).toMatchObject({ type: 'error', error: { message: expect.stringContaining('application/json') } });
  });

  it("keeps headers the app's hooks set, on streamed answers too", async () => {
    const response = await fetch(`${url}/ai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: user }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-app-hook')).toBe('seen');
    expect(response.headers.get('request-id')).toMatch(/\S/);
    expect((await response.text()).trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('accepts a gateway as the options object, like the other adapters', async () => {
    const other = fastify() as unknown as FastifyInstance;
    const gateway = createGateway({ auth: { keys: ['sk-direct'] } });
    await other.register(fastifyGateway, gateway);
    const address = await other.listen({ port: 0, host: '127.0.0.1' });
    try {
      const models = await fetch(`${address}/v1/models`, { headers: { authorization: 'Bearer sk-direct' } });
      expect(models.status).toBe(200);
      expect(other.modelgate.gateway).toBe(gateway);
    } finally {
      await other.close();
      await gateway.close();
    }
  });

  it('registers a second gateway with decorate: false, its hooks from createFastifyHooks', async () => {
    const second = fastify() as unknown as FastifyInstance;
    const gateway = createGateway({ auth: { keys: ['sk-second'] } });
    await second.register(fastifyGateway, { auth: AUTH, prefix: '/one' });
    await second.register(fastifyGateway, { gateway, prefix: '/two', decorate: false });
    const hooks = createFastifyHooks(gateway);
    second.get('/two-models/v1/models', { preHandler: [hooks.authenticate] }, hooks.dispatch);
    const address = await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      const one = await fetch(`${address}/one/v1/models`, { headers: { authorization: `Bearer ${KEY}` } });
      const two = await fetch(`${address}/two/v1/models`, { headers: { authorization: 'Bearer sk-second' } });
      const wrongKey = await fetch(`${address}/two/v1/models`, { headers: { authorization: `Bearer ${KEY}` } });
      const viaHooks = await fetch(`${address}/two-models/v1/models`, { headers: { authorization: 'Bearer sk-second' } });
      expect([one.status, two.status, wrongKey.status, viaHooks.status]).toEqual([200, 200, 401, 200]);
      expect(second.modelgate.gateway).not.toBe(gateway);
    } finally {
      await second.close();
      await second.modelgate.gateway.close();
      await gateway.close();
    }
  });
});
