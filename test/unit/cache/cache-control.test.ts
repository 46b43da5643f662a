/**
 * A request's Cache-Control as RFC 9111 §5.2 reads it: comma-separated
 * directives, case-insensitive names, token or quoted-string arguments,
 * several header lines as one list; malformed `max-age` read as 0; hostile
 * headers cost a bounded amount of work.
 */
import { describe, expect, it } from 'vitest';
import { parseRequestCacheControl } from '../../../src/cache/cache-control.js';
import { elapsedMs } from '../../helpers/elapsed-ms.js';

const NONE = { noCache: false, noStore: false };

describe('parseRequestCacheControl', () => {
  it('no header, an empty one or unknown directives: no control', () => {
    expect(parseRequestCacheControl(undefined)).toEqual(NONE);
    expect(parseRequestCacheControl('')).toEqual(NONE);
    expect(parseRequestCacheControl([])).toEqual(NONE);
    expect(parseRequestCacheControl('max-stale=30, min-fresh=5, only-if-cached, no-transform')).toEqual(NONE);
  });

  it('no-cache, no-store and max-age, alone and together', () => {
    expect(parseRequestCacheControl('no-cache')).toEqual({ noCache: true, noStore: false });
    expect(parseRequestCacheControl('no-store')).toEqual({ noCache: false, noStore: true });
    expect(parseRequestCacheControl('max-age=60')).toEqual({ ...NONE, maxAgeSeconds: 60 });
    expect(parseRequestCacheControl('no-cache,no-store, max-age=0')).toEqual({ noCache: true, noStore: true, maxAgeSeconds: 0 });
  });

  it('names in any case, spaces and empty list elements around them', () => {
    expect(parseRequestCacheControl('No-Cache')).toEqual({ noCache: true, noStore: false });
    expect(parseRequestCacheControl('  NO-STORE ,, \t MAX-AGE=5 ,')).toEqual({ noCache: false, noStore: true, maxAgeSeconds: 5 });
  });

  it('a quoted max-age is accepted as the token form (§5.2: recipients accept both)', () => {
    expect(parseRequestCacheControl('max-age="120"')).toEqual({ ...NONE, maxAgeSeconds: 120 });
  });

  it('a comma or a directive name inside a quoted string separates nothing', () => {
    expect(parseRequestCacheControl('x-note="a, no-store, b", max-age=9')).toEqual({ ...NONE, maxAgeSeconds: 9 });
    expect(parseRequestCacheControl('x-note="say \\"no-cache\\", then", no-store')).toEqual({ noCache: false, noStore: true });
  });

  it('several header lines read as one comma-joined list', () => {
    expect(parseRequestCacheControl(['no-cache', 'max-age=30'])).toEqual({ noCache: true, noStore: false, maxAgeSeconds: 30 });
    expect(parseRequestCacheControl(['', 'no-store'])).toEqual({ noCache: false, noStore: true });
  });

  it('a malformed max-age reads as 0: no stored entry is fresh enough (§4.2.1)', () => {
    for (const value of ['max-age=abc', 'max-age=-1', 'max-age=1.5', 'max-age', 'max-age=', 'max-age="12', 'max-age="12"x', 'max-age=1 2', 'max-age=0x10']) {
      expect(parseRequestCacheControl(value), value).toEqual({ ...NONE, maxAgeSeconds: 0 });
    }
  });

  it('leading zeros are still delta-seconds', () => {
    expect(parseRequestCacheControl('max-age=007')).toEqual({ ...NONE, maxAgeSeconds: 7 });
  });

  it('a max-age too large to represent is 2^31 (§1.2.2)', () => {
    expect(parseRequestCacheControl('max-age=2147483648')).toEqual({ ...NONE, maxAgeSeconds: 2 ** 31 });
    expect(parseRequestCacheControl('max-age=99999999999999999999999')).toEqual({ ...NONE, maxAgeSeconds: 2 ** 31 });
    expect(parseRequestCacheControl('max-age=2147483647')).toEqual({ ...NONE, maxAgeSeconds: 2147483647 });
  });

  it('several max-age directives: the smallest holds (the most restrictive, §4.2.1)', () => {
    expect(parseRequestCacheControl('max-age=60, max-age=10, max-age=30')).toEqual({ ...NONE, maxAgeSeconds: 10 });
    expect(parseRequestCacheControl(['max-age=60', 'max-age=x'])).toEqual({ ...NONE, maxAgeSeconds: 0 });
  });

  it('never throws on values a header type does not allow', () => {
    const odd = [5, null, { toString: () => 'no-store' }] as unknown as readonly string[];
    expect(parseRequestCacheControl(odd)).toEqual(NONE);
    expect(parseRequestCacheControl(['no-store', ...odd])).toEqual({ noCache: false, noStore: true });
    expect(parseRequestCacheControl(42 as unknown as string)).toEqual(NONE);
  });

  it('reads a bounded prefix: directives past 32, or past 4096 characters, are ignored', () => {
    const filler = Array.from({ length: 32 }, (_, i) => `x-${i}`).join(', ');
    expect(parseRequestCacheControl(`${filler}, no-store`)).toEqual(NONE);
    expect(parseRequestCacheControl(`${'x'.repeat(5000)}, no-store`)).toEqual(NONE);
    expect(parseRequestCacheControl(`no-cache, ${'x'.repeat(5000)}`)).toEqual({ noCache: true, noStore: false });
  });

  it('a directive cut by the bound is left out, not read short', () => {
    // The line is cut inside the digits: reading "max-age=12" for "max-age=1234" would be a guess.
    const header = `${'x'.repeat(4096 - 'max-age=12'.length - 2)}, max-age=1234`;
    expect(parseRequestCacheControl(header)).toEqual(NONE);
  });

  it('a hostile 64 KiB header costs a bounded amount of work', () => {
    const size = 64 * 1024;
    const hostile = [
      ','.repeat(size),
      '"'.repeat(size),
      `x="${'\\"'.repeat(size / 2)}`,
      'max-age='.repeat(size / 8),
      'a=b,'.repeat(size / 4),
      'max-age=9'.padEnd(size, '9'),
    ];
    const lines = Array.from({ length: size }, () => 'no-cache');
    for (const header of hostile) {
      expect(elapsedMs(() => parseRequestCacheControl(header)), header.slice(0, 12)).toBeLessThan(20);
    }
    expect(elapsedMs(() => parseRequestCacheControl(lines))).toBeLessThan(20);
    expect(elapsedMs(() => parseRequestCacheControl(Array.from({ length: size }, () => '')))).toBeLessThan(20);
    expect(elapsedMs(() => parseRequestCacheControl(Array.from({ length: size }, () => 0) as unknown as string[]))).toBeLessThan(20);
  });
});
