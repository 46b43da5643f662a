import { describe, expect, it } from 'vitest';
import { quoteOf } from '../../../src/simulator/compose-text.js';
import { elapsedMs } from '../../helpers/elapsed-ms.js';

describe('quoteOf', () => {
  it('quotes at most eight words, double quotes made single, trailing punctuation dropped', () => {
    expect(quoteOf('What is the "weather" in Paris today?!')).toBe("What is the 'weather' in Paris today");
    expect(quoteOf('one two three four five six seven eight nine.')).toBe('one two three four five six seven eight');
    expect(quoteOf('Wait... really?')).toBe('Wait... really');
    expect(quoteOf('  \n ')).toBe('your message');
  });

  it('quotes a megabyte-long word of punctuation in linear time', () => {
    const text = `${'.'.repeat(1_000_000)}a`;
    let quote = '';
    // The regex `[.,;:!?]+$` took over half a second for 20,000 dots here.
    expect(elapsedMs(() => (quote = quoteOf(text)))).toBeLessThan(200);
    // Its first 64 characters are all punctuation, which a quote drops: nothing is left to quote.
    expect(quote).toBe('your message');
    expect(quoteOf(`hello${'!'.repeat(1_000_000)}`)).toBe('hello');
  });
});

describe('quoteOf on huge messages', () => {
  it('quotes at most 64 characters of a word, whatever its length', () => {
    expect(quoteOf(`${'a'.repeat(100)} tail`)).toBe(`${'a'.repeat(64)} tail`);
    expect(quoteOf('a'.repeat(1_000_000))).toBe('a'.repeat(64));
  });

  it('never cuts a surrogate pair in half', () => {
    const quote = quoteOf(`${'a'.repeat(63)}😀${'b'.repeat(100)}`);
    expect(quote).toBe('a'.repeat(63));
    expect(quoteOf('😀'.repeat(100))).toBe('😀'.repeat(32));
  });

  it('reads only the start of the message', () => {
    expect(quoteOf(`${' '.repeat(5_000)}late words`, 'fallback')).toBe('fallback');
  });
});
