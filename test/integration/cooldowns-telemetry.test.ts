/**
 * Cooldowns in OpenTelemetry: the `modelgate.upstream.state` gauge and the
 * `modelgate.upstream.cooldowns` counter, and a span event on the request
 * for every target skipped because it cools.
 */
import { openAICompatible } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandStub, startCommandStub } from '../helpers/command-stub.js';
import { AUTH, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { createTelemetry, eventually } from '../helpers/telemetry.js';

const telemetry = createTelemetry();
let primary: CommandStub;
let backup: CommandStub;
let app: StartedApp;

beforeAll(async () => {
  [primary, backup] = await Promise.all([startCommandStub(), startCommandStub()]);
  const chat = (name: string, stub: CommandStub) => openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: 'sk-up', name });
  app = await startApp('node', {
    auth: AUTH,
    openTelemetry: { tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider },
    routing: { cooldown: { failures: 1, baseMs: 60_000 } },
    routes: [{ match: 'team-model', upstream: chat('primary', primary), model: 'up-1', fallbacks: [chat('backup', backup)], retries: 0 }],
  });
});
afterAll(async () => {
  await app.close();
  await Promise.all([primary.close(), backup.close()]);
});

const ask = () => openAIClient(app.url).chat.completions.create({ model: 'team-model', messages: [{ role: 'user', content: 'hi' }] });

describe('cooldowns in OpenTelemetry', () => {
  it('records the state and the cooldown, and marks the skipped target on the request span', async () => {
    primary.fault = '529';
    await ask();
    telemetry.reset();
    await ask();
    expect(primary.requests).toHaveLength(1);
    await eventually(() => {
      const request = telemetry.spans().find((span) => span.events.some((event) => event.name === 'modelgate.upstream.skipped'));
      expect(request?.events.find((event) => event.name === 'modelgate.upstream.skipped')?.attributes).toMatchObject({
        'modelgate.upstream': 'primary',
        'gen_ai.request.model': 'up-1',
        'modelgate.cooling.cause': 'failures',
      });
    });
    const metrics = await telemetry.metrics();
    const state = metrics.get('modelgate.upstream.state')?.dataPoints.find((point) => point.attributes['modelgate.upstream'] === 'primary');
    expect(state?.value).toBe(2);
    expect(state?.attributes['gen_ai.request.model']).toBe('up-1');
    const started = metrics.get('modelgate.upstream.cooldowns')?.dataPoints.find((point) => point.attributes['modelgate.upstream'] === 'primary');
    expect(started?.value).toBe(1);
    expect(started?.attributes['modelgate.cooling.cause']).toBe('failures');
  });
});
