/**
 * The `model` label of the Prometheus metrics for each kind of route: a
 * model served by name (catalog, exact-string route) keeps its id, a glob,
 * regular-expression or predicate route counts its models under the route,
 * and ids no route serves share `other`: every label comes from the
 * configuration, whatever ids callers send.
 */
import { createSimulator } from 'modelgate/testing';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { parsePrometheusText, samplesOf, sumOf } from '../helpers/prometheus-text.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { eventually } from '../helpers/telemetry.js';

const user = [{ role: 'user' as const, content: 'Name a harbour bird.' }];
const GPT_ONLY_KEY = 'sk-gpt-only-5a6b7c8d9e';

let app: StartedApp;
const registry = new Registry();
const scrape = async () => parsePrometheusText(await registry.metrics());

beforeAll(async () => {
  const simulator = createSimulator();
  app = await startApp('express5', {
    auth: { keys: [KEY, { key: GPT_ONLY_KEY, id: 'gpt-only', allowedModels: ['gpt-4o'] }] },
    routes: [
      { match: 'gpt-*', upstream: simulator.upstreams.chat },
      { match: /^mistral-/i, upstream: simulator.upstreams.chat },
      { match: (model) => model.startsWith('team-'), upstream: simulator.upstreams.chat },
      { match: 'house-model', upstream: simulator.upstreams.chat },
      { match: 'vendora-*', upstream: simulator.upstreams.messages },
    ],
    prometheus: { registry },
  });
});
afterAll(() => app.close());

describe('model labels by route', () => {
  it('a glob route counts its models under the pattern; a catalog model and an exact route by name', async () => {
    const openai = openAIClient(app.url);
    for (const model of ['gpt-4o', 'gpt-4o-mini', 'gpt-made-up-by-a-caller']) await openai.chat.completions.create({ model, messages: user });
    await openai.chat.completions.create({ model: 'house-model', messages: user });
    await anthropicClient(app.url).messages.create({ model: 'vendora-haiku-4-5', max_tokens: 32, messages: user });
    let samples = await scrape();
    await eventually(async () => {
      samples = await scrape();
      expect(sumOf(samples, 'modelgate_requests_total', { model: 'vendora-haiku-4-5' })).toBe(1);
    });
    expect(sumOf(samples, 'modelgate_requests_total', { endpoint: 'chat.completions', model: 'gpt-*', status: '200' })).toBe(3);
    expect(sumOf(samples, 'modelgate_request_duration_seconds_count', { model: 'gpt-*' })).toBe(3);
    expect(sumOf(samples, 'modelgate_tokens_total', { model: 'gpt-*', type: 'output' })).toBeGreaterThan(0);
    for (const id of ['gpt-4o', 'gpt-4o-mini', 'gpt-made-up-by-a-caller']) expect(samplesOf(samples, 'modelgate_requests_total', { model: id })).toEqual([]);
    expect(sumOf(samples, 'modelgate_requests_total', { model: 'house-model', status: '200' })).toBe(1);
    // Served by a `vendora-*` route, but a catalog model: by name.
    expect(samplesOf(samples, 'modelgate_requests_total', { model: 'vendora-*' })).toEqual([]);
  });

  it('a regular-expression route by its literal, a predicate route as route:<index>', async () => {
    const openai = openAIClient(app.url);
    await openai.chat.completions.create({ model: 'Mistral-Large', messages: user });
    await openai.chat.completions.create({ model: 'team-alpha', messages: user });
    await openai.chat.completions.create({ model: 'team-beta', messages: user });
    const samples = await scrape();
    expect(sumOf(samples, 'modelgate_requests_total', { model: '/^mistral-/i', status: '200' })).toBe(1);
    expect(sumOf(samples, 'modelgate_requests_total', { model: 'route:2', status: '200' })).toBe(2);
    expect(samplesOf(samples, 'modelgate_requests_total', { model: 'team-alpha' })).toEqual([]);
  });

  it('a request refused before routing is still counted under the route that serves its model', async () => {
    const error = await failure(() => openAIClient(app.url, GPT_ONLY_KEY).chat.completions.create({ model: 'gpt-4.1', messages: user }));
    expect(error).toMatchObject({ status: 403 });
    const samples = await scrape();
    expect(sumOf(samples, 'modelgate_requests_total', { model: 'gpt-*', status: '403' })).toBe(1);
  });

  it('ids no route serves stay under `other`, however many callers invent', async () => {
    const openai = openAIClient(app.url);
    const invented = Array.from({ length: 5 }, (_, i) => `no-such-model-${i}`);
    for (const model of invented) {
      await expect(openai.chat.completions.create({ model, messages: user })).rejects.toMatchObject({ status: 404 });
    }
    const samples = await scrape();
    expect(sumOf(samples, 'modelgate_requests_total', { endpoint: 'chat.completions', model: 'other', status: '404' })).toBe(invented.length);
    for (const model of invented) expect(samplesOf(samples, 'modelgate_requests_total', { model })).toEqual([]);
    // Every model label seen is one the configuration names.
    const labels = new Set(samplesOf(samples, 'modelgate_requests_total').map((sample) => sample.labels.model));
    expect([...labels].sort()).toEqual(['/^mistral-/i', 'gpt-*', 'house-model', 'other', 'route:2', 'vendora-haiku-4-5'].sort());
  });
});
