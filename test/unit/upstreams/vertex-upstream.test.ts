import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isGatewayConfigError, isGatewayError, vertexUpstream, type Upstream, type UpstreamCall, type UpstreamResponse } from 'modelgate';
import { vertexBaseURL } from '../../../src/upstreams/vertex/vertex-url.js';
import { cachedToken } from '../../../src/upstreams/vertex/vertex-auth.js';
import { LOCATION, PROJECT, startVertexStub, streamEvents, type VertexStub } from '../../helpers/vertex-stub.js';

const TOKEN = 'ya29.a0AfB_byTESTTOKEN0123456789abcdef';
const MODEL = 'claude-sonnet-4-5@20250929';

async function text(response: UpstreamResponse): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function call(body: Record<string, unknown>, extra: Partial<UpstreamCall> = {}): UpstreamCall {
  return { operation: 'messages', body, stream: body.stream === true, headers: {}, signal: new AbortController().signal, ...extra };
}

const hi = { model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] };

describe('vertexUpstream against a Vertex AI stub', () => {
  let stub: VertexStub;
  let upstream: Upstream;

  beforeAll(async () => {
    stub = await startVertexStub({ tokens: [TOKEN] });
    upstream = vertexUpstream({ projectId: PROJECT, region: LOCATION, accessToken: TOKEN, baseURL: stub.baseURL });
  });
  afterAll(async () => {
    await upstream.close?.();
    await stub.close();
  });
  afterEach(() => {
    stub.requests.length = 0;
    stub.script.length = 0;
  });

  it('rawPredict on the dated model id, with the Vertex body (no model, no refused field) and a Bearer token', async () => {
    const response = await upstream.send(
      call(
        { ...hi, stream: false, service_tier: 'auto', output_config: { effort: 'low' }, container: 'c', mcp_servers: [], context_management: {}, system: 'Be brief.' },
        { headers: { 'anthropic-version': '2023-06-01', via: '1.1 modelgate-x', 'x-api-key': 'caller-key' } },
      ),
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(await text(response)).content[0].text).toBe('Vertex says: Hi');
    const [request] = stub.requests;
    expect(request?.problem).toBeUndefined();
    expect(request?.url).toBe(`/v1/projects/${PROJECT}/locations/${LOCATION}/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict`);
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers.via).toBe('1.1 modelgate-x');
    expect(request?.headers['x-api-key']).toBeUndefined();
    expect(JSON.parse(request!.body)).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 8, stream: false, system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] });
    expect(response.warnings).toEqual(['service_tier', 'output_config', 'container', 'mcp_servers', 'context_management'].map((name) => `\`${name}\` is not available on Google Vertex AI; not sent`));
  });

  it('streamRawPredict relays the plain messages SSE as it is', async () => {
    const response = await upstream.send(call({ ...hi, stream: true }));
    expect(response.status).toBe(200);
    const body = await text(response);
    expect(stub.requests[0]?.method).toBe('streamRawPredict');
    expect(JSON.parse(stub.requests[0]!.body).stream).toBe(true);
    expect(body).toContain('event: message_start');
    expect(body).toContain('"text":"Vertex says: Hi"');
  });

  it('betas Vertex does not know never reach it; known ones go in the anthropic-beta header', async () => {
    const response = await upstream.send(
      call({ ...hi, anthropic_beta: ['context-1m-2025-08-07'] }, { headers: { 'anthropic-beta': 'files-api-2025-04-14, interleaved-thinking-2025-05-14,made-up-beta-2099-01-01' } }),
    );
    expect(response.status).toBe(200);
    await text(response);
    expect(stub.requests[0]?.problem).toBeUndefined();
    expect(stub.requests[0]?.headers['anthropic-beta']?.split(',').sort()).toEqual(['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14']);
    expect(JSON.parse(stub.requests[0]!.body).anthropic_beta).toBeUndefined();
    // Left out, and reported to the caller.
    expect(response.warnings).toEqual([
      'anthropic-beta files-api-2025-04-14 is not available on Google Vertex AI; not sent',
      'anthropic-beta made-up-beta-2099-01-01 is not available on Google Vertex AI; not sent',
    ]);
  });

  it('cache_control.scope never goes to Vertex (the caller’s body untouched); a call with nothing left out carries no warnings', async () => {
    const body = { ...hi, system: [{ type: 'text', text: 'Shared prefix.', cache_control: { type: 'ephemeral', scope: 'global' } }] };
    const before = JSON.stringify(body);
    const scoped = await upstream.send(call(body));
    await text(scoped);
    expect(JSON.parse(stub.requests[0]!.body).system).toEqual([{ type: 'text', text: 'Shared prefix.', cache_control: { type: 'ephemeral' } }]);
    expect(scoped.warnings).toEqual(['cache_control.scope is not available on Google Vertex AI; not sent']);
    expect(JSON.stringify(body)).toBe(before);
    const plain = await upstream.send(call(hi, { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } }));
    await text(plain);
    expect(plain.warnings).toBeUndefined();
  });

  it.each([
    [429, 'RESOURCE_EXHAUSTED', 429, 'rate_limit_error'],
    [403, 'PERMISSION_DENIED', 403, 'permission_error'],
    [404, 'NOT_FOUND', 404, 'not_found_error'],
    [400, 'INVALID_ARGUMENT', 400, 'invalid_request_error'],
    [500, 'INTERNAL', 500, 'api_error'],
    [503, 'UNAVAILABLE', 503, 'api_error'],
    [504, 'DEADLINE_EXCEEDED', 504, 'timeout_error'],
  ])('Google envelope %i %s → %i %s in the messages format', async (status, googleStatus, expected, type) => {
    stub.script.push({ kind: 'google', status, googleStatus, message: `${googleStatus} says no` });
    const response = await upstream.send(call(hi));
    expect(response.status).toBe(expected);
    expect(JSON.parse(await text(response))).toEqual({ type: 'error', error: { type, message: `${googleStatus} says no` } });
  });

  it.each([
    [529, 'overloaded_error'],
    [402, 'billing_error'],
  ])('a model error already in the messages format keeps its status (%i) and type (%s)', async (status, type) => {
    stub.script.push({ kind: 'json', status, body: { type: 'error', error: { type, message: 'No.' }, request_id: 'req_vrtx_1' } });
    const response = await upstream.send(call(hi));
    expect(response.status).toBe(status);
    expect(JSON.parse(await text(response))).toEqual({ type: 'error', error: { type, message: 'No.' } });
  });

  it('count_tokens: count-tokens:rawPredict with the model in the body', async () => {
    const response = await upstream.send(call({ model: MODEL, messages: [{ role: 'user', content: 'Count me' }] }, { operation: 'messages.count_tokens' }));
    expect(response.status).toBe(200);
    expect(JSON.parse(await text(response))).toEqual({ input_tokens: 42 });
    expect(stub.requests[0]?.url).toBe(`/v1/projects/${PROJECT}/locations/${LOCATION}/publishers/anthropic/models/count-tokens:rawPredict`);
    expect(JSON.parse(stub.requests[0]!.body)).toEqual({ anthropic_version: 'vertex-2023-10-16', model: MODEL, messages: [{ role: 'user', content: 'Count me' }] });
  });

  it.each([
    [404, 'NOT_FOUND'],
    [400, 'INVALID_ARGUMENT'],
  ])('count_tokens where Vertex has none (%i %s) answers 404, so the gateway counts locally', async (status, googleStatus) => {
    stub.script.push({ kind: 'google', status, googleStatus, message: 'count-tokens is not available for this model in this location' });
    const response = await upstream.send(call({ model: MODEL, messages: [{ role: 'user', content: 'Count me' }] }, { operation: 'messages.count_tokens' }));
    expect(response.status).toBe(404);
    expect(JSON.parse(await text(response)).error.message).toMatch(/has no count-tokens/);
  });

  it('files and models are not served: 501; no file store, no caller key, provider gcp.vertex_ai', async () => {
    const failure = await upstream.send({ operation: 'files.list', headers: {}, signal: new AbortController().signal }).catch((error: unknown) => error);
    expect(isGatewayError(failure) && failure.status).toBe(501);
    expect(upstream.holdsFiles).toBe(false);
    expect(upstream.acceptsCallerKey).toBe(false);
    expect(upstream.provider).toBe('gcp.vertex_ai');
    expect(upstream.secrets?.()).toContain(TOKEN);
  });

  it('a token function returning { token, expiresAt } is cached until near expiry; a bare string is asked for per request', async () => {
    stub.tokens.add('ya29.short-lived-0123456789').add('ya29.long-lived-0123456789');
    let calls = 0;
    const timed = vertexUpstream({
      projectId: PROJECT,
      region: LOCATION,
      baseURL: stub.baseURL,
      accessToken: async () => (calls++ === 0 ? { token: 'ya29.short-lived-0123456789', expiresAt: Date.now() + 60_000 } : { token: 'ya29.long-lived-0123456789', expiresAt: new Date(Date.now() + 3_600_000) }),
    });
    for (let i = 0; i < 3; i++) await text(await timed.send(call(hi)));
    expect(calls).toBe(2);
    expect(stub.requests.map((request) => request.headers.authorization)).toEqual(['Bearer ya29.short-lived-0123456789', 'Bearer ya29.long-lived-0123456789', 'Bearer ya29.long-lived-0123456789']);
    expect(timed.secrets?.()).toEqual(expect.arrayContaining(['ya29.short-lived-0123456789', 'ya29.long-lived-0123456789']));
    let plain = 0;
    const perRequest = vertexUpstream({ projectId: PROJECT, region: LOCATION, baseURL: stub.baseURL, accessToken: () => (plain++, TOKEN) });
    for (let i = 0; i < 2; i++) await text(await perRequest.send(call(hi)));
    expect(plain).toBe(2);
    await timed.close?.();
    await perRequest.close?.();
  });

  it('an injected googleAuth: its client is made once and asked for a token per request', async () => {
    let clients = 0;
    let asked = 0;
    const googleAuth = {
      getClient: async () => {
        clients++;
        return { getAccessToken: async () => (asked++, { token: TOKEN }) };
      },
    };
    const adc = vertexUpstream({ projectId: PROJECT, region: LOCATION, baseURL: stub.baseURL, googleAuth });
    for (let i = 0; i < 2; i++) await text(await adc.send(call(hi)));
    expect([clients, asked]).toEqual([1, 2]);
    expect(stub.requests.every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(adc.secrets?.()).toContain(TOKEN);
    await adc.close?.();
  });

  it('a failing token source is a retryable 502 (a fallback is tried) with fixed text, and nothing is sent', async () => {
    const providerError = new Error('metadata server unreachable');
    const broken = vertexUpstream({ projectId: PROJECT, region: LOCATION, baseURL: stub.baseURL, accessToken: () => Promise.reject(providerError) });
    const failure = await broken.send(call(hi)).catch((error: unknown) => error);
    expect(isGatewayError(failure) && failure.code).toBe('UPSTREAM_UNAVAILABLE');
    expect((failure as Error).message).toMatch(/could not get credentials for its upstream/);
    expect((failure as Error).message).not.toContain('metadata server unreachable');
    expect(((failure as Error).cause as Error).cause).toBe(providerError);
    expect(stub.requests).toHaveLength(0);
    await broken.close?.();
  });

  it('an error quoting the token comes back redacted', async () => {
    stub.script.push({ kind: 'google', status: 400, googleStatus: 'INVALID_ARGUMENT', message: `bad request with token ${TOKEN}` });
    const body = await text(await upstream.send(call(hi)));
    expect(body).not.toContain(TOKEN);
    expect(body).toContain('[redacted]');
  });

  it('streamEvents are well-formed messages events', () => {
    expect(streamEvents('x').map((event) => (event as { type: string }).type)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
  });
});

