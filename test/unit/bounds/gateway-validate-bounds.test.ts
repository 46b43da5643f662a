/**
 * The gateway's validate step checks the request bounds on every model
 * endpoint, before the temperature rule and the schemas, and answers 400 in
 * the caller's format with the field as `param`.
 */
import { describe, expect, it } from 'vitest';
import { createGateway, type GatewayRequest, type GatewayResponse, type Upstream } from 'modelgate';
import { times } from './bound-cases.js';

const KEY = 'sk-bounds-0123456789';

/** An upstream that fails the test if any call reaches it. */
const unreachable: Upstream = {
  name: 'unreachable',
  format: 'chat',
  send() {
    throw new Error('a request past its bounds reached the upstream');
  },
};

function post(url: string, body: unknown, parsed = false): GatewayRequest {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'x-api-key': KEY };
  const base = { method: 'POST', url, headers, signal: new AbortController().signal };
  return parsed ? { ...base, body } : { ...base, rawBody: Buffer.from(JSON.stringify(body)) };
}

const gateway = createGateway({ auth: { keys: [KEY] }, routes: [{ match: '*', upstream: unreachable }], requestBounds: { maxMessages: 3 } });

const user = { role: 'user', content: 'Hi.' };
const chatBody = { model: 'gpt-5', messages: times(4, () => user) };
const messagesBody = { model: 'vendora-sonnet-4-6', max_tokens: 16, messages: times(4, () => user) };
const responsesBody = { model: 'gpt-5', input: times(4, () => user) };

function chatError(response: GatewayResponse) {
  return (response as { body: { error: { message: string; type: string; param: string | null; code: string | null } } }).body.error;
}

describe('validate checks the request bounds', () => {
  it.each([
    ['/v1/chat/completions', 'messages', chatBody],
    ['/v1/responses', 'input', responsesBody],
    ['/v1/responses/input_tokens', 'input', responsesBody],
  ])('%s: 400 as an OpenAI error naming %s', async (url, param, body) => {
    const response = await gateway.handle(post(url, body));
    expect(response.status).toBe(400);
    expect(chatError(response)).toEqual({
      type: 'invalid_request_error',
      param,
      code: 'array_above_max_length',
      message: expect.stringMatching(new RegExp(`^${param}: 4 items; this gateway takes at most 3 \\(requestBounds\\.maxMessages\\)\\.`)),
    });
  });

  it.each(['/v1/messages', '/v1/messages/count_tokens'])('%s: 400 as the vendor error', async (url) => {
    const response = await gateway.handle(post(url, messagesBody));
    expect(response.status).toBe(400);
    expect((response as { body: unknown }).body).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'messages: 4 items; this gateway takes at most 3 (requestBounds.maxMessages). Send fewer messages (drop or summarize older turns).',
      },
    });
  });

  it('checks a body the framework already parsed', async () => {
    const response = await gateway.handle(post('/v1/chat/completions', chatBody, true));
    expect(chatError(response).param).toBe('messages');
  });

  it('runs before the schemas: too many invalid messages get the bound, not a schema error per entry', async () => {
    const response = await gateway.handle(post('/v1/chat/completions', { model: 'gpt-5', messages: [1, 2, 3, 4] }));
    expect(chatError(response)).toMatchObject({ param: 'messages', code: 'array_above_max_length' });
  });

  it('runs before the temperature rule', async () => {
    const body = { ...messagesBody, model: 'vendora-opus-4-7', temperature: 0.5 };
    const response = await gateway.handle(post('/v1/messages', body));
    expect((response as { body: { error: { message: string } } }).body.error.message).toMatch(/^messages: 4 items/);
  });

  it('leaves a body within its bounds to the schemas', async () => {
    const response = await gateway.handle(post('/v1/chat/completions', { model: 'gpt-5', messages: [1] }));
    expect(response.status).toBe(400);
    expect(chatError(response).message).not.toMatch(/requestBounds/);
  });

  it('applies the defaults when the option is not set', async () => {
    const plain = createGateway({ auth: { keys: [KEY] }, routes: [{ match: '*', upstream: unreachable }] });
    const response = await plain.handle(post('/v1/chat/completions', { model: 'm'.repeat(257), messages: [user] }));
    expect(chatError(response)).toMatchObject({ param: 'model', code: 'string_above_max_length' });
    expect(chatError(response).message).toContain('at most 256 (requestBounds.maxModelLength)');
  });
});
