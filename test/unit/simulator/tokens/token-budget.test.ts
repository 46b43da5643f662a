/**
 * A request's text is counted exactly up to a budget of characters shared
 * by all its texts, then estimated from its size: counting stays within tens
 * of milliseconds whatever a caller sends (exact counting of a megabyte of
 * random letters takes seconds), and ordinary requests count as before.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import {
  countChatRequestTokens,
  countMessagesRequestTokens,
  countTextTokens,
  EXACT_CHARACTERS_PER_REQUEST,
  TokenCounter,
} from '../../../../src/tokens/count-tokens.js';
import { elapsedMs } from '../../../helpers/elapsed-ms.js';

/** The encoder's own count, special-token markers as text: the independent reference. */
const reference = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

const MEGABYTE = 1_000_000;
// Texts are built flat (as a parsed body's strings are), not as ropes of concatenations.
const letters = (length: number) => Buffer.from(randomBytes(length).map((byte) => 0x61 + (byte % 26) - (byte & 0x80 ? 0x20 : 0))).toString('latin1');
const base64 = (length: number) => randomBytes(Math.ceil((length * 3) / 4)).toString('base64').slice(0, length);
/** `count` random characters from `first` to `first + range`, written as UTF-8 and decoded once (little garbage). */
function fromCodePoints(count: number, first: number, range: number): string {
  const width = Buffer.from(String.fromCodePoint(first)).length;
  const bytes = Buffer.alloc(count * width);
  const random = randomBytes(count * 2);
  for (let i = 0; i < count; i++) bytes.write(String.fromCodePoint(first + (random.readUInt16LE(i * 2) % range)), i * width);
  return bytes.toString('utf8');
}
const cjk = (length: number) => fromCodePoints(length, 0x4e00, 0x5000);
const emoji = (length: number) => fromCodePoints(length / 2, 0x1f300, 0x300);

/** English prose of the project's documentation: ordinary text the tokenizer was built for. */
const prose = readdirSync('docs')
  .filter((file) => file.endsWith('.md'))
  .map((file) => readFileSync(`docs/${file}`, 'utf8'))
  .join('\n');

describe('ordinary requests count exactly', () => {
  it.each([
    ['a word', 'Hello'],
    ['a sentence', 'What is the weather in Paris today? Answer in one word.'],
    ['code', 'function add(a: number, b: number): number {\n  return a + b;\n}\n'],
    ['CJK', '今日は良い天気ですね。明日も晴れるでしょう。'],
    ['emoji', 'Ship it 🚀🚀 — done ✅'],
    ['a special-token marker', 'a <|endoftext|> b'],
  ])('%s, as the encoder counts it', (_name, text) => {
    expect(countTextTokens(text)).toBe(reference(text));
    // Chat: 3 per message + role + content, 3 for the reply (the vendor's published recipe).
    expect(countChatRequestTokens({ messages: [{ role: 'user', content: text }] })).toBe(3 + reference('user') + reference(text) + 3);
    // Messages: 3 per turn + content, 3 for the reply.
    expect(countMessagesRequestTokens({ messages: [{ role: 'user', content: text }] })).toBe(3 + reference(text) + 3);
  });

  it('prose of up to the budget, in several texts of one request', () => {
    const texts = [prose.slice(0, 6000), prose.slice(6000, 12_000), prose.slice(12_000, EXACT_CHARACTERS_PER_REQUEST)];
    const counter = new TokenCounter();
    const counted = texts.map((text) => counter.count(text));
    expect(counted).toEqual(texts.map(reference));
    expect(counter.estimated).toBe(false);
  });
});

describe('past the budget', () => {
  it('shares one budget across the texts of a request', () => {
    const counter = new TokenCounter(100);
    expect(counter.count('a'.repeat(60))).toBe(reference('a'.repeat(60)));
    expect(counter.estimated).toBe(false);
    counter.count('b'.repeat(60));
    expect(counter.estimated).toBe(true);
  });

  it('estimates ordinary prose within 5% of its exact count', () => {
    const text = prose.slice(0, 150_000);
    expect(text.length).toBe(150_000);
    const counter = new TokenCounter();
    const estimate = counter.count(text);
    expect(counter.estimated).toBe(true);
    const exact = reference(text);
    expect(Math.abs(estimate / exact - 1)).toBeLessThan(0.05);
  });

  it('estimates from UTF-8 size: a request that turns from prose to CJK is undercounted less than threefold (ninefold by characters)', () => {
    const head = prose.slice(0, EXACT_CHARACTERS_PER_REQUEST);
    // Lines of 200 characters: the reference encoder is quadratic in the length of one unbroken run.
    const tail = Array.from({ length: 250 }, () => cjk(200)).join('\n');
    const counter = new TokenCounter();
    const estimate = counter.count(head) + counter.count(tail);
    const exact = reference(head) + reference(tail);
    expect(estimate).toBeGreaterThan(exact / 3);
    expect(estimate).toBeLessThan(exact);
  });

  it('never splits a surrogate pair at the end of the budget', () => {
    const counter = new TokenCounter(5);
    // 5 code units end inside the third emoji: the exact part stops before it.
    expect(counter.count('😀😀😀😀')).toBeGreaterThanOrEqual(reference('😀😀'));
  });
});

describe('any request counts within a time bound', () => {
  // Generous for a loaded machine: the budget costs a few tens of ms; exact counting took seconds per megabyte.
  const BOUND_MS = 300;

  it.each([
    ['random letters', letters],
    ['base64', base64],
    ['CJK', cjk],
    ['emoji', emoji],
  ])('a megabyte and ten megabytes of %s', (_name, make) => {
    for (const size of [MEGABYTE, 10 * MEGABYTE]) {
      const text = make(size);
      const chat = { messages: [{ role: 'user', content: text }] };
      const messages = { messages: [{ role: 'user', content: [{ type: 'text', text }] }] };
      let tokens = 0;
      expect(elapsedMs(() => (tokens = countChatRequestTokens(chat)))).toBeLessThan(BOUND_MS);
      expect(tokens).toBeGreaterThan(size / 4);
      expect(elapsedMs(() => countMessagesRequestTokens(messages))).toBeLessThan(BOUND_MS);
    }
  });

  it('a megabyte spread over a thousand messages', () => {
    const chat = { messages: Array.from({ length: 1000 }, () => ({ role: 'user', content: letters(1000) })) };
    expect(elapsedMs(() => countChatRequestTokens(chat))).toBeLessThan(BOUND_MS);
  });
});
