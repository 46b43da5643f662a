/**
 * When a request's telemetry ends in the two cases the gateway does not
 * answer plainly: a client that leaves a stream relayed with
 * `onClientAbort: 'drain'` (the rest is read and counted: the counted usage
 * reaches the spans, metrics and log line), and an app that answers itself
 * between composable steps (the request span and log line still end, with
 * the app's status), on Express, Koa and Fastify.
 */
import type { Server } from 'node:http';
import { SpanKind } from '@opentelemetry/api';
import { bodyParser } from '@koa/bodyparser';
import express, { type NextFunction, type Request, type Response } from 'express';
import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { fastifyGateway } from 'modelgate/fastify';
import { type GatewayLogger, openAICompatible } from 'modelgate';
import { expressGateway } from 'modelgate/express';
import { koaGateway } from 'modelgate/koa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { listen } from '../helpers/start-app.js';
import { startStubUpstream, type StubUpstream } from '../helpers/stub-upstream.js';
import { createTelemetry, eventually, histogramPoints } from '../helpers/telemetry.js';

const user = [{ role: 'user' as const, content: 'Count the gulls on the pier.' }];
/** The usage the stub's stream ends with (the chat format's final usage chunk). */
const USAGE = { prompt_tokens: 13, completion_tokens: 6, total_tokens: 19 };

interface Line {
  level: string;
  object: Record<string, unknown>;
  message: string | undefined;
}

