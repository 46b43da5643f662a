/**
 * Numbers (sizes, time-outs), catalog, files, hooks, secrets, limits and
 * observability: each mistake names its path and the fix; the documented
 * configurations construct.
 */
import { createCatalog, createGateway, DEFAULT_CATALOG, DEFAULT_MODELS, type GatewayOptions, memoryLimitStore } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf } from './problems-of.js';

const make = (options: Record<string, unknown>) => () => createGateway({ auth: { keys: ['sk-a'] }, ...options } as GatewayOptions);

describe('numbers', () => {
  it('negative, fractional, too large or not numbers', () => {
    const problems = problemsOf(
      make({ maxBodyBytes: -1, requestTimeoutMs: 1.5, bodyTimeoutMs: 3_000_000_000, heartbeatMs: '15000', defaultMaxTokens: 0, maxChoices: Number.NaN, reasoningBudgets: { high: 100 } }),
    );
    expect(problemAt(problems, 'maxBodyBytes')).toBe('must be an integer from 1 to 9007199254740991 (got -1): bytes');
    expect(problemAt(problems, 'requestTimeoutMs')).toBe(
      "must be an integer from 0 to 2147483647 (got 1.5): the wait for an upstream answer, in ms; 0 turns it off, and Node's timers take at most 2147483647",
    );
    expect(problemAt(problems, 'bodyTimeoutMs')).toMatch(/\(got 3000000000\)/);
    expect(problemAt(problems, 'heartbeatMs')).toMatch(/\(got a string\)/);
    expect(problemAt(problems, 'defaultMaxTokens')).toMatch(/^must be an integer from 1 /);
    expect(problemAt(problems, 'maxChoices')).toMatch(/\(got NaN\)/);
    expect(problemAt(problems, 'reasoningBudgets.high')).toMatch(/^must be an integer from 1024 .*\(got 100\)/);
    expect(problems).toHaveLength(7);
  });

  it('unknown options name the nearest known one, all problems at once', () => {
    const error = (() => {
      try {
        make({ maxBodySize: 10, timeout: 5, dropUnsupportedParam: true })();
      } catch (thrown) {
        return thrown as Error;
      }
    })();
    expect(error?.message).toBe(
      [
        'createGateway: 3 problems in the options:',
        '  - maxBodySize is not a gateway option: did you mean `maxBodyBytes`?',
        '  - timeout is not a gateway option: did you mean `requestTimeoutMs` (the wait for an upstream answer)?',
        '  - dropUnsupportedParam is not a gateway option: did you mean `dropUnsupportedParams`?',
      ].join('\n'),
    );
  });

  it('no options at all', () => {
    expect(problemAt(problemsOf(() => createGateway(undefined as never)), '')).toMatch(/^is missing: give an object with at least `auth`/);
  });
});

describe('catalog, files, hooks, secrets', () => {
  it('each mistake', () => {
    const problems = problemsOf(make({ catalog: DEFAULT_MODELS, files: true, onUsage: 'log', onError: {}, secrets: ['ab', undefined, 7] }));
    expect(problemAt(problems, 'catalog')).toMatch(/^is an array of models: make a catalog of them with `createCatalog\(\{ models \}\)`/);
    expect(problemAt(problems, 'files')).toMatch(/^is true: give `\{ store, shared\?, allowDelete\? \}`/);
    expect(problemAt(problems, 'onUsage')).toBe('must be `(record) => void` (got a string)');
    expect(problemAt(problems, 'onError')).toMatch(/^must be `\(\{ error, request, requestId \}\) => void` \(got an object\)/);
    expect(problemAt(problems, 'secrets[0]')).toMatch(/^is shorter than 4 characters/);
    expect(problemAt(problems, 'secrets[1]')).toMatch(/^is undefined — an unset environment variable\?/);
    expect(problemAt(problems, 'secrets[2]')).toMatch(/\(got 7\)/);
  });

  it('a catalog entry with a wrong field', () => {
    const catalog = createCatalog({ models: [{ ...DEFAULT_MODELS[0]!, id: 'mine', thinking: 'on' as never }] });
    expect(problemAt(problemsOf(make({ catalog })), `catalog.models[${catalog.models.length - 1}].thinking`)).toMatch(/^must be "enabled" or "adaptive" or "none" \(got "on"\)/);
  });

  it('valid forms construct', () => {
    const simulator = createSimulator();
    expect(make({ catalog: DEFAULT_CATALOG, files: false, onUsage: () => {}, onError: () => {}, secrets: ['proxy-password'] })).not.toThrow();
    expect(make({ catalog: createCatalog({ models: [{ ...DEFAULT_MODELS[0]!, id: 'mine' }], replace: true }), files: simulator.files })).not.toThrow();
  });
});

