import { describe, expect, it } from 'vitest';
import { createViaHops, MAX_MODELGATE_HOPS } from '../../../src/upstreams/via-hops.js';

const other = (n: number) => `1.1 modelgate-${String(n).padStart(16, '0')}`;

describe('createViaHops', () => {
  it('draws a fresh token per gateway: `1.1 modelgate-<16 hex>`', () => {
    const first = createViaHops();
    const second = createViaHops();
    expect(first.entry).toMatch(/^1\.1 modelgate-[0-9a-f]{16}$/);
    expect(second.entry).not.toBe(first.entry);
  });

  it('a request without Via, or with other proxies\' entries only: its calls carry this gateway\'s entry alone', () => {
    const hops = createViaHops();
    expect(hops.inspect({})).toEqual({ via: hops.entry });
    expect(hops.inspect({ via: '1.1 proxy.internal.corp:3128, HTTP/2 edge (cache, v2)' })).toEqual({ via: hops.entry });
  });

  it('keeps the other gateways\' entries, in order, before its own; drops the rest', () => {
    const hops = createViaHops();
    const via = `${other(1)}, 1.0 fred, 1.1 p.example.net (Apache/1.1, modelgate-ffffffffffffffff), HTTP/2 ${other(2).slice(4)} (comment)`;
    expect(hops.inspect({ via })).toEqual({ via: `${other(1)}, HTTP/2 ${other(2).slice(4)}, ${hops.entry}` });
  });

  it('reads repeated Via headers (a list) and any letter case', () => {
    const hops = createViaHops();
    expect(hops.inspect({ via: [other(1), '1.1 ModelGate-00000000000000AB'] })).toEqual({ via: `${other(1)}, 1.1 modelgate-00000000000000ab, ${hops.entry}` });
  });

  it('refuses its own entry with LOOP_DETECTED (508), wherever it stands in the list', () => {
    const hops = createViaHops();
    for (const via of [hops.entry, `${other(1)}, ${hops.entry}`, `${hops.entry.toUpperCase().replace('MODELGATE', 'modelgate')}, ${other(2)}`]) {
      const { refusal } = hops.inspect({ via });
      expect(refusal?.code).toBe('LOOP_DETECTED');
      expect(refusal?.status).toBe(508);
      expect(refusal?.message).toContain('this gateway is its own upstream');
    }
  });

  it('another gateway\'s entry is not its own, even inside a comment of its own entry\'s text', () => {
    const hops = createViaHops();
    expect(hops.inspect({ via: `1.1 proxy (${hops.entry})` })).toEqual({ via: hops.entry });
  });

  it(`refuses a request that passed through ${MAX_MODELGATE_HOPS} gateways, serves one that passed through one fewer`, () => {
    const hops = createViaHops();
    const chain = (count: number) => Array.from({ length: count }, (_, i) => other(i)).join(', ');
    expect(hops.inspect({ via: chain(MAX_MODELGATE_HOPS - 1) }).via?.split(', ')).toHaveLength(MAX_MODELGATE_HOPS);
    const { refusal } = hops.inspect({ via: chain(MAX_MODELGATE_HOPS) });
    expect(refusal?.status).toBe(508);
    expect(refusal?.message).toContain(`passed through ${MAX_MODELGATE_HOPS} modelgate gateways`);
  });
});
