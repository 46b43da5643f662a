import { describe, expect, it } from 'vitest';
import { createRouter, type ResolvedRoute, type Route } from '../../../src/routing/routes.js';
import { orderTargets } from '../../../src/routing/order-targets.js';
import type { RouterOptions } from '../../../src/routing/balancer.js';
import type { Upstream } from '../../../src/upstreams/upstream.js';
import { createRandom as seededRandom } from '../../helpers/split-randomly.js';

const fake = (name: string): Upstream => ({ name, format: 'chat', send: () => Promise.reject(new Error('not used')) });
const a = fake('a');
const b = fake('b');
const c = fake('c');
const backup = fake('backup');

function resolve(route: Omit<Route, 'match'>, options: RouterOptions = {}): ResolvedRoute {
  return createRouter([{ match: '*', ...route } as Route], options).resolveOrThrow('m');
}

const order = (route: ResolvedRoute, body: unknown = { messages: [] }) =>
  orderTargets(route, route.targets, { principalId: 'p', body }).targets.map((target) => target.upstream.name);

describe('weighted (the default)', () => {
  it('picks each target in proportion to its weight', () => {
    const route = resolve({ targets: [{ upstream: a }, { upstream: b, weight: 2 }, { upstream: c, weight: 3 }] }, { random: seededRandom(7) });
    const draws = 20_000;
    const firsts = { a: 0, b: 0, c: 0 } as Record<string, number>;
    for (let i = 0; i < draws; i++) firsts[order(route)[0]!]!++;
    // Binomial: 4 standard deviations of a share p over 20 000 draws is below 0.0142 for every p.
    expect(Math.abs(firsts.a! / draws - 1 / 6)).toBeLessThan(0.0142);
    expect(Math.abs(firsts.b! / draws - 2 / 6)).toBeLessThan(0.0142);
    expect(Math.abs(firsts.c! / draws - 3 / 6)).toBeLessThan(0.0142);
  });

  it('fails over to every other target of the route, then to the fallbacks in their order', () => {
    const route = resolve({ targets: [{ upstream: a }, { upstream: b }, { upstream: c }], fallbacks: [backup, { upstream: a, model: 'other' }] }, { random: seededRandom(1) });
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const names = order(route);
      expect(names.slice(3)).toEqual(['backup', 'a']);
      expect([...names.slice(0, 3)].sort()).toEqual(['a', 'b', 'c']);
      seen.add(names.slice(0, 3).join());
    }
    // All six permutations of the three deployments occur.
    expect(seen.size).toBe(6);
  });

  it('never picks a target of weight 0 first, but keeps it for failover', () => {
    const route = resolve({ targets: [{ upstream: a, weight: 0 }, { upstream: b }] }, { random: seededRandom(3) });
    for (let i = 0; i < 500; i++) expect(order(route)).toEqual(['b', 'a']);
  });

  it('puts unavailable targets after the available ones, before the fallbacks', () => {
    const route = resolve({ targets: [{ upstream: a }, { upstream: b }, { upstream: c }], fallbacks: [backup] }, { isAvailable: (target) => target.upstream !== a, random: seededRandom(5) });
    for (let i = 0; i < 200; i++) expect(order(route).slice(2)).toEqual(['a', 'backup']);
  });

  it('leaves a one-target route in its configured order', () => {
    const route = resolve({ upstream: a, fallbacks: [backup] });
    const ordered = orderTargets(route, route.targets, { principalId: 'p', body: {} });
    expect(ordered.targets).toBe(route.targets);
    expect(ordered.decision).toBeUndefined();
  });
});

describe('least-in-flight', () => {
  it('picks the target with the fewest calls open, per unit of weight', () => {
    const route = resolve({ strategy: 'least-in-flight', targets: [{ upstream: a }, { upstream: b }, { upstream: c, weight: 4 }] }, { random: seededRandom(11) });
    const stats = route.balancer!.stats;
    const [ta, tb, tc] = route.targets;
    stats.opened(ta!);
    stats.opened(ta!);
    stats.opened(tb!);
    expect(order(route)).toEqual(['c', 'b', 'a']);
    // Three calls on c (weight 4) are 0.75 per unit: still below b's 1.
    for (let i = 0; i < 3; i++) stats.opened(tc!);
    expect(order(route)).toEqual(['c', 'b', 'a']);
    stats.opened(tc!);
    stats.opened(tc!);
    expect(order(route)[0]).toBe('b');
    stats.closed(tb!);
    expect(order(route)[0]).toBe('b');
    expect(stats.of(tb!).inFlight).toBe(0);
  });

  it('spreads ties at random', () => {
    const route = resolve({ strategy: 'least-in-flight', targets: [{ upstream: a }, { upstream: b }] }, { random: seededRandom(2) });
    const firsts = new Set<string>();
    for (let i = 0; i < 50; i++) firsts.add(order(route)[0]!);
    expect(firsts).toEqual(new Set(['a', 'b']));
  });

  it('does not count below zero', () => {
    const route = resolve({ strategy: 'least-in-flight', targets: [{ upstream: a }, { upstream: b }] });
    route.balancer!.stats.closed(route.targets[0]!);
    expect(route.balancer!.stats.of(route.targets[0]!).inFlight).toBe(0);
  });
});