describe('forwardHeaders', () => {
  it('refuses what may never be forwarded, saying why', () => {
    const problems = problemsOf(make({ forwardHeaders: ['Authorization', 'cookie', 'host', 'x-api-key', 'x-forwarded-for', 'via', 'x-modelgate-trace', 'bad name', ''] }));
    expect(problemAt(problems, 'forwardHeaders[0]')).toMatch(/^names `authorization`, which is never forwarded from callers: it carries credentials/);
    expect(problemAt(problems, 'forwardHeaders[1]')).toMatch(/^names `cookie`, which is never forwarded from callers: it carries credentials/);
    expect(problemAt(problems, 'forwardHeaders[2]')).toMatch(/^names `host`, which is never forwarded from callers: it frames one connection/);
    expect(problemAt(problems, 'forwardHeaders[3]')).toMatch(/^names `x-api-key`, which is never forwarded/);
    expect(problemAt(problems, 'forwardHeaders[4]')).toMatch(/proxies and addresses in front of the gateway/);
    expect(problemAt(problems, 'forwardHeaders[5]')).toMatch(/the gateway sets it itself/);
    expect(problemAt(problems, 'forwardHeaders[6]')).toMatch(/the gateway's own/);
    expect(problemAt(problems, 'forwardHeaders[7]')).toMatch(/^"bad name" is not a header name/);
    expect(problemAt(problems, 'forwardHeaders[8]')).toMatch(/empty string/);
    expect(problemAt(problemsOf(make({ forwardHeaders: 'x-my-trace' })), 'forwardHeaders')).toMatch(/^must be an array of header names/);
  });

  it('valid forms construct', () => {
    expect(make({ forwardHeaders: ['x-my-trace', 'OpenAI-Organization', 'x-simulator-fault'] })).not.toThrow();
  });
});

describe('limits', () => {
  it('each mistake', () => {
    const problems = problemsOf(
      make({
        limits: {
          rules: [{ models: 'x' }, { requests: { limit: -1, windowSecond: 60 } }, { tokens: { limit: 10, count: 'all' }, concurrent: 1.5 }, { budget: { limit: 5, periodSeconds: 0 } }],
          store: {},
          onStoreError: 'fail',
          storeTimeoutMs: 0,
          prices: { 'gpt-4o': { input: -2, outptu: 1 } },
        },
      }),
    );
    expect(problemAt(problems, 'limits.rules[0]')).toBe('has no limit: give `requests`, `tokens`, `concurrent` or `budget`');
    expect(problemAt(problems, 'limits.rules[1].requests.limit')).toMatch(/^must be a number 0 or more .*\(got -1\)/);
    expect(problemAt(problems, 'limits.rules[1].requests.windowSecond')).toBe('is not a `requests` option: did you mean `windowSeconds`?');
    expect(problemAt(problems, 'limits.rules[2].tokens.count')).toMatch(/^must be "input\+output" or "input" or "output" \(got "all"\)/);
    expect(problemAt(problems, 'limits.rules[2].concurrent')).toMatch(/\(got 1\.5\)/);
    expect(problemAt(problems, 'limits.rules[3].budget.periodSeconds')).toMatch(/^must be a number greater than 0/);
    expect(problemAt(problems, 'limits.store')).toMatch(/^must be a LimitStore/);
    expect(problemAt(problems, 'limits.onStoreError')).toMatch(/^must be "open" or "closed" \(got "fail"\)/);
    expect(problemAt(problems, 'limits.storeTimeoutMs')).toMatch(/\(got 0\)/);
    expect(problemAt(problems, 'limits.prices["gpt-4o"].input')).toMatch(/\(got -2\)/);
    expect(problemAt(problems, 'limits.prices["gpt-4o"].outptu')).toBe('is not a price option: did you mean `output`?');
  });

  it('onStoreError per kind of limit', () => {
    const problems = problemsOf(make({ limits: { rules: [{ requests: { limit: 1 } }], onStoreError: { budgets: 'closed', tokens: 'shut' } } }));
    expect(problemAt(problems, 'limits.onStoreError.budgets')).toBe('is not an `onStoreError` option: did you mean `budget`?');
    expect(problemAt(problems, 'limits.onStoreError.tokens')).toMatch(/^must be "open" or "closed" \(got "shut"\)/);
    expect(problemAt(problemsOf(make({ limits: { onStoreError: true } })), 'limits.onStoreError')).toMatch(/^must be "open" or "closed", or one per kind of limit: .*\(got a boolean\)/);
    expect(make({ limits: { rules: [{ requests: { limit: 1 } }], onStoreError: { requests: 'closed', budget: 'open' } } })).not.toThrow();
  });

  it('a budget without prices could never fill', () => {
    expect(problemAt(problemsOf(make({ limits: { rules: [{ budget: { limit: 50 } }] } })), 'limits')).toMatch(/^has a rule with a `budget` but no `prices`/);
  });

  it('the README’s limits construct', () => {
    expect(
      make({
        limits: {
          rules: [
            { requests: { limit: 600 }, tokens: { limit: 200_000 }, concurrent: 8 },
            { models: 'vendora-opus-*', tokens: { limit: 40_000, count: 'input' } },
            { budget: { limit: 50, periodSeconds: 86_400 } },
            { models: ['a', 'b'], eachModel: true, id: 'ab', requests: { limit: Infinity, windowSeconds: 0.5 } },
          ],
          prices: { 'vendora-opus-*': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, 'gpt-4o': { input: 2.5, output: 10 } },
          store: memoryLimitStore(),
          onStoreError: 'open',
          concurrencyLeaseSeconds: 1,
        },
      }),
    ).not.toThrow();
  });
});

describe('observability', () => {
  it('each mistake', () => {
    const problems = problemsOf(make({ logger: console, openTelemetry: { captureContents: true, tracerProvider: {} }, prometheus: { prefix: '1x' } }));
    expect(problemAt(problems, 'logger')).toMatch(/^has no `child` method: .*\(`console` has no `child`: use pino, or wrap console\)$/);
    expect(problemAt(problems, 'openTelemetry.captureContents')).toBe('is not an `openTelemetry` option: did you mean `captureContent`?');
    expect(problemAt(problems, 'openTelemetry.tracerProvider')).toMatch(/^must be an OpenTelemetry TracerProvider/);
    expect(problemAt(problems, 'prometheus.registry')).toMatch(/^is missing: give your prom-client Registry/);
    expect(problemAt(problems, 'prometheus.prefix')).toMatch(/^must start a Prometheus metric name.*\(got "1x"\)/);
    expect(problemAt(problemsOf(make({ openTelemetry: 'yes' })), 'openTelemetry')).toMatch(/^must be true \(the global providers\)/);
  });

  it('valid forms construct', () => {
    const logger = { info() {}, warn() {}, error() {}, debug() {}, child: () => logger };
    expect(make({ logger, openTelemetry: true, prometheus: { registry: new Registry(), prefix: 'app_', principalLabel: true } })).not.toThrow();
  });
});
