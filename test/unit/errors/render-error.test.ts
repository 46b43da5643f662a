import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import {
  chatErrorType,
  messagesErrorType,
  renderError,
  toChatErrorBody,
  toMessagesErrorBody,
} from '../../../src/render-error.js';
import { chatErrorBodySchema } from '../../../src/schemas/chat.js';
import { messagesErrorBodySchema } from '../../../src/schemas/messages.js';

/** An error with this status (the code table is bypassed on purpose). */
function withStatus(status: number, options: ConstructorParameters<typeof GatewayError>[2] = {}): GatewayError {
  return new GatewayError(status < 500 ? 'INVALID_REQUEST' : 'INTERNAL', `failure ${status}`, { ...options, status });
}

/** PROTOCOLS A.7, typed in by hand. */
const MESSAGES_TYPES: ReadonlyArray<[number, string]> = [
  [400, 'invalid_request_error'],
  [401, 'authentication_error'],
  [402, 'billing_error'],
  [403, 'permission_error'],
  [404, 'not_found_error'],
  [409, 'conflict_error'],
  [413, 'request_too_large'],
  [429, 'rate_limit_error'],
  [500, 'api_error'],
  [504, 'timeout_error'],
  [529, 'overloaded_error'],
  // "also used for other 4xx"
  [405, 'invalid_request_error'],
  [408, 'invalid_request_error'],
  [415, 'invalid_request_error'],
  [422, 'invalid_request_error'],
];

/** PROTOCOLS B.5 where it names the `type` / `code`; `undefined` = not checked. */
const CHAT_TYPES: ReadonlyArray<[number, string | undefined, string | null | undefined]> = [
  [400, 'invalid_request_error', null],
  [401, 'invalid_request_error', 'invalid_api_key'],
  [403, undefined, undefined],
  [404, 'invalid_request_error', undefined],
  [429, undefined, 'rate_limit_exceeded'],
  [500, 'server_error', null],
  [503, 'server_error', undefined],
];

describe('renderError in the messages format', () => {
  it.each(MESSAGES_TYPES)('%i → error.type %s', (status, type) => {
    const rendered = renderError(withStatus(status), 'messages');
    expect(rendered.type).toBe('json');
    expect(rendered.status).toBe(status);
    expect(rendered.body).toEqual({ type: 'error', error: { type, message: `failure ${status}` } });
    expect(messagesErrorBodySchema.safeParse(rendered.body).success).toBe(true);
    expect(messagesErrorType(status)).toBe(type);
  });

  it('other 5xx → api_error', () => {
    for (const status of [501, 502, 503]) expect(messagesErrorType(status)).toBe('api_error');
  });

  it('messagesType overrides the table', () => {
    const error = withStatus(502, { messagesType: 'overloaded_error' });
    expect(toMessagesErrorBody(error)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'failure 502' } });
  });

  it('has no chat fields', () => {
    const body = toMessagesErrorBody(withStatus(400, { param: 'model', chatCode: 'x' })) as unknown as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'type']);
    expect(Object.keys(body.error as object).sort()).toEqual(['message', 'type']);
  });
});

