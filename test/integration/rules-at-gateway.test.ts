/**
 * The spec's model-matrix, endpoint, error and limit rules proven at the
 * gateway: every model × every rule, over real HTTP through Express and
 * Koa, against an upstream that applies no rules and records every call.
 * A rule the gateway does not enforce shows up here as a 200 and a
 * recorded call.
 *
 * Expected outcomes come from the hand-typed SPEC matrix and the hand-typed
 * messages, never from the catalog under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTIVE_WITH_BUDGET,
  adaptiveOnEnabled,
  BATCHES_NOT_FOUND,
  budgetNotBelowMaxTokens,
  enabledOnAdaptive,
  TEMPERATURE_ABOVE_ONE,
  temperatureDeprecated,
  thinkingNotAvailable,
  WHITESPACE_STOP,
} from '../helpers/expected-rule-errors.js';
import { AUTH, KEY } from '../helpers/e2e-fixtures.js';
import { ruleFreeUpstream, type RuleFreeUpstream } from '../helpers/rule-free-upstream.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { SPEC_MATRIX, type SpecRow } from '../unit/models/spec-matrix.js';

const ADAPTERS = ['express5', 'koa3'] as const;
const user = [{ role: 'user', content: 'Hello.' }];

type Outcome = { status: 200 } | { status: 400 | 404; type: string; message: string };

interface RuleCase {
  name: string;
  path: '/v1/messages' | '/v1/messages/count_tokens' | '/v1/messages/batches';
  body: Record<string, unknown>;
  expected: Outcome;
}

const ok: Outcome = { status: 200 };
const invalid = (message: string): Outcome => ({ status: 400, type: 'invalid_request_error', message });

/** The thinking-form outcome of the spec's error rules for this model, or undefined when the form is accepted. */
function thinkingError(row: SpecRow, type: 'enabled' | 'adaptive'): Outcome | undefined {
  if (row.thinking === 'none') return invalid(thinkingNotAvailable(row.id));
  if (row.thinking === 'adaptive' && type === 'enabled') return invalid(enabledOnAdaptive(row.id));
  if (row.thinking === 'enabled' && type === 'adaptive') return invalid(adaptiveOnEnabled(row.id));
  return undefined;
}

function casesFor(row: SpecRow): RuleCase[] {
  const model = row.id;
  const rejectsTemperature = row.temperature !== 'accepted';
  const deprecated = invalid(temperatureDeprecated(model));
  const messages = (extra: Record<string, unknown>): Record<string, unknown> => ({ model, max_tokens: 64, messages: user, ...extra });
  const enabled = (budget: number, maxTokens: number) => messages({ max_tokens: maxTokens, thinking: { type: 'enabled', budget_tokens: budget } });
  return [
    // Temperature: deprecated/rejected is a 400 whatever the value, before the schema's range and type.
    { name: 'temperature 0.5', path: '/v1/messages', body: messages({ temperature: 0.5 }), expected: rejectsTemperature ? deprecated : ok },
    { name: 'temperature 0', path: '/v1/messages', body: messages({ temperature: 0 }), expected: rejectsTemperature ? deprecated : ok },
    { name: 'temperature 1.5 (outside 0–1)', path: '/v1/messages', body: messages({ temperature: 1.5 }), expected: rejectsTemperature ? deprecated : invalid(TEMPERATURE_ABOVE_ONE) },
    {
      name: 'temperature "hot" (not a number)',
      path: '/v1/messages',
      body: messages({ temperature: 'hot' }),
      expected: rejectsTemperature ? deprecated : invalid('temperature: expected number, received string'),
    },
    { name: 'temperature 0.5, streamed', path: '/v1/messages', body: messages({ temperature: 0.5, stream: true }), expected: rejectsTemperature ? deprecated : ok },
    { name: 'count_tokens, temperature 0.5', path: '/v1/messages/count_tokens', body: { model, messages: user, temperature: 0.5 }, expected: rejectsTemperature ? deprecated : ok },
    { name: 'count_tokens, temperature 3', path: '/v1/messages/count_tokens', body: { model, messages: user, temperature: 3 }, expected: rejectsTemperature ? deprecated : ok },
    // Thinking forms; the budget versus max_tokens at its edge.
    { name: 'thinking enabled 1024, max_tokens 2048', path: '/v1/messages', body: enabled(1024, 2048), expected: thinkingError(row, 'enabled') ?? ok },
    {
      name: 'thinking enabled 2048, max_tokens 2048 (equal)',
      path: '/v1/messages',
      body: enabled(2048, 2048),
      expected: thinkingError(row, 'enabled') ?? invalid(budgetNotBelowMaxTokens(2048, 2048)),
    },
    { name: 'thinking enabled 2048, max_tokens 2049 (one above)', path: '/v1/messages', body: enabled(2048, 2049), expected: thinkingError(row, 'enabled') ?? ok },
    {
      name: 'thinking enabled 4096, max_tokens 1024 (below)',
      path: '/v1/messages',
      body: enabled(4096, 1024),
      expected: thinkingError(row, 'enabled') ?? invalid(budgetNotBelowMaxTokens(1024, 4096)),
    },
    { name: 'thinking adaptive', path: '/v1/messages', body: messages({ thinking: { type: 'adaptive' } }), expected: thinkingError(row, 'adaptive') ?? ok },
    {
      name: 'thinking adaptive, streamed',
      path: '/v1/messages',
      body: messages({ thinking: { type: 'adaptive' }, stream: true }),
      expected: thinkingError(row, 'adaptive') ?? ok,
    },
    {
      name: 'thinking adaptive with budget_tokens',
      path: '/v1/messages',
      body: messages({ max_tokens: 4096, thinking: { type: 'adaptive', budget_tokens: 2048 } }),
      expected: invalid(ADAPTIVE_WITH_BUDGET),
    },
    { name: 'thinking disabled', path: '/v1/messages', body: messages({ thinking: { type: 'disabled' } }), expected: ok },
    {
      name: 'count_tokens, thinking adaptive',
      path: '/v1/messages/count_tokens',
      body: { model, messages: user, thinking: { type: 'adaptive' } },
      expected: thinkingError(row, 'adaptive') ?? ok,
    },
    {
      name: 'count_tokens, thinking enabled 1024',
      path: '/v1/messages/count_tokens',
      body: { model, messages: user, thinking: { type: 'enabled', budget_tokens: 1024 } },
      expected: thinkingError(row, 'enabled') ?? ok,
    },
    // Stop sequences: whitespace-only entries are a 400 on all twelve.
    { name: 'stop_sequences ["\\n"]', path: '/v1/messages', body: messages({ stop_sequences: ['\n'] }), expected: invalid(WHITESPACE_STOP) },
    { name: 'stop_sequences ["\\n\\n"]', path: '/v1/messages', body: messages({ stop_sequences: ['\n\n'] }), expected: invalid(WHITESPACE_STOP) },
    { name: 'stop_sequences ["END", " \\t"]', path: '/v1/messages', body: messages({ stop_sequences: ['END', ' \t'] }), expected: invalid(WHITESPACE_STOP) },
    { name: 'stop_sequences ["\\n\\n"], streamed', path: '/v1/messages', body: messages({ stop_sequences: ['\n\n'], stream: true }), expected: invalid(WHITESPACE_STOP) },
    { name: 'stop_sequences ["\\nEND"]', path: '/v1/messages', body: messages({ stop_sequences: ['\nEND'] }), expected: ok },
    // Batches do not exist.
    {
      name: 'POST /v1/messages/batches',
      path: '/v1/messages/batches',
      body: { requests: [{ custom_id: 'a', params: messages({}) }] },
      expected: { status: 404, type: 'not_found_error', message: BATCHES_NOT_FOUND },
    },
  ];
}

