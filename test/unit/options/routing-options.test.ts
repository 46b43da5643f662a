/**
 * The `routing` option (cooldowns) and `redisHealthStore`: each mistake
 * names its path and the fix; the documented configurations construct.
 */
import { createGateway, type GatewayOptions, memoryHealthStore, openAICompatible, redisHealthStore } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf } from './problems-of.js';

const make = (options: Record<string, unknown>) => () => createGateway({ auth: { keys: ['sk-a'] }, ...options } as GatewayOptions);
const upstreamOf = () => openAICompatible({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-up', name: 'up' });
const upstream = upstreamOf();

describe('routing', () => {
  it('a health store, false, or nothing else; cooldown numbers in range; unknown keys named', () => {
    const problems = problemsOf(make({ routing: { health: 'redis', cooldown: { failures: 0, baseMs: -1, maxMs: 'long', probeTimeoutMs: 0, failure: 3 } } }));
    expect(problemAt(problems, 'routing.health')).toMatch(/^must be a health store \(`redisHealthStore\(\{ client \}\)`, `memoryHealthStore\(\)`\) or false .*\(got a string\)$/);
    expect(problemAt(problems, 'routing.cooldown.failures')).toMatch(/^must be an integer from 1 .*\(got 0\)/);
    expect(problemAt(problems, 'routing.cooldown.baseMs')).toMatch(/\(got -1\)/);
    expect(problemAt(problems, 'routing.cooldown.maxMs')).toMatch(/\(got a string\)/);
    expect(problemAt(problems, 'routing.cooldown.probeTimeoutMs')).toMatch(/\(got 0\)/);
    expect(problemAt(problems, 'routing.cooldown.failure')).toBe('is not a `routing.cooldown` option: did you mean `failures`?');
    expect(problems).toHaveLength(6);
  });

  it('cooldown.failures counts among the last `window` attempts: more failures than the window is refused, saying what to change', () => {
    const problems = problemsOf(make({ routing: { cooldown: { failures: 12, window: 10 } } }));
    expect(problemAt(problems, 'routing.cooldown.failures')).toBe(
      'is 12, more than `window` (10): a target cools once `failures` of its last `window` attempts failed; lower `failures` or raise `window`',
    );
    expect(problems).toHaveLength(1);
    expect(problemAt(problemsOf(make({ routing: { cooldown: { window: 0 } } })), 'routing.cooldown.window')).toMatch(/^must be an integer from 1 .*\(got 0\)/);
  });

  it('route options given under routing point to routes[i]', () => {
    const routeOptions = ['targets', 'upstream', 'fallbacks', 'strategy', 'affinity', 'whenAllCooling', 'keyPassthrough', 'betas', 'match'];
    const problems = problemsOf(make({ routes: [{ match: 'm', upstream }], routing: Object.fromEntries(routeOptions.map((name) => [name, true])) }));
    for (const name of routeOptions) {
      const message = problemAt(problems, `routing.${name}`);
      expect(message).toMatch(/^is a route option, not a `routing` option/);
      expect(message).toContain(`\`routes[i].${name}\``);
    }
    expect(problems).toHaveLength(routeOptions.length);
  });

  it('route options at the top level point to routes[i] too; `upstream` keeps its own hint', () => {
    const problems = problemsOf(make({ routes: [{ match: 'm', upstream }], targets: [{ upstream }], strategy: 'weighted', upstream }));
    expect(problemAt(problems, 'targets')).toMatch(/^is a route option, not a gateway option: .*`routes\[i\]\.targets`/);
    expect(problemAt(problems, 'strategy')).toMatch(/`routes\[i\]\.strategy`/);
    expect(problemAt(problems, 'upstream')).toBe('is not a gateway option: give `routes: [{ match: "*", upstream }]`');
  });

  it('whenAllCooling is reject or try', () => {
    const problems = problemsOf(make({ routes: [{ match: 'm', upstream, whenAllCooling: 'wait' }] }));
    expect(problemAt(problems, 'routes[0].whenAllCooling')).toMatch(/reject.*try/);
  });

  it('redisHealthStore needs a Redis client and a sane refresh period', () => {
    expect(() => redisHealthStore({ client: {} as never })).toThrow(/client.*must be a connected Redis client/s);
    expect(() => redisHealthStore({ client: { evalsha: async () => null, eval: async () => null }, refreshMs: 0 })).toThrow(/refreshMs/);
  });

  it('the documented configurations construct', async () => {
    for (const routing of [undefined, { health: false as const }, { health: memoryHealthStore(), cooldown: { failures: 5, baseMs: 1_000, maxMs: 60_000, probeTimeoutMs: 10_000 } }, { cooldown: { failures: 9, window: 10 } }]) {
      const gateway = createGateway({ auth: { keys: ['sk-a'] }, routes: [{ match: 'm', upstream: upstreamOf(), whenAllCooling: 'try' }], ...(routing ? { routing } : {}) });
      await gateway.close();
    }
  });
});
