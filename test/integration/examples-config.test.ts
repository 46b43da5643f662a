/**
 * `configFromEnv` of the example apps: defaults, keys, and which family
 * each upstream variable configures.
 */
import { createServer } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv, DEFAULT_ANTHROPIC_BASE_URL } from '../../examples/shared/config-from-env.js';
import { pointsAtOwnAddress } from '../../examples/shared/own-address.js';
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

  it('MODELGATE_PRINCIPAL_SECRET becomes auth.principalSecret, with the simulator and with upstreams', () => {
    const secret = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    for (const env of [{}, { UPSTREAM_ANTHROPIC_API_KEY: 'sk-ant-x' }]) {
      expect(configFromEnv({ ...env, MODELGATE_PRINCIPAL_SECRET: secret }).options.auth).toMatchObject({ principalSecret: secret });
      expect(configFromEnv(env).options.auth).not.toHaveProperty('principalSecret');
    }
  });

  it('UPSTREAM_ANTHROPIC_API_KEY alone: the vendor models go to the public messages API (its files are not served), other models to a simulator', () => {
    const config = configFromEnv({ UPSTREAM_ANTHROPIC_API_KEY: 'sk-ant-x' });
    const routes = config.options.routes ?? [];
    expect(routes).toHaveLength(2);
    expect(routes[0]?.upstream).toMatchObject({ name: 'anthropic', format: 'messages' });
    expect(routes[1]?.upstream).toMatchObject({ name: 'simulator:chat', format: 'chat' });
    expect(config.notes.join('\n')).toContain(DEFAULT_ANTHROPIC_BASE_URL);
    expect(config.notes.join('\n')).toContain('UPSTREAM_OPENAI_BASE_URL / UPSTREAM_OPENAI_API_KEY not set');
    expect(config.options.files).toBeUndefined();
    expect(config.notes.join('\n')).toContain('Files (/v1/files): none');
  });

  it('both families: real upstreams only', () => {
    const config = configFromEnv({ UPSTREAM_OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', UPSTREAM_ANTHROPIC_BASE_URL: 'http://127.0.0.1:2' });
    const names = (config.options.routes ?? []).map((route) => route.upstream?.name);
    expect(names).toEqual(['anthropic', 'openai']);
    expect(config.notes.join('\n')).not.toContain('simulator');
  });

  it('routes the twelve models to the messages family and everything else to chat', () => {
    const [vendor, rest] = configFromEnv({ UPSTREAM_OPENAI_API_KEY: 'sk-x' }).options.routes ?? [];
    const matches = vendor?.match as (model: string) => boolean;
    expect(matches('vendora-opus-4-8')).toBe(true);
    expect(matches('gpt-4o')).toBe(false);
    expect(rest?.match).toBe('*');
  });
});

