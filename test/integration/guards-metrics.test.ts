/**
 * What guards decide is counted in `modelgate_guard_decisions_total{guard,decision}`,
 * for requests, whole answers and streams, over real HTTP.
 */
import { createGateway, denyList, openAICompatible, piiRedactor } from 'modelgate';
import OpenAI from 'openai';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuardUpstreams } from '../helpers/guard-upstreams.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const KEY = 'sk-guard-test-0000000000';
const script = { deltas: ['Mail ', 'jane@example.com', ' now.'] };
let upstreams: Awaited<ReturnType<typeof startGuardUpstreams>>;
let app: StartedApp;
let openai: OpenAI;
const registry = new Registry();

beforeAll(async () => {
  upstreams = await startGuardUpstreams(script);
  const gateway = createGateway({
    auth: { keys: [KEY] },
    prometheus: { registry },
    guards: [piiRedactor(), denyList({ terms: ['forbidden topic'] })],
    routes: [{ match: 'via-chat', upstream: openAICompatible({ baseURL: `${upstreams.chat.url}/v1`, apiKey: 'sk-up', name: 'chat-up' }) }],
  });
  app = await startApp('node', gateway);
  openai = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
});
afterAll(async () => {
  await app.close();
  await upstreams.close();
});

const count = async (guard: string, decision: string): Promise<number> => {
  const metric = await registry.getSingleMetric('modelgate_guard_decisions_total')?.get();
  return metric?.values.find((value) => value.labels.guard === guard && value.labels.decision === decision)?.value ?? 0;
};

describe('modelgate_guard_decisions_total', () => {
  it('counts a redaction of the answer, whole and streamed, and a blocked request', async () => {
    await openai.chat.completions.create({ model: 'via-chat', messages: [{ role: 'user', content: 'hi' }] });
    expect(await count('pii-redactor', 'replace')).toBe(1);
    const stream = await openai.chat.completions.create({ model: 'via-chat', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    for await (const _chunk of stream);
    expect(await count('pii-redactor', 'replace')).toBe(2);
    await openai.chat.completions.create({ model: 'via-chat', messages: [{ role: 'user', content: 'A forbidden topic.' }] }).catch(() => undefined);
    expect(await count('deny-list', 'block')).toBe(1);
  });
});
