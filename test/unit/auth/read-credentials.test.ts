import { describe, expect, it } from 'vitest';
import { readBearerToken, readCredentials } from '../../../src/auth/read-credentials.js';
import type { IncomingHeaders } from '../../../src/types.js';

describe('readBearerToken', () => {
  it.each([
    ['Bearer sk-1', 'sk-1'],
    ['bearer sk-1', 'sk-1'],
    ['BEARER sk-1', 'sk-1'],
    ['BeArEr sk-1', 'sk-1'],
    ['  Bearer   sk-1  ', 'sk-1'],
    ['Bearer sk-1\t', 'sk-1'],
  ])('%j → %j', (header, token) => {
    expect(readBearerToken({ authorization: header })).toBe(token);
  });

  it.each([
    ['Basic dXNlcjpwYXNz'],
    ['Token sk-1'],
    ['Bearersk-1'],
    ['Bearer'],
    ['Bearer    '],
    [''],
    ['   '],
    ['sk-1'],
  ])('%j → undefined', (header) => {
    expect(readBearerToken({ authorization: header })).toBeUndefined();
  });

  it('no header → undefined', () => {
    expect(readBearerToken({})).toBeUndefined();
    expect(readBearerToken({ authorization: undefined })).toBeUndefined();
  });

  it('array-valued header: the first value is used', () => {
    expect(readBearerToken({ authorization: ['Bearer first', 'Bearer second'] })).toBe('first');
    expect(readBearerToken({ authorization: [] })).toBeUndefined();
  });
});

describe('readCredentials for the messages interface (bearer-or-api-key)', () => {
  const read = (headers: IncomingHeaders) => readCredentials(headers, 'bearer-or-api-key');

  it('Bearer only', () => {
    expect(read({ authorization: 'Bearer b-key' })).toEqual(['b-key']);
  });

  it('x-api-key only', () => {
    expect(read({ 'x-api-key': 'x-key' })).toEqual(['x-key']);
  });

  it('both: x-api-key first, then Bearer', () => {
    expect(read({ 'x-api-key': 'x-key', authorization: 'Bearer b-key' })).toEqual(['x-key', 'b-key']);
  });

  it('both carrying the same key: tried once', () => {
    expect(read({ 'x-api-key': 'same', authorization: 'Bearer same' })).toEqual(['same']);
  });

  it('neither', () => {
    expect(read({})).toEqual([]);
    expect(read({ 'content-type': 'application/json' })).toEqual([]);
  });

  it('x-api-key whitespace is trimmed', () => {
    expect(read({ 'x-api-key': '  x-key \t' })).toEqual(['x-key']);
  });

  it('empty and blank values are ignored', () => {
    expect(read({ 'x-api-key': '' })).toEqual([]);
    expect(read({ 'x-api-key': '   ' })).toEqual([]);
    expect(read({ 'x-api-key': '', authorization: 'Bearer b-key' })).toEqual(['b-key']);
    expect(read({ 'x-api-key': 'x-key', authorization: '' })).toEqual(['x-key']);
  });

  it('a non-Bearer Authorization is ignored, x-api-key still used', () => {
    expect(read({ 'x-api-key': 'x-key', authorization: 'Basic dXNlcjpwYXNz' })).toEqual(['x-key']);
    expect(read({ authorization: 'Basic dXNlcjpwYXNz' })).toEqual([]);
  });

  it('array-valued headers: first value of each', () => {
    expect(read({ 'x-api-key': ['x1', 'x2'], authorization: ['Bearer b1', 'Bearer b2'] })).toEqual(['x1', 'b1']);
    expect(read({ 'x-api-key': [] })).toEqual([]);
  });

  it('lower-case scheme variants', () => {
    expect(read({ authorization: 'bearer b-key' })).toEqual(['b-key']);
    expect(read({ authorization: 'BEARER b-key' })).toEqual(['b-key']);
  });
});

describe('readCredentials for chat completions (bearer)', () => {
  const read = (headers: IncomingHeaders) => readCredentials(headers, 'bearer');

  it('Bearer only', () => {
    expect(read({ authorization: 'Bearer b-key' })).toEqual(['b-key']);
    expect(read({ authorization: 'bearer b-key' })).toEqual(['b-key']);
    expect(read({ authorization: 'BEARER  b-key ' })).toEqual(['b-key']);
  });

  it('x-api-key is NOT accepted', () => {
    expect(read({ 'x-api-key': 'x-key' })).toEqual([]);
  });

  it('both: only the Bearer key', () => {
    expect(read({ 'x-api-key': 'x-key', authorization: 'Bearer b-key' })).toEqual(['b-key']);
  });

  it('neither, Basic, empty', () => {
    expect(read({})).toEqual([]);
    expect(read({ authorization: 'Basic abc' })).toEqual([]);
    expect(read({ authorization: '' })).toEqual([]);
  });
});
