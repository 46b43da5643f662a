/**
 * The `betas` route option: each mistake names its path and the fix; the
 * documented configurations construct.
 */
import { createGateway, type GatewayOptions, openAICompatible } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf } from './problems-of.js';

const upstreamOf = () => openAICompatible({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-up', name: 'up' });
const upstream = upstreamOf();
const make = (betas: unknown) => () => createGateway({ auth: { keys: ['sk-a'] }, routes: [{ match: 'm', upstream, betas }] } as GatewayOptions);

describe('routes[].betas', () => {
  it('allow must be an array of beta names, prefixes ending in * or *', () => {
    expect(problemAt(problemsOf(make({ allow: '*' })), 'routes[0].betas.allow')).toMatch(/^must be an array of beta names .*\(got a string\)$/);
    const problems = problemsOf(make({ allow: ['files-api-*', '', 'mcp client', '*-2025', 7] }));
    expect(problemAt(problems, 'routes[0].betas.allow[1]')).toMatch(/must be a beta name .* \(got ""\)$/);
    expect(problemAt(problems, 'routes[0].betas.allow[2]')).toMatch(/\(got "mcp client"\)$/);
    expect(problemAt(problems, 'routes[0].betas.allow[3]')).toMatch(/prefix ending in `\*`/);
    expect(problemAt(problems, 'routes[0].betas.allow[4]')).toMatch(/\(got 7\)$/);
    expect(problems).toHaveLength(4);
  });

  it('an unknown key is named with the closest one; a non-object says what to give', () => {
    expect(problemAt(problemsOf(make({ alow: ['*'] })), 'routes[0].betas.alow')).toMatch(/did you mean `allow`\?/);
    expect(problemAt(problemsOf(make(['*'])), 'routes[0].betas')).toMatch(/^must be `\{ allow: \[\.\.\.\] \}`/);
  });

  it('the documented configurations construct', async () => {
    for (const betas of [{}, { allow: ['*'] }, { allow: ['*', 'files-api-*'] }, { allow: ['claude-code-*', 'interleaved-thinking-2025-05-14'] }, { allow: [] }]) {
      const gateway = createGateway({ auth: { keys: ['sk-a'] }, routes: [{ match: 'm', upstream: upstreamOf(), betas }] });
      await gateway.close();
    }
  });
});
