/**
 * With no observability option the request path does no observability work:
 * no observer, the response object passes through `finish` untouched. With
 * `openTelemetry: true` and no SDK registered, requests still work (no-op API).
 */
import { describe, expect, it } from 'vitest';
import { createGateway } from 'modelgate';
import { loadOptional } from '../../../src/optional-peer.js';
import type { GatewayResponse } from '../../../src/types.js';

const request = (url: string) => ({ method: 'GET', url, headers: { authorization: 'Bearer sk-off-1234567890' }, signal: new AbortController().signal });

describe('observability off', () => {
  it('no option: no observer, finish returns the same response and body', () => {
    const gateway = createGateway({ auth: { keys: ['sk-off-1234567890'] } });
    const ctx = gateway.begin(request('/v1/models'));
    expect(ctx.observer).toBeUndefined();
    async function* body() {
      yield new Uint8Array([1]);
    }
    const response: GatewayResponse = { type: 'sse', status: 200, headers: {}, body: body() };
    const finished = gateway.finish(ctx, response);
    expect(finished).toBe(response);
    expect(finished.body).toBe(response.body);
  });

  it('a logger only: an observer, and the streamed body is wrapped to learn its end', async () => {
    const lines: unknown[] = [];
    const logger = { info: (o: object) => lines.push(o), warn: () => {}, error: () => {}, debug: () => {}, child: () => logger };
    const gateway = createGateway({ auth: { keys: ['sk-off-1234567890'] }, logger });
    const ctx = gateway.begin(request('/v1/models'));
    expect(ctx.observer).toBeDefined();
    async function* body() {
      yield new Uint8Array([1]);
    }
    const finished = gateway.finish(ctx, { type: 'sse', status: 200, headers: {}, body: body() });
    expect(lines).toHaveLength(0);
    for await (const _chunk of finished.body as AsyncIterable<Uint8Array>);
    expect(lines).toHaveLength(1);
  });

  it('openTelemetry: true without an SDK registered: no observer at all, requests served as usual', async () => {
    const gateway = createGateway({ auth: { keys: ['sk-off-1234567890'] }, openTelemetry: true });
    expect(gateway.begin(request('/v1/models')).observer).toBeUndefined();
    const response = await gateway.handle(request('/v1/models'));
    expect(response.status).toBe(200);
  });

  it('openTelemetry: true once an SDK is registered: observed', async () => {
    const { trace } = await import('@opentelemetry/api');
    const { BasicTracerProvider } = await import('@opentelemetry/sdk-trace-base');
    trace.setGlobalTracerProvider(new BasicTracerProvider());
    try {
      const gateway = createGateway({ auth: { keys: ['sk-off-1234567890'] }, openTelemetry: true });
      expect(gateway.begin(request('/v1/models')).observer).toBeDefined();
    } finally {
      trace.disable();
    }
  });

  it('a missing optional peer is a TypeError naming the package and the option', () => {
    expect(() => loadOptional('@modelgate-test/not-installed', 'prometheus')).toThrow(/prometheus.*@modelgate-test\/not-installed/);
  });
});
