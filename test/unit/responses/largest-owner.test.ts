/** The owner ranking of the memory store against a plain scan, over random updates. */
import { describe, expect, it } from 'vitest';
import { largestOwner } from '../../../src/responses/largest-owner.js';

describe('largestOwner', () => {
  it('always names an owner with the largest share, as a scan of all shares would', () => {
    const ranking = largestOwner();
    const shares = new Map<string, number>();
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let step = 0; step < 5_000; step++) {
      const owner = `owner${Math.floor(random() * 40)}`;
      const share = random() < 0.2 ? 0 : Math.floor(random() * 1_000) / 1_000;
      ranking.set(owner, share);
      if (share > 0) shares.set(owner, share);
      else shares.delete(owner);
      const best = Math.max(0, ...shares.values());
      const top = ranking.top();
      if (shares.size === 0) expect(top).toBeUndefined();
      else expect(shares.get(top!)).toBe(best);
    }
  });
});