describe('lowest-latency', () => {
  const latencies: Record<string, number> = { a: 100, b: 30, c: 60 };

  it('tries every target without a sample first, then converges to the fastest', () => {
    const route = resolve({ strategy: 'lowest-latency', targets: [{ upstream: a }, { upstream: b }, { upstream: c }] }, { random: seededRandom(13) });
    const stats = route.balancer!.stats;
    const picks: string[] = [];
    for (let i = 0; i < 300; i++) {
      const first = orderTargets(route, route.targets, { principalId: 'p', body: {} }).targets[0]!;
      picks.push(first.upstream.name);
      stats.answered(first, latencies[first.upstream.name]!);
    }
    // The first picks explore: one sample each before any target is picked twice.
    expect(new Set(picks.slice(0, 3)).size).toBe(3);
    const late = picks.slice(100);
    expect(late.filter((name) => name === 'b').length / late.length).toBeGreaterThan(0.9);
  });

  it('moves off a target that got slower', () => {
    const route = resolve({ strategy: 'lowest-latency', targets: [{ upstream: a }, { upstream: b }, { upstream: c }] }, { random: seededRandom(17) });
    const stats = route.balancer!.stats;
    const now = { ...latencies };
    const run = (n: number): string[] => {
      const picks: string[] = [];
      for (let i = 0; i < n; i++) {
        const first = orderTargets(route, route.targets, { principalId: 'p', body: {} }).targets[0]!;
        picks.push(first.upstream.name);
        stats.answered(first, now[first.upstream.name]!);
      }
      return picks;
    };
    run(100);
    now.b = 500;
    const after = run(300).slice(100);
    expect(after.filter((name) => name === 'c').length / after.length).toBeGreaterThan(0.9);
  });

  it('counts a failed attempt as at least twice the current estimate', () => {
    const route = resolve({ strategy: 'lowest-latency', targets: [{ upstream: a }, { upstream: b }] });
    const stats = route.balancer!.stats;
    const [ta] = route.targets;
    stats.answered(ta!, 100);
    stats.failed(ta!, 1);
    // 100 + 0.3 · (200 − 100)
    expect(stats.of(ta!).latencyMs).toBeCloseTo(130, 6);
  });
});

describe('recent failures scale a target’s weight down', () => {
  it('a target failing 15 % of its attempts gets clearly less traffic than a healthy one, and never none', () => {
    const route = resolve({ targets: [{ upstream: a }, { upstream: b }] }, { random: seededRandom(3) });
    const stats = route.balancer!.stats;
    const random = seededRandom(11);
    for (let i = 0; i < 400; i++) {
      if (random() < 0.15) stats.failed(route.targets[0]!, 10);
      else stats.answered(route.targets[0]!, 10);
      stats.answered(route.targets[1]!, 10);
    }
    const draws = 20_000;
    let flaky = 0;
    for (let i = 0; i < draws; i++) if (order(route)[0] === 'a') flaky++;
    // Equal weights would give 50 %; 4 standard deviations of a share over 20 000 draws is below 1.42 points.
    expect(flaky / draws).toBeLessThan(0.5 - 0.0142);
    expect(flaky).toBeGreaterThan(0);
  });

  it('a target that failed every recent attempt keeps a sliver of traffic (to see it recover)', () => {
    const route = resolve({ targets: [{ upstream: a }, { upstream: b }] }, { random: seededRandom(5) });
    for (let i = 0; i < 200; i++) route.balancer!.stats.failed(route.targets[0]!, 10);
    let firsts = 0;
    for (let i = 0; i < 20_000; i++) if (order(route)[0] === 'a') firsts++;
    expect(firsts).toBeGreaterThan(0);
    expect(firsts / 20_000).toBeLessThan(0.05);
  });
});
