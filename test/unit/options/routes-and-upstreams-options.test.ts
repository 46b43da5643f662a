/**
 * `routes` and the upstream clients' own options: upstreams are checked by
 * their shape (so custom ones keep working), the clients' options by value.
 */
import { createGateway, type GatewayOptions, messagesUpstream, openAICompatible, type Upstream } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { fakeUpstream, problemAt, problemsOf } from './problems-of.js';

const withRoutes = (routes: unknown) => () => createGateway({ auth: { keys: ['sk-a'] }, routes } as GatewayOptions);

describe('routes', () => {
  it('a route without an upstream, or with a factory, options or a broken object instead of one', () => {
    const problems = problemsOf(
      withRoutes([
        { match: 'a' },
        { match: 'b', upstream: openAICompatible },
        { match: 'c', upstream: { baseURL: 'https://api.openai.com/v1', apiKey: 'sk-x' } },
        { match: 'd', upstream: { name: 'mine', format: 'chats', send: 1 } },
      ]),
    );
    expect(problemAt(problems, 'routes[0].upstream')).toMatch(/^is missing: give an upstream: openAICompatible\(\{ baseURL, apiKey \}\)/);
    expect(problemAt(problems, 'routes[1].upstream')).toMatch(/^is a function, not an upstream: call it/);
    expect(problemAt(problems, 'routes[2].upstream')).toMatch(/^holds an upstream’s options, not an upstream: pass them to openAICompatible/);
    expect(problemAt(problems, 'routes[3].upstream.format')).toBe('must be "chat" or "messages" (got "chats"): the wire format it speaks');
    expect(problemAt(problems, 'routes[3].upstream.send')).toMatch(/^must be `send\(call\)`/);
    expect(problems).toHaveLength(5);
  });

  it('matchers, renames, fallbacks, policies and typos', () => {
    const upstream = fakeUpstream();
    const problems = problemsOf(
      withRoutes([
        { match: '', upstream },
        { match: 5, upstream, model: '' },
        { match: '*', upstream, fallbacks: [{ upstream: undefined }, {}], onClientAbort: 'dran', retries: -1, keyPasthrough: true },
        { match: '*', upstream, fallback: [upstream] },
      ]),
    );
    expect(problemAt(problems, 'routes[0].match')).toMatch(/^is an empty string, which matches no model/);
    expect(problemAt(problems, 'routes[1].match')).toMatch(/^must be a model id, a glob .* \(got 5\)$/);
    expect(problemAt(problems, 'routes[1].model')).toMatch(/^is an empty string: give the upstream’s model id/);
    expect(problemAt(problems, 'routes[2].fallbacks[0].upstream')).toMatch(/^is missing/);
    expect(problemAt(problems, 'routes[2].fallbacks[1].name')).toMatch(/^is undefined/);
    expect(problemAt(problems, 'routes[2].onClientAbort')).toMatch(/^must be "abort" or "drain" \(got "dran"\)/);
    expect(problemAt(problems, 'routes[2].retries')).toMatch(/^must be an integer from 0 to 100 \(got -1\)/);
    expect(problemAt(problems, 'routes[2].keyPasthrough')).toBe('is not a route option: did you mean `keyPassthrough`?');
    expect(problemAt(problems, 'routes[3].fallback')).toBe('is not a route option: did you mean `fallbacks`?');
  });

  it('custom upstreams of every documented kind still construct', () => {
    const simulator = createSimulator();
    const custom: Upstream = { ...fakeUpstream('messages'), secrets: () => ['sk-secret'], close: async () => {}, server: { address: 'h', port: 443 } };
    class ClassUpstream {
      readonly name = 'class';
      readonly format = 'chat' as const;
      extra = 1;
      send(): ReturnType<Upstream['send']> {
        return Promise.reject(new Error('not called'));
      }
    }
    expect(() =>
      createGateway({
        auth: { keys: ['sk-a'] },
        routes: [
          { match: 'vendora-*', upstream: simulator.upstreams.messages, fallbacks: [custom, { upstream: new ClassUpstream(), model: (id) => id }] },
          { match: /^gpt-/, upstream: new ClassUpstream(), onClientAbort: 'drain', retries: 0, keyPassthrough: true, serveMessages: true, model: 'gpt-4o' },
          { match: (model) => model.startsWith('x'), upstream: openAICompatible({ baseURL: 'http://127.0.0.1:1/v1' }) },
        ],
      }),
    ).not.toThrow();
  });
});

