import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boundedArray } from '../../../src/schemas/bounded-array.js';
import { formatIssues } from '../../../src/schemas/format-issues.js';

/** An element schema whose failures go through a union, as content blocks do. */
const block = z.union([
  z.discriminatedUnion('type', [z.looseObject({ type: z.literal('text'), text: z.string() })]),
  z.looseObject({ type: z.literal('image'), url: z.string() }),
]);
const good = { type: 'text', text: 'a' };
const bad = { type: 'text', text: 5 };

/** `count` blocks, the ones at `badAt` broken. */
function blocks(count: number, badAt: (index: number) => boolean): unknown[] {
  return Array.from({ length: count }, (_, index) => (badAt(index) ? bad : good));
}

function issuesOf(schema: z.ZodType, body: unknown): z.core.$ZodIssue[] {
  const result = schema.safeParse(body);
  if (result.success) throw new Error('expected a failure');
  return result.error.issues;
}

describe('boundedArray', () => {
  it('parses a valid array to the same output as z.array', () => {
    const input = [...blocks(300, () => false), { type: 'image', url: 'u', extra: 1 }];
    expect(boundedArray(z.array(block)).parse(input)).toEqual(z.array(block).parse(input));
  });

  it('keeps the array checks it was built with', () => {
    expect(issuesOf(boundedArray(z.array(block).min(1)), [])[0]?.code).toBe('too_small');
    expect(issuesOf(boundedArray(z.array(block)), 5)[0]?.code).toBe('invalid_type');
  });

  it('reports every failing element while there are at most 101', () => {
    const input = blocks(1000, (index) => index % 10 === 0);
    const plain = issuesOf(z.array(block), input);
    expect(plain).toHaveLength(100);
    expect(issuesOf(boundedArray(z.array(block)), input)).toEqual(plain);
  });

  it('stops after the 101st failing element, with the first issues of a full parse', () => {
    const input = blocks(50_000, () => true);
    const bounded = issuesOf(boundedArray(z.array(block)), input);
    expect(bounded.map((issue) => issue.path)).toEqual(Array.from({ length: 101 }, (_, index) => [index]));
    expect(bounded).toEqual(issuesOf(z.array(block), input).slice(0, 101));
  });

  it('counts failing elements over nested and sibling arrays, so the message matches a full parse', () => {
    const nested = (inner: z.ZodType) => z.looseObject({ a: z.array(z.looseObject({ content: inner })), b: z.array(block) });
    const plain = nested(z.array(block));
    const bounded = z.looseObject({
      a: boundedArray(z.array(z.looseObject({ content: boundedArray(z.array(block)) }))),
      b: boundedArray(z.array(block)),
    });
    const cases = [
      // 50 outer elements with one bad block each, 30 bad siblings: 80 problems, all counted.
      { a: Array.from({ length: 50 }, () => ({ content: blocks(3, (index) => index === 1) })), b: blocks(30, () => true) },
      // 300 outer elements with 2 bad blocks each: more than the message counts.
      { a: Array.from({ length: 300 }, () => ({ content: blocks(5, (index) => index < 2) })), b: blocks(30, () => true) },
      // 60 outer elements with 1 bad block, then 60 bad siblings: 120 problems.
      { a: Array.from({ length: 60 }, () => ({ content: [bad] })), b: blocks(60, () => true) },
    ];
    const messages = cases.map((body) => formatIssues(plain.safeParse(body).error!, { body }));
    expect(messages[0]).toMatch(/ \(and 77 more\)$/);
    expect(messages[1]).toMatch(/ \(and more\)$/);
    expect(messages[2]).toMatch(/ \(and more\)$/);
    expect(cases.map((body) => formatIssues(bounded.safeParse(body).error!, { body }))).toEqual(messages);
    // And the second case stopped early: 101 failing blocks in `a`, then `b` at its first failure (630 in all).
    expect(issuesOf(bounded, cases[1])).toHaveLength(102);
  });

  it('starts a fresh count for each parse', () => {
    const schema = boundedArray(z.array(block));
    const input = blocks(500, () => true);
    expect(issuesOf(schema, input)).toHaveLength(101);
    expect(issuesOf(schema, input)).toHaveLength(101);
  });

  it('leaves async parses and clones to zod', async () => {
    const schema = boundedArray(z.array(block));
    const input = blocks(500, () => true);
    const async = await schema.safeParseAsync(input);
    expect(async.error?.issues).toHaveLength(500);
    expect(issuesOf(schema.max(1000), input)).toHaveLength(500);
  });
});
