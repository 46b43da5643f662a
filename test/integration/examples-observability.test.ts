/**
 * The example apps' observability switches, run as a user runs them:
 * `MODELGATE_METRICS=1` serves Prometheus text at `GET /metrics`, and an
 * `OTEL_EXPORTER_OTLP_ENDPOINT` makes the app export traces and metrics over
 * OTLP/HTTP (here JSON, via `OTEL_EXPORTER_OTLP_PROTOCOL`) to a receiver on
 * 127.0.0.1, at the intervals the standard `OTEL_*` variables ask for.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIClient } from '../helpers/e2e-fixtures.js';
import { parsePrometheusText, sumOf } from '../helpers/prometheus-text.js';
import { eventually } from '../helpers/telemetry.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'sk-example-obs-0123456789abcdef';

interface Received {
  path: string;
  contentType: string | undefined;
  body: string;
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(OTEL_|MODELGATE_|OPENAI_|ANTHROPIC_|UPSTREAM_)/.test(name) || name === 'PORT' || name === 'HOST') continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

describe.each(['express', 'koa', 'fastify', 'hono'] as const)('examples/%s/server.ts with metrics and OTLP export', (app) => {
  const received: Received[] = [];
  let receiver: Server;
  let child: ChildProcess;
  let url = '';
  let output = '';

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const otlp = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    child = spawn(`${root}node_modules/.bin/tsx`, [`examples/${app}/server.ts`], {
      cwd: root,
      env: cleanEnv({
        PORT: '0',
        MODELGATE_API_KEYS: KEY,
        MODELGATE_METRICS: '1',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRIC_EXPORT_INTERVAL: '300',
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_LOGS_EXPORTER: 'none',
        OTEL_SERVICE_NAME: `example-${app}`,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    // tsx compiles the example on the fly: on a loaded machine that alone can take tens of seconds.
    await eventually(() => expect(output).toMatch(/listening on http:\/\/\S+/), 60_000);
    url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    receiver?.close();
  });

  it('says what it switched on', () => {
    expect(output).toContain('GET /metrics');
    expect(output).toContain('OTLP');
  });

  it('serves Prometheus text at GET /metrics with the gateway metrics', async () => {
    await openAIClient(url, KEY).chat.completions.create({ model: 'vendora-sonnet-4-6', messages: [{ role: 'user', content: 'hello' }] });
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const samples = parsePrometheusText(await response.text());
    expect(sumOf(samples, 'modelgate_requests_total', { endpoint: 'chat.completions', model: 'vendora-sonnet-4-6', status: '200' })).toBe(1);
  });

  it('exports the GenAI spans and metrics over OTLP/HTTP', async () => {
    await openAIClient(url, KEY).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] });
    await eventually(() => {
      const traces = received.filter((item) => item.path === '/v1/traces').map((item) => item.body).join('\n');
      expect(traces).toContain('"name":"chat gpt-4o"');
      expect(traces).toContain(`example-${app}`);
      const metrics = received.filter((item) => item.path === '/v1/metrics').map((item) => item.body).join('\n');
      expect(metrics).toContain('gen_ai.client.operation.duration');
      expect(metrics).toContain('gen_ai.client.token.usage');
    }, 15_000);
    expect(received.every((item) => item.contentType === 'application/json')).toBe(true);
    expect(received.map((item) => item.body).join('\n')).not.toContain(KEY);
  });
});