describe('openAICompatible and messagesUpstream options', () => {
  it('baseURL: missing, unset, not a URL, not http(s), with credentials; messages without /v1', () => {
    expect(problemAt(problemsOf(() => openAICompatible({} as never)), 'baseURL')).toMatch(/^is undefined — an unset environment variable\? Set OPENAI_BASE_URL/);
    expect(problemAt(problemsOf(() => openAICompatible({ baseURL: 'api.openai.com/v1' })), 'baseURL')).toMatch(/^is not a valid URL: give an absolute http\(s\) URL/);
    expect(problemAt(problemsOf(() => openAICompatible({ baseURL: 'ftp://example.com' })), 'baseURL')).toMatch(/^must be an http or https URL \(got ftp:\)/);
    expect(problemAt(problemsOf(() => openAICompatible({ baseURL: 'https://u:p@example.com/v1' })), 'baseURL')).toMatch(/^must not contain credentials.*`apiKey`/);
    expect(problemAt(problemsOf(() => messagesUpstream({ baseURL: 'https://api.anthropic.com/v1' })), 'baseURL')).toMatch(/^ends in \/v1: give the base URL without it/);
  });

  it('apiKey, headers, time-outs, pool and unknown options', () => {
    const problems = problemsOf(() =>
      openAICompatible({
        baseURL: 'https://api.openai.com/v1',
        apiKey: process.env.MODELGATE_TEST_UNSET_VARIABLE,
        headers: { 'openai-organization': undefined as never, 'bad name': 'v', 'x-ok': 'a\r\nb' },
        timeouts: { connectMs: 0, firstByteMs: 1.5, idleMs: 3_000_000_000 },
        pool: { connections: 0 },
        apikey: 'sk-x',
      } as never),
    );
    expect(problemAt(problems, 'apiKey')).toBe(
      'is undefined — an unset environment variable? Set OPENAI_API_KEY (or the variable you read it from), or leave `apiKey` out for an upstream that takes no key.',
    );
    expect(problemAt(problems, 'headers["openai-organization"]')).toMatch(/^is undefined — an unset environment variable\?/);
    expect(problemAt(problems, 'headers["bad name"]')).toMatch(/^is not a valid header name/);
    expect(problemAt(problems, 'headers["x-ok"]')).toMatch(/^contains a line break/);
    expect(problemAt(problems, 'timeouts.connectMs')).toMatch(/^must be an integer from 1 to 2147483647 \(got 0\)/);
    expect(problemAt(problems, 'timeouts.firstByteMs')).toMatch(/\(got 1\.5\)/);
    expect(problemAt(problems, 'timeouts.idleMs')).toMatch(/\(got 3000000000\)/);
    expect(problemAt(problems, 'pool.connections')).toMatch(/^must be an integer from 1 /);
    expect(problemAt(problems, 'apikey')).toBe('is not an `openAICompatible` option: did you mean `apiKey`?');
    expect(problemAt(problemsOf(() => messagesUpstream({ baseURL: 'https://api.anthropic.com', apiKey: '' })), 'apiKey')).toMatch(/Set ANTHROPIC_API_KEY/);
  });

  it('the README’s and the examples’ forms construct', async () => {
    const agent = new Agent();
    const upstreams = [
      openAICompatible({ baseURL: 'https://api.openai.com/v1', apiKey: 'sk-x', headers: { 'openai-organization': 'org' }, name: 'openai', timeouts: { connectMs: 150 }, pool: { connections: 4, keepAliveTimeoutMs: 4000 } }),
      openAICompatible({ baseURL: 'http://127.0.0.1:11434/v1?api-version=1' }),
      messagesUpstream({ baseURL: 'https://api.anthropic.com', apiKey: 'sk-ant', version: '2023-06-01', dispatcher: agent }),
      messagesUpstream({ baseURL: 'https://backup.example', apiKey: 'k', name: 'backup' }),
    ];
    await Promise.all(upstreams.map((upstream) => upstream.close?.()));
    await agent.close();
  });
});

describe('routes[].list', () => {
  it('the ids GET /v1/models lists for a pattern route: exact ids its match takes, each once', () => {
    const upstream = fakeUpstream();
    const problems = problemsOf(
      withRoutes([
        { match: 'llama-3.1-8b', upstream, list: ['llama-3.1-8b'] },
        { match: 'llama-*', upstream, list: ['llama-3.1-8b', 'qwen2.5-7b', 'llama-*', '', 'llama-3.1-8b'] },
        { match: /^gpt-/, upstream, list: 'gpt-4o' },
        { match: (model: string) => model === 'a', upstream, list: ['b'] },
        { match: 'x-*', upstream, list: [7] },
      ]),
    );
    expect(problemAt(problems, 'routes[0].list')).toMatch(/^is for a route whose `match` is a glob, RegExp or function: .*exact id "llama-3\.1-8b".*remove `list`$/);
    expect(problemAt(problems, 'routes[1].list[1]')).toMatch(/^"qwen2\.5-7b" is not matched by this route's `match`/);
    expect(problemAt(problems, 'routes[1].list[2]')).toMatch(/^is a glob \("llama-\*"\): list the exact ids/);
    expect(problemAt(problems, 'routes[1].list[3]')).toMatch(/^is an empty string/);
    expect(problemAt(problems, 'routes[1].list[4]')).toBe('repeats list[0] ("llama-3.1-8b"): give each id once');
    expect(problemAt(problems, 'routes[2].list')).toMatch(/^must be an array of the model ids the route serves/);
    expect(problemAt(problems, 'routes[3].list[0]')).toMatch(/^"b" is not matched/);
    expect(problemAt(problems, 'routes[4].list[0]')).toMatch(/^must be a model id, a string \(got 7\)/);
    expect(problems).toHaveLength(8);
  });

  it('valid lists construct', () => {
    const upstream = fakeUpstream();
    expect(() =>
      createGateway({
        auth: { keys: ['sk-a'] },
        routes: [
          { match: 'llama-*', upstream, list: ['llama-3.1-8b', 'llama-3.1-70b'] },
          { match: /^gpt-/, upstream, list: [] },
          { match: (model) => model.startsWith('m'), upstream, list: ['mistral-small'] },
        ],
      }),
    ).not.toThrow();
  });
});
