import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob, compileMatcher, isGlob } from '../../../src/models/model-matcher.js';
import { compileRules, priceOf } from '../../../src/limits/plan-limits.js';
import { elapsedMs } from '../../helpers/elapsed-ms.js';

/**
 * The independent oracle: the glob as an anchored regular expression, `*`
 * → `.*`, `?` → `.`, every other character literal, `s` flag (line breaks
 * are characters too), no `u` flag (one `?` is one UTF-16 unit).
 */
function oracle(glob: string): (text: string) => boolean {
  const source = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  const re = new RegExp(`^${source}$`, 's');
  return (text) => re.test(text);
}

describe('compileGlob', () => {
  it.each([
    ['gpt-*', 'gpt-4o', true],
    ['gpt-*', 'gpt-', true],
    ['gpt-*', 'xgpt-4o', false],
    ['*-mini', 'gpt-4o-mini', true],
    ['*-mini', 'gpt-4o-mini2', false],
    ['*-*-mini', 'gpt-4o-mini', true],
    ['*-*-mini', 'gpt-mini', false],
    ['*-*-mini', '--mini', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['llama-?b', 'llama-7b', true],
    ['llama-?b', 'llama-70b', false],
    ['?', '', false],
    ['?', '\n', true],
    ['*', '', true],
    ['**', 'x', true],
    ['a.b*', 'aXb-c', false],
    ['a.b*', 'a.b-c', true],
    ['GPT-*', 'gpt-4o', false],
    ['x(y)|z$', 'x(y)|z$', true],
    ['*\\*', 'a\\b\\', true],
    ['?*?', 'ab', true],
    ['?*?', 'a', false],
    ['*?x?*', 'axa', true],
    ['*?x?*', 'xa', false],
    ['😀?', '😀x', true],
    ['?', '😀', false],
    ['??', '😀', true],
  ])('%j on %j is %s', (glob, text, expected) => {
    expect(compileGlob(glob)(text)).toBe(expected);
    expect(oracle(glob)(text)).toBe(expected);
  });

  const alphabet = fc.constantFrom('a', 'b', '-', '.', '(', '$', '^', '[', '\\', '\n', 'A', '\ud83d', '\ude00');
  const globChars = fc.oneof({ weight: 4, arbitrary: alphabet }, { weight: 2, arbitrary: fc.constantFrom('*', '?') });

  it('agrees with the regular-expression oracle on generated globs and ids', () => {
    fc.assert(
      fc.property(fc.string({ unit: globChars, maxLength: 10 }), fc.string({ unit: alphabet, maxLength: 14 }), (glob, text) => {
        expect(compileGlob(glob)(text)).toBe(oracle(glob)(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with the oracle on ids built from the glob (mostly matches)', () => {
    const filled = fc
      .tuple(fc.string({ unit: globChars, maxLength: 10 }), fc.array(fc.string({ unit: alphabet, maxLength: 4 }), { minLength: 10, maxLength: 10 }))
      .map(([glob, fills]) => {
        let i = 0;
        const text = glob.replace(/[*?]/g, (wildcard) => (wildcard === '*' ? fills[i++]! : (fills[i++]![0] ?? 'a')));
        return { glob, text };
      });
    fc.assert(
      fc.property(filled, ({ glob, text }) => {
        expect(compileGlob(glob)(text)).toBe(oracle(glob)(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('matches a 200,000-character id in linear time', () => {
    // The regex `^.*-.*-mini$` took 26 s on such an id.
    const ids = ['-'.repeat(200_000), 'a-'.repeat(100_000), 'a'.repeat(200_000), `${'-'.repeat(200_000)}mini!`];
    const globs = ['*-*-mini', '*a*a*a*b', '*-?-?-mini*x', '*??????????x*', 'a*-*-*-*-*z'];
    for (const glob of globs) {
      const matches = compileGlob(glob);
      for (const id of ids) {
        let result = true;
        expect(elapsedMs(() => (result = matches(id))), `${glob} on ${id.slice(0, 8)}…`).toBeLessThan(200);
        expect(result).toBe(false);
      }
    }
    expect(compileGlob('*-*-mini')(`${'-'.repeat(200_000)}mini`)).toBe(true);
  });
});

describe('compileMatcher and isGlob', () => {
  it('an id without * or ? is exact; a glob, regular expression or predicate as given', () => {
    expect(isGlob('gpt-4o')).toBe(false);
    expect(isGlob('gpt-?')).toBe(true);
    expect(compileMatcher('gpt-4o')('gpt-4o')).toBe(true);
    expect(compileMatcher('gpt-4o')('gpt-4o-mini')).toBe(false);
    expect(compileMatcher('gpt-*')('gpt-4o-mini')).toBe(true);
    expect(compileMatcher(/^gpt-/g)('gpt-4o')).toBe(true);
    expect(compileMatcher(/^gpt-/g)('gpt-4o')).toBe(true);
    expect(compileMatcher((model) => model.length === 3)('abc')).toBe(true);
  });
});

describe('limit models and prices match globs the same way', () => {
  const long = 'a-'.repeat(100_000);

  it('limit rules: exact ids, globs, and a 200,000-character id in linear time', () => {
    const [rule] = compileRules([{ models: ['gpt-4o', '*-*-mini', 'llama-?b'], requests: { limit: 1 } }]);
    expect(rule!.matches('gpt-4o')).toBe(true);
    expect(rule!.matches('gpt-4o-mini')).toBe(true);
    expect(rule!.matches('llama-7b')).toBe(true);
    expect(rule!.matches('gpt-4o2')).toBe(false);
    let result = true;
    expect(elapsedMs(() => (result = rule!.matches(long)))).toBeLessThan(200);
    expect(result).toBe(false);
  });

  it('prices: the exact key first, then the first glob that matches, in linear time', () => {
    const prices = { 'gpt-4o-mini': { input: 1 }, '*-*-mini': { input: 2 }, 'gpt-*': { input: 3 } };
    expect(priceOf(prices, 'gpt-4o-mini')).toEqual({ input: 1 });
    expect(priceOf(prices, 'o-4-mini')).toEqual({ input: 2 });
    expect(priceOf(prices, 'gpt-5')).toEqual({ input: 3 });
    expect(priceOf(prices, 'claude')).toBeUndefined();
    let price: unknown = {};
    expect(elapsedMs(() => (price = priceOf(prices, long)))).toBeLessThan(200);
    expect(price).toBeUndefined();
  });
});
