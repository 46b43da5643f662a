/**
 * What callers see of the operator's setup, and what they may switch on at
 * the vendor, through real HTTP (node:http and Express) with two keys and
 * real stub upstreams on 127.0.0.1: no upstream address in the model
 * listing, fixed text for a failed credential provider (its detail reaches
 * onError), the vendor account's rate-limit headers only on a keyPassthrough
 * route, and vendor betas and fields reaching the account refused by default.
 */
import type { LookupFunction } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { bedrockUpstream, createGateway, type GatewayOptions, messagesUpstream, openAICompatible } from 'modelgate';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, failure, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { type StubUpstream, startStubUpstream } from '../helpers/stub-upstream.js';

const KEY_A = 'sk-tenant-a-0123456789abcdef';
const KEY_B = 'sk-tenant-b-0123456789abcdef';
const INTERNAL_HOST = 'llm.internal.corp';
/** What a credential library says when it fails: a file path, a profile, a role ARN with the account id. */
const PROVIDER_DETAIL =
  'Could not load credentials from /home/ops/.aws/credentials (profile prod-gateway); AccessDenied: arn:aws:iam::123456789012:role/gateway-invoke is not authorized to perform sts:AssumeRole';

const VENDOR_RATE_LIMITS = {
  'anthropic-ratelimit-requests-limit': '4000',
  'anthropic-ratelimit-requests-remaining': '3999',
  'anthropic-ratelimit-tokens-limit': '2000000',
};

const answer = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'upstream-model',
  content: [{ type: 'text', text: 'Hello' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 3, output_tokens: 1 },
};

const hi = [{ role: 'user' as const, content: 'Hi' }];

