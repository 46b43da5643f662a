/**
 * `configFromEnv` of the example apps: defaults, keys, and which family
 * each upstream variable configures.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { configFromEnv, DEFAULT_ANTHROPIC_BASE_URL } from '../../examples/shared/config-from-env.js';
import { curlLines, formatStartup, listeningURL, redactURL, shellQuote } from '../../examples/shared/print-startup.js';

describe('configFromEnv', () => {
  it('defaults: port 8787 on 127.0.0.1, one generated dev key, no routes (embedded simulator)', () => {
    const config = configFromEnv({});
    expect(config).toMatchObject({ port: 8787, host: '127.0.0.1', generatedKey: true });
    expect(config.keys).toHaveLength(1);
    expect(config.keys[0]).toMatch(/^sk-dev-/);
    expect(config.options.routes).toBeUndefined();
    expect(config.options.auth).toEqual({ keys: config.keys });
    expect(configFromEnv({}).keys[0]).not.toBe(config.keys[0]);
  });

  it('reads PORT, HOST and comma-separated keys (blanks ignored)', () => {
    const config = configFromEnv({ PORT: '9001', HOST: '0.0.0.0', MODELGATE_API_KEYS: ' sk-a ,, sk-b ,' });
    expect(config).toMatchObject({ port: 9001, host: '0.0.0.0', keys: ['sk-a', 'sk-b'], generatedKey: false });
  });

  it.each(['abc', '-1', '70000', '80.5'])('rejects PORT=%s', (port) => {
    expect(() => configFromEnv({ PORT: port })).toThrow(/PORT must be an integer/);
  });

  it('ANTHROPIC_API_KEY alone: the vendor models and files go to the public messages API, other models to a simulator', () => {
    const config = configFromEnv({ ANTHROPIC_API_KEY: 'sk-ant-x' });
    const routes = config.options.routes ?? [];
    expect(routes).toHaveLength(2);
    expect(routes[0]?.upstream).toMatchObject({ name: 'anthropic', format: 'messages' });
    expect(routes[1]?.upstream).toMatchObject({ name: 'simulator:chat', format: 'chat' });
    expect(config.notes.join('\n')).toContain(DEFAULT_ANTHROPIC_BASE_URL);
    expect(config.notes.join('\n')).toContain('OPENAI_BASE_URL / OPENAI_API_KEY not set');
    expect(config.options.files).toBeDefined();
  });

  it('both families: real upstreams only', () => {
    const config = configFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', ANTHROPIC_BASE_URL: 'http://127.0.0.1:2' });
    const names = (config.options.routes ?? []).map((route) => route.upstream.name);
    expect(names).toEqual(['anthropic', 'openai']);
    expect(config.notes.join('\n')).not.toContain('simulator');
  });

  it('routes the twelve models to the messages family and everything else to chat', () => {
    const [vendor, rest] = configFromEnv({ OPENAI_API_KEY: 'sk-x' }).options.routes ?? [];
    const matches = vendor?.match as (model: string) => boolean;
    expect(matches('vendora-opus-4-8')).toBe(true);
    expect(matches('gpt-4o')).toBe(false);
    expect(rest?.match).toBe('*');
  });
});

describe('MODELGATE_ADAPT_THINKING', () => {
  it('is off by default, with and without upstreams', () => {
    expect(configFromEnv({}).options.adaptThinking).toBeUndefined();
    expect(configFromEnv({ ANTHROPIC_API_KEY: 'sk-ant-x' }).options.adaptThinking).toBeUndefined();
  });

  it.each(['1', 'true', 'TRUE', 'yes', 'on'])('=%s turns adaptThinking on, with and without upstreams, and says so at startup', (value) => {
    const simulated = configFromEnv({ MODELGATE_ADAPT_THINKING: value });
    expect(simulated.options.adaptThinking).toBe(true);
    expect(simulated.notes.join('\n')).toContain('MODELGATE_ADAPT_THINKING');
    expect(configFromEnv({ MODELGATE_ADAPT_THINKING: value, ANTHROPIC_API_KEY: 'sk-ant-x' }).options.adaptThinking).toBe(true);
  });

  it.each(['0', 'false', 'no', '', ' '])('=%j leaves it off', (value) => {
    expect(configFromEnv({ MODELGATE_ADAPT_THINKING: value }).options.adaptThinking).toBeUndefined();
  });
});

describe('startup banner helpers', () => {
  it('names the listening URL with the port the server got, brackets around an IPv6 host', async () => {
    for (const host of ['127.0.0.1', '::1']) {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, host, resolve));
      try {
        const { port } = server.address() as AddressInfo;
        expect(port).toBeGreaterThan(0);
        expect(listeningURL(host, server)).toBe(host === '::1' ? `http://[::1]:${port}` : `http://127.0.0.1:${port}`);
      } finally {
        server.close();
      }
    }
  });

  it('shell-quotes values with single quotes', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(curlLines('http://h:1', "k'1")[0]).toContain(`'Authorization: Bearer k'\\''1'`);
  });

  it('reads the key from $MODELGATE_KEY when it is not to be printed', () => {
    expect(curlLines('http://h:1', undefined)[0]).toContain('-H "Authorization: Bearer $MODELGATE_KEY"');
    expect(curlLines('http://h:1', undefined)[2]).toContain('-H "x-api-key: $MODELGATE_KEY"');
  });

  it('prints a configured key nowhere in the banner, a generated one everywhere it is needed', () => {
    const hidden = formatStartup({ app: 'A', url: 'http://h:1', key: 'sk-operator-key', generatedKey: false, notes: [] });
    expect(hidden).not.toContain('sk-operator-key');
    expect(hidden).toContain('OPENAI_API_KEY="$MODELGATE_KEY"');
    const shown = formatStartup({ app: 'A', url: 'http://h:1', key: 'sk-dev-abc', generatedKey: true, notes: [] });
    expect(shown.split('sk-dev-abc').length - 1).toBe(7);
  });

  it('redacts URL userinfo and query values for log lines', () => {
    expect(redactURL('https://user:pw@api.example.com/v1?api-key=s3cret&x=1')).toBe('https://api.example.com/v1?api-key=***&x=***');
    expect(redactURL('https://api.example.com/v1')).toBe('https://api.example.com/v1');
    expect(redactURL('not a url')).toBe('(invalid URL)');
  });
});
