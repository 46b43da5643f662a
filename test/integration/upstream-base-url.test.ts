/**
 * An upstream base URL missing `/v1`, through real HTTP on both sides
 * (node:http and Express): an upstream on 127.0.0.1 that serves only
 * `/v1/chat/completions` answers every other path with Express's
 * `Cannot POST` page. A route of two targets, one of them without `/v1`,
 * answers every call from the good one while the bad one fails and cools;
 * a single such target gets the caller a 502 naming it, and `onError` its
 * base URL; a 404 for the model still reaches the caller as a 404; a base
 * URL ending in `/v1/chat/completions` is refused before anything starts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EndpointMissingDetail, type GatewayError, type GatewayOptions, isGatewayConfigError, openAICompatible } from 'modelgate';
import { APIError } from 'openai';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, failure, openAIClient } from '../helpers/e2e-fixtures.js';
import { parsePrometheusText, sumOf } from '../helpers/prometheus-text.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const CALLS = 20;
const UNKNOWN_MODEL = 'not-pulled';

/** Requests the upstream got, by path. */
const hits = new Map<string, number>();
let upstream: Server;
let upstreamURL: string;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        // What an Express app (the usual local stand-in) answers for a path it does not serve.
        res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><html><body><pre>Cannot ${req.method} ${path}</pre></body></html>`);
        return;
      }
      const { model } = JSON.parse(body) as { model: string };
      if (model === UNKNOWN_MODEL) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `model "${model}" not found, try pulling it first`, type: 'api_error', param: null, code: null } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'from /v1' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamURL = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
});

describe.each(['node', 'express5'] as const)('on %s', (mount) => {
  let app: StartedApp;
  const registry = new Registry();
  const errors: GatewayError[] = [];
  const before = { bad: 0, good: 0 };

  beforeAll(async () => {
    before.bad = hits.get('/chat/completions') ?? 0;
    before.good = hits.get('/v1/chat/completions') ?? 0;
    const options: GatewayOptions = {
      auth: AUTH,
      prometheus: { registry },
      // A long cooldown: once cooled, the bad target gets nothing more during the test.
      routing: { cooldown: { failures: 2, window: 2, baseMs: 120_000 } },
      onError: ({ error }) => errors.push(error),
      routes: [
        {
          match: 'team-model',
          targets: [
            { upstream: openAICompatible({ baseURL: upstreamURL, name: 'no-v1' }), model: 'llama' },
            { upstream: openAICompatible({ baseURL: `${upstreamURL}/v1`, name: 'with-v1' }), model: 'llama' },
          ],
        },
        { match: 'solo-model', upstream: openAICompatible({ baseURL: upstreamURL, name: 'solo-no-v1' }), model: 'llama' },
        { match: UNKNOWN_MODEL, upstream: openAICompatible({ baseURL: `${upstreamURL}/v1`, name: 'local' }) },
      ],
    };
    app = await startApp(mount, options);
  });
  afterAll(async () => {
    await app.close();
  });

  it('a route of two targets: every call is answered by the good one; the one without /v1 fails twice, then cools', async () => {
    const client = openAIClient(app.url);
    for (let i = 0; i < CALLS; i++) {
      const completion = await client.chat.completions.create({ model: 'team-model', messages: [{ role: 'user', content: `call ${i}` }] });
      expect(completion.choices[0]?.message.content).toBe('from /v1');
    }
    expect((hits.get('/v1/chat/completions') ?? 0) - before.good).toBe(CALLS);
    // Picked first about half the time at random: it took its two failures, then no more calls.
    expect((hits.get('/chat/completions') ?? 0) - before.bad).toBe(2);
    const metrics = parsePrometheusText(await registry.metrics());
    expect(sumOf(metrics, 'modelgate_upstream_state', { upstream: 'no-v1' })).toBe(2);
    expect(sumOf(metrics, 'modelgate_upstream_state', { upstream: 'with-v1' })).toBe(0);
    expect(errors).toHaveLength(0);
  });

  it('a single target without /v1: a 502 naming it and the missing /v1; onError gets its base URL', async () => {
    const thrown = await failure(() => openAIClient(app.url).chat.completions.create({ model: 'solo-model', messages: [{ role: 'user', content: 'hi' }] }));
    expect(thrown).toBeInstanceOf(APIError);
    const error = thrown as APIError;
    expect(error.status).toBe(502);
    expect(error.message).toContain('Upstream "solo-no-v1" answered 404 for its endpoint path /chat/completions');
    expect(error.message).toContain('/v1');
    expect(error.message).not.toContain(upstreamURL);
    expect(error.message).not.toContain('Cannot POST');
    const reported = errors.at(-1);
    expect(reported?.code).toBe('UPSTREAM_ENDPOINT_MISSING');
    expect(reported?.message).toContain('"solo-no-v1"');
    expect(reported?.cause).toBeInstanceOf(EndpointMissingDetail);
    expect(reported?.cause).toMatchObject({ upstream: 'solo-no-v1', baseURL: upstreamURL, path: '/chat/completions' });
  });

  it('a 404 for the model reaches the caller as the upstream sent it', async () => {
    const thrown = await failure(() => openAIClient(app.url).chat.completions.create({ model: UNKNOWN_MODEL, messages: [{ role: 'user', content: 'hi' }] }));
    expect((thrown as APIError).status).toBe(404);
    expect((thrown as APIError).message).toContain(`model "${UNKNOWN_MODEL}" not found`);
  });
});

it('a base URL ending in /v1/chat/completions is refused at construction, saying what to give instead', () => {
  let thrown: unknown;
  try {
    openAICompatible({ baseURL: `${upstreamURL}/v1/chat/completions` });
  } catch (error) {
    thrown = error;
  }
  expect(isGatewayConfigError(thrown)).toBe(true);
  expect(String((thrown as Error).message)).toContain(`ends in the endpoint path /chat/completions: give the base URL without it (${upstreamURL}/v1`);
});
