/**
 * The example apps refuse a wrong upstream base URL at start-up, naming the
 * variable and what to set: a chat one without a version segment (the
 * library only warns), and one ending in an endpoint path (the library
 * refuses it; the app says which variable held it).
 */
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from '../../examples/shared/config-from-env.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('configFromEnv upstream base URLs', () => {
  it('refuses a chat base URL without a version, naming the variable and the URL to set', () => {
    expect(() => configFromEnv({ UPSTREAM_OPENAI_BASE_URL: 'http://127.0.0.1:9101' })).toThrow(ConfigError);
    expect(() => configFromEnv({ UPSTREAM_OPENAI_BASE_URL: 'http://127.0.0.1:9101/?token=s3cret' })).toThrow(
      /^UPSTREAM_OPENAI_BASE_URL=http:\/\/127\.0\.0\.1:9101\/\?token=\*\*\* has no version segment: .* Set it with \/v1, e\.g\. http:\/\/127\.0\.0\.1:9101\/v1\.$/,
    );
  });

  it.each([
    ['UPSTREAM_OPENAI_BASE_URL', 'http://127.0.0.1:9101/v1/chat/completions', 'ends in the endpoint path /chat/completions'],
    ['UPSTREAM_ANTHROPIC_BASE_URL', 'http://127.0.0.1:9102/v1/messages', 'ends in the endpoint path /v1/messages'],
    ['UPSTREAM_ANTHROPIC_BASE_URL', 'http://127.0.0.1:9102/v1', 'ends in /v1'],
  ])('refuses %s=%s', (variable, url, problem) => {
    expect(() => configFromEnv({ [variable]: url })).toThrow(new RegExp(`^${variable}=${url.replace(/[./]/g, '\\$&')} ${problem}`));
  });

  it.each(['http://127.0.0.1:9101/v1', 'https://api.openai.com/v1', 'https://x.example.com/openai/deployments/gpt?api-version=2024-10-21'])('accepts %s', (url) => {
    expect(() => configFromEnv({ UPSTREAM_OPENAI_BASE_URL: url })).not.toThrow();
  });
});

describe('an example app with a chat base URL missing /v1', () => {
  it('does not start: exit code 1 and one line naming the variable', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) if (/^(UPSTREAM_|OPENAI_|ANTHROPIC_|AWS_|AZURE_|MODELGATE_|REDIS_URL$)/.test(name)) delete env[name];
    const child = spawn(`${root}node_modules/.bin/tsx`, ['examples/express/server.ts'], {
      cwd: root,
      env: { ...env, PORT: '0', UPSTREAM_OPENAI_BASE_URL: 'http://127.0.0.1:9101' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^Not starting: UPSTREAM_OPENAI_BASE_URL=http:\/\/127\.0\.0\.1:9101\/? has no version segment/);
  }, 90_000);
});
