/**
 * A gateway without `routes` answers every model id from its embedded
 * simulator: every such answer says so (`x-modelgate-simulated: true`),
 * streamed or not, on both interfaces, through the official clients over
 * HTTP; a mistyped catalog id also gets `x-modelgate-did-you-mean`; and a
 * simulated answer served while NODE_ENV is production is warned about once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, type GatewayLogger, type Upstream } from 'modelgate';
import { MOUNTS, startApp, type StartedApp } from '../helpers/start-app.js';
import { AUTH, anthropicClient, failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';

const ask = [{ role: 'user' as const, content: 'Hi' }];

describe('answers of the embedded simulator', () => {
  let app: StartedApp;

  beforeAll(async () => {
    app = await startApp('express5', { auth: AUTH });
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([false, true])('chat completions (stream: %s) carry x-modelgate-simulated: true', async (stream) => {
    const { response } = await openAIClient(app.url).chat.completions.create({ model: 'gpt-4o', messages: ask, stream }).withResponse();
    expect(response.headers.get('x-modelgate-simulated')).toBe('true');
    expect(response.headers.has('x-modelgate-did-you-mean')).toBe(false);
  });

  it.each([false, true])('chat completions for a catalog model (stream: %s, translated from the messages face) carry it too', async (stream) => {
    const { response } = await openAIClient(app.url).chat.completions.create({ model: 'vendora-opus-4-8', messages: ask, stream }).withResponse();
    expect(response.headers.get('x-modelgate-simulated')).toBe('true');
  });

  it.each([false, true])('messages (stream: %s) carry it', async (stream) => {
    const { response } = await anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: ask, stream }).withResponse();
    expect(response.headers.get('x-modelgate-simulated')).toBe('true');
    expect(response.headers.has('x-modelgate-did-you-mean')).toBe(false);
  });

  it('token counts carry it', async () => {
    const { response } = await anthropicClient(app.url).messages.countTokens({ model: 'vendora-sonnet-4-6', messages: ask }).withResponse();
    expect(response.headers.get('x-modelgate-simulated')).toBe('true');
  });

  it('an error the simulator answers (an injected fault) carries it; one the gateway answers itself (validation) does not', async () => {
    const fault = (await failure(() =>
      openAIClient(app.url).chat.completions.create({ model: 'gpt-4o', messages: ask }, { headers: { 'x-simulator-fault': 'status=529' } }),
    )) as { status: number; headers: Headers };
    expect(fault.status).toBe(529);
    expect(fault.headers.get('x-modelgate-simulated')).toBe('true');
    const invalid = (await failure(() => anthropicClient(app.url).messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 0, messages: ask }))) as { status: number; headers: Headers };
    expect(invalid.status).toBe(400);
    expect(invalid.headers.has('x-modelgate-simulated')).toBe(false);
  });

  it.each([
    ['vendora-sonet-4-6', 'vendora-sonnet-4-6'],
    ['vendora-sonnet-4-7', 'vendora-sonnet-4-5, vendora-sonnet-4-6'],
    ['vendora-sonnet', 'vendora-sonnet-5'],
    ['vendora-snonet-4-6', 'vendora-sonnet-4-6'],
    ['Vendora-Haiku-4-5', 'vendora-haiku-4-5'],
    ['vendora-opus-4-9', 'vendora-opus-4-6, vendora-opus-4-7, vendora-opus-4-8'],
  ])('a mistyped id (%s) is answered with x-modelgate-did-you-mean: %s', async (model, hint) => {
    for (const stream of [false, true]) {
      const { response } = await openAIClient(app.url).chat.completions.create({ model, messages: ask, stream }).withResponse();
      expect(response.headers.get('x-modelgate-simulated')).toBe('true');
      expect(response.headers.get('x-modelgate-did-you-mean')).toBe(hint);
    }
  });

  it.each(['vendora-sonnet-4-5', 'vendora-sonnet-4-6', 'gpt-4o', 'vendora-mistral-7b', 'sonnet-4-6'])('an exact catalog id or a far one (%s) gets no hint', async (model) => {
    const { response } = await openAIClient(app.url).chat.completions.create({ model, messages: ask }).withResponse();
    expect(response.headers.get('x-modelgate-simulated')).toBe('true');
    expect(response.headers.has('x-modelgate-did-you-mean')).toBe(false);
  });
});

describe.each(MOUNTS)('the mark reaches the client on %s', (mount) => {
  it('on a streamed messages answer and a chat answer with a hint', async () => {
    const app = await startApp(mount, { auth: AUTH });
    try {
      const streamed = await anthropicClient(app.url).messages.create({ model: 'vendora-haiku-4-5', max_tokens: 64, messages: ask, stream: true }).withResponse();
      expect(streamed.response.headers.get('x-modelgate-simulated')).toBe('true');
      const chat = await openAIClient(app.url).chat.completions.create({ model: 'vendora-haiku-4-6', messages: ask }).withResponse();
      expect(chat.response.headers.get('x-modelgate-simulated')).toBe('true');
      expect(chat.response.headers.get('x-modelgate-did-you-mean')).toBe('vendora-haiku-4-5');
    } finally {
      await app.close();
    }
  });
});

/** An upstream that is not the simulator: one fixed completion. */
const fixedUpstream: Upstream = {
  name: 'fixed',
  format: 'chat',
  async send() {
    const body = JSON.stringify({
      id: 'chatcmpl-fixed', object: 'chat.completion', created: 1, model: 'vendora-sonet-4-6',
      choices: [{ index: 0, message: { role: 'assistant', content: 'real' }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
    return { status: 200, headers: { 'content-type': 'application/json' }, body: (async function* () { yield new TextEncoder().encode(body); })() };
  },
};

describe('answers of a configured upstream', () => {
  it('carry neither mark, whatever the model id', async () => {
    const app = await startApp('node', { auth: AUTH, routes: [{ match: '*', upstream: fixedUpstream }] });
    try {
      const { response } = await openAIClient(app.url).chat.completions.create({ model: 'vendora-sonet-4-6', messages: ask }).withResponse();
      expect(response.headers.has('x-modelgate-simulated')).toBe(false);
      expect(response.headers.has('x-modelgate-did-you-mean')).toBe(false);
    } finally {
      await app.close();
    }
  });
});

describe('a simulated answer in production', () => {
  const chat = (gateway: ReturnType<typeof createGateway>, model = 'gpt-4o') =>
    gateway.handle({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: { model, messages: ask },
      signal: new AbortController().signal,
    });
  const messages = (gateway: ReturnType<typeof createGateway>) =>
    gateway.handle({
      method: 'POST',
      url: '/v1/messages',
      headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: { model: 'vendora-haiku-4-5', max_tokens: 64, messages: ask, stream: true },
      signal: new AbortController().signal,
    });

  function recordingLogger() {
    const warnings: Array<{ object: Record<string, unknown>; message: string | undefined }> = [];
    const logger: GatewayLogger = {
      info: () => {},
      debug: () => {},
      error: () => {},
      warn: (object, message) => warnings.push({ object, message }),
      child: () => logger,
    };
    return { logger, warnings };
  }

  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('is warned about once through the gateway\'s logger, saying what to configure', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const { logger, warnings } = recordingLogger();
    const gateway = createGateway({ auth: AUTH, logger });
    await chat(gateway);
    await messages(gateway);
    await chat(gateway, 'vendora-sonnet-4-6');
    const simulated = warnings.filter((warning) => warning.message?.includes('simulator'));
    expect(simulated).toHaveLength(1);
    expect(simulated[0]?.object).toMatchObject({ component: 'modelgate' });
    expect(simulated[0]?.message).toMatch(/NODE_ENV is production.*Configure `routes` with real upstreams.*x-modelgate-simulated: true/);
    await gateway.close();
  });

  it('is warned about once on stderr when the gateway has no logger', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const gateway = createGateway({ auth: AUTH });
    await messages(gateway);
    await chat(gateway);
    vi.restoreAllMocks();
    expect(written.filter((line) => line.includes('simulator'))).toEqual([expect.stringMatching(/^modelgate: NODE_ENV is production.*\n$/)]);
    await gateway.close();
  });

  it('each gateway warns for itself', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const first = recordingLogger();
    const second = recordingLogger();
    await chat(createGateway({ auth: AUTH, logger: first.logger }));
    await chat(createGateway({ auth: AUTH, logger: second.logger }));
    expect(first.warnings).toHaveLength(1);
    expect(second.warnings).toHaveLength(1);
  });

  it.each(['development', 'test', ''])('is not warned about when NODE_ENV is %j, through the logger or on stderr', async (env) => {
    vi.stubEnv('NODE_ENV', env);
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const { logger, warnings } = recordingLogger();
    const response = await chat(createGateway({ auth: AUTH, logger }));
    await chat(createGateway({ auth: AUTH }));
    vi.restoreAllMocks();
    expect(response.headers['x-modelgate-simulated']).toBe('true');
    expect(warnings).toEqual([]);
    expect(written.filter((line) => line.includes('simulator'))).toEqual([]);
  });

  it('a gateway with routes to real upstreams never warns', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const { logger, warnings } = recordingLogger();
    const gateway = createGateway({ auth: AUTH, logger, routes: [{ match: '*', upstream: fixedUpstream }] });
    const response = await chat(gateway);
    expect(response.status).toBe(200);
    expect(warnings).toEqual([]);
  });
});
