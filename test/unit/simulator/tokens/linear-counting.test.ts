/**
 * Token counting sees caller text of any shape: each worst case of about a
 * megabyte must take time in proportion to its size. The quadratic versions
 * took over half a second for 20,000 characters (hours at a megabyte).
 */
import { describe, expect, it } from 'vitest';
import { countBase64ImageTokens, UNKNOWN_IMAGE_TOKENS } from '../../../../src/tokens/count-image-tokens.js';
import { countChatRequestTokens } from '../../../../src/tokens/count-chat-tokens.js';
import { countMessagesRequestTokens } from '../../../../src/tokens/count-messages-tokens.js';
import { countTokensExactly } from '../../../../src/tokens/tokenizer.js';
import { elapsedMs } from '../../../helpers/elapsed-ms.js';

const MEGABYTE = 1_000_000;

describe('image tokens of base64 with padding', () => {
  it('drops the trailing padding only: 4,000 characters + "==" are 3,000 bytes, one token per 100', () => {
    // "AAAA" decodes to zero bytes: no image header, so the size rule applies.
    expect(countBase64ImageTokens(`${'A'.repeat(4000)}==`)).toBe(30);
    expect(countBase64ImageTokens(`${'A'.repeat(4000)}`)).toBe(30);
    expect(countBase64ImageTokens('==')).toBe(1);
  });

  it('counts a megabyte of "=" that does not end the data in linear time', () => {
    const data = `${'='.repeat(MEGABYTE)}A`;
    let tokens = 0;
    expect(elapsedMs(() => (tokens = countBase64ImageTokens(data)))).toBeLessThan(200);
    expect(tokens).toBe(UNKNOWN_IMAGE_TOKENS);
  });

  it('through chat and messages requests', () => {
    const data = `${'='.repeat(MEGABYTE)}A`;
    const chat = { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } }] }] };
    const messages = { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }] }] };
    expect(elapsedMs(() => countChatRequestTokens(chat))).toBeLessThan(200);
    expect(elapsedMs(() => countMessagesRequestTokens(messages))).toBeLessThan(200);
  });

  it('reads a data-URL header of at most 512 characters, never scanning the payload', () => {
    const part = (url: string) => ({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] });
    const framing = countChatRequestTokens({ messages: [{ role: 'user', content: [] }] });
    // Payload of 3,000 zero bytes: 30 tokens by size; a header that is not read makes it an unknown image.
    expect(countChatRequestTokens(part(`data:image/png;base64,${'A'.repeat(4000)}`)) - framing).toBe(30);
    expect(countChatRequestTokens(part(`data:image/png${';x'.repeat(300)};base64,${'A'.repeat(4000)}`)) - framing).toBe(UNKNOWN_IMAGE_TOKENS);
    const noComma = part(`data:${';'.repeat(MEGABYTE)}`);
    expect(elapsedMs(() => countChatRequestTokens(noComma))).toBeLessThan(200);
  });
});

describe('text tokens of long runs', () => {
  // Generous: linear counting of these takes about 0.1-0.3 s on one core; 16,000 spaces alone took 1.2 s before.
  const BOUND_MS = 3000;

  it.each([
    ['spaces', ' '.repeat(MEGABYTE)],
    ['line breaks', '\n'.repeat(MEGABYTE)],
    ['spaces and line breaks', ' \n'.repeat(MEGABYTE / 2)],
    ['no-break spaces', '\u00a0'.repeat(MEGABYTE)],
    ['ideographic spaces', '\u3000'.repeat(MEGABYTE)],
    ['256-letter words between no-break spaces', `${`${'a'.repeat(256)}\u00a0`.repeat(Math.floor(MEGABYTE / 257))}${'b'.repeat(300)}`],
    ['one letter', 'x'.repeat(MEGABYTE)],
  ])('counts a megabyte of %s in linear time', (_name, text) => {
    let tokens = 0;
    expect(elapsedMs(() => (tokens = countTokensExactly(text)))).toBeLessThan(BOUND_MS);
    expect(tokens).toBeGreaterThan(0);
  });

  it('grows with a whitespace run: a longer run counts more tokens', () => {
    expect(countTokensExactly(' '.repeat(20_000))).toBeGreaterThan(countTokensExactly(' '.repeat(2_000)));
    expect(countTokensExactly('\n'.repeat(20_000))).toBeGreaterThan(countTokensExactly('\n'.repeat(2_000)));
  });

  it('counts short whitespace runs exactly as the encoder does', () => {
    // 8 spaces are one token of cl100k_base; 200 of them, no more than a few.
    expect(countTokensExactly(' '.repeat(200))).toBeLessThanOrEqual(8);
    expect(countTokensExactly('a\n\nb')).toBe(3);
  });
});
