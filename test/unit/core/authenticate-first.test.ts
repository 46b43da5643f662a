/**
 * The key is checked from the headers before anything else costs: before a
 * model call takes a place (or a place in the queue) and before its body is
 * read. Whatever the pipeline: `handle`, or the steps composed by an app.
 */
import { describe, expect, it, vi } from 'vitest';
import { createGateway, type GatewayRequest, type GatewayResponse, type Principal } from 'modelgate';
import { heldUpstream } from '../../helpers/held-upstream.js';

const KEY = 'sk-first-0123456789';
const CHAT = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true };

/** A request whose body is read only when the gateway asks (as the adapters build them); `reads` counts the asks. */
function lazyRequest(url: string, headers: Record<string, string>, body: unknown = CHAT): GatewayRequest & { reads: number } {
  const request = {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    signal: new AbortController().signal,
    reads: 0,
    readBody: async () => {
      request.reads++;
      return Buffer.from(JSON.stringify(body));
    },
  };
  return request;
}

/** Ends call `index`'s upstream stream and reads the client's stream to its end, so the call gives its place back. */
async function endStream(upstream: ReturnType<typeof heldUpstream>, index: number, response: GatewayResponse): Promise<void> {
  upstream.complete(index);
  if (response.type !== 'sse') throw new Error(`expected a stream, got ${response.status}`);
  for await (const chunk of response.body) void chunk;
}

describe('handle: authenticate, then take a place, then read the body', () => {
  it('answers a request without a valid key 401 without reading its body or taking a place', async () => {
    const upstream = heldUpstream();
    const gateway = createGateway({ auth: { keys: [KEY] }, routes: [{ match: '*', upstream }], admission: { maxInFlight: 1, queueMs: 3000, maxQueued: 1 } });
    const senders: Array<Record<string, string>> = [{}, { authorization: 'Bearer sk-unknown-key-0000' }];
    for (const headers of senders) {
      const request = lazyRequest('/v1/chat/completions', headers);
      const response = await gateway.handle(request);
      expect(response.status).toBe(401);
      expect(request.reads).toBe(0);
    }
    expect(gateway.load()).toEqual({ inFlight: 0, queued: 0 });
    expect(upstream.calls).toHaveLength(0);
  });

  it('answers unknown paths and methods without reading the body', async () => {
    const gateway = createGateway({ auth: { keys: [KEY] } });
    const unknown = lazyRequest('/v1/nowhere', { authorization: `Bearer ${KEY}` });
    expect((await gateway.handle(unknown)).status).toBe(404);
    const wrongMethod = { ...lazyRequest('/v1/models', { authorization: `Bearer ${KEY}` }), method: 'PATCH' };
    expect((await gateway.handle(wrongMethod)).status).toBe(405);
    expect(unknown.reads + wrongMethod.reads).toBe(0);
  });

  it('over capacity, refuses an authenticated model call before its body is read', async () => {
    const upstream = heldUpstream();
    const gateway = createGateway({ auth: { keys: [KEY] }, routes: [{ match: '*', upstream }], admission: { maxInFlight: 1 } });
    const first = lazyRequest('/v1/chat/completions', { authorization: `Bearer ${KEY}` });
    const open = await gateway.handle(first);
    expect(open.status).toBe(200);
    expect(first.reads).toBe(1);
    const refused = lazyRequest('/v1/chat/completions', { authorization: `Bearer ${KEY}` }, '{not json');
    const response = await gateway.handle(refused);
    expect(response.status).toBe(503);
    expect(refused.reads).toBe(0);
    await endStream(upstream, 0, open);
    expect(gateway.load().inFlight).toBe(0);
  });

  it('holds no place while an async verify runs, and reads the body only after it verified', async () => {
    const upstream = heldUpstream();
    let release: (principal: Principal | null) => void = () => {};
    const verify = vi.fn((_key: string, request: GatewayRequest) => {
      // The body is not read yet when the key is checked: verify sees the headers.
      expect(request.rawBody).toBeUndefined();
      return new Promise<Principal | null>((resolve) => (release = resolve));
    });
    const gateway = createGateway({ auth: { verify }, routes: [{ match: '*', upstream }], admission: { maxInFlight: 1 } });
    const request = lazyRequest('/v1/chat/completions', { authorization: `Bearer ${KEY}` });
    const answering = gateway.handle(request);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(verify).toHaveBeenCalledOnce();
    expect(gateway.load().inFlight).toBe(0);
    expect(request.reads).toBe(0);
    release({ id: 'p' });
    const response = await answering;
    expect(response.status).toBe(200);
    expect(request.reads).toBe(1);
    await endStream(upstream, 0, response);
  });

  it('calls a custom verify once when x-api-key and Bearer are both sent and the first verifies', async () => {
    const verify = vi.fn(async (key: string) => (key === KEY ? { id: 'p' } : null));
    const gateway = createGateway({ auth: { verify } });
    const body = { model: 'vendora-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
    const response = await gateway.handle(lazyRequest('/v1/messages', { 'x-api-key': KEY, authorization: 'Bearer sk-other-0000', 'anthropic-version': '2023-06-01' }, body));
    expect(response.status).toBe(200);
    expect(verify.mock.calls.map(([key]) => key)).toEqual([KEY]);
  });
});

describe('composed steps: nothing unauthenticated takes a place or has its body read', () => {
  it('dispatch alone authenticates before it takes a place', async () => {
    const upstream = heldUpstream();
    const gateway = createGateway({ auth: { keys: [KEY] }, routes: [{ match: '*', upstream }], admission: { maxInFlight: 1, queueMs: 3000, maxQueued: 1 } });
    const request = lazyRequest('/v1/chat/completions', {});
    const ctx = gateway.begin(request);
    const startedAt = Date.now();
    await expect(gateway.dispatch(ctx)).rejects.toMatchObject({ status: 401 });
    expect(Date.now() - startedAt).toBeLessThan(1000);
    expect(ctx.slot).toBeUndefined();
    expect(request.reads).toBe(0);
    expect(gateway.load()).toEqual({ inFlight: 0, queued: 0 });
  });

  it('readBody authenticates first when no step did; an authenticated caller’s body is read once', async () => {
    const gateway = createGateway({ auth: { keys: [KEY] } });
    const anonymous = lazyRequest('/v1/chat/completions', {});
    await expect(gateway.readBody(gateway.begin(anonymous))).rejects.toMatchObject({ status: 401 });
    expect(anonymous.reads).toBe(0);

    const known = lazyRequest('/v1/chat/completions', { authorization: `Bearer ${KEY}` });
    const ctx = gateway.begin(known);
    await gateway.authenticate(ctx);
    await gateway.readBody(ctx);
    await gateway.readBody(ctx);
    gateway.validate(ctx);
    expect(known.reads).toBe(1);
    expect(ctx.body).toMatchObject({ model: 'gpt-4o' });
  });

  it('the rules step reads the body it needs (after authenticating) when validate was skipped', async () => {
    const gateway = createGateway({ auth: { keys: [KEY] } });
    const request = lazyRequest('/v1/chat/completions', { authorization: `Bearer ${KEY}` });
    const ctx = gateway.begin(request);
    await gateway.enforceRules(ctx);
    expect(request.reads).toBe(1);
    expect(ctx.route).toBeDefined();
  });
});
