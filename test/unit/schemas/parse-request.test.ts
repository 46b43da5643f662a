import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayError, isGatewayError } from '../../../src/errors.js';
import {
  chatCompletionRequestSchema,
  formatIssues,
  messagesRequestSchema,
  parseRequest,
  safeParseRequest,
} from '../../../src/schemas/index.js';

const user = { role: 'user', content: 'Hi' };

/** A chat body whose third message carries a broken image part. */
function chatWithImageUrl(url: unknown) {
  return {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'x' },
      user,
      { role: 'user', content: [{ type: 'image_url', image_url: { url } }] },
    ],
  };
}

function thrown(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('parseRequest', () => {
  it('returns the parsed body, keeping unknown fields', () => {
    const body = { model: 'm', messages: [user], x_new: 1 };
    expect(parseRequest(chatCompletionRequestSchema, body)).toEqual(body);
  });

  it('throws INVALID_REQUEST (400) naming the field path', () => {
    const error = thrown(() => parseRequest(chatCompletionRequestSchema, chatWithImageUrl(42)));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.status).toBe(400);
    expect(error.message).toBe('messages.2.content.0.image_url.url: expected string, received number');
    expect(error.message.startsWith('messages.2.content.0.image_url.url: expected string')).toBe(true);
    expect(error.param).toBe('messages.2.content.0.image_url.url');
    expect(error.cause).toBeInstanceOf(z.ZodError);
  });

  it('reads a missing required field as "field required"', () => {
    const error = thrown(() => parseRequest(messagesRequestSchema, { model: 'm', messages: [user] }));
    expect(error.message).toBe('max_tokens: field required');
    expect(error.param).toBe('max_tokens');
    expect(thrown(() => parseRequest(chatCompletionRequestSchema, chatWithImageUrl(undefined))).message).toBe(
      'messages.2.content.0.image_url.url: field required',
    );
  });

  it('explains a body that is not an object without a path, and with param null', () => {
    for (const body of [null, 'text', [1]]) {
      const error = thrown(() => parseRequest(messagesRequestSchema, body));
      expect(error.param).toBeNull();
      expect(error.message).toMatch(/^expected object, received (null|string|array)$/);
    }
  });
});

describe('safeParseRequest', () => {
  it('returns ok with data, or the error without throwing', () => {
    const good = safeParseRequest(messagesRequestSchema, { model: 'm', max_tokens: 5, messages: [user] });
    expect(good).toEqual({ ok: true, data: { model: 'm', max_tokens: 5, messages: [user] } });
    const bad = safeParseRequest(messagesRequestSchema, { model: 'm', max_tokens: 0, messages: [user] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('INVALID_REQUEST');
      expect(bad.error.message).toBe('max_tokens: must be at least 1');
    }
  });
});

describe('formatIssues', () => {
  it('joins several issues with "; " in body order', () => {
    const result = safeParseRequest(chatCompletionRequestSchema, { model: 1, messages: [user], temperature: 5 });
    expect(result.ok ? '' : result.error.message).toBe('model: expected string, received number; temperature: must be at most 2');
  });

  it('shows at most three issues, then "(and N more)"', () => {
    const body = { model: 1, messages: [], temperature: 9, top_p: 9, n: 0 };
    const result = safeParseRequest(chatCompletionRequestSchema, body);
    expect(result.ok ? '' : result.error.message).toBe(
      'model: expected string, received number; messages: must contain at least 1 item; temperature: must be at most 2 (and 2 more)',
    );
  });

  it('picks the branch matching the part type instead of "invalid input"', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: 'https://x' }] }] };
    const result = safeParseRequest(chatCompletionRequestSchema, body);
    expect(result.ok ? '' : result.error.message).toBe('messages.0.content.0.image_url: expected object, received string');
  });

  it('explains a block whose known type has a bad field rather than the catch-all branch', () => {
    const body = {
      model: 'm',
      max_tokens: 1,
      messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', data: 'JVBER' } }] }],
    };
    const result = safeParseRequest(messagesRequestSchema, body);
    expect(result.ok ? '' : result.error.message).toBe('messages.0.content.0.source.media_type: field required');
  });

  it('ignores the catch-all branch even when the known block has more issues', () => {
    const body = { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'tool_use' }] }] };
    const result = safeParseRequest(messagesRequestSchema, body);
    expect(result.ok ? '' : result.error.message).toBe(
      'messages.0.content.0.id: field required; messages.0.content.0.name: field required; messages.0.content.0.input: field required',
    );
  });

  it('lists the alternatives when no branch got further than the others', () => {
    const result = safeParseRequest(chatCompletionRequestSchema, { model: 'm', messages: [{ role: 'user', content: true }] });
    expect(result.ok ? '' : result.error.message).toBe('messages.0.content: expected string | array, received boolean');
  });

  it('formats errors of any schema, also without reported inputs', () => {
    const schema = z.object({ a: z.string(), b: z.number().gt(0), c: z.enum(['x', 'y']), d: z.array(z.string()).max(1) });
    const result = schema.safeParse({ b: 0, c: 'z', d: ['1', '2'] });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(formatIssues(result.error)).toBe(
        'a: field required; b: must be greater than 0; c: expected one of "x" | "y" (and 1 more)',
      );
    }
    const wrong = z.object({ a: z.string() }).safeParse({ a: 1 });
    if (!wrong.success) expect(formatIssues(wrong.error)).toBe('a: expected string, received number');
  });

  it('uses a refinement message as written', () => {
    const schema = z.object({ a: z.string().refine((value) => value !== 'x', 'must not be "x"') });
    const result = schema.safeParse({ a: 'x' });
    if (!result.success) expect(formatIssues(result.error)).toBe('a: must not be "x"');
    expect(result.success).toBe(false);
  });
});

