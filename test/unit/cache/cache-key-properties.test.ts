/**
 * Properties of the cache key over generated bodies: the order keys are
 * written in never changes it outside JSON Schemas, and its cost grows
 * linearly with the body.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../../src/cache/cache-key.js';
import { elapsedMs } from '../../helpers/elapsed-ms.js';

/** A copy of `value` with every object's keys in an order drawn from `random`, except under `keep`. */
function shuffleKeys(value: unknown, random: () => number, keep: (path: string[]) => boolean, path: string[] = []): unknown {
  if (keep(path)) return value;
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, random, keep, [...path, '*']));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  // fromEntries defines own properties, so a generated "__proto__" key stays a key.
  return Object.fromEntries(entries.map(([k, v]) => [k, shuffleKeys(v, random, keep, [...path, k])]));
}

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const isToolSchema = (path: string[]) => path.length === 4 && path[0] === 'tools' && path[2] === 'function' && path[3] === 'parameters';

const chatBody = fc.record({
  model: fc.string(),
  messages: fc.array(fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: fc.oneof(fc.string(), fc.array(fc.record({ type: fc.constant('text'), text: fc.string() }))) }, { requiredKeys: [] }), { maxLength: 4 }),
  tools: fc.array(fc.record({ type: fc.constant('function'), function: fc.record({ name: fc.string(), parameters: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })) }) }), { maxLength: 3 }),
  extra: fc.jsonValue({ maxDepth: 4 }),
  temperature: fc.double({ noNaN: true, noDefaultInfinity: true }),
});

describe('cacheKey properties', () => {
  it('shuffling object keys outside JSON Schemas never changes the key', () => {
    fc.assert(
      fc.property(chatBody, fc.integer(), (body, seed) => {
        const shuffled = shuffleKeys(body, seededRandom(seed), isToolSchema) as Record<string, unknown>;
        const options = { api: 'chat' as const, scope: 'p', target: { models: ['m'] } };
        expect(cacheKey({ ...options, body: shuffled })).toBe(cacheKey({ ...options, body }));
      }),
      { numRuns: 300 },
    );
  });

  it('costs time linear in the size of the body', () => {
    const bodyOf = (n: number) => ({
      model: 'm',
      messages: Array.from({ length: n }, (_, i) => ({ role: 'user', content: `message ${i} `.repeat(20) })),
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${n - i}`, { type: 'string' }])) } } }],
      logit_bias: Object.fromEntries(Array.from({ length: n }, (_, i) => [String(n * 7 - i), i % 100])),
    });
    const best = (body: Record<string, unknown>) => Math.min(...[0, 1, 2].map(() => elapsedMs(() => cacheKey({ api: 'chat', body, scope: 'p', target: null }))));
    const small = bodyOf(5_000);
    const large = bodyOf(50_000);
    best(small); // warm up
    const smallMs = best(small);
    const largeMs = best(large);
    // Ten times the body: linear work takes about ten times as long (sorting
    // keys adds a little); quadratic work would take a hundred times.
    expect(largeMs).toBeLessThan(Math.max(smallMs, 5) * 30);
    // And in absolute terms: a 50,000-message body (~6 MB) is keyed within a few seconds even on a slow machine.
    expect(largeMs).toBeLessThan(3_000);
  });
});
