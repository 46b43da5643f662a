/** The `streamBounds` option: each mistake names its path; 0 and the documented values construct. */
import { createGateway, DEFAULT_STREAM_BOUNDS, type GatewayOptions } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf } from './problems-of.js';

const make = (options: Record<string, unknown>) => () => createGateway({ auth: { keys: ['sk-a'] }, ...options } as GatewayOptions);

describe('streamBounds', () => {
  it('negative, fractional, too large, not numbers, unknown fields', () => {
    const problems = problemsOf(make({ streamBounds: { maxBytes: -1, maxDurationMs: 3_000_000_000, maxByte: 5 } }));
    expect(problemAt(problems, 'streamBounds.maxBytes')).toBe('must be an integer from 0 to 9007199254740991 (got -1): bytes of one upstream event stream; 0 turns the bound off');
    expect(problemAt(problems, 'streamBounds.maxDurationMs')).toMatch(/^must be an integer from 0 to 2147483647 \(got 3000000000\): the longest time one stream may run, in ms/);
    expect(problemAt(problems, 'streamBounds.maxByte')).toBe('is not a `streamBounds` option: did you mean `maxBytes`?');
    expect(problemAt(problemsOf(make({ streamBounds: 5 })), 'streamBounds')).toMatch(/`\{ maxBytes\?: number, maxDurationMs\?: number \}`/);
  });

  it('0 (off), values and the defaults construct', () => {
    expect(make({ streamBounds: { maxBytes: 0, maxDurationMs: 0 } })).not.toThrow();
    expect(make({ streamBounds: { maxBytes: 64 * 1024 * 1024, maxDurationMs: 30 * 60_000 } })).not.toThrow();
    expect(make({ streamBounds: {} })).not.toThrow();
    expect(DEFAULT_STREAM_BOUNDS).toEqual({ maxBytes: 256 * 1024 * 1024, maxDurationMs: 2 * 60 * 60 * 1000 });
  });
});