/** Resolves the internal host name to the stub's loopback address (the name is what must not leak). */
const toLoopback: LookupFunction = (_hostname, options, callback) => {
  if (options.all) (callback as unknown as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

describe.each(['node', 'express5'] as const)('vendor surface through the gateway mounted on %s', (mount) => {
  let app: StartedApp;
  let vendor: StubUpstream;
  let internal: StubUpstream;
  let aws: StubUpstream;
  const errors: unknown[] = [];
  const dispatcher = new Agent({ connect: { lookup: toLoopback } });

  beforeAll(async () => {
    vendor = await startStubUpstream(() => ({ kind: 'json', headers: VENDOR_RATE_LIMITS, body: answer }));
    internal = await startStubUpstream(() => ({
      kind: 'json',
      body: { id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'internal says hi' }, finish_reason: 'stop' }] },
    }));
    aws = await startStubUpstream(() => ({ kind: 'json', body: answer }));
    const port = new URL(internal.url).port;
    const vendorUpstream = () => messagesUpstream({ baseURL: vendor.url, apiKey: 'sk-operator-vendor-key-0123456789' });
    const options: GatewayOptions = {
      auth: { keys: [KEY_A, KEY_B] },
      onError: (event) => errors.push(event.error),
      routes: [
        { match: 'team-model', upstream: openAICompatible({ baseURL: `http://${INTERNAL_HOST}:${port}/v1`, apiKey: 'sk-internal', dispatcher }) },
        {
          match: 'aws-model',
          serveMessages: true,
          retries: 0,
          upstream: bedrockUpstream({ region: 'us-east-1', endpoint: aws.url, credentials: () => Promise.reject(new Error(PROVIDER_DETAIL)) }),
          model: 'anthropic.claude-test-v1:0',
        },
        { match: 'own-key-model', serveMessages: true, keyPassthrough: true, upstream: messagesUpstream({ baseURL: vendor.url }) },
        { match: 'vendora-sonnet-4-6', upstream: vendorUpstream(), betas: { allow: ['*', 'files-api-*'] } },
        { match: 'vendora-*', upstream: vendorUpstream() },
      ],
    };
    app = await startApp(mount, createGateway(options));
  });

  afterAll(async () => {
    await app.close();
    await Promise.all([vendor.close(), internal.close(), aws.close()]);
    await dispatcher.close();
  });

  it('GET /v1/models lists the exact-id route without the upstream’s host, to both clients and both keys', async () => {
    for (const key of [KEY_A, KEY_B]) {
      const response = await fetch(`${app.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
      const text = await response.text();
      expect(text).toContain('"team-model"');
      expect(text).not.toContain(INTERNAL_HOST);
      expect(text).not.toContain(port(internal));
    }
    const listed = await openAIClient(app.url, KEY_A).models.retrieve('team-model');
    expect(listed.owned_by).toBe('modelgate');
    const vendorListed = await anthropicClient(app.url, KEY_B).models.retrieve('team-model');
    expect(JSON.stringify(vendorListed)).not.toContain(INTERNAL_HOST);
    // The route works: the name resolves to the stub.
    const completion = await openAIClient(app.url, KEY_B).chat.completions.create({ model: 'team-model', messages: hi });
    expect(completion.choices[0]?.message.content).toBe('internal says hi');
  });

  it('a failing credential provider: fixed text for the client, the provider’s detail in onError', async () => {
    errors.length = 0;
    const error = await failure(() => anthropicClient(app.url, KEY_A).messages.create({ model: 'aws-model', max_tokens: 16, messages: hi }));
    expect(error).toBeInstanceOf(Anthropic.APIError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(502);
    const body = JSON.stringify(apiError.error);
    expect(body).toMatch(/could not get credentials for its upstream/);
    for (const detail of ['/home/ops', '.aws', 'prod-gateway', 'arn:aws', '123456789012', 'AssumeRole']) expect(body, detail).not.toContain(detail);
    expect(aws.requests).toHaveLength(0);
    const causes: string[] = [];
    for (let cause: unknown = errors.at(-1); cause instanceof Error; cause = cause.cause) causes.push(cause.message);
    expect(causes.join(' | ')).toContain('sts:AssumeRole');
  });

  it('the vendor account’s rate-limit headers stay behind on a normal route, and reach the caller on a keyPassthrough route', async () => {
    const shared = await anthropicClient(app.url, KEY_A).messages.create({ model: 'vendora-haiku-4-5', max_tokens: 16, messages: hi }).withResponse();
    expect(shared.data.content[0]).toMatchObject({ type: 'text', text: 'Hello' });
    for (const name of Object.keys(VENDOR_RATE_LIMITS)) expect(shared.response.headers.get(name), name).toBeNull();
    const chat = await openAIClient(app.url, KEY_B).chat.completions.create({ model: 'vendora-haiku-4-5', messages: hi }).withResponse();
    for (const name of Object.keys(VENDOR_RATE_LIMITS)) expect(chat.response.headers.get(name), name).toBeNull();

    const own = await anthropicClient(app.url, KEY_B).messages.create({ model: 'own-key-model', max_tokens: 16, messages: hi }).withResponse();
    expect(vendor.requests.at(-1)?.headers['x-api-key']).toBe(KEY_B);
    for (const [name, value] of Object.entries(VENDOR_RATE_LIMITS)) expect(own.response.headers.get(name), name).toBe(value);
  });

  it('a files or MCP connector beta is refused with a 400 naming it; an allowed beta is forwarded', async () => {
    const client = anthropicClient(app.url, KEY_A);
    const before = vendor.requests.length;
    for (const beta of ['files-api-2025-04-14', 'mcp-client-2025-11-20'] as const) {
      const error = await failure(() => client.beta.messages.create({ model: 'vendora-haiku-4-5', max_tokens: 16, messages: hi, betas: [beta] }));
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      const refused = error as InstanceType<typeof Anthropic.BadRequestError>;
      expect(refused.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(refused.message).toContain(beta);
      expect(refused.message).toContain('betas: { allow:');
    }
    const mcp = await failure(() =>
      client.beta.messages.create({ model: 'vendora-haiku-4-5', max_tokens: 16, messages: hi, mcp_servers: [{ type: 'url', name: 'x', url: 'http://10.0.0.8/mcp' }] }),
    );
    expect(mcp).toBeInstanceOf(Anthropic.BadRequestError);
    expect((mcp as Error).message).toContain('mcp_servers');
    expect(vendor.requests.length).toBe(before);

    await client.beta.messages.create({ model: 'vendora-haiku-4-5', max_tokens: 16, messages: hi, betas: ['claude-code-20250219', 'interleaved-thinking-2025-05-14'] });
    expect(vendor.requests.at(-1)?.headers['anthropic-beta']).toBe('claude-code-20250219,interleaved-thinking-2025-05-14');
    // A route that allows the files feature forwards its beta.
    await client.beta.messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 16, messages: hi, betas: ['files-api-2025-04-14'] });
    expect(vendor.requests.at(-1)?.headers['anthropic-beta']).toBe('files-api-2025-04-14');
  });
});

function port(stub: StubUpstream): string {
  return `:${new URL(stub.url).port}`;
}
