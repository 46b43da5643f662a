import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatCompletionRequestSchema, messagesRequestSchema } from '../../../src/schemas/index.js';

/** Extra keys that no schema here models (prefixed so they never hit a known field). */
const extraFields = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 8 }).map((key) => `x_${key}`),
  fc.jsonValue(),
  { maxKeys: 4 },
);

describe('unknown fields pass through untouched (property)', () => {
  it('chat request: top level, message and content part', () => {
    fc.assert(
      fc.property(extraFields, extraFields, extraFields, (top, message, part) => {
        const body = {
          ...top,
          model: 'gpt-4o',
          messages: [{ ...message, role: 'user', content: [{ ...part, type: 'text', text: 'hi' }] }],
        };
        expect(chatCompletionRequestSchema.parse(body)).toStrictEqual(body);
      }),
    );
  });

  it('messages request: top level, message, block and tool', () => {
    fc.assert(
      fc.property(extraFields, extraFields, extraFields, extraFields, (top, message, block, tool) => {
        const body = {
          ...top,
          model: 'vendora-opus-4-8',
          max_tokens: 64,
          messages: [{ ...message, role: 'user', content: [{ ...block, type: 'text', text: 'hi' }] }],
          tools: [{ ...tool, name: 'f', input_schema: { type: 'object' } }],
        };
        expect(messagesRequestSchema.parse(body)).toStrictEqual(body);
      }),
    );
  });
});