describe('hot-path cost', () => {
  const bodyWith = (data: string) => ({
    model: 'vendora-sonnet-4-6',
    max_tokens: 100,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
          { type: 'text', text: 'What is this?' },
        ],
      },
    ],
  });

  it('does not scan the base64 data: a 20 MB image parses about as fast as a 20-byte one, and the data is kept', () => {
    const small = bodyWith('A'.repeat(20));
    const large = bodyWith('A'.repeat(20_000_000));
    let smallMs = 0;
    let largeMs = 0;
    let parsed: unknown;
    // Interleaved, so machine load slows both alike. A validator that scanned or copied the
    // string would take ~10^6 times longer on the large body; the bound allows 10x plus 250 ms.
    for (let i = 0; i < 40; i += 1) {
      let started = performance.now();
      parseRequest(messagesRequestSchema, small);
      smallMs += performance.now() - started;
      started = performance.now();
      parsed = parseRequest(messagesRequestSchema, large);
      largeMs += performance.now() - started;
    }
    expect(parsed).toEqual(large);
    expect(largeMs).toBeLessThan(10 * smallMs + 250);
  });
});

describe('safeParseRequest on a body that fails in many places', () => {
  const many = (count: number, make: () => unknown) => Array.from({ length: count }, make);

  it('counts up to 100 further problems exactly, then says "(and more)"', () => {
    const few = safeParseRequest(chatCompletionRequestSchema, { model: 'm', messages: many(50, () => 1) });
    expect(!few.ok && few.error.message).toBe(
      'messages.0: expected object, received number; messages.1: expected object, received number; messages.2: expected object, received number (and 47 more)',
    );
    const lots = safeParseRequest(chatCompletionRequestSchema, { model: 'm', messages: many(10_000, () => 1) });
    expect(!lots.ok && lots.error.message).toBe(
      'messages.0: expected object, received number; messages.1: expected object, received number; messages.2: expected object, received number (and more)',
    );
  });

  it('keeps only the first few issues, each pruned, as the cause', () => {
    const result = safeParseRequest(messagesRequestSchema, { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: many(5_000, () => ({ type: 'text', text: 5 })) }] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.param).toBe('messages.0.content.0.text');
    expect(result.error.message.startsWith('messages.0.content.0.text: expected string, received number; messages.0.content.1.text:')).toBe(true);
    const cause = result.error.cause as z.ZodError;
    expect(cause).toBeInstanceOf(z.ZodError);
    expect(cause.issues.length).toBeLessThanOrEqual(3);
    // Every list in the kept tree is short: the 5,000 failing blocks are not all held.
    const longest = (value: unknown): number =>
      Array.isArray(value) ? Math.max(value.length, ...value.map(longest)) : typeof value === 'object' && value !== null ? Math.max(0, ...Object.values(value).map(longest)) : 0;
    expect(longest(cause.issues)).toBeLessThanOrEqual(3);
  });

  it('explains what was received from the body, without reportInput', () => {
    const result = safeParseRequest(chatCompletionRequestSchema, { model: 'm', messages: [{ role: 'user', content: 5 }, { role: 'user', content: null }, { role: 'bot' }, {}] });
    expect(!result.ok && result.error.message).toBe(
      'messages.0.content: expected string | array, received number; messages.1.content: expected string | array, received null; messages.2.role: expected one of "system" | "developer" | "user" | "assistant" | "tool" | "function" (and 1 more)',
    );
  });
});
