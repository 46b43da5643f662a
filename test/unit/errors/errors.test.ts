import { describe, expect, it } from 'vitest';
import { ERROR_CODES, GatewayError, isGatewayError, toGatewayError, type ErrorCode } from '../../../src/errors.js';

/** Expected code → status, typed in by hand (STYLE 4: one table). */
const EXPECTED_STATUS: Record<ErrorCode, number> = {
  INVALID_REQUEST: 400,
  INVALID_JSON: 400,
  UNSUPPORTED_PARAMETER: 400,
  UNSUPPORTED_FEATURE: 400,
  CONTENT_FILTERED: 400,
  AUTHENTICATION_FAILED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  MODEL_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  REQUEST_TOO_LARGE: 413,
  CLIENT_CLOSED_REQUEST: 499,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  UPSTREAM_UNAVAILABLE: 502,
  UPSTREAM_ERROR: 502,
  UPSTREAM_ENDPOINT_MISSING: 502,
  UPSTREAM_COOLING: 503,
  GUARD_FAILED: 503,
  UPSTREAM_TIMEOUT: 504,
  LOOP_DETECTED: 508,
  OVERLOADED: 529,
};

describe('ERROR_CODES', () => {
  it('is the expected table', () => {
    expect({ ...ERROR_CODES }).toEqual(EXPECTED_STATUS);
  });

  it('codes are UPPER_SNAKE', () => {
    for (const code of Object.keys(ERROR_CODES)) expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
  });

  it.each(Object.entries(EXPECTED_STATUS) as Array<[ErrorCode, number]>)('%s → %i, expose for 4xx only', (code, status) => {
    const error = new GatewayError(code, 'msg');
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.expose).toBe(status < 500);
  });
});

describe('GatewayError', () => {
  it('is an Error with name, message and defaults', () => {
    const error = new GatewayError('INVALID_REQUEST', 'messages: required');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.name).toBe('GatewayError');
    expect(error.message).toBe('messages: required');
    expect(error.param).toBeNull();
    expect(error.chatCode).toBeNull();
    expect(error.messagesType).toBeUndefined();
    expect(error.chatType).toBeUndefined();
    expect(error.headers).toEqual({});
    expect(error.cause).toBeUndefined();
    expect(error.stack).toContain('GatewayError');
  });

  it('keeps every option', () => {
    const cause = new Error('root');
    const error = new GatewayError('UPSTREAM_ERROR', 'upstream failed', {
      status: 503,
      param: 'messages.0',
      chatCode: 'slow_down',
      messagesType: 'overloaded_error',
      chatType: 'server_error',
      headers: { 'retry-after': '1' },
      cause,
    });
    expect(error.status).toBe(503);
    expect(error.expose).toBe(false);
    expect(error.param).toBe('messages.0');
    expect(error.chatCode).toBe('slow_down');
    expect(error.messagesType).toBe('overloaded_error');
    expect(error.chatType).toBe('server_error');
    expect(error.headers).toEqual({ 'retry-after': '1' });
    expect(error.cause).toBe(cause);
  });

  it('a status override decides expose', () => {
    expect(new GatewayError('UPSTREAM_ERROR', 'x', { status: 422 }).expose).toBe(true);
    expect(new GatewayError('INVALID_REQUEST', 'x', { status: 500 }).expose).toBe(false);
    expect(new GatewayError('INVALID_REQUEST', 'x', { status: 499 }).expose).toBe(true);
  });

  it('param null stays null', () => {
    expect(new GatewayError('INVALID_REQUEST', 'x', { param: null }).param).toBeNull();
  });
});

const MARKER: unique symbol = Symbol.for('modelgate.GatewayError');

/** A stand-in for a GatewayError built by a second copy of the package (ESM + CJS). */
class ForeignGatewayError extends Error {
  readonly [MARKER] = true;
  readonly code = 'RATE_LIMITED';
  readonly status = 429;
  readonly expose = true;
  readonly param = null;
  readonly chatCode = null;
  readonly messagesType = undefined;
  readonly chatType = undefined;
  readonly headers = {};
}

describe('isGatewayError', () => {
  it('true for GatewayError', () => {
    expect(isGatewayError(new GatewayError('INTERNAL', 'x'))).toBe(true);
  });

  it('true for an object from another copy carrying the Symbol.for marker', () => {
    const foreign = new ForeignGatewayError('slow down');
    expect(foreign instanceof GatewayError).toBe(false);
    expect(isGatewayError(foreign)).toBe(true);
    expect(isGatewayError({ [Symbol.for('modelgate.GatewayError')]: true })).toBe(true);
  });

  it.each([
    ['plain Error', new Error('x')],
    ['null', null],
    ['undefined', undefined],
    ['string', 'GatewayError'],
    ['number', 404],
    ['look-alike without marker', { name: 'GatewayError', code: 'INTERNAL', status: 500, message: 'x' }],
    ['marker with a truthy non-true value', { [Symbol.for('modelgate.GatewayError')]: 'yes' }],
    ['a different symbol', { [Symbol('modelgate.GatewayError')]: true }],
  ])('false for %s', (_label, value) => {
    expect(isGatewayError(value)).toBe(false);
  });
});

describe('toGatewayError', () => {
  it('returns a GatewayError unchanged (same object)', () => {
    const error = new GatewayError('NOT_FOUND', 'gone');
    expect(toGatewayError(error)).toBe(error);
  });

  it('returns a foreign-copy GatewayError unchanged', () => {
    const foreign = new ForeignGatewayError('slow down');
    expect(toGatewayError(foreign)).toBe(foreign);
  });

  it.each([
    ['an Error', new Error('ECONNREFUSED postgres://admin:hunter2@db:5432')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'hunter2')")],
    ['a string', 'hunter2 leaked'],
    ['an object', { secret: 'hunter2' }],
    ['a number', 42],
  ])('hides %s: 500 INTERNAL, generic message, original as cause', (_label, thrown) => {
    const error = toGatewayError(thrown);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.status).toBe(500);
    expect(error.code).toBe('INTERNAL');
    expect(error.expose).toBe(false);
    expect(error.message).toBe('The gateway failed to handle this request.');
    expect(error.message).not.toContain('hunter2');
    expect(error.cause).toBe(thrown);
  });

  it('normalises null and undefined too', () => {
    expect(toGatewayError(null).status).toBe(500);
    expect(toGatewayError(undefined).status).toBe(500);
  });
});
