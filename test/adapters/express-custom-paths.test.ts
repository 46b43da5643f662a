/**
 * Step pipelines at paths of the app's own choosing (`mg.steps(endpoint)`):
 * the steps present the endpoint's canonical path to the core, so
 * authentication, validation, rules and the call behave as on `/v1/...`,
 * on Express 4 and 5, with and without `express.json()`.
 */
import type { Server } from 'node:http';
import express5, { type NextFunction, type Request, type Response } from 'express';
import express4 from 'express4';
import type { GatewayContext } from 'modelgate';
import { expressGateway } from 'modelgate/express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, KEY } from '../helpers/e2e-fixtures.js';
import { listen } from '../helpers/start-app.js';

const user = [{ role: 'user', content: 'Hello there.' }];

describe.each([
  ['express 5', express5, false],
  ['express 4', express4, false],
  ['express 5 + express.json()', express5, true],
  ['express 4 + express.json()', express4, true],
] as const)('steps at custom paths on %s', (_name, express, parseJson) => {
  let server: { url: string; server: Server; close(): Promise<void> };
  const seen: string[] = [];

  beforeAll(async () => {
    const mg = expressGateway({ auth: AUTH });
    const app = express();
    if (parseJson) app.use(express.json({ limit: '50mb' }));
    const note = (_req: Request, res: Response, next: NextFunction) => {
      seen.push((res.locals.modelgate as GatewayContext).principal?.id ?? 'none');
      next();
    };
    const chat = mg.steps('chat.completions');
    app.post('/ai/chat', chat.authenticate, note, chat.validate, chat.enforceRules, chat.dispatch);
    const messages = mg.steps('messages');
    app.post('/ai/claude', messages.authenticate, note, messages.dispatch);
    app.post('/ai/count', mg.steps('messages.count_tokens').dispatch);
    server = await listen(app as never);
  });
  afterAll(async () => {
    await server.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('chat: the whole pipeline answers like /v1/chat/completions, with the app step in between', async () => {
    seen.length = 0;
    const response = await post('/ai/chat', { model: 'vendora-sonnet-4-6', messages: user }, { authorization: `Bearer ${KEY}` });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { object: string; model: string; choices: Array<{ finish_reason: string }> };
    expect(body).toMatchObject({ object: 'chat.completion', model: 'vendora-sonnet-4-6' });
    expect(body.choices[0]?.finish_reason).toBe('stop');
    expect(seen).toEqual([expect.stringMatching(/^key_/)]);
  });

  it('chat: streams, and its errors are in the chat format', async () => {
    const streamed = await post('/ai/chat', { model: 'gpt-4o', stream: true, messages: user }, { authorization: `Bearer ${KEY}` });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await streamed.text()).trimEnd().endsWith('data: [DONE]')).toBe(true);

    const unauthenticated = await post('/ai/chat', { model: 'gpt-4o', messages: user });
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_api_key' } });

    const ruled = await post('/ai/chat', { model: 'vendora-opus-4-7', temperature: 0.5, messages: user }, { authorization: `Bearer ${KEY}` });
    expect(ruled.status).toBe(400);
    expect(await ruled.json()).toMatchObject({ error: { param: 'temperature' } });
  });

  it('messages and count_tokens: answered in the vendor format', async () => {
    const headers = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
    const message = await post('/ai/claude', { model: 'vendora-haiku-4-5', max_tokens: 32, messages: user }, headers);
    expect(message.status).toBe(200);
    expect(await message.json()).toMatchObject({ type: 'message', model: 'vendora-haiku-4-5' });

    const invalid = await post('/ai/claude', { model: 'vendora-haiku-4-5', messages: user }, headers);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') } });

    const counted = await post('/ai/count', { model: 'vendora-haiku-4-5', messages: user }, headers);
    expect(counted.status).toBe(200);
    expect(((await counted.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
  });

  it('gives each endpoint one bound step set', () => {
    const mg = expressGateway({ auth: AUTH });
    expect(mg.steps('messages')).toBe(mg.steps('messages'));
    expect(mg.steps('messages')).not.toBe(mg.steps('chat.completions'));
  });
});
