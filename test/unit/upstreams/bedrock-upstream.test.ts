import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bedrockUpstream, isGatewayConfigError, isGatewayError, type Upstream, type UpstreamCall, type UpstreamResponse } from 'modelgate';
import { bedrockEndpoint } from '../../../src/upstreams/bedrock/bedrock-upstream.js';
import { type BedrockStub, REGION, startBedrockStub } from '../../helpers/bedrock-stub.js';

const KEYS = { accessKeyId: 'AKIDEXAMPLE0001', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'FwoGZXIvYXdzEXAMPLESESSIONTOKEN0123456789' };
const PROFILE = 'us.anthropic.claude-sonnet-4-6-v1:0';
const ARN = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-6-v1:0';

async function text(response: UpstreamResponse): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function call(body: Record<string, unknown>, extra: Partial<UpstreamCall> = {}): UpstreamCall {
  return { operation: 'messages', body, stream: body.stream === true, headers: {}, signal: new AbortController().signal, ...extra };
}

describe('bedrockUpstream against a Bedrock stub that verifies SigV4', () => {
  let stub: BedrockStub;
  let upstream: Upstream;

  beforeAll(async () => {
    stub = await startBedrockStub({ credentials: [KEYS], apiKeys: ['bedrock-api-key-0123456789abcdef'] });
    upstream = bedrockUpstream({ region: REGION, endpoint: stub.url, credentials: KEYS });
  });
  afterAll(async () => {
    await upstream.close?.();
    await stub.close();
  });
  afterEach(() => {
    stub.requests.length = 0;
    stub.script.length = 0;
  });

  it('invokes a profile id with `:` (path %3A, canonical path %253A) and sends the body Bedrock takes', async () => {
    const response = await upstream.send(
      call(
        {
          model: PROFILE,
          max_tokens: 64,
          stream: false,
          service_tier: 'auto',
          anthropic_beta: ['interleaved-thinking-2025-05-14'],
          system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
          messages: [{ role: 'user', content: 'Hi' }],
        },
        { headers: { 'anthropic-beta': 'prompt-caching-2024-07-31, interleaved-thinking-2025-05-14', 'anthropic-version': '2023-06-01', via: '1.1 modelgate-x' } },
      ),
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(await text(response)).content[0].text).toBe('Bedrock says: Hi');
    const [request] = stub.requests;
    expect(request?.authProblem).toBeUndefined();
    expect(request?.url).toBe('/model/us.anthropic.claude-sonnet-4-6-v1%3A0/invoke');
    expect(request?.canonicalUri).toBe('/model/us.anthropic.claude-sonnet-4-6-v1%253A0/invoke');
    expect(request?.headers['x-amz-security-token']).toBe(KEYS.sessionToken);
    expect(request?.headers.via).toBe('1.1 modelgate-x');
    expect(request?.headers['anthropic-version']).toBeUndefined();
    expect(JSON.parse(request!.body)).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 64,
      anthropic_beta: ['interleaved-thinking-2025-05-14'],
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'Hi' }],
    });
    // What Bedrock would refuse with a 400 for the whole request is left out, and the caller is told.
    expect(response.warnings).toEqual([
      '`service_tier` is not available on Amazon Bedrock; not sent',
      'anthropic-beta prompt-caching-2024-07-31 is not available on Amazon Bedrock; not sent',
    ]);
  });

  it('context_management goes only with a beta that enables it; cache_control.scope never goes, the caller’s body untouched', async () => {
    const scoped = { type: 'ephemeral', scope: 'global' };
    const body = {
      model: PROFILE,
      max_tokens: 16,
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      system: [{ type: 'text', text: 'Shared prefix.', cache_control: scoped }],
      tools: [{ name: 'lookup', input_schema: { type: 'object' }, cache_control: scoped }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: scoped }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'found', cache_control: scoped }] }] },
      ],
    };
    const before = JSON.stringify(body);
    const without = await upstream.send(call(body));
    await text(without);
    const sent = JSON.parse(stub.requests[0]!.body);
    expect(sent.context_management).toBeUndefined();
    expect(JSON.stringify(sent)).not.toContain('scope');
    expect(sent.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(sent.tools[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(sent.messages[0].content[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(sent.messages[2].content[0].content[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(without.warnings).toEqual([
      '`context_management` without the context-management-2025-06-27 or compact-2026-01-12 beta is not available on Amazon Bedrock; not sent',
      'cache_control.scope is not available on Amazon Bedrock; not sent',
    ]);
    // The call's body may be sent again to a fallback: it is left as it came.
    expect(JSON.stringify(body)).toBe(before);

    const withBeta = await upstream.send(call(body, { headers: { 'anthropic-beta': 'context-management-2025-06-27' } }));
    await text(withBeta);
    const sentWithBeta = JSON.parse(stub.requests[1]!.body);
    expect(sentWithBeta.context_management).toEqual(body.context_management);
    expect(sentWithBeta.anthropic_beta).toEqual(['context-management-2025-06-27']);
    expect(withBeta.warnings).toEqual(['cache_control.scope is not available on Amazon Bedrock; not sent']);
  });

  it('a call with nothing left out carries no warnings', async () => {
    const response = await upstream.send(call({ model: PROFILE, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }, { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } }));
    await text(response);
    expect(response.warnings).toBeUndefined();
    expect(JSON.parse(stub.requests[0]!.body).anthropic_beta).toEqual(['context-1m-2025-08-07']);
  });

  it('signs an ARN (its `/` and `:` encoded in one path segment)', async () => {
    const response = await upstream.send(call({ model: ARN, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }));
    expect(response.status).toBe(200);
    await text(response);
    expect(stub.requests[0]?.authProblem).toBeUndefined();
    expect(stub.requests[0]?.url).toBe(`/model/${encodeURIComponent(ARN)}/invoke`);
    expect(stub.requests[0]?.canonicalUri).toContain('%252F');
  });

  it('a wrong secret is refused by the stub, and the session token it quotes never comes back', async () => {
    const wrong = bedrockUpstream({ region: REGION, endpoint: stub.url, credentials: { ...KEYS, secretAccessKey: 'not-the-secret-0123456789' } });
    const response = await wrong.send(call({ model: PROFILE, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }));
    expect(stub.requests[0]?.authProblem).toMatch(/does not match/);
    expect(response.status).toBe(403);
    const body = await text(response);
    expect(JSON.parse(body).error.type).toBe('permission_error');
    expect(body).not.toContain(KEYS.sessionToken);
    expect(body).not.toContain('not-the-secret');
    await wrong.close?.();
  });

  it.each([
    ['ThrottlingException', 429, 429, 'rate_limit_error'],
    ['ValidationException', 400, 400, 'invalid_request_error'],
    ['ServiceUnavailableException', 503, 529, 'overloaded_error'],
    ['InternalServerException', 500, 500, 'api_error'],
    ['ModelErrorException', 424, 500, 'api_error'],
    ['ModelTimeoutException', 408, 504, 'timeout_error'],
    ['ResourceNotFoundException', 404, 404, 'not_found_error'],
  ])('HTTP %s (%i) → %i %s in the messages format', async (errorType, status, expected, type) => {
    stub.script.push({ kind: 'error', status, errorType, message: `${errorType} says no` });
    const response = await upstream.send(call({ model: PROFILE, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }));
    expect(response.status).toBe(expected);
    expect(JSON.parse(await text(response))).toEqual({ type: 'error', error: { type, message: `${errorType} says no` } });
  });

  it('count_tokens: CountTokens with the foundation-model id and the InvokeModel body in base64', async () => {
    const response = await upstream.send(call({ model: PROFILE, messages: [{ role: 'user', content: 'Count me' }] }, { operation: 'messages.count_tokens' }));
    expect(response.status).toBe(200);
    expect(JSON.parse(await text(response))).toEqual({ input_tokens: 42 });
    const [request] = stub.requests;
    expect(request?.authProblem).toBeUndefined();
    expect(request?.url).toBe('/model/anthropic.claude-sonnet-4-6-v1%3A0/count-tokens');
    const sent = JSON.parse(request!.body) as { input: { invokeModel: { body: string } } };
    expect(JSON.parse(Buffer.from(sent.input.invokeModel.body, 'base64').toString('utf8'))).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      messages: [{ role: 'user', content: 'Count me' }],
      max_tokens: 1,
    });
  });

  it('count_tokens on a model without CountTokens answers 404 (the gateway then counts locally)', async () => {
    stub.script.push({ kind: 'error', status: 400, errorType: 'ValidationException', message: 'The provided model does not support counting tokens.' });
    const response = await upstream.send(call({ model: PROFILE, messages: [{ role: 'user', content: 'Count me' }] }, { operation: 'messages.count_tokens' }));
    expect(response.status).toBe(404);
  });

  it('files and models are not served: 501 NOT_IMPLEMENTED', async () => {
    const failure = await upstream.send({ operation: 'files.list', headers: {}, signal: new AbortController().signal }).catch((error: unknown) => error);
    expect(isGatewayError(failure) && failure.status).toBe(501);
    expect(upstream.holdsFiles).toBe(false);
    expect(upstream.provider).toBe('aws.bedrock');
  });

  it('a Bedrock API key goes as a Bearer token, without SigV4', async () => {
    const keyed = bedrockUpstream({ region: REGION, endpoint: stub.url, apiKey: 'bedrock-api-key-0123456789abcdef' });
    const response = await keyed.send(call({ model: PROFILE, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }));
    expect(response.status).toBe(200);
    await text(response);
    expect(stub.requests[0]?.authProblem).toBeUndefined();
    expect(stub.requests[0]?.headers.authorization).toBe('Bearer bedrock-api-key-0123456789abcdef');
    expect(stub.requests[0]?.headers['x-amz-date']).toBeUndefined();
    expect(keyed.secrets?.()).toContain('bedrock-api-key-0123456789abcdef');
    await keyed.close?.();
  });

  it('a credential provider is called again when its credentials are about to expire', async () => {
    const sets = [
      { accessKeyId: 'AKIDROTATE000001', secretAccessKey: 'rotate-secret-one-0123456789', expiration: new Date(Date.now() + 60_000) },
      { accessKeyId: 'AKIDROTATE000002', secretAccessKey: 'rotate-secret-two-0123456789', expiration: new Date(Date.now() + 3_600_000) },
    ];
    for (const set of sets) stub.credentials.set(set.accessKeyId, set);
    let calls = 0;
    const rotating = bedrockUpstream({ region: REGION, endpoint: stub.url, credentials: async () => sets[Math.min(calls++, 1)]! });
    for (let i = 0; i < 3; i++) await text(await rotating.send(call({ model: PROFILE, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] })));
    // The first set expires within the 5-minute margin: fetched again at once; the second lasts an hour: cached.
    expect(calls).toBe(2);
    expect(stub.requests.map((request) => request.accessKeyId)).toEqual(['AKIDROTATE000001', 'AKIDROTATE000002', 'AKIDROTATE000002']);
    expect(stub.requests.every((request) => request.authProblem === undefined)).toBe(true);
    await rotating.close?.();
  });

  it('concurrent calls share one credential fetch', async () => {
    let calls = 0;
    const shared = bedrockUpstream({
      region: REGION,
      endpoint: stub.url,
      credentials: async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return KEYS;
      },
    });
    const responses = await Promise.all([1, 2, 3].map(() => shared.send(call({ model: PROFILE, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }))));
    for (const response of responses) await text(response);
    expect(calls).toBe(1);
    expect(stub.requests.every((request) => request.authProblem === undefined)).toBe(true);
    await shared.close?.();
  });

  it('a failing credential provider is a retryable 502 (a fallback is tried), and nothing is sent', async () => {
    const providerError = new Error('the role could not be assumed');
    const broken = bedrockUpstream({ region: REGION, endpoint: stub.url, credentials: () => Promise.reject(providerError) });
    const failure = await broken.send(call({ model: PROFILE, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] })).catch((error: unknown) => error);
    expect(isGatewayError(failure) && failure.code).toBe('UPSTREAM_UNAVAILABLE');
    // The client's text is fixed; the provider's error is kept below the cause for onError.
    expect((failure as Error).message).toMatch(/could not get credentials for its upstream/);
    expect((failure as Error).message).not.toContain('the role could not be assumed');
    expect(((failure as Error).cause as Error).cause).toBe(providerError);
    expect(stub.requests).toHaveLength(0);
    await broken.close?.();
  });
});

