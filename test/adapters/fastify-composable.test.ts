/**
 * The composable Fastify form, on Fastify 5 and 4: the gateway's steps as
 * `preHandler` hooks with the app's own hook between them (reading the
 * principal through `context(request)`), `authenticateWith` using the app's
 * own users, and step pipelines at paths of the app's own choosing
 * (`steps(endpoint)`). These routes are the app's, so Fastify's own JSON
 * parser has read their bodies: the gateway takes the parsed body.
 */
import fastify5, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastify4 from 'fastify4';
import { fastifyGateway } from 'modelgate/fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { customPathCases } from '../helpers/custom-path-cases.js';
import { anthropicClient, AUTH, LIMITED_KEY, openAIClient } from '../helpers/e2e-fixtures.js';

const user = [{ role: 'user' as const, content: 'Hello there.' }];

describe.each([
  ['fastify 5', fastify5],
  ['fastify 4', fastify4],
] as const)('composed gateway on %s', (_name, fastify) => {
  let url: string;
  let app: FastifyInstance;
  const seen: string[] = [];

  beforeAll(async () => {
    app = fastify() as unknown as FastifyInstance;
    await app.register(fastifyGateway, { auth: AUTH, prefix: '/llm' });
    const mg = app.modelgate;
    const principalId = (request: FastifyRequest) => mg.context(request)?.principal?.id ?? 'none';
    // The app's own step between the gateway's: it reads the principal and may stop the request.
    const quota = async (request: FastifyRequest, reply: FastifyReply) => {
      const id = principalId(request);
      seen.push(id);
      if (id === 'limited') return reply.code(429).send({ type: 'error', error: { type: 'rate_limit_error', message: 'Monthly quota used up.' } });
      reply.header('x-app-principal', id);
      return undefined;
    };
    app.post('/v1/messages', { preHandler: [mg.authenticate, quota, mg.validate, mg.enforceRules] }, mg.dispatch);
    app.post(
      '/v1/chat/completions',
      { preHandler: [mg.authenticateWith((request) => (request.headers['x-app-user'] ? { id: `user:${String(request.headers['x-app-user'])}` } : null))] },
      mg.chatCompletions,
    );
    const note = async (request: FastifyRequest) => {
      seen.push(principalId(request));
    };
    const chat = mg.steps('chat.completions');
    app.post('/ai/chat', { preHandler: [chat.authenticate, note, chat.validate, chat.enforceRules] }, chat.dispatch);
    const messages = mg.steps('messages');
    app.post('/ai/claude', { preHandler: [messages.authenticate, note] }, messages.dispatch);
    app.post('/ai/count', mg.steps('messages.count_tokens').dispatch);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    await app.modelgate.gateway.close();
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it('runs the app hook between authenticate and validate, with the principal', async () => {
    const { data, response } = await anthropicClient(url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user }).withResponse();
    expect(data.stop_reason).toBe('end_turn');
    expect(response.headers.get('x-app-principal')).toMatch(/^key_[0-9a-f]{24}$/);
    expect(seen).toEqual([response.headers.get('x-app-principal')]);
  });

  it('streams through the composed route', async () => {
    const stream = anthropicClient(url).messages.stream({ model: 'vendora-haiku-4-5', max_tokens: 64, messages: user });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('end_turn');
    expect(seen).toHaveLength(1);
  });

  it("lets the app's hook stop the request", async () => {
    const error = await anthropicClient(url, LIMITED_KEY)
      .messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user }, { maxRetries: 0 })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 429 });
    expect(seen).toEqual(['limited']);
  });

  it("authenticateWith takes the app's user, and falls back to gateway keys", async () => {
    const asUser = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-user': 'ada' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: user }),
    });
    expect(asUser.status).toBe(200);
    const viaKey = await openAIClient(url).chat.completions.create({ model: 'gpt-4o-mini', messages: user });
    expect(viaKey.object).toBe('chat.completion');
    const neither = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: user }),
    });
    expect(neither.status).toBe(401);
    expect(await neither.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
  });

  it('still serves the whole gateway under its prefix', async () => {
    const models = await openAIClient(`${url}/llm`).models.list();
    expect(models.data.length).toBeGreaterThan(0);
  });

  customPathCases(() => url, seen);
});
