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
    expect(quote).toBe(text);
    expect(quoteOf(`hello${'!'.repeat(1_000_000)}`)).toBe('hello');
  });
});
