/**
 * `auth`: the first option most apps write, usually from an environment
 * variable. Each mistake is a GatewayConfigError at construction that names
 * the option's path and the fix, never a crypto or type error at the first request.
 */
import { createGateway, GatewayConfigError, type GatewayOptions } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf } from './problems-of.js';

const make = (auth: unknown) => () => createGateway({ auth } as GatewayOptions);

describe('auth', () => {
  it('an unset environment variable in keys (the README’s process.env.MODELGATE_KEY!) is named, with the variable to set', () => {
    const thrown = (() => {
      try {
        createGateway({ auth: { keys: [process.env.MODELGATE_TEST_UNSET_VARIABLE!] } });
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(GatewayConfigError);
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toBe(
      'createGateway: auth.keys[0] is undefined — an unset environment variable? Set MODELGATE_KEY (or the variable you read it from), or leave the entry out.',
    );
  });

  it('an empty, non-string or padded key', () => {
    const problems = problemsOf(make({ keys: ['', 42, { key: undefined, id: 'team-a' }, { key: '' }, ' sk-padded\n'] }));
    expect(problemAt(problems, 'auth.keys[0]')).toMatch(/^is an empty string — an unset environment variable\? Set MODELGATE_KEY/);
    expect(problemAt(problems, 'auth.keys[1]')).toBe('must be a key callers send, a string (got 42)');
    expect(problemAt(problems, 'auth.keys[2].key')).toMatch(/^is undefined — an unset environment variable\?/);
    expect(problemAt(problems, 'auth.keys[3].key')).toMatch(/^is an empty string/);
    expect(problemAt(problems, 'auth.keys[4]')).toMatch(/start or end .*trim it/);
    expect(problems).toHaveLength(5);
  });

  it('missing, empty, both forms, neither, or the wrong type', () => {
    expect(problemAt(problemsOf(() => createGateway({} as GatewayOptions)), 'auth')).toMatch(/^is required: give `\{ keys: \[process\.env\.MODELGATE_KEY\] \}`/);
    expect(problemAt(problemsOf(make({ keys: [] })), 'auth.keys')).toMatch(/^is empty: no caller could authenticate/);
    expect(problemAt(problemsOf(make({ keys: ['sk-a'], verify: () => null })), 'auth')).toMatch(/^has both `keys` and `verify`: give one of them/);
    expect(problemAt(problemsOf(make(['sk-a'])), 'auth')).toBe('is an array: put the keys in `{ keys: [...] }`');
    expect(problemAt(problemsOf(make({ verify: 'lookup' })), 'auth.verify')).toBe('must be `async (key, request) => principal | null` (got a string)');
    const singular = problemsOf(make({ key: 'sk-a' }));
    expect(problemAt(singular, 'auth.keys')).toMatch(/^is missing: give the keys callers send/);
    expect(problemAt(singular, 'auth.key')).toBe('is not an `auth` option: did you mean `keys`?');
  });

  it('a typo in a key entry or in auth suggests the right name', () => {
    const problems = problemsOf(make({ keys: [{ key: 'sk-a', allowedModel: ['gpt-4o'] }] }));
    expect(problemAt(problems, 'auth.keys[0].allowedModel')).toBe('is not a key option: did you mean `allowedModels`?');
    expect(problemAt(problemsOf(() => createGateway({ auth: { keys: ['sk-a'] }, keys: ['sk-b'] } as GatewayOptions)), 'keys')).toMatch(/keys go in `auth: \{ keys: \[\.\.\.\] \}`/);
  });

  it('valid forms construct', () => {
    expect(() => createGateway({ auth: { keys: ['sk-a', { key: 'sk-b', id: 'team-b', allowedModels: ['gpt-4o'] }] } })).not.toThrow();
    expect(() => createGateway({ auth: { verify: async () => null } })).not.toThrow();
  });
});
