/**
 * The gateway's steps run in any order a composed pipeline gives them, and
 * none can be bypassed: the model permission, the rules and the key that
 * verified hold whatever the order.
 */
import { createServer } from 'node:http';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { createGateway, type GatewayRequest, type Upstream, type UpstreamCall } from 'modelgate';
import { koaGateway } from 'modelgate/koa';

function recordingUpstream(format: 'chat' | 'messages'): Upstream & { calls: UpstreamCall[] } {
  const calls: UpstreamCall[] = [];
  const answer = format === 'chat'
    ? { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }
    : { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
  return {
    name: `rec-${format}`,
    format,
    calls,
    async send(call) {
      calls.push(call);
      const bytes = Buffer.from(JSON.stringify(answer));
      return { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) }, body: [bytes] as unknown as AsyncIterable<Uint8Array> };
    },
  };
}

function request(url: string, body: unknown, headers: Record<string, string>): GatewayRequest {
  return { method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, rawBody: Buffer.from(JSON.stringify(body)), signal: new AbortController().signal };
}

describe('gateway steps in any order', () => {
  it('checks the model permission even when the rules ran before authentication', async () => {
    const upstream = recordingUpstream('chat');
    const gateway = createGateway({ auth: { keys: [{ key: 'sk-a', allowedModels: ['model-a'] }] }, routes: [{ match: '*', upstream }] });
    const ctx = gateway.begin(request('/v1/chat/completions', { model: 'model-b', messages: [{ role: 'user', content: 'hi' }] }, { authorization: 'Bearer sk-a' }));
    gateway.validate(ctx);
    await expect(gateway.enforceRules(ctx)).rejects.toMatchObject({ status: 403, code: 'PERMISSION_DENIED' });
    await expect(gateway.dispatch(ctx)).rejects.toMatchObject({ status: 403 });
    expect(upstream.calls).toHaveLength(0);
  });

  it('keeps a dropped parameter dropped when validate runs again after the rules', async () => {
    const upstream = recordingUpstream('messages');
    const gateway = createGateway({ auth: { keys: ['sk-a'] }, routes: [{ match: '*', upstream }], dropUnsupportedParams: true });
    const ctx = gateway.begin(request('/v1/messages', { model: 'vendora-opus-4-7', max_tokens: 10, temperature: 0.5, messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': 'sk-a' }));
    await gateway.authenticate(ctx);
    await gateway.enforceRules(ctx);
    gateway.validate(ctx);
    const response = gateway.finish(ctx, await gateway.dispatch(ctx));
    expect(response.status).toBe(200);
    expect(response.headers['x-modelgate-dropped-params']).toBe('temperature');
    expect(upstream.calls).toHaveLength(1);
    expect(upstream.calls[0]!.rawBody).toBeUndefined();
    expect(upstream.calls[0]!.body).not.toHaveProperty('temperature');
  });

  it('forwards only the key that verified on key passthrough', async () => {
    const upstream = recordingUpstream('chat');
    const gateway = createGateway({ auth: { keys: ['sk-valid'] }, routes: [{ match: '*', upstream, keyPassthrough: true }] });
    const response = await gateway.handle(
      request('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, { authorization: 'Bearer sk-valid', 'x-api-key': 'junk' }),
    );
    expect(response.status).toBe(200);
    expect(upstream.calls[0]!.callerKey).toBe('sk-valid');
  });
});

describe('Koa steps', () => {
  it("leave errors of the app's own later middleware to the app", async () => {
    const upstream = recordingUpstream('messages');
    const gw = koaGateway({ auth: { keys: ['sk-a'] }, routes: [{ match: '*', upstream }] });
    const app = new Koa();
    app.silent = true;
    app.use(gw.authenticate);
    app.use((ctx) => ctx.throw(429, 'quota exceeded'));
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'sk-a' },
        body: JSON.stringify({ model: 'vendora-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBe(429);
      expect(await res.text()).toBe('quota exceeded');
      expect(upstream.calls).toHaveLength(0);
    } finally {
      server.close();
    }
  });
});
