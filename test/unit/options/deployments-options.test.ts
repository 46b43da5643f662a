/** The route options of several deployments: `targets`, `strategy`, `affinity`, checked with the other options. */
import { createGateway, type GatewayOptions } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf } from './problems-of.js';

const withRoutes = (routes: unknown) => () => createGateway({ auth: { keys: ['sk-a'] }, routes } as GatewayOptions);
const named = (name: string) => ({ name, format: 'chat' as const, send: () => Promise.reject(new Error('not called')) });

describe('route targets', () => {
  it('accepts targets with weights, models, a strategy and affinity', () => {
    expect(() =>
      withRoutes([
        { match: 'a', targets: [{ upstream: named('x'), weight: 3, model: 'm1' }, { upstream: named('y'), model: (id: string) => `${id}-y` }], strategy: 'lowest-latency', affinity: true, fallbacks: [named('z')] },
        { match: 'b', targets: [{ upstream: named('x') }], affinity: { prefixMessages: 3 }, strategy: 'least-in-flight' },
        { match: 'c', targets: [{ upstream: named('x'), model: 'one' }, { upstream: named('x'), model: 'two' }] },
      ])(),
    ).not.toThrow();
  });

  it('needs exactly one of upstream and targets', () => {
    const problems = problemsOf(withRoutes([{ match: 'a' }, { match: 'b', upstream: named('x'), targets: [{ upstream: named('y') }] }, { match: 'c', targets: [] }]));
    expect(problemAt(problems, 'routes[0].upstream')).toMatch(/^is missing: give an upstream: .*; or `targets: \[\{ upstream, weight\?, model\? \}, \.\.\.\]`/);
    expect(problemAt(problems, 'routes[1].upstream')).toMatch(/^cannot be given with `targets`/);
    expect(problemAt(problems, 'routes[2].targets')).toMatch(/^is empty/);
    expect(problems).toHaveLength(3);
  });

  it('names each bad target, weight, strategy and affinity', () => {
    const problems = problemsOf(
      withRoutes([
        { match: 'a', targets: [{ upstream: named('x'), weight: -1 }, { upstream: named('y'), wieght: 2 }, {}], strategy: 'round-robin', affinity: 'yes' },
        { match: 'b', targets: [{ upstream: named('x') }, { upstream: named('x') }], model: 'm', affinity: { prefixMessages: 0 } },
        { match: 'c', targets: [{ upstream: named('x'), weight: 0 }] },
        { match: 'd', targets: 'x' },
      ]),
    );
    expect(problemAt(problems, 'routes[0].targets[0].weight')).toMatch(/^must be a number 0 or more \(got -1\)/);
    expect(problemAt(problems, 'routes[0].targets[1].wieght')).toBe('is not a target option: did you mean `weight`?');
    expect(problemAt(problems, 'routes[0].targets[2].upstream')).toMatch(/^is missing: give an upstream/);
    expect(problemAt(problems, 'routes[0].strategy')).toMatch(/^must be "weighted" or "least-in-flight" or "lowest-latency" \(got "round-robin"\)/);
    expect(problemAt(problems, 'routes[0].affinity')).toMatch(/^must be true, false or `\{ prefixMessages\? \}` \(got a string\)/);
    expect(problemAt(problems, 'routes[1].targets[1]')).toMatch(/^repeats targets\[0\] \(upstream "x"\)/);
    expect(problemAt(problems, 'routes[1].model')).toMatch(/^belongs in each target with `targets`/);
    expect(problemAt(problems, 'routes[1].affinity.prefixMessages')).toMatch(/^must be an integer from 1 to 1000 \(got 0\)/);
    expect(problemAt(problems, 'routes[2].targets')).toMatch(/^has no target with a weight above 0/);
    expect(problemAt(problems, 'routes[3].targets')).toMatch(/^must be an array of `\{ upstream, weight\?, model\? \}` \(got a string\)/);
  });

  it('bare upstreams in targets: each named, with the wrapped form to write instead', () => {
    const problems = problemsOf(withRoutes([{ match: '*', targets: [named('east'), named('west')] }]));
    for (const [index, name] of [[0, 'east'], [1, 'west']] as const) {
      const message = problemAt(problems, `routes[0].targets[${index}]`);
      expect(message).toMatch(new RegExp(`^is an upstream \\("${name}"\\), not a target`));
      expect(message).toContain('{ upstream: east }');
    }
    expect(problems).toHaveLength(2);
  });

  it('malformed targets and fallbacks with keyPassthrough are problems, never a crash', () => {
    const problems = problemsOf(
      withRoutes([
        { match: 'a', targets: [named('east')], keyPassthrough: true },
        { match: 'b', upstream: named('x'), fallbacks: [{}], keyPassthrough: true },
        { match: 'c', upstream: named('x'), fallbacks: [42], keyPassthrough: true },
        { match: 'd', upstream: {}, keyPassthrough: true },
      ]),
    );
    expect(problemAt(problems, 'routes[0].targets[0]')).toMatch(/^is an upstream \("east"\), not a target/);
    expect(problemAt(problems, 'routes[1].fallbacks[0].send')).toMatch(/^is missing: give `send\(call\)`/);
    expect(problemAt(problems, 'routes[2].fallbacks[0]')).toMatch(/^must be an upstream.*\(got 42\)/);
    expect(problems.some((problem) => problem.path.startsWith('routes[3].upstream'))).toBe(true);
  });
});
