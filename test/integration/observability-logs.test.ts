/**
 * The `logger` option: one structured line per request and one per upstream
 * fault, through a pino-shaped logger; never a key or prompt text.
 */
import { openAICompatible, type GatewayLogger } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { startStubUpstream, type StubUpstream } from '../helpers/stub-upstream.js';
import { eventually } from '../helpers/telemetry.js';

const PROMPT = 'Summarise the tide tables of Brest.';
const user = [{ role: 'user' as const, content: PROMPT }];
const UPSTREAM_KEY = 'sk-upstream-logs-0011223344';

interface Line {
  level: 'info' | 'warn' | 'error' | 'debug';
  bindings: Record<string, unknown>;
  object: Record<string, unknown>;
  message: string | undefined;
}

/** A pino-shaped logger that keeps every line. */
function memoryLogger(lines: Line[], bindings: Record<string, unknown> = {}): GatewayLogger {
  const at = (level: Line['level']) => (object: Record<string, unknown>, message?: string) => {
    lines.push({ level, bindings, object, message });
  };
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug'), child: (more) => memoryLogger(lines, { ...bindings, ...more }) };
}

const lines: Line[] = [];
let app: StartedApp;
let stub: StubUpstream;

beforeAll(async () => {
  stub = await startStubUpstream([{ kind: 'reset' }, { kind: 'reset' }]);
  const simulator = createSimulator();
  app = await startApp('express4', {
    auth: AUTH,
    logger: memoryLogger(lines),
    routes: [
      { match: 'broken', upstream: openAICompatible({ baseURL: `${stub.url}/v1`, apiKey: UPSTREAM_KEY, name: 'stub' }), retries: 0, fallbacks: [simulator.upstreams.chat] },
      { match: (model) => model.startsWith('vendora-'), upstream: simulator.upstreams.messages },
      { match: '*', upstream: simulator.upstreams.chat },
    ],
  });
});
afterAll(async () => {
  await app.close();
  await stub.close();
});
beforeEach(() => {
  lines.length = 0;
});

const requestLines = () => lines.filter((line) => line.message === 'modelgate request');

describe('logger', () => {
  it('one info line per request with ids, model, upstream, status, tokens and durations', async () => {
    const stream = anthropicClient(app.url).messages.stream({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: user });
    const final = await stream.finalMessage();
    const { request_id: requestId } = await stream.withResponse();
    await eventually(() => expect(requestLines()).toHaveLength(1));
    const [line] = requestLines();
    expect(line!.level).toBe('info');
    expect(line!.bindings).toEqual({ component: 'modelgate' });
    expect(line!.object).toMatchObject({
      requestId,
      principalId: expect.stringMatching(/^key_[0-9a-f]{24}$/),
      endpoint: 'messages',
      model: 'vendora-sonnet-4-6',
      upstream: expect.any(String),
      status: 200,
      stream: true,
      outputTokens: final.usage.output_tokens,
      inputTokens: final.usage.input_tokens,
    });
    expect(line!.object.durationMs).toEqual(expect.any(Number));
    expect(line!.object.timeToFirstChunkMs).toEqual(expect.any(Number));
    expect(line!.object.errorType).toBeUndefined();
  });

  it('a warn line per upstream fault, and the request line says which upstream answered', async () => {
    await openAIClient(app.url).chat.completions.create({ model: 'broken', messages: user });
    await eventually(() => expect(requestLines()).toHaveLength(1));
    const faults = lines.filter((line) => line.message === 'modelgate upstream fault');
    expect(faults).toHaveLength(1);
    expect(faults[0]!.level).toBe('warn');
    expect(faults[0]!.object).toMatchObject({ upstream: 'stub', upstreamModel: 'broken', errorType: 'upstream_unavailable', retryable: true });
    expect(requestLines()[0]!.object).toMatchObject({ status: 200, attempts: 2 });
    expect(requestLines()[0]!.object.upstream).not.toBe('stub');
  });

  it('client errors are warn lines with the error type; nothing logs a key or the prompt', async () => {
    await expect(openAIClient(app.url, 'sk-not-a-key-55555555').chat.completions.create({ model: 'gpt-4o', messages: user })).rejects.toMatchObject({ status: 401 });
    await expect(openAIClient(app.url).chat.completions.create({ model: 'gpt-4o', messages: user, temperature: 7 })).rejects.toMatchObject({ status: 400 });
    await openAIClient(app.url).chat.completions.create({ model: 'broken', messages: user });
    await eventually(() => expect(requestLines()).toHaveLength(3));
    const [unauthenticated, invalid] = requestLines();
    expect(unauthenticated!.level).toBe('warn');
    expect(unauthenticated!.object).toMatchObject({ status: 401, errorType: 'authentication_failed' });
    expect(unauthenticated!.object.principalId).toBeUndefined();
    expect(invalid!.object).toMatchObject({ status: 400 });
    const dumped = JSON.stringify(lines);
    for (const secret of [KEY, 'sk-not-a-key-55555555', UPSTREAM_KEY, PROMPT, 'Brest']) expect(dumped).not.toContain(secret);
  });
});
