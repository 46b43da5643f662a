import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTextDelta } from '../../../src/translate/stream-transform.js';

const event = (text: string, index = 0, pad = '') =>
  `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${JSON.stringify(text)}}${pad}}`;

describe('readTextDelta', () => {
  it('agrees with JSON.parse on any text, index and padding (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(1000), fc.constantFrom('', '   ', '\n'), (text, index, pad) => {
        const data = event(text, index, pad);
        const parsed = JSON.parse(data) as { index: number; delta: { text: string } };
        expect(readTextDelta(data)).toEqual({ index: parsed.index, text: parsed.delta.text });
      }),
      { numRuns: 500 },
    );
  });

  it('reads escaped quotes and backslashes at the end of the text', () => {
    expect(readTextDelta(event('say "hi"\\'))).toEqual({ index: 0, text: 'say "hi"\\' });
  });

  it.each([
    ['another delta type', '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"x"}}'],
    ['extra keys after the text', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x","y":1}}'],
    ['trailing garbage', `${event('x')}x`],
    ['a raw control character', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\tb"}}'],
    ['an index with a leading zero', '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}'],
    ['an unterminated string', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ab\\"}}'],
  ])('leaves %s to the full parser', (_name, data) => {
    expect(readTextDelta(data)).toBeUndefined();
  });
});
