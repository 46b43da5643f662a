/**
 * Temperature on the twelve models, over HTTP through Express and Koa
 * against a rule-free upstream:
 * - On a model marked deprecated or rejected in the spec's model matrix, any value is the
 *   deprecation 400 on both interfaces, and `dropUnsupportedParams` drops
 *   it whatever the value (before the schema's range and type checks).
 * - Chat temperature above 1 (the spec gives chat 0–2; the messages upstream
 *   takes 0–1): a 400 naming the 0–1 range, or dropped with a warning when
 *   `dropUnsupportedParams` is on. Never clamped or rescaled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temperatureDeprecated } from '../helpers/expected-rule-errors.js';
import { AUTH, KEY, LIMITED_KEY } from '../helpers/e2e-fixtures.js';
import { ruleFreeUpstream, type RuleFreeUpstream } from '../helpers/rule-free-upstream.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { SPEC_MATRIX } from '../unit/models/spec-matrix.js';

const ADAPTERS = ['express5', 'koa3'] as const;
const user = [{ role: 'user', content: 'Hello.' }];
const rejecting = SPEC_MATRIX.filter((row) => row.temperature !== 'accepted');
const accepting = SPEC_MATRIX.filter((row) => row.temperature === 'accepted');

/** Chat temperature above the messages range (0 to 1). */
const CHAT_ABOVE_ONE =
  '`temperature` is not supported above 1 on the messages interface (its range is 0 to 1). Remove it, or enable dropUnsupportedParams to have it dropped.';

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

async function post(url: string, path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY, authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe.each(ADAPTERS)('temperature on %s', (mount) => {
  let upstream: RuleFreeUpstream;
  let strict: StartedApp;
  let dropping: StartedApp;

  beforeAll(async () => {
    upstream = ruleFreeUpstream();
    strict = await startApp(mount, { auth: AUTH, routes: [{ match: '*', upstream }] });
    dropping = await startApp(mount, { auth: AUTH, routes: [{ match: '*', upstream }], dropUnsupportedParams: true });
  });
  afterAll(async () => {
    await strict.close();
    await dropping.close();
  });

  describe.each(rejecting)('$id ($temperature)', (row) => {
    it.each([0, 1, 1.5, -1, 7, 'hot', [0.5]])('chat temperature %j → the deprecation 400 in chat format, no upstream call', async (temperature) => {
      const before = upstream.calls.length;
      const answer = await post(strict.url, '/v1/chat/completions', { model: row.id, messages: user, temperature });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: { message: temperatureDeprecated(row.id), type: 'invalid_request_error', param: 'temperature', code: null },
      });
      expect(upstream.calls.length).toBe(before);
    });

    it('chat temperature null is "not sent": answered', async () => {
      const answer = await post(strict.url, '/v1/chat/completions', { model: row.id, messages: user, temperature: null });
      expect(answer.status).toBe(200);
      expect(upstream.calls.at(-1)?.body).not.toHaveProperty('temperature');
    });

    it.each([1.5, 'hot', null])('messages temperature %j with dropUnsupportedParams → dropped, answered', async (temperature) => {
      const before = upstream.calls.length;
      const answer = await post(dropping.url, '/v1/messages', { model: row.id, max_tokens: 32, messages: user, temperature });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-modelgate-dropped-params')).toBe('temperature');
      expect(upstream.calls.length).toBe(before + 1);
      expect(upstream.calls.at(-1)?.body).not.toHaveProperty('temperature');
    });

    it('count_tokens temperature 3 with dropUnsupportedParams → dropped, answered', async () => {
      const answer = await post(dropping.url, '/v1/messages/count_tokens', { model: row.id, messages: user, temperature: 3 });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-modelgate-dropped-params')).toBe('temperature');
      expect(upstream.calls.at(-1)?.body).not.toHaveProperty('temperature');
    });

    it('chat temperature 2 with dropUnsupportedParams → dropped, answered', async () => {
      const answer = await post(dropping.url, '/v1/chat/completions', { model: row.id, messages: user, temperature: 2 });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-modelgate-dropped-params')).toBe('temperature');
      expect(upstream.calls.at(-1)?.body).not.toHaveProperty('temperature');
    });
  });

  it('a key limited to another model gets its 403, not the temperature rule of a model it may not use', async () => {
    const response = await fetch(`${strict.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': LIMITED_KEY },
      body: JSON.stringify({ model: 'vendora-opus-4-7', max_tokens: 32, messages: user, temperature: 0.5 }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('permission_error');
  });

  describe.each(accepting)('$id (accepted)', (row) => {
    it.each([0, 0.5, 1])('chat temperature %j → sent as is', async (temperature) => {
      const answer = await post(strict.url, '/v1/chat/completions', { model: row.id, messages: user, temperature });
      expect(answer.status).toBe(200);
      expect(upstream.calls.at(-1)?.body.temperature).toBe(temperature);
    });

    it.each([1.01, 1.5, 2])('chat temperature %j (inside chat 0–2, above messages 0–1) → 400 naming the range', async (temperature) => {
      const before = upstream.calls.length;
      const answer = await post(strict.url, '/v1/chat/completions', { model: row.id, messages: user, temperature });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: { message: CHAT_ABOVE_ONE, type: 'invalid_request_error', param: 'temperature', code: 'unsupported_parameter' },
      });
      expect(upstream.calls.length).toBe(before);
    });

    it('chat temperature 1.5 with dropUnsupportedParams → dropped with a warning, not clamped', async () => {
      const answer = await post(dropping.url, '/v1/chat/completions', { model: row.id, messages: user, temperature: 1.5 });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-modelgate-warnings')).toBe(
        'Dropped `temperature` is not supported above 1 on the messages interface (its range is 0 to 1).',
      );
      expect(upstream.calls.at(-1)?.body).not.toHaveProperty('temperature');
    });

    it('chat temperature 2.5 (outside chat 0–2) → the chat schema 400', async () => {
      const answer = await post(strict.url, '/v1/chat/completions', { model: row.id, messages: user, temperature: 2.5 });
      expect(answer.status).toBe(400);
      expect((answer.body as { error: { message: string } }).error.message).toBe('temperature: must be at most 2');
    });

    it('messages temperature 1.5 with dropUnsupportedParams → still the range 400 (an accepted parameter is not dropped)', async () => {
      const answer = await post(dropping.url, '/v1/messages', { model: row.id, max_tokens: 32, messages: user, temperature: 1.5 });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'temperature: must be at most 1' } });
    });
  });
});