function memoryLogger(lines: Line[]): GatewayLogger {
  const at = (level: string) => (object: Record<string, unknown>, message?: string) => {
    lines.push({ level, object, message });
  };
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug'), child: () => memoryLogger(lines) };
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({ id: 'chatcmpl-drain', object: 'chat.completion.chunk', created: 1, model: 'drain-model', choices: [{ index: 0, delta, finish_reason: finish }] });

const telemetry = createTelemetry();
const lines: Line[] = [];
let stub: StubUpstream;

beforeAll(async () => {
  // A stream slow enough that the client has left long before its end (and its usage).
  stub = await startStubUpstream(() => ({
    kind: 'sse',
    events: [
      { data: chunk({ role: 'assistant', content: 'One' }) },
      { data: chunk({ content: ' gull' }), delayMs: 150 },
      { data: chunk({ content: ', two.' }), delayMs: 150 },
      { data: chunk({}, 'stop'), delayMs: 50 },
      { data: JSON.stringify({ id: 'chatcmpl-drain', object: 'chat.completion.chunk', created: 1, model: 'drain-model', choices: [], usage: USAGE }) },
      { data: '[DONE]' },
    ],
  }));
});
afterAll(async () => {
  await stub.close();
});
beforeEach(() => {
  telemetry.reset();
  lines.length = 0;
});

const requestLines = () => lines.filter((line) => line.message === 'modelgate request');
const clientSpans = () => telemetry.spans().filter((span) => span.kind === SpanKind.CLIENT);
const requestSpans = () => telemetry.spans().filter((span) => span.kind !== SpanKind.CLIENT);

const options = () => ({
  auth: AUTH,
  routes: [{ match: 'drain-model', upstream: openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-upstream-drain-0000', name: 'stub' }), onClientAbort: 'drain' as const }],
  openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
  logger: memoryLogger(lines),
});

describe('a client that leaves a stream relayed in drain mode', () => {
  let server: { url: string; server: Server; close(): Promise<void> };
  beforeAll(async () => {
    const app = express();
    app.use(expressGateway(options()));
    server = await listen(app);
  });
  afterAll(async () => {
    await server.close();
  });

  it('its usage, read after it left, is on the upstream span, the token metric and the log line', async () => {
    const abort = new AbortController();
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'drain-model', messages: user, stream: true }),
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    await reader.cancel().catch(() => undefined);

    await eventually(() => expect(requestLines()).toHaveLength(1));
    const [span] = clientSpans();
    expect(span!.attributes).toMatchObject({
      'modelgate.client_aborted': true,
      'gen_ai.usage.input_tokens': USAGE.prompt_tokens,
      'gen_ai.usage.output_tokens': USAGE.completion_tokens,
    });
    expect(requestSpans()).toHaveLength(1);
    expect(requestSpans()[0]!.attributes['modelgate.client_aborted']).toBe(true);
    expect(requestLines()[0]!.object).toMatchObject({ aborted: true, inputTokens: USAGE.prompt_tokens, outputTokens: USAGE.completion_tokens });
    const tokens = histogramPoints((await telemetry.metrics()).get('gen_ai.client.token.usage'));
    const output = tokens.find((point) => point.attributes['gen_ai.token.type'] === 'output' && point.attributes['gen_ai.request.model'] === 'drain-model');
    expect(output?.value.sum).toBe(USAGE.completion_tokens);
  });
});

describe('an app that answers itself between composable steps', () => {
  const QUOTA = { type: 'error', error: { type: 'rate_limit_error', message: 'Monthly quota used up.' } };

  it('Express: the request span and log line end with the status the app sent', async () => {
    const mg = expressGateway(options());
    const app = express();
    app.post('/v1/chat/completions', mg.authenticate, (_req: Request, res: Response, _next: NextFunction) => {
      res.status(402).json(QUOTA);
    }, mg.dispatch);
    const server = await listen(app);
    try {
      await expect(openAIClient(server.url).chat.completions.create({ model: 'drain-model', messages: user })).rejects.toMatchObject({ status: 402 });
      await eventually(() => expect(requestSpans()).toHaveLength(1));
      expect(requestSpans()[0]!.attributes).toMatchObject({ 'http.response.status_code': 402, 'modelgate.endpoint': 'chat.completions' });
      expect(clientSpans()).toHaveLength(0);
      expect(requestLines()).toHaveLength(1);
      expect(requestLines()[0]!.object).toMatchObject({ status: 402, endpoint: 'chat.completions' });
    } finally {
      await server.close();
    }
  });

  it('Koa: the same', async () => {
    const mg = koaGateway(options());
    const router = new Router();
    router.post('/v1/chat/completions', mg.authenticate, mg.validate, async (ctx: Context, _next: Next) => {
      ctx.status = 402;
      ctx.body = QUOTA;
    }, mg.dispatch);
    const app = new Koa();
    app.use(bodyParser());
    app.use(router.routes());
    const server = await listen(app.callback());
    try {
      await expect(openAIClient(server.url).chat.completions.create({ model: 'drain-model', messages: user })).rejects.toMatchObject({ status: 402 });
      await eventually(() => expect(requestSpans()).toHaveLength(1));
      // The body was validated before the app answered: the span names the model asked for.
      expect(requestSpans()[0]!.attributes).toMatchObject({ 'http.response.status_code': 402, 'gen_ai.request.model': 'drain-model' });
      expect(requestLines()[0]!.object).toMatchObject({ status: 402, model: 'drain-model' });
    } finally {
      await server.close();
    }
  });

  it('Fastify (hooks): the same', async () => {
    const app = fastify();
    await app.register(fastifyGateway, options());
    const mg = app.modelgate;
    const quota = async (_request: FastifyRequest, reply: FastifyReply) => reply.code(402).send(QUOTA);
    app.post('/v1/chat/completions', { preHandler: [mg.authenticate, mg.validate, quota, mg.enforceRules] }, mg.dispatch);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      await expect(openAIClient(url).chat.completions.create({ model: 'drain-model', messages: user })).rejects.toMatchObject({ status: 402 });
      await eventually(() => expect(requestSpans()).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(requestSpans()).toHaveLength(1);
      expect(requestSpans()[0]!.attributes).toMatchObject({ 'http.response.status_code': 402, 'gen_ai.request.model': 'drain-model' });
      expect(clientSpans()).toHaveLength(0);
      expect(requestLines()).toHaveLength(1);
      expect(requestLines()[0]!.object).toMatchObject({ status: 402, model: 'drain-model' });
    } finally {
      await app.close();
      await mg.gateway.close();
    }
  });

  it('a request the gateway answered ends once, with the gateway status', async () => {
    const mg = expressGateway(options());
    const app = express();
    app.post('/v1/chat/completions', mg.authenticate, mg.validate, mg.enforceRules, mg.dispatch);
    const server = await listen(app);
    try {
      await expect(openAIClient(server.url).chat.completions.create({ model: 'unrouted-model', messages: user })).rejects.toMatchObject({ status: 404 });
      await eventually(() => expect(requestSpans()).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(requestSpans()).toHaveLength(1);
      expect(requestSpans()[0]!.attributes['http.response.status_code']).toBe(404);
      expect(requestLines()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('a client that leaves before the gateway answers (plain mount)', () => {
  let slow: StubUpstream;
  beforeAll(async () => {
    // A JSON answer that takes longer than the client waits.
    slow = await startStubUpstream(() => ({
      kind: 'json',
      delayMs: 400,
      body: { id: 'chatcmpl-slow', object: 'chat.completion', created: 1, model: 'slow-model', choices: [{ index: 0, message: { role: 'assistant', content: 'Late.' }, finish_reason: 'stop' }], usage: USAGE },
    }));
  });
  afterAll(async () => {
    await slow.close();
  });

  const slowOptions = () => ({
    ...options(),
    routes: [{ match: 'slow-model', upstream: openAICompatible({ baseURL: `${slow.url}/v1`, apiKey: 'sk-upstream-slow-0000', name: 'slow' }), retries: 0 }],
  });
  const mounts = {
    Express: () => {
      const app = express();
      app.use(expressGateway(slowOptions()));
      return listen(app);
    },
    Koa: () => {
      const app = new Koa();
      app.use(koaGateway(slowOptions()));
      return listen(app.callback());
    },
  };

  it.each(Object.keys(mounts) as Array<keyof typeof mounts>)('%s: the request ends once, with the gateway’s own failure, not the framework’s default status', async (name) => {
    const server = await mounts[name]();
    try {
      const abort = new AbortController();
      const sent = fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'slow-model', messages: user }),
        signal: abort.signal,
      });
      setTimeout(() => abort.abort(), 100);
      await expect(sent).rejects.toThrow();
      await eventually(() => expect(requestLines()).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(requestLines()).toHaveLength(1);
      const line = requestLines()[0]!.object;
      // Express's default status is 200 and Koa's 404: neither may be reported for a request nobody answered.
      expect(line).toMatchObject({ aborted: true, model: 'slow-model' });
      // The client closed the request (499), which is no server failure either.
      expect(line.status).toBe(499);
      expect(typeof line.errorType).toBe('string');
      expect(requestSpans()).toHaveLength(1);
      expect(requestSpans()[0]!.attributes['http.response.status_code']).toBe(line.status);
    } finally {
      await server.close();
    }
  });
});
