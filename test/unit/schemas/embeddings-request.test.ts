/**
 * The embeddings request schema: the four shapes of `input` OpenAI's API
 * reference documents, its limits (2048 inputs, 8192 tokens per input), and
 * messages that name the failing field and what to send.
 */
import { describe, expect, it } from 'vitest';
import { isGatewayError, type GatewayError } from '../../../src/errors.js';
import { embeddingsRequestSchema, parseRequest } from '../../../src/schemas/index.js';

function refusal(body: unknown): GatewayError {
  try {
    parseRequest(embeddingsRequestSchema, body);
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('embeddings request schema', () => {
  it.each([
    ['a string', 'The food was delicious.'],
    ['a list of strings', ['first', 'second']],
    ['a list of token ids', [9906, 1917]],
    ['a list of token lists', [[9906], [1917, 0]]],
  ])('accepts %s as input', (_, input) => {
    const parsed = parseRequest(embeddingsRequestSchema, { model: 'text-embedding-3-small', input });
    expect(parsed.input).toEqual(input);
  });

  it('accepts encoding_format, dimensions and user, and keeps fields it does not know', () => {
    const body = { model: 'm', input: 'x', encoding_format: 'base64', dimensions: 256, user: 'user-1', extra_body_field: { a: 1 } };
    expect(parseRequest(embeddingsRequestSchema, body)).toEqual(body);
  });

  it.each([
    ['no input', { model: 'm' }, 'input', /field required/],
    ['an empty string', { model: 'm', input: '' }, 'input', /empty string/],
    ['an empty list', { model: 'm', input: [] }, 'input', /empty array/],
    ['an empty string in a list', { model: 'm', input: ['a', ''] }, 'input.1', /empty string/],
    ['a number among strings', { model: 'm', input: ['a', 3] }, 'input.1', /expected a string/],
    ['a string among token lists', { model: 'm', input: [[1], 'a'] }, 'input.1', /array of token ids/],
    ['a negative token id', { model: 'm', input: [1, -2] }, 'input.1', /integer ≥ 0/],
    ['a fractional token id', { model: 'm', input: [[1, 2.5]] }, 'input.0.1', /integer ≥ 0/],
    ['an object', { model: 'm', input: { text: 'a' } }, 'input', /send a string, an array of strings/],
    ['a list of objects', { model: 'm', input: [{ text: 'a' }] }, 'input.0', /send a string, an array of strings/],
    ['encoding_format hex', { model: 'm', input: 'a', encoding_format: 'hex' }, 'encoding_format', /expected one of "float" \| "base64"/],
    ['dimensions 0', { model: 'm', input: 'a', dimensions: 0 }, 'dimensions', /at least 1/],
    ['dimensions 1.5', { model: 'm', input: 'a', dimensions: 1.5 }, 'dimensions', /expected integer/],
    ['dimensions as a string', { model: 'm', input: 'a', dimensions: '256' }, 'dimensions', /expected number, received string/],
    ['an empty model', { model: '', input: 'a' }, 'model', /at least 1 character/],
  ])('refuses %s with a 400 naming the field', (_, body, param, message) => {
    const error = refusal(body);
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message).toMatch(message);
  });

  it('refuses more than 2048 inputs, OpenAI\'s limit, and says to split the request', () => {
    expect(parseRequest(embeddingsRequestSchema, { model: 'm', input: Array.from({ length: 2048 }, () => 'a') }).input).toHaveLength(2048);
    const error = refusal({ model: 'm', input: Array.from({ length: 2049 }, () => 'a') });
    expect(error.param).toBe('input');
    expect(error.message).toMatch(/2049 inputs, more than the 2048/);
    expect(error.message).toMatch(/several requests/);
  });

  it('counts the inputs before reading any: 100,000 entries that are all invalid get the count\'s message', () => {
    const error = refusal({ model: 'm', input: Array.from({ length: 100_000 }, () => ({ not: 'text' })) });
    expect(error.param).toBe('input');
    expect(error.message).toMatch(/100000 inputs/);
  });

  it('refuses a token list over 8192 ids and a text no 8192-token input could be (2 MB)', () => {
    const tokens = refusal({ model: 'm', input: Array.from({ length: 8193 }, () => 1) });
    expect(tokens.message).toMatch(/8193 token ids/);
    const text = refusal({ model: 'm', input: 'a'.repeat(2 * 1024 * 1024) });
    expect(text.param).toBe('input');
    expect(text.message).toMatch(/2097152 characters/);
    expect(text.message).toMatch(/split the text/);
  });
});