describe('client variables in the server\'s environment', () => {
  const CLIENT_LINES = { OPENAI_BASE_URL: 'http://127.0.0.1:8787/v1', OPENAI_API_KEY: 'sk-dev-abc', ANTHROPIC_BASE_URL: 'http://127.0.0.1:8787', ANTHROPIC_API_KEY: 'sk-dev-abc' };

  it('the banner\'s client lines exported into the server\'s shell configure nothing: the simulator serves, and one note per family says what the server reads', () => {
    const config = configFromEnv(CLIENT_LINES);
    expect(config.options.routes).toBeUndefined();
    const notes = config.notes.filter((note) => note.includes('client variable'));
    expect(notes).toEqual([
      'OPENAI_BASE_URL and OPENAI_API_KEY are client variables (they point a client at a server) and this server ignores them: its upstream is read from UPSTREAM_OPENAI_BASE_URL / UPSTREAM_OPENAI_API_KEY.',
      'ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY are client variables (they point a client at a server) and this server ignores them: its upstream is read from UPSTREAM_ANTHROPIC_BASE_URL / UPSTREAM_ANTHROPIC_API_KEY.',
    ]);
    // The note names variables, never their values (a key).
    expect(config.notes.join('\n')).not.toContain('sk-dev-abc');
  });

  it('one client variable alone gets its note too; with UPSTREAM_* set the note stays and the upstream is the UPSTREAM_* one', () => {
    expect(configFromEnv({ OPENAI_API_KEY: 'sk-x' }).notes[0]).toBe(
      'OPENAI_API_KEY is a client variable (they point a client at a server) and this server ignores it: its upstream is read from UPSTREAM_OPENAI_BASE_URL / UPSTREAM_OPENAI_API_KEY.',
    );
    const config = configFromEnv({ OPENAI_API_KEY: 'sk-x', UPSTREAM_OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' });
    expect(config.notes.some((note) => note.startsWith('OPENAI_API_KEY is a client variable'))).toBe(true);
    expect(config.options.routes?.[1]?.upstream?.name).toBe('openai');
    expect(configFromEnv({}).notes.join('\n')).not.toContain('client variable');
  });
});

describe('an upstream base URL naming the server itself', () => {
  it.each([
    ['UPSTREAM_OPENAI_BASE_URL', 'http://127.0.0.1:8787/v1'],
    ['UPSTREAM_OPENAI_BASE_URL', 'http://localhost:8787/v1'],
    ['UPSTREAM_ANTHROPIC_BASE_URL', 'http://[::1]:8787'],
    ['UPSTREAM_ANTHROPIC_BASE_URL', 'http://0.0.0.0:8787/'],
  ])('%s=%s with the default PORT: refused, naming the variable to change', (name, url) => {
    const refuse = () => configFromEnv({ [name]: url });
    expect(refuse).toThrow(ConfigError);
    expect(refuse).toThrow(new RegExp(`^${name}=\\S+ points at this server itself .*Set ${name} to the vendor's API`));
  });

  it('names the host the server binds, on its port only; a key in the query is not printed', () => {
    expect(() => configFromEnv({ HOST: '10.1.2.3', PORT: '9000', UPSTREAM_OPENAI_BASE_URL: 'http://10.1.2.3:9000/v1?api-key=s3cret' })).toThrow(/api-key=\*\*\*/);
    expect(() => configFromEnv({ HOST: '10.1.2.3', PORT: '9000', UPSTREAM_OPENAI_BASE_URL: 'http://10.1.2.3:9001/v1' })).not.toThrow();
    expect(() => configFromEnv({ UPSTREAM_OPENAI_BASE_URL: 'http://127.0.0.1:8788/v1' })).not.toThrow();
    expect(() => configFromEnv({ UPSTREAM_OPENAI_BASE_URL: 'https://api.openai.com/v1' })).not.toThrow();
  });

  it('PORT=0 (a port not known before listening): not checked here; the gateway refuses the loop at run time (508)', () => {
    expect(() => configFromEnv({ PORT: '0', UPSTREAM_OPENAI_BASE_URL: 'http://127.0.0.1:0/v1' })).not.toThrow();
  });
});

describe('pointsAtOwnAddress', () => {
  const listen = { host: '127.0.0.1', port: 80 };
  it('takes the scheme\'s default port, loopback names and addresses', () => {
    expect(pointsAtOwnAddress('http://localhost/v1', listen)).toBe(true);
    expect(pointsAtOwnAddress('http://127.0.0.2', listen)).toBe(true);
    expect(pointsAtOwnAddress('http://app.localhost', listen)).toBe(true);
    expect(pointsAtOwnAddress('https://localhost', listen)).toBe(false);
    expect(pointsAtOwnAddress('http://example.com', listen)).toBe(false);
    expect(pointsAtOwnAddress('not a url', listen)).toBe(false);
  });

  it('an app on every interface is also reached through this machine\'s host name', () => {
    expect(pointsAtOwnAddress(`http://${hostname()}:8787`, { host: '0.0.0.0', port: 8787 })).toBe(true);
    expect(pointsAtOwnAddress(`http://${hostname()}:8787`, { host: '127.0.0.1', port: 8787 })).toBe(hostname().toLowerCase() === 'localhost');
  });
});

describe('MODELGATE_ADAPT_THINKING', () => {
  it('is off by default, with and without upstreams', () => {
    expect(configFromEnv({}).options.adaptThinking).toBeUndefined();
    expect(configFromEnv({ UPSTREAM_ANTHROPIC_API_KEY: 'sk-ant-x' }).options.adaptThinking).toBeUndefined();
  });

  it.each(['1', 'true', 'TRUE', 'yes', 'on'])('=%s turns adaptThinking on, with and without upstreams, and says so at startup', (value) => {
    const simulated = configFromEnv({ MODELGATE_ADAPT_THINKING: value });
    expect(simulated.options.adaptThinking).toBe(true);
    expect(simulated.notes.join('\n')).toContain('MODELGATE_ADAPT_THINKING');
    expect(configFromEnv({ MODELGATE_ADAPT_THINKING: value, UPSTREAM_ANTHROPIC_API_KEY: 'sk-ant-x' }).options.adaptThinking).toBe(true);
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
  });

  it('says the client lines are for the client\'s shell, and which variables the server reads', () => {
    const banner = formatStartup({ app: 'A', url: 'http://h:1', key: 'sk-dev-abc', generatedKey: true, notes: [] });
    const lines = banner.split('\n');
    const header = lines.findIndex((line) => line.startsWith('Official clients:'));
    expect(lines[header]).toContain('where your CLIENT runs');
    expect(lines[header]).toContain("not in this server's environment");
    expect(lines[header + 1]).toMatch(/^ {2}OPENAI_BASE_URL=http:\/\/h:1\/v1 OPENAI_API_KEY=/);
    expect(lines[header + 3]).toContain('UPSTREAM_OPENAI_BASE_URL / UPSTREAM_OPENAI_API_KEY and UPSTREAM_ANTHROPIC_BASE_URL / UPSTREAM_ANTHROPIC_API_KEY');
    const shown = formatStartup({ app: 'A', url: 'http://h:1', key: 'sk-dev-abc', generatedKey: true, notes: [] });
    // The key line, two client lines and five curl lines (models, chat, messages twice, Responses).
    expect(shown.split('sk-dev-abc').length - 1).toBe(8);
    expect(shown).toContain(`curl -sS http://h:1/v1/responses -H 'Authorization: Bearer sk-dev-abc'`);
  });

  it('redacts URL userinfo and query values for log lines', () => {
    expect(redactURL('https://user:pw@api.example.com/v1?api-key=s3cret&x=1')).toBe('https://api.example.com/v1?api-key=***&x=***');
    expect(redactURL('https://api.example.com/v1')).toBe('https://api.example.com/v1');
    expect(redactURL('not a url')).toBe('(invalid URL)');
  });
});
