import { describe, expect, it } from 'vitest';
import { affinityKey, rendezvousOrder } from '../../../src/routing/affinity.js';
import { orderTargets } from '../../../src/routing/order-targets.js';
import { createRouter, type ResolvedRoute, type Route, type RouteTarget } from '../../../src/routing/routes.js';
import type { RouterOptions } from '../../../src/routing/balancer.js';
import type { Upstream } from '../../../src/upstreams/upstream.js';
import { createRandom as seededRandom } from '../../helpers/split-randomly.js';

const fake = (name: string): Upstream => ({ name, format: 'messages', send: () => Promise.reject(new Error('not used')) });
const [a, b, c] = [fake('a'), fake('b'), fake('c')];

function resolve(route: Omit<Route, 'match'>, options: RouterOptions = {}): ResolvedRoute {
  return createRouter([{ match: '*', ...route } as Route], options).resolveOrThrow('m');
}

const conversation = (n: number, turns = 1) => {
  const messages: { role: string; content: unknown }[] = [{ role: 'user', content: `question ${n}` }];
  for (let turn = 1; turn < turns; turn++) messages.push({ role: 'assistant', content: `answer ${turn}` }, { role: 'user', content: `more ${turn}` });
  return { system: 'You are terse.', messages };
};

const first = (route: ResolvedRoute, body: unknown, principalId = 'alice') => orderTargets(route, route.targets, { principalId, body });

describe('affinityKey', () => {
  it('is the same for every turn of a conversation, whatever cache markers it carries', () => {
    const key = affinityKey('alice', conversation(1), 1)!;
    expect(affinityKey('alice', conversation(1, 5), 1)!.equals(key)).toBe(true);
    const marked = { system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }], messages: conversation(1).messages };
    const plain = { system: [{ type: 'text', text: 'You are terse.' }], messages: conversation(1).messages };
    expect(affinityKey('alice', marked, 1)!.equals(affinityKey('alice', plain, 1)!)).toBe(true);
  });

  it('differs by principal, system prompt and first message', () => {
    const key = affinityKey('alice', conversation(1), 1)!;
    expect(affinityKey('bob', conversation(1), 1)!.equals(key)).toBe(false);
    expect(affinityKey('alice', { ...conversation(1), system: 'Be verbose.' }, 1)!.equals(key)).toBe(false);
    expect(affinityKey('alice', conversation(2), 1)!.equals(key)).toBe(false);
  });

  it('reads the chat format: leading system and developer messages, then the first turns', () => {
    const chat = (turns: { role: string; content: string }[]) => ({ model: 'm', messages: [{ role: 'system', content: 'S' }, { role: 'developer', content: 'D' }, ...turns] });
    const key = affinityKey('alice', chat([{ role: 'user', content: 'hi' }]), 1)!;
    expect(affinityKey('alice', chat([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }, { role: 'user', content: 'next' }]), 1)!.equals(key)).toBe(true);
    expect(affinityKey('alice', chat([{ role: 'user', content: 'hello' }]), 1)!.equals(key)).toBe(false);
    // Two prefix messages: the second turn's prefix covers the first answer too.
    const two = affinityKey('alice', chat([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }]), 2)!;
    expect(affinityKey('alice', chat([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'other' }]), 2)!.equals(two)).toBe(false);
  });

  it('has no key for a body without messages', () => {
    expect(affinityKey('alice', { messages: [] }, 1)).toBeUndefined();
    expect(affinityKey('alice', { input: 'x' }, 1)).toBeUndefined();
    expect(affinityKey('alice', null, 1)).toBeUndefined();
  });

  it('never holds the prompt in clear', () => {
    const key = affinityKey('alice', { system: 'secret system prompt', messages: [{ role: 'user', content: 'secret question' }] }, 1)!;
    expect(key.byteLength).toBe(32);
    expect(key.toString('latin1')).not.toContain('secret');
  });
});

