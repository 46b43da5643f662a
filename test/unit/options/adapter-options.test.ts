/**
 * Every adapter checks the gateway's options at construction (naming
 * itself), the Fastify plugin its own `prefix` and `decorate` too, and the
 * examples' configurations construct on every adapter.
 */
import fastify from 'fastify';
import { createGateway, type GatewayOptions, isGatewayConfigError } from 'modelgate';
import { expressGateway } from 'modelgate/express';
import { createFastifyHooks, fastifyGateway } from 'modelgate/fastify';
import { createFetchHandler } from 'modelgate/fetch';
import { koaGateway } from 'modelgate/koa';
import { createNodeHandler } from 'modelgate/node';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../../examples/shared/config-from-env.js';
import { problemAt, problemsOf } from './problems-of.js';

const UNSET = { auth: { keys: [process.env.MODELGATE_TEST_UNSET_VARIABLE!] } } as GatewayOptions;

describe.each([
  ['expressGateway', expressGateway],
  ['koaGateway', koaGateway],
  ['createNodeHandler', createNodeHandler],
  ['createFetchHandler', createFetchHandler],
  ['createFastifyHooks', (options: GatewayOptions) => createFastifyHooks(options)],
] as const)('%s', (entry, make) => {
  it('throws the GatewayConfigError naming itself, the path and the fix', () => {
    expect(() => make(UNSET)).toThrow(`${entry}: auth.keys[0] is undefined — an unset environment variable? Set MODELGATE_KEY`);
    expect(problemAt(problemsOf(() => make({ auth: { keys: ['sk-a'] }, maxBodyByte: 1 } as GatewayOptions)), 'maxBodyByte')).toBe(
      'is not a gateway option: did you mean `maxBodyBytes`?',
    );
    expect(problemAt(problemsOf(() => make(undefined as never)), '')).toMatch(/^is missing: give an object with at least `auth`/);
  });

  it('takes a gateway as it is, and the examples’ configurations', async () => {
    const gateway = createGateway({ auth: { keys: ['sk-a'] } });
    expect(() => make(gateway as never)).not.toThrow();
    for (const env of [{}, { OPENAI_API_KEY: 'sk-x' }, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:1', MODELGATE_RPM: '10', MODELGATE_ADAPT_THINKING: '1' }]) {
      // createNodeHandler's listener does not expose its gateway: nothing of it is left open but idle pools.
      const made = make(configFromEnv(env).options) as { gateway?: { close(): Promise<void> } };
      await made.gateway?.close();
    }
    await gateway.close();
  });
});

describe('fastifyGateway', () => {
  const register = async (options: unknown) => {
    const app = fastify();
    try {
      await app.register(fastifyGateway, options as never);
      await app.ready();
    } finally {
      await app.close();
    }
  };
  const failureOf = async (options: unknown) => {
    const error = await register(options).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!isGatewayConfigError(error)) throw new Error(`expected a GatewayConfigError, got ${String(error)}`);
    return error;
  };

  it('rejects register with the problems of the gateway’s and its own options', async () => {
    const error = await failureOf({ ...UNSET, prefix: 5, decorate: 'no', prefx: '/ai' });
    expect(error.entry).toBe('fastifyGateway');
    expect(problemAt(error.problems, 'auth.keys[0]')).toMatch(/^is undefined — an unset environment variable\?/);
    expect(problemAt(error.problems, 'prefix')).toMatch(/^must be a path prefix such as "\/ai" \(got 5\)/);
    expect(problemAt(error.problems, 'decorate')).toBe('must be true or false (got a string)');
    expect(problemAt(error.problems, 'prefx')).toBe('is not a fastifyGateway option: did you mean `prefix`?');
  });

  it('checks `baseUrlHints` (true or false) beside the gateway or its options', async () => {
    expect(problemAt((await failureOf({ auth: { keys: ['sk-a'] }, baseUrlHints: 'yes' })).problems, 'baseUrlHints')).toBe('must be true or false (got a string)');
    const gateway = createGateway({ auth: { keys: ['sk-a'] } });
    expect(problemAt((await failureOf({ gateway, baseUrlHint: true })).problems, 'baseUrlHint')).toBe('is not a fastifyGateway option: did you mean `baseUrlHints`?');
    await expect(register({ gateway, baseUrlHints: true })).resolves.toBeUndefined();
    await gateway.close();
  });

  it('checks `{ gateway }` and a gateway given as the options', async () => {
    const gateway = createGateway({ auth: { keys: ['sk-a'] } });
    expect(problemAt((await failureOf({ gateway: {} })).problems, 'gateway')).toMatch(/^must be a gateway made by `createGateway/);
    expect(problemAt((await failureOf({ gateway, prefix: '/ai', decorat: false })).problems, 'decorat')).toBe('is not a fastifyGateway option: did you mean `decorate`?');
    await expect(register({ gateway, prefix: '/ai', decorate: false })).resolves.toBeUndefined();
    await expect(register(gateway)).resolves.toBeUndefined();
    await expect(register({ auth: { keys: ['sk-a'] }, prefix: '/ai', logLevel: 'warn' })).resolves.toBeUndefined();
    await gateway.close();
  });
});
