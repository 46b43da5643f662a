/**
 * The spec's model matrix through `POST /v1/responses` on each of the
 * twelve models: `temperature` where the model rejects it, `reasoning.effort`
 * as thinking (a budget for `enabled` models, adaptive for `adaptive` ones,
 * refused as chat refuses `reasoning_effort` for models without thinking),
 * and `max_output_tokens` against the budget. Errors name the Responses
 * fields the caller sent. Expected values come from the hand-typed spec
 * matrix and the budgets configured here.
 */
import { createGateway, type Upstream, type UpstreamCall } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, KEY } from '../helpers/e2e-fixtures.js';
import { temperatureDeprecated } from '../helpers/expected-rule-errors.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { SPEC_MATRIX } from '../unit/models/spec-matrix.js';

type Json = Record<string, any>;

/** The budgets this gateway is configured with (thinking tokens per effort). */
const BUDGETS = { low: 2000, medium: 4000, high: 8000 };

/** A messages upstream that keeps the body of every call. */
function capturing(inner: Upstream): Upstream & { bodies: Json[] } {
  const bodies: Json[] = [];
  return {
    name: inner.name,
    format: inner.format,
    bodies,
    send(call: UpstreamCall) {
      if (call.operation === 'messages') bodies.push(structuredClone(call.body) as Json);
      return inner.send(call);
    },
  };
}

let app: StartedApp;
let vendor: ReturnType<typeof capturing>;

beforeAll(async () => {
  const sim = createSimulator();
  vendor = capturing(sim.upstreams.messages);
  app = await startApp('node', createGateway({ auth: AUTH, reasoningBudgets: BUDGETS, routes: [{ match: '*', upstream: vendor }] }));
});
afterAll(() => app.close());

async function create(body: Json): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${app.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** The body the upstream got for the last call, after `send`. */
async function sentFor(body: Json): Promise<{ status: number; answer: Json; upstream: Json | undefined }> {
  const before = vendor.bodies.length;
  const { status, body: answer } = await create(body);
  return { status, answer, upstream: vendor.bodies.length > before ? vendor.bodies.at(-1) : undefined };
}

describe.each(SPEC_MATRIX)('$id (temperature $temperature, thinking $thinking)', (row) => {
  const model = row.id;

  if (row.temperature === 'accepted') {
    it('takes temperature', async () => {
      const { status, upstream } = await sentFor({ model, input: 'Hi.', temperature: 0.4 });
      expect(status).toBe(200);
      expect(upstream?.temperature).toBe(0.4);
    });
  } else {
    it('refuses temperature with the spec message, before any upstream call', async () => {
      const { status, answer, upstream } = await sentFor({ model, input: 'Hi.', temperature: 0.4 });
      expect(status).toBe(400);
      expect(answer.error).toMatchObject({ param: 'temperature', type: 'invalid_request_error', message: temperatureDeprecated(model) });
      expect(upstream).toBeUndefined();
    });
  }

  if (row.thinking === 'none') {
    it('refuses reasoning.effort as chat refuses reasoning_effort, naming reasoning.effort', async () => {
      const { status, answer, upstream } = await sentFor({ model, input: 'Hi.', reasoning: { effort: 'low' } });
      expect(status).toBe(400);
      expect(answer.error.param).toBe('reasoning.effort');
      expect(answer.error.type).toBe('invalid_request_error');
      expect(answer.error.message).toContain('`reasoning.effort`');
      expect(answer.error.message).not.toContain('reasoning_effort');
      expect(upstream).toBeUndefined();
    });
  }

  if (row.thinking === 'enabled') {
    it('sends reasoning.effort as thinking enabled with the configured budget, below max_tokens', async () => {
      const { status, upstream } = await sentFor({ model, input: 'Hi.', reasoning: { effort: 'medium' } });
      expect(status).toBe(200);
      expect(upstream?.thinking).toEqual({ type: 'enabled', budget_tokens: BUDGETS.medium });
      expect(upstream?.max_tokens).toBeGreaterThan(BUDGETS.medium);
    });

    it('keeps the budget below max_output_tokens', async () => {
      const { status, upstream } = await sentFor({ model, input: 'Hi.', reasoning: { effort: 'high' }, max_output_tokens: 3000 });
      expect(status).toBe(200);
      expect(upstream?.max_tokens).toBe(3000);
      expect(upstream?.thinking.type).toBe('enabled');
      expect(upstream?.thinking.budget_tokens).toBeLessThan(3000);
      expect(upstream?.thinking.budget_tokens).toBeGreaterThanOrEqual(1024);
    });

    it('refuses a max_output_tokens too small for any thinking budget, naming max_output_tokens', async () => {
      const { status, answer, upstream } = await sentFor({ model, input: 'Hi.', reasoning: { effort: 'low' }, max_output_tokens: 1000 });
      expect(status).toBe(400);
      expect(answer.error.param).toBe('max_output_tokens');
      expect(answer.error.message).toContain('`max_output_tokens`');
      expect(answer.error.message).not.toMatch(/max_completion_tokens|reasoning_effort/);
      expect(upstream).toBeUndefined();
    });
  }

  if (row.thinking === 'adaptive') {
    it('sends reasoning.effort as adaptive thinking, without a budget', async () => {
      const { status, upstream } = await sentFor({ model, input: 'Hi.', reasoning: { effort: 'low' }, max_output_tokens: 3000 });
      expect(status).toBe(200);
      expect(upstream?.thinking).toEqual({ type: 'adaptive' });
      expect(upstream?.max_tokens).toBe(3000);
    });
  }

  it('without reasoning: no thinking sent', async () => {
    const { status, upstream } = await sentFor({ model, input: 'Hi.' });
    expect(status).toBe(200);
    expect(upstream?.thinking).toBeUndefined();
  });
});