describe('vertexUpstream URLs, tokens and options', () => {
  it('the base URL by location: global, the us/eu multi-regions, a region', () => {
    expect(vertexBaseURL('global')).toBe('https://aiplatform.googleapis.com/v1');
    expect(vertexBaseURL('us')).toBe('https://aiplatform.us.rep.googleapis.com/v1');
    expect(vertexBaseURL('eu')).toBe('https://aiplatform.eu.rep.googleapis.com/v1');
    expect(vertexBaseURL('us-east5')).toBe('https://us-east5-aiplatform.googleapis.com/v1');
    const upstream = vertexUpstream({ projectId: PROJECT, region: 'global', accessToken: TOKEN });
    expect(upstream.name).toBe('aiplatform.googleapis.com');
    expect(upstream.server).toEqual({ address: 'aiplatform.googleapis.com', port: 443 });
  });

  it('cachedToken refreshes five minutes before expiry and shares one fetch between concurrent calls', async () => {
    let now = 0;
    let calls = 0;
    const seen: string[] = [];
    const get = cachedToken(
      async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { token: `t${calls}`, expiresAt: now + 3_600_000 };
      },
      (token) => seen.push(token),
      () => now,
    );
    expect(await Promise.all([get(), get(), get()])).toEqual(['t1', 't1', 't1']);
    now = 3_600_000 - 5 * 60_000 - 1;
    expect(await get()).toBe('t1');
    now += 2;
    expect(await get()).toBe('t2');
    expect([calls, seen]).toEqual([2, ['t1', 't2']]);
  });

  it.each([
    [{ region: LOCATION, accessToken: TOKEN }, /projectId is undefined/],
    [{ projectId: PROJECT, accessToken: TOKEN }, /region is undefined/],
    [{ projectId: PROJECT, region: 'Virginia', accessToken: TOKEN }, /is not a Vertex AI location/],
    [{ projectId: PROJECT, region: LOCATION, accessToken: undefined }, /accessToken is undefined/],
    [{ projectId: PROJECT, region: LOCATION, accessToken: TOKEN, googleAuth: { getClient: async () => ({}) } }, /both given/],
    [{ projectId: PROJECT, region: LOCATION, apiKey: 'k' }, /apiKey is not an option of vertexUpstream/],
    [{ projectId: PROJECT, region: LOCATION, accessToken: TOKEN, baseURL: 'ftp://x' }, /http or https/],
  ])('refuses wrong options with a GatewayConfigError (%#)', (options, message) => {
    const error = (() => {
      try {
        vertexUpstream(options as never);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(isGatewayConfigError(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
  });
});