describe('bedrockUpstream credential chain and endpoint', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it('without credentials, signs with the AWS chain (environment variables) from @aws-sdk/credential-providers', async () => {
    const stub = await startBedrockStub({ credentials: [KEYS] });
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: KEYS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
      AWS_SESSION_TOKEN: KEYS.sessionToken,
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: stub.url,
    });
    delete process.env.AWS_BEARER_TOKEN_BEDROCK;
    delete process.env.AWS_PROFILE;
    const upstream = bedrockUpstream({ region: REGION });
    const response = await upstream.send(call({ model: PROFILE, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }));
    expect(response.status).toBe(200);
    await text(response);
    expect(stub.requests[0]?.authProblem).toBeUndefined();
    expect(stub.requests[0]?.accessKeyId).toBe(KEYS.accessKeyId);
    await upstream.close?.();
    await stub.close();
  });

  it('AWS_BEARER_TOKEN_BEDROCK is the API key when no credentials are given', async () => {
    const stub = await startBedrockStub({ apiKeys: ['env-bedrock-key-0123456789'] });
    process.env.AWS_BEARER_TOKEN_BEDROCK = 'env-bedrock-key-0123456789';
    const upstream = bedrockUpstream({ region: REGION, endpoint: stub.url });
    await text(await upstream.send(call({ model: PROFILE, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] })));
    expect(stub.requests[0]?.authProblem).toBeUndefined();
    expect(stub.requests[0]?.headers.authorization).toBe('Bearer env-bedrock-key-0123456789');
    await upstream.close?.();
    await stub.close();
  });

  it('the endpoint: option, AWS_ENDPOINT_URL_BEDROCK_RUNTIME, AWS_ENDPOINT_URL, then the region', () => {
    expect(bedrockEndpoint('eu-west-3', undefined, {})).toBe('https://bedrock-runtime.eu-west-3.amazonaws.com');
    expect(bedrockEndpoint('eu-west-3', undefined, { AWS_ENDPOINT_URL: 'http://all:1' })).toBe('http://all:1');
    expect(bedrockEndpoint('eu-west-3', undefined, { AWS_ENDPOINT_URL: 'http://all:1', AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://br:2' })).toBe('http://br:2');
    expect(bedrockEndpoint('eu-west-3', 'http://mine:3', { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://br:2' })).toBe('http://mine:3');
    const upstream = bedrockUpstream({ region: 'eu-west-3', credentials: KEYS });
    expect(upstream.name).toBe('bedrock-runtime.eu-west-3.amazonaws.com');
    expect(upstream.server).toEqual({ address: 'bedrock-runtime.eu-west-3.amazonaws.com', port: 443 });
  });

  it('an AWS_ENDPOINT_URL_BEDROCK_RUNTIME that is not a URL is a configuration error', () => {
    process.env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME = 'bedrock.internal:8080';
    expect(() => bedrockUpstream({ region: REGION, credentials: KEYS })).toThrow(/endpoint is not given, and AWS_ENDPOINT_URL_BEDROCK_RUNTIME/);
  });

  it.each([
    [{ credentials: KEYS }, /region is undefined/],
    [{ region: 'virginia', credentials: KEYS }, /is not an AWS region/],
    [{ region: REGION, credentials: KEYS, apiKey: 'k-0123456789' }, /not both/],
    [{ region: REGION, apiKey: undefined }, /apiKey is undefined/],
    [{ region: REGION, credentials: { accessKeyId: 'AKID' } }, /secretAccessKey/],
    [{ region: REGION, credentials: KEYS, baseURL: 'https://x' }, /baseURL is not an option of bedrockUpstream/],
    [{ region: REGION, credentials: KEYS, endpoint: 'https://x/?a=1' }, /query/],
  ])('refuses wrong options with a GatewayConfigError (%#)', (options, message) => {
    const error = (() => {
      try {
        bedrockUpstream(options as never);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(isGatewayConfigError(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
  });
});
