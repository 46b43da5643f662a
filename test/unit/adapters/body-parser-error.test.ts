/**
 * `fromBodyParserError`: the parsers' errors as the gateway's own, and
 * everything that is not a client error left to the app.
 */
import { describe, expect, it } from 'vitest';
import { fromBodyParserError } from '../../../adapters/body-parser-error.js';

const parserError = (fields: Record<string, unknown>, message = 'failed') => Object.assign(new Error(message), fields);

describe('fromBodyParserError', () => {
  it('maps each body-parser / raw-body type to the gateway’s error', () => {
    expect(fromBodyParserError(parserError({ type: 'entity.parse.failed', status: 400 }, 'Unexpected end of JSON input'))).toMatchObject({
      code: 'INVALID_JSON',
      status: 400,
      message: 'Request body is not valid JSON: Unexpected end of JSON input.',
    });
    expect(fromBodyParserError(parserError({ type: 'entity.too.large', status: 413, limit: 100 }))).toMatchObject({ code: 'REQUEST_TOO_LARGE', message: 'Request body is larger than the 100-byte limit of this gateway.' });
    expect(fromBodyParserError(parserError({ type: 'request.aborted', status: 400 }))).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    expect(fromBodyParserError(parserError({ type: 'encoding.unsupported', status: 415, encoding: 'br' }))).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Content-Encoding "br" is not supported: send the body uncompressed (or gzip-compressed).',
    });
    expect(fromBodyParserError(parserError({ type: 'charset.unsupported', status: 415, charset: 'latin1' }))).toMatchObject({ status: 415 });
  });

  it('co-body’s SyntaxError (no type) is invalid JSON; another 4xx keeps its status and exposed message', () => {
    const syntax = Object.assign(new SyntaxError('invalid JSON, only supports object and array'), { status: 400 });
    expect(fromBodyParserError(syntax)).toMatchObject({ code: 'INVALID_JSON', message: 'Request body is not valid JSON: invalid JSON, only supports object and array.' });
    expect(fromBodyParserError(parserError({ type: 'entity.verify.failed', status: 403, expose: true }, 'signature mismatch'))).toMatchObject({ status: 403, message: 'signature mismatch' });
    expect(fromBodyParserError(parserError({ statusCode: 422, expose: false }, 'internal detail'))).toMatchObject({ status: 422, message: 'The request failed with status 422.' });
  });

  it('leaves server errors and errors without a status to the app', () => {
    expect(fromBodyParserError(new Error('boom'))).toBeUndefined();
    expect(fromBodyParserError(parserError({ type: 'stream.not.readable', status: 500 }))).toBeUndefined();
    expect(fromBodyParserError('text')).toBeUndefined();
    expect(fromBodyParserError(null)).toBeUndefined();
  });
});
