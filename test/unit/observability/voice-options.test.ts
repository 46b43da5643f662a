/**
 * When the gateway speaks on its own: neither `logger` nor `onError`; the
 * app's `onError` replaces it; `logger: false` silences the gateway,
 * construction warnings included.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGateway, openAICompatible } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { GatewayError } from '../../../src/errors.js';
import type { GatewayOptions } from '../../../src/gateway-options.js';
import { withDefaultVoice } from '../../../src/observability/voice-options.js';
import { memoryLimitStore } from '../../../src/limits/memory-limit-store.js';
import { redisHealthStore } from '../../../src/routing/redis-health-store.js';

const auth = { keys: ['sk-voice-0123456789abcdef'] };
const routes = [{ match: '*', upstream: openAICompatible({ name: 'local', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-upstream' }) }];
const request = { method: 'POST', url: '/v1/chat/completions', headers: {}, body: {}, signal: new AbortController().signal };
const refused = new GatewayError('UPSTREAM_UNAVAILABLE', 'Upstream "local" refused the connection.', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });
const event = { error: refused, request, requestId: 'req_1' };
const logger = { info() {}, warn() {}, error() {}, debug() {}, child: () => logger };

function capture(options: GatewayOptions) {
  const lines: string[] = [];
  const voiced = withDefaultVoice(options, { write: (line) => lines.push(line) });
  return { lines, ...voiced };
}

afterEach(() => vi.restoreAllMocks());

describe('withDefaultVoice', () => {
  it('no logger, no onError: an upstream failure through `onError` prints one line naming the upstream', () => {
    const { lines, options } = capture({ auth, routes });
    options.onError!(event);
    expect(lines).toEqual([expect.stringMatching(/^modelgate: upstream unreachable \(ECONNREFUSED\) \(upstream "local"\); check /)]);
  });

  it("a caller's error through `onError` prints nothing", () => {
    const { lines, options, reportError } = capture({ auth, routes });
    const bad = { ...event, error: new GatewayError('INVALID_REQUEST', 'messages is required') };
    options.onError!(bad);
    reportError!(bad, 'local');
    expect(lines).toEqual([]);
  });

  it('a failure the caller steered (the simulator\'s fault controls) prints nothing, and still reaches the app\'s onError', () => {
    const { lines, reportError } = capture({ auth, routes });
    reportError!(event, 'local', true);
    expect(lines).toEqual([]);
    reportError!(event, 'local', false);
    expect(lines).toHaveLength(1);
    const seen: unknown[] = [];
    capture({ auth, routes, onError: (e) => seen.push(e) }).reportError!(event, 'local', true);
    expect(seen).toEqual([event]);
  });

  it('through the gateway: a caller\'s x-simulator-fault 529 prints no line; the same 529 configured on the simulator does', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const ask = (gateway: ReturnType<typeof createGateway>, headers: Record<string, string>) =>
      gateway.handle({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${auth.keys[0]}`, 'content-type': 'application/json', ...headers },
        body: { model: 'vendora-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] }, // translated: the upstream's 529 becomes the gateway's error
        signal: new AbortController().signal,
      });
    const steered = createGateway({ auth });
    expect((await ask(steered, { 'x-simulator-fault': 'status=529' })).status).toBe(529);
    const voiceLines = () => write.mock.calls.map((call) => String(call[0])).filter((line) => line.startsWith('modelgate: upstream'));
    expect(voiceLines()).toEqual([]);
    await steered.close();
    const down = createSimulator({ faults: [{ match: () => true, status: 529 }] });
    const configured = createGateway({ auth, routes: [{ match: '*', upstream: { ...down.upstreams.messages, name: 'sim' } }] });
    expect((await ask(configured, {})).status).toBe(529);
    expect(voiceLines()).toEqual([expect.stringMatching(/upstream "sim"/)]);
    await configured.close();
  });

  it('fills in `limits.onStoreFailure` when the app left it out, and keeps the app\'s own', () => {
    const { lines, options } = capture({ auth, routes, limits: { store: memoryLimitStore() } });
    options.limits!.onStoreFailure!(Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:6379'), { code: 'ECONNREFUSED' }));
    expect(lines).toEqual([expect.stringMatching(/^modelgate: limit store unavailable \(ECONNREFUSED\) \(limit store\); check /)]);
    expect(lines[0]).not.toContain('10.1.2.3');
    const own = () => {};
    expect(capture({ auth, limits: { onStoreFailure: own } }).options.limits!.onStoreFailure).toBe(own);
  });

  it("the health store's failures print (it never fails a request), until the gateway stops listening", async () => {
    let code = 'ECONNREFUSED';
    const down = () => Promise.reject(Object.assign(new Error(`connect ${code} 10.9.8.7:6379`), { code }));
    const health = redisHealthStore({ client: { evalsha: down, eval: down } });
    const { lines, stop } = capture({ auth, routes, routing: { health } });
    const cooldown = { key: 'k', upstream: 'local', model: 'm', remainingMs: 1000, level: 0, cause: 'failures' as const, source: 'a' };
    health.publish(cooldown);
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(lines[0]).toMatch(/^modelgate: health store unavailable \(ECONNREFUSED\) \(health store\); check /);
    expect(lines[0]).not.toContain('10.9.8.7');
    stop();
    code = 'ECONNRESET';
    health.publish(cooldown);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines).toHaveLength(1);
  });

  it("with the app's onError: the options are the app's, and errors go to its onError only", () => {
    const seen: unknown[] = [];
    const given: GatewayOptions = { auth, routes, onError: (e) => seen.push(e) };
    const { lines, options, reportError } = capture(given);
    expect(options).toBe(given);
    reportError!(event, 'local');
    expect(seen).toEqual([event]);
    expect(lines).toEqual([]);
  });

  it.each([
    ['a logger', { logger }],
    ['logger: false', { logger: false as const }],
  ])('with %s: no voice', (_name, extra) => {
    const given: GatewayOptions = { auth, routes, limits: {}, ...extra };
    const { lines, options, reportError } = capture(given);
    expect(options).toBe(given);
    expect(reportError).toBeUndefined();
    expect(options.limits!.onStoreFailure).toBeUndefined();
    expect(lines).toEqual([]);
  });
});

describe('logger: false at creation', () => {
  it('silences construction warnings that would otherwise go to stderr', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    createGateway({ auth: { keys: ['short-key'] } });
    const spoken = write.mock.calls.length;
    expect(String(write.mock.calls[0]?.[0])).toMatch(/modelgate: auth\.keys\[0\] is shorter/);
    write.mockClear();
    createGateway({ auth: { keys: ['short-key'] }, logger: false });
    expect(spoken).toBeGreaterThan(0);
    expect(write).not.toHaveBeenCalled();
  });

  it('is accepted by the options schema; anything else that is not a logger is refused with what to give', () => {
    expect(() => createGateway({ auth, logger: false })).not.toThrow();
    expect(() => createGateway({ auth, logger: true as unknown as false })).toThrow(/logger.*pino-shaped logger.*or false to silence the gateway/s);
  });
});
