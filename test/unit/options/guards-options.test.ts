/** The `guards` option, on the gateway and on a route: each mistake names its path; the reference guards construct. */
import { createGateway, denyList, type GatewayOptions, piiRedactor } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { fakeUpstream, problemAt, problemsOf } from './problems-of.js';

const make = (options: Record<string, unknown>) => () => createGateway({ auth: { keys: ['sk-a'] }, ...options } as GatewayOptions);

describe('guards', () => {
  it('names the gateway guard at fault', () => {
    const problems = problemsOf(make({ guards: [{ name: 'a', input: () => ({ action: 'allow' }) }, { name: 'b' }, { name: 'a', output: () => ({ action: 'allow' }) }] }));
    expect(problemAt(problems, 'guards[1]')).toMatch(/neither `input` nor `output`/);
    expect(problemAt(problems, 'guards[2].name')).toMatch(/repeats the guard name "a"/);
  });

  it('names the route guard at fault', () => {
    const problems = problemsOf(make({ routes: [{ match: '*', upstream: fakeUpstream(), guards: [{ name: 'x', input: () => ({ action: 'allow' }), timeoutMs: 0 }] }] }));
    expect(problemAt(problems, 'routes[0].guards[0].timeoutMs')).toMatch(/^must be an integer from 1/);
  });

  it('the reference guards construct, on the gateway and on a route', () => {
    expect(make({ guards: [piiRedactor(), denyList({ terms: ['x'] })] })).not.toThrow();
    expect(make({ routes: [{ match: '*', upstream: fakeUpstream(), guards: [piiRedactor()] }] })).not.toThrow();
  });
});