describe('affinity routing', () => {
  const targets = [{ upstream: a }, { upstream: b }, { upstream: c }];

  it('sends every turn of a conversation to the same target, whatever the random draws', () => {
    const route = resolve({ targets, affinity: true }, { random: seededRandom(1) });
    for (let n = 0; n < 50; n++) {
      const chosen = first(route, conversation(n)).targets[0];
      for (let turn = 2; turn < 8; turn++) expect(first(route, conversation(n, turn)).targets[0]).toBe(chosen);
    }
  });

  it('spreads prefixes across targets by weight', () => {
    const route = resolve({ targets: [{ upstream: a }, { upstream: b, weight: 2 }, { upstream: c, weight: 3 }], affinity: true });
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    const n = 12_000;
    for (let i = 0; i < n; i++) counts[first(route, conversation(i)).targets[0]!.upstream.name]!++;
    // 4 standard deviations of a binomial share over 12 000 keys is below 0.0183.
    expect(Math.abs(counts.a! / n - 1 / 6)).toBeLessThan(0.0183);
    expect(Math.abs(counts.b! / n - 2 / 6)).toBeLessThan(0.0183);
    expect(Math.abs(counts.c! / n - 3 / 6)).toBeLessThan(0.0183);
  });

  it('moves off an unavailable target, and only the prefixes that were on it move', () => {
    let down: Upstream | undefined;
    const route = resolve({ targets, affinity: { prefixMessages: 1 } }, { isAvailable: (target) => target.upstream !== down });
    const before = Array.from({ length: 600 }, (_, n) => first(route, conversation(n)));
    expect(before.every((order) => order.decision?.affinity === 'kept')).toBe(true);
    down = b;
    let moved = 0;
    for (let n = 0; n < 600; n++) {
      const now = first(route, conversation(n));
      const was = before[n]!.targets[0]!;
      expect(now.targets[0]!.upstream).not.toBe(b);
      if (was.upstream === b) {
        moved++;
        expect(now.decision?.affinity).toBe('moved');
        // It moves to its own second choice: where its failover went, and where it stays while b is away.
        expect(now.targets[0]).toBe(before[n]!.targets[1]);
      } else {
        expect(now.targets[0]).toBe(was);
        expect(now.decision?.affinity).toBe('kept');
      }
      // The unavailable target is still tried last, before the fallbacks.
      expect(now.targets[2]!.upstream).toBe(b);
    }
    expect(moved).toBeGreaterThan(100);
    down = undefined;
    for (let n = 0; n < 600; n++) expect(first(route, conversation(n)).targets[0]).toBe(before[n]!.targets[0]);
  });

  it('keeps principals apart', () => {
    const route = resolve({ targets, affinity: true });
    let differ = 0;
    for (let n = 0; n < 100; n++) if (first(route, conversation(n), 'alice').targets[0] !== first(route, conversation(n), 'bob').targets[0]) differ++;
    expect(differ).toBeGreaterThan(30);
  });

  it('goes by the strategy for a body without messages, and says so', () => {
    const route = resolve({ targets, affinity: true, strategy: 'least-in-flight' });
    route.balancer!.stats.opened(route.targets[0]!);
    route.balancer!.stats.opened(route.targets[1]!);
    const order = first(route, { messages: [] });
    expect(order.targets[0]!.upstream).toBe(c);
    expect(order.decision).toEqual({ strategy: 'least-in-flight', affinity: 'none' });
  });

  it('is the same order on every router (gateway instance) with the same targets', () => {
    const one = resolve({ targets, affinity: true });
    const other = resolve({ targets: [...targets].reverse(), affinity: true });
    for (let n = 0; n < 100; n++) {
      expect(first(one, conversation(n)).targets.map((t: RouteTarget) => t.upstream.name)).toEqual(first(other, conversation(n)).targets.map((t: RouteTarget) => t.upstream.name));
    }
  });

  it('rendezvous order honours weights: a weight 0 target is never first', () => {
    const key = affinityKey('p', conversation(1), 1)!;
    const order = rendezvousOrder(key, [{ upstream: a, model: 'm', weight: 0 }, { upstream: b, model: 'm' }]);
    expect(order[0]!.upstream).toBe(b);
  });
});
