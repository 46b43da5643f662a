/**
 * Redaction leaves the gateway's own words alone: with placeholder keys
 * (`sk-no-key-required`, `sk-upstream-east`) callers read the gateway's
 * messages and codes in full, an upstream that quotes its key in an error
 * still has it hidden, and an upstream without a name is shown to clients in
 * a neutral form while `onError` gets its real `host:port`. Over real HTTP,
 * behind node:http and Express.
 */
import { type GatewayError, type GatewayOptions, openAICompatible } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EchoUpstream, startEchoUpstream } from '../helpers/echo-upstream.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const CALLER_KEY = 'sk-c4Ll3r-Pp9Oo8Ii7Uu6Yy5';
const DUMMY = 'sk-no-key-required';
const EAST = 'sk-upstream-east';

async function post(app: StartedApp, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${CALLER_KEY}`, 'x-api-key': CALLER_KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const chat = (model: string) => ({ model, messages: [{ role: 'user', content: 'hi' }] });

describe.each(['node', 'express5'] as const)('gateway words survive redaction, behind %s', (mount) => {
  let upstream: EchoUpstream;
  let app: StartedApp;
  let host: string;
  const errors: GatewayError[] = [];
  const warnings: string[] = [];
  const logger = {
    warn: (_fields: object, message?: string) => void warnings.push(String(message)),
    info: () => undefined,
    error: () => undefined,
    debug: () => undefined,
    child: () => logger,
  };

  beforeAll(async () => {
    upstream = await startEchoUpstream();
    host = new URL(upstream.url).host;
    const options: GatewayOptions = {
      auth: { keys: [CALLER_KEY] },
      routes: [
        // No name: called by its host:port.
        { match: 'dummy-json', upstream: openAICompatible({ baseURL: `${upstream.url}/json/v1`, apiKey: DUMMY }), retries: 0, serveMessages: true },
        { match: 'dummy-html', upstream: openAICompatible({ baseURL: `${upstream.url}/html/v1`, apiKey: DUMMY }), retries: 0 },
        {
          match: 'east-html',
          upstream: openAICompatible({ baseURL: `${upstream.url}/html/v1`, apiKey: EAST, name: 'east' }),
          retries: 0,
          whenAllCooling: 'reject',
        },
      ],
      routing: { cooldown: { failures: 1 } },
      onError: ({ error }) => errors.push(error),
      logger,
    };
    app = await startApp(mount, options);
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });

  it('warns at start-up about each placeholder key, naming the upstream and never the key', () => {
    expect(warnings.filter((warning) => warning.includes('leave `apiKey` out'))).toEqual([
      expect.stringContaining(`upstream "${host}"`),
      expect.stringContaining('upstream "east"'),
    ]);
    expect(warnings.join('\n')).not.toContain(DUMMY);
    expect(warnings.join('\n')).not.toContain(EAST);
  });

  it('a messages call without max_tokens reads "field required" in full', async () => {
    const answer = await post(app, '/v1/messages', chat('dummy-json'));
    expect(answer.status).toBe(400);
    const { error } = JSON.parse(answer.text) as { error: { message: string } };
    expect(error.message).toMatch(/^max_tokens: field required[;.]/);
    expect(error.message).not.toContain('[redacted]');
  });

  it('the upstream quoting the placeholder key whole still has it hidden', async () => {
    const answer = await post(app, '/v1/chat/completions', chat('dummy-json'));
    expect(answer.status).toBe(400);
    expect(answer.text).not.toContain(DUMMY);
    expect(answer.text).not.toContain(host);
    const { error } = JSON.parse(answer.text) as { error: { message: string; code: string } };
    expect(error.message).toContain('Invalid request.');
    expect(error.message).toContain('used key [redacted]');
    expect(error.code).toBe('bad_key_[redacted]');
  });

  it('an unnamed upstream reads "(unnamed upstream)" to the client, its host:port to onError', async () => {
    errors.length = 0;
    const answer = await post(app, '/v1/chat/completions', chat('dummy-html'));
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { message: 'Upstream "(unnamed upstream)" failed (HTTP 500).' } });
    expect(errors.map((error) => error.message)).toContain(`Upstream "${host}" failed (HTTP 500).`);
  });

  it('with the key sk-upstream-east, the cooling code reads upstream_cooling', async () => {
    await post(app, '/v1/chat/completions', chat('east-html'));
    const answer = await post(app, '/v1/chat/completions', chat('east-html'));
    expect(answer.status).toBe(503);
    const { error } = JSON.parse(answer.text) as { error: { message: string; code: string } };
    expect(error.code).toBe('upstream_cooling');
    expect(error.message).toMatch(/^The upstream of this model is cooling down after repeated failures; retry after \d+ s\.$/);
  });
});