async function post(url: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

describe.each(ADAPTERS)('SPEC rules enforced by the gateway on %s (rule-free upstream)', (mount) => {
  let upstream: RuleFreeUpstream;
  let app: StartedApp;

  beforeAll(async () => {
    upstream = ruleFreeUpstream();
    app = await startApp(mount, { auth: AUTH, routes: [{ match: '*', upstream }] });
  });
  afterAll(() => app.close());

  describe.each(SPEC_MATRIX)('$id', (row) => {
    it.each(casesFor(row))('$name → $expected.status', async ({ path, body, expected }) => {
      const before = upstream.calls.length;
      const response = await post(app.url, path, body);
      expect(response.status).toBe(expected.status);
      if (expected.status === 200) {
        // The control: an allowed request does reach the upstream, exactly once.
        expect(upstream.calls.length).toBe(before + 1);
        expect(upstream.calls.at(-1)?.body.model).toBe(row.id);
        return;
      }
      expect(response.body).toEqual({ type: 'error', error: { type: expected.type, message: expected.message } });
      expect(upstream.calls.length).toBe(before);
    });

    it.each([
      ['["\\n"]', ['\n'], 'stop.0'],
      ['"\\n\\n"', '\n\n', 'stop'],
      ['["END", " "]', ['END', ' '], 'stop.1'],
    ] as const)('chat completions, stop %s → 400 naming stop, no upstream call', async (_label, stop, param) => {
      const before = upstream.calls.length;
      const response = await fetch(`${app.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ model: row.id, messages: user, stop }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: { message: WHITESPACE_STOP.replace(/^stop_sequences:/, 'stop:'), type: 'invalid_request_error', param, code: null },
      });
      expect(upstream.calls.length).toBe(before);
    });

    it('chat completions, reasoning_effort low → per the thinking mode', async () => {
      const before = upstream.calls.length;
      const response = await fetch(`${app.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ model: row.id, messages: user, reasoning_effort: 'low' }),
      });
      if (row.thinking === 'none') {
        expect(response.status).toBe(400);
        expect(upstream.calls.length).toBe(before);
        return;
      }
      expect(response.status).toBe(200);
      // The form the model takes (the spec's model matrix) reaches the upstream (low: 2048 tokens on enabled models).
      expect(upstream.calls.at(-1)?.body.thinking).toEqual(row.thinking === 'adaptive' ? { type: 'adaptive' } : { type: 'enabled', budget_tokens: 2048 });
    });

    it('GET /v1/messages/batches/<id> → 404, no upstream call', async () => {
      const before = upstream.calls.length;
      const response = await fetch(`${app.url}/v1/messages/batches/msgbatch_${row.id}`, { headers: { 'x-api-key': KEY } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ type: 'error', error: { type: 'not_found_error', message: BATCHES_NOT_FOUND } });
      expect(upstream.calls.length).toBe(before);
    });
  });
});
