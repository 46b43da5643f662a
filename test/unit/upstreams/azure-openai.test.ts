/**
 * `azureOpenAI` against the Azure protocol stub: URLs of both API flavours,
 * credentials, deployments, the v1 body, Entra token failures, filtered
 * prompts, and the options it refuses.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { isGatewayConfigError } from '../../../src/options/gateway-config-error.js';
import { azureOpenAI } from '../../../src/upstreams/azure/azure-openai.js';
import type { AzureOpenAIOptions } from '../../../src/upstreams/azure/azure-openai-options.js';
import { readBody } from '../../../src/upstreams/read-body.js';
import type { Upstream, UpstreamCall } from '../../../src/upstreams/upstream.js';
import { type AzureStub, startAzureStub } from '../../helpers/azure-stub.js';

const KEY = 'azure-key-0123456789abcdef0123456789';
let stub: AzureStub | undefined;
let upstream: Upstream | undefined;

afterEach(async () => {
  await upstream?.close?.();
  await stub?.close();
  stub = undefined;
  upstream = undefined;
});

const call = (over: Partial<UpstreamCall> = {}): UpstreamCall => ({
  operation: 'chat.completions',
  headers: {},
  signal: new AbortController().signal,
  body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] },
  ...over,
});
const text = async (body: AsyncIterable<Uint8Array>) => new TextDecoder().decode((await readBody(body)).bytes);

async function start(options: Omit<AzureOpenAIOptions, 'endpoint'>, deployments = ['gpt-4o'], endpointPath = ''): Promise<Upstream> {
  stub = await startAzureStub({ keys: [KEY], deployments, tokens: () => ['entra-token-1'] });
  upstream = azureOpenAI({ endpoint: `${stub.endpoint}${endpointPath}`, ...options });
  return upstream;
}

describe('azureOpenAI', () => {
  it('dated API: the deployment URL with api-version, the key as api-key, the body as sent', async () => {
    const azure = await start({ apiKey: KEY, apiVersion: '2024-10-21', deployment: { 'gpt-4o': 'gpt4o-prod' } }, ['gpt4o-prod']);
    const response = await azure.send(call({ headers: { authorization: 'Bearer caller', 'x-trace': 't1' } }));
    expect(response.status).toBe(200);
    expect(JSON.parse(await text(response.body))).toMatchObject({ choices: [{ message: { content: 'Hello from Azure.' } }] });
    const [request] = stub!.requests;
    expect(request?.url).toBe('/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21');
    expect(request?.headers['api-key']).toBe(KEY);
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.headers['x-trace']).toBe('t1');
    expect(JSON.parse(request!.body).model).toBe('gpt-4o');
    expect(azure.provider).toBe('azure.ai.openai');
    expect(azure.secrets?.()).toContain(KEY);
  });

  it('v1 API (the default): /openai/v1, the deployment in the body, no api-version; the caller bytes pass when nothing changes', async () => {
    const azure = await start({ apiKey: KEY, deployment: (model) => `${model}-dep` }, ['gpt-4o-dep', 'gpt-4o']);
    expect((await azure.send(call())).status).toBe(200);
    expect(stub!.requests[0]?.url).toBe('/openai/v1/chat/completions');
    expect(JSON.parse(stub!.requests[0]!.body).model).toBe('gpt-4o-dep');
    await upstream?.close?.();
    upstream = azureOpenAI({ endpoint: `${stub!.endpoint}/openai/v1/`, apiKey: KEY });
    const raw = new TextEncoder().encode('{"model":"gpt-4o",  "messages":[{"role":"user","content":"Hi"}]}');
    expect((await upstream.send(call({ rawBody: raw }))).status).toBe(200);
    expect(stub!.requests[1]?.url).toBe('/openai/v1/chat/completions');
    expect(stub!.requests[1]?.body).toBe(new TextDecoder().decode(raw));
  });

  it('an endpoint path prefix (an API gateway in front) is kept; a string deployment serves every model', async () => {
    const azure = await start({ apiKey: KEY, apiVersion: '2025-04-01-preview', deployment: 'shared' }, ['shared'], '/azure/openai');
    await azure.send(call({ body: { model: 'anything', messages: [] } }));
    expect(stub!.requests[0]?.url).toBe('/azure/openai/deployments/shared/chat/completions?api-version=2025-04-01-preview');
  });

  it('Entra ID: the provider is asked before every call and its token sent as Bearer', async () => {
    let calls = 0;
    const azure = await start({ azureADTokenProvider: async () => (++calls, 'entra-token-1') });
    await azure.send(call());
    await azure.send(call());
    expect(calls).toBe(2);
    expect(stub!.requests.map((request) => request.headers.authorization)).toEqual(['Bearer entra-token-1', 'Bearer entra-token-1']);
    expect(stub!.requests[0]?.headers['api-key']).toBeUndefined();
  });

  it('a failing or empty token provider is a 502 with fixed text; the provider is named in the cause, its error below it', async () => {
    const providerError = new Error('AADSTS700016: secret-ish detail');
    const azure = await start({ azureADTokenProvider: () => Promise.reject(providerError) });
    const error = await azure.send(call()).catch((thrown: unknown) => thrown);
    expect(isGatewayError(error) && error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect((error as Error).message).toMatch(/could not get credentials for its upstream/);
    expect((error as Error).message).not.toContain('AADSTS');
    const cause = (error as Error).cause as Error;
    expect(cause.message).toContain('azureADTokenProvider failed');
    expect(cause.cause).toBe(providerError);
    await upstream?.close?.();
    upstream = azureOpenAI({ endpoint: stub!.endpoint, azureADTokenProvider: () => '' });
    const empty = await upstream.send(call()).catch((thrown: unknown) => thrown);
    expect(isGatewayError(empty) && empty.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(stub!.requests).toHaveLength(0);
  });

  it('key passthrough: the caller key goes as api-key', async () => {
    const azure = await start({});
    expect((await azure.send(call({ callerKey: KEY }))).status).toBe(200);
    expect(stub!.requests[0]?.headers['api-key']).toBe(KEY);
  });

  it('a filtered prompt comes back as a plain OpenAI-shaped 400 naming the categories', async () => {
    const azure = await start({ apiKey: KEY });
    const response = await azure.send(call({ body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'blocked words' }] } }));
    expect(response.status).toBe(400);
    const body = JSON.parse(await text(response.body));
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'prompt', code: 'content_filter' });
    expect(body.error.message).toContain('content filter');
    expect(body.error.message).toContain('jailbreak');
    expect(body.error.message).toContain('violence (high)');
  });

  it('an error body quoting the Entra token is returned with the token hidden; a 429 keeps its string code and retry-after', async () => {
    const azure = await start({ azureADTokenProvider: () => 'entra-token-1' });
    const leaked = await azure.send(call({ body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'leak' }] } }));
    const leakedText = await text(leaked.body);
    expect(leakedText).not.toContain('entra-token-1');
    expect(leakedText).toContain('[redacted]');
    const limited = await azure.send(call({ body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'throttle-always' }] } }));
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(JSON.parse(await text(limited.body)).error.code).toBe('429');
  });

  it('other operations are not implemented', async () => {
    const azure = await start({ apiKey: KEY });
    const error = await azure.send(call({ operation: 'models.list', body: undefined })).catch((thrown: unknown) => thrown);
    expect(isGatewayError(error) && error.status).toBe(501);
  });

  it('a deployment function that gives nothing is the operator’s 502, not a crash', async () => {
    const azure = await start({ apiKey: KEY, deployment: () => '' });
    const error = await azure.send(call()).catch((thrown: unknown) => thrown);
    expect(isGatewayError(error) && error.code).toBe('UPSTREAM_ERROR');
  });
});

describe('azureOpenAI options', () => {
  const problems = (options: unknown): string => {
    try {
      azureOpenAI(options as AzureOpenAIOptions);
    } catch (error) {
      if (isGatewayConfigError(error)) return error.message;
      throw error;
    }
    return '';
  };
  const endpoint = 'https://res.openai.azure.com';

  it('refuses what cannot work, saying what to change', () => {
    expect(problems({ endpoint, apiKey: 'k'.repeat(32), azureADTokenProvider: () => 't' })).toMatch(/azureADTokenProvider cannot be given with `apiKey`/);
    expect(problems({ endpoint, apiKey: undefined })).toMatch(/apiKey is undefined — an unset environment variable\? Set AZURE_OPENAI_API_KEY/);
    expect(problems({ endpoint, apiVersion: '2024-10' })).toMatch(/apiVersion must be 'v1'/);
    expect(problems({ endpoint: `${endpoint}/openai/v1`, apiVersion: '2024-10-21' })).toMatch(/endpoint ends in \/openai\/v1/);
    expect(problems({ endpoint: `${endpoint}?api-version=2024-10-21` })).toMatch(/endpoint has a query/);
    expect(problems({ endpoint: `${endpoint}/openai/deployments/gpt-4o/chat/completions` })).toMatch(/endpoint is a full request URL/);
    expect(problems({ endpoint: `${endpoint}/openai/v1/chat/completions` })).toMatch(/endpoint is a full request URL/);
    expect(problems({ endpoint: 'ftp://res' })).toMatch(/endpoint must be an http or https URL/);
    expect(problems({ endpoint, deployment: { 'gpt-4o': 3 } })).toMatch(/deployment must be a deployment name, a record/);
    expect(problems({ endpoint, azureADTokenProvider: 'token' })).toMatch(/azureADTokenProvider must be a function/);
    expect(problems({ endpoint, apiKey: 'k'.repeat(32), baseURL: endpoint })).toMatch(/baseURL/);
  });

  it('accepts each documented form', () => {
    for (const options of [
      { endpoint },
      { endpoint: `${endpoint}/openai/v1`, apiVersion: 'v1' },
      { endpoint, apiKey: 'k'.repeat(32), apiVersion: '2024-10-21', deployment: 'd' },
      { endpoint, azureADTokenProvider: async () => 't', deployment: { a: 'b' } },
      { endpoint, deployment: (model: string) => model },
    ]) expect(problems(options)).toBe('');
  });
});