describe('renderError in the chat format', () => {
  it.each(CHAT_TYPES)('%i → type %s, code %s', (status, type, code) => {
    const rendered = renderError(withStatus(status), 'chat');
    expect(rendered.status).toBe(status);
    const body = rendered.body as { error: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(body.error.message).toBe(`failure ${status}`);
    expect(body.error.param).toBeNull();
    if (type !== undefined) expect(body.error.type).toBe(type);
    if (code !== undefined) expect(body.error.code).toBe(code);
    expect(typeof body.error.type).toBe('string');
    expect(chatErrorBodySchema.safeParse(rendered.body).success).toBe(true);
  });

  it('every status of both tables yields a schema-valid chat body', () => {
    for (const [status] of [...MESSAGES_TYPES, ...CHAT_TYPES]) {
      expect(chatErrorBodySchema.safeParse(renderError(withStatus(status), 'chat').body).success).toBe(true);
      expect(messagesErrorBodySchema.safeParse(renderError(withStatus(status), 'messages').body).success).toBe(true);
    }
  });

  it('param, chatCode and chatType are written; chatCode overrides the default code', () => {
    const error = new GatewayError('AUTHENTICATION_FAILED', 'bad key', { chatCode: 'custom_code', chatType: 'auth', param: 'header' });
    expect(toChatErrorBody(error)).toEqual({ error: { message: 'bad key', type: 'auth', param: 'header', code: 'custom_code' } });
  });

  it('the 400 wording of PROTOCOLS B.1 round-trips', () => {
    const error = new GatewayError('UNSUPPORTED_PARAMETER', "Unsupported parameter: 'max_tokens'", {
      param: 'max_tokens',
      chatCode: 'unsupported_parameter',
    });
    expect(renderError(error, 'chat').body).toEqual({
      error: { message: "Unsupported parameter: 'max_tokens'", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' },
    });
  });

  it('chatErrorType falls back by status class', () => {
    expect(chatErrorType(418)).toEqual({ type: 'invalid_request_error', code: null });
    expect(chatErrorType(502)).toEqual({ type: 'server_error', code: null });
  });
});

describe('508 Loop Detected', () => {
  it('is a server-side error in both formats, with a chat code naming it', () => {
    const error = new GatewayError('LOOP_DETECTED', 'Request loop: this gateway is its own upstream.');
    expect(renderError(error, 'messages').body).toEqual({ type: 'error', error: { type: 'api_error', message: 'Request loop: this gateway is its own upstream.' } });
    expect(renderError(error, 'chat').body).toEqual({
      error: { message: 'Request loop: this gateway is its own upstream.', type: 'server_error', param: null, code: 'loop_detected' },
    });
  });
});

describe('x-should-retry', () => {
  const NOT_RETRYABLE = [400, 401, 402, 403, 404, 405, 413, 415, 422, 501, 508];
  const RETRYABLE = [408, 409, 429, 500, 502, 503, 504, 529];

  it.each(NOT_RETRYABLE)('%i → x-should-retry: false in both formats', (status) => {
    expect(renderError(withStatus(status), 'chat').headers['x-should-retry']).toBe('false');
    expect(renderError(withStatus(status), 'messages').headers['x-should-retry']).toBe('false');
  });

  it.each(RETRYABLE)('%i → no x-should-retry header', (status) => {
    expect(renderError(withStatus(status), 'chat').headers).not.toHaveProperty('x-should-retry');
    expect(renderError(withStatus(status), 'messages').headers).not.toHaveProperty('x-should-retry');
  });

  it('the table default of each code agrees (NOT_IMPLEMENTED and LOOP_DETECTED are final, RATE_LIMITED is not)', () => {
    expect(renderError(new GatewayError('NOT_IMPLEMENTED', 'x'), 'chat').headers['x-should-retry']).toBe('false');
    expect(renderError(new GatewayError('LOOP_DETECTED', 'x'), 'messages').headers['x-should-retry']).toBe('false');
    expect(renderError(new GatewayError('RATE_LIMITED', 'x'), 'chat').headers).not.toHaveProperty('x-should-retry');
    expect(renderError(new GatewayError('UPSTREAM_TIMEOUT', 'x'), 'chat').headers).not.toHaveProperty('x-should-retry');
  });
});

describe('extra headers', () => {
  it('are kept next to x-should-retry', () => {
    const error = withStatus(405, { headers: { allow: 'POST' } });
    expect(renderError(error, 'chat').headers).toEqual({ allow: 'POST', 'x-should-retry': 'false' });
  });

  it('are kept on retryable errors', () => {
    const error = withStatus(429, { headers: { 'retry-after': '2', 'retry-after-ms': '2000' } });
    expect(renderError(error, 'messages').headers).toEqual({ 'retry-after': '2', 'retry-after-ms': '2000' });
  });

  it('an explicit x-should-retry on the error wins', () => {
    const error = withStatus(400, { headers: { 'x-should-retry': 'true' } });
    expect(renderError(error, 'chat').headers['x-should-retry']).toBe('true');
  });

  it("do not mutate the error's own headers", () => {
    const error = withStatus(400, { headers: { foo: 'bar' } });
    renderError(error, 'chat');
    expect(error.headers).toEqual({ foo: 'bar' });
  });
});
