/**
 * Long caller ids do not spread: with every observability signal on, limits
 * per model and a glob route over two deployments, requests with distinct
 * 64 KiB model ids (and a `verify` that returns a 64 KiB principal id) leave
 * no metric label, span attribute, log value or usage record longer than
 * 256 characters plus the cut marker, model labels come from the
 * configuration, and the route's figures hold no more ids than their
 * character budget allows.
 */
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway.js';
import type { GatewayLogger } from '../../src/observability/options.js';
import type { GatewayRequest, GatewayResponse } from '../../src/types.js';
import type { Upstream, UpstreamCall } from '../../src/upstreams/upstream.js';
import type { UsageRecord } from '../../src/usage.js';
import { parsePrometheusText } from '../helpers/prometheus-text.js';
import { createTelemetry, eventually } from '../helpers/telemetry.js';

const KEY = 'sk-caller-string-bounds';
const ID_CHARS = 64 * 1024;
/** 256 characters, then the one-character cut marker. */
const MAX_KEPT = 257;
const IDS = 30;
const PRINCIPAL = 'team-'.padEnd(ID_CHARS, 'p');
const longId = (prefix: string, index: number) => `${prefix}-${index}-`.padEnd(ID_CHARS, 'x');
const cut = (id: string) => `${id.slice(0, 256)}…`;

const encoder = new TextEncoder();
async function* once(text: string): AsyncGenerator<Uint8Array, void, undefined> {
  yield encoder.encode(text);
}

/** A chat upstream that echoes the model (as many compatible servers do) for `ok-` ids and is down (503) for the rest. */
function echoing(name: string): Upstream {
  return {
    name,
    format: 'chat',
    async send(call: UpstreamCall) {
      const model = String((call.body as { model?: unknown }).model);
      const body = model.startsWith('ok-')
        ? { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } }
        : { error: { message: 'down', type: 'server_error' } };
      return { status: model.startsWith('ok-') ? 200 : 503, headers: { 'content-type': 'application/json' }, body: once(JSON.stringify(body)) };
    },
  };
}

const a = echoing('deploy-a');
const b = echoing('deploy-b');
const registry = new Registry();
const telemetry = createTelemetry();
const usage: UsageRecord[] = [];
const logLines: Array<Record<string, unknown>> = [];
const record = (line: Record<string, unknown>) => void logLines.push(line);
const logger: GatewayLogger = { info: record, warn: record, error: record, debug: record, child: () => logger };
let gateway: Gateway;

function request(model: string): GatewayRequest {
  return {
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: { model, messages: [{ role: 'user', content: 'Hello' }] },
    signal: new AbortController().signal,
  };
}

async function drain(response: GatewayResponse): Promise<void> {
  if (response.type !== 'json' && !(response.body instanceof Uint8Array)) for await (const _ of response.body as AsyncIterable<Uint8Array>);
}

/** Every string in `value`, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

const longest = (texts: string[]) => Math.max(0, ...texts.map((text) => text.length));

beforeAll(async () => {
  gateway = createGateway({
    auth: { verify: (key) => (key === KEY ? { id: PRINCIPAL } : null) },
    routes: [{ match: '*', targets: [{ upstream: a }, { upstream: b }], retries: 0 }],
    limits: { rules: [{ eachModel: true, requests: { limit: 1000 } }] },
    prometheus: { registry, principalLabel: true },
    openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
    logger,
    onUsage: (entry) => usage.push(entry),
    routing: { cooldown: { failures: 1 } },
    requestBounds: { maxModelLength: 2 * ID_CHARS },
  });
  for (let index = 0; index < IDS; index++) {
    const ok = await gateway.handle(request(longId('ok', index)));
    expect(ok.status).toBe(200);
    await drain(ok);
    const down = await gateway.handle(request(longId('down', index)));
    expect(down.status).toBe(503);
    await drain(down);
  }
});
afterAll(async () => {
  await gateway.close();
});

describe('long caller ids', () => {
  it('never reach a Prometheus label: models are labelled by the route, the principal is cut', async () => {
    const samples = parsePrometheusText(await registry.metrics());
    expect(samples.length).toBeGreaterThan(0);
    expect(longest(samples.flatMap((sample) => Object.values(sample.labels)))).toBeLessThanOrEqual(MAX_KEPT);
    const models = new Set(samples.flatMap((sample) => (sample.labels.model === undefined ? [] : [sample.labels.model])));
    // The glob route `*` is the only configured name these ids have.
    expect([...models]).toEqual(['*']);
    const principals = new Set(samples.flatMap((sample) => (sample.labels.principal === undefined ? [] : [sample.labels.principal])));
    expect([...principals]).toEqual([cut(PRINCIPAL)]);
    expect(samples.some((sample) => sample.name === 'modelgate_upstream_cooldowns_total')).toBe(true);
  });

  it('never reach an OpenTelemetry metric attribute; spans carry them cut', async () => {
    const metrics = await telemetry.metrics();
    const attributes = [...metrics.values()].flatMap((metric) => metric.dataPoints.map((point) => point.attributes));
    expect(attributes.length).toBeGreaterThan(0);
    expect(longest(strings(attributes))).toBeLessThanOrEqual(MAX_KEPT);
    const requested = new Set(attributes.map((attribute) => attribute['gen_ai.request.model']).filter((model) => model !== undefined));
    expect([...requested]).toEqual(['*']);
    await eventually(() => expect(telemetry.spans().length).toBeGreaterThan(0));
    const spans = telemetry.spans();
    expect(longest(strings(spans.map((span) => span.attributes)))).toBeLessThanOrEqual(MAX_KEPT);
    expect(longest(spans.map((span) => span.name))).toBeLessThanOrEqual(MAX_KEPT + 'chat '.length);
    expect(spans.map((span) => span.attributes['gen_ai.request.model'])).toContain(cut(longId('ok', 0)));
  });

  it('are cut in log lines', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(longest(strings(logLines))).toBeLessThanOrEqual(MAX_KEPT);
    expect(logLines.map((line) => line.model)).toContain(cut(longId('down', 0)));
  });

  it('are cut in usage records; the principal id is the operator’s and stays whole', () => {
    expect(usage.length).toBe(2 * IDS);
    const first = usage.find((entry) => entry.status === 200)!;
    expect(first.model).toBe(cut(longId('ok', 0)));
    expect(first.upstreamModel).toBe(cut(longId('ok', 0)));
    expect(longest(usage.flatMap((entry) => [entry.model, entry.upstreamModel ?? '']))).toBe(MAX_KEPT);
    expect(first.principalId).toBe(PRINCIPAL);
  });

  it('fill the route’s figures only up to their character budget (1 Mi: 16 ids of 64 Ki per deployment)', async () => {
    const ctx = gateway.begin(request(longId('probe', 0)));
    await gateway.authenticate(ctx);
    gateway.validate(ctx);
    await gateway.enforceRules(ctx);
    const stats = ctx.route!.balancer!.stats;
    // Every `down-` id was sent to both deployments: 30 ids each, more than the budget holds.
    expect(stats.modelsOf(a)).toBe(16);
    expect(stats.modelsOf(b)).toBe(16);
  });
});
