/**
 * Request bounds over real HTTP (the node handler): a body past a bound is a
 * 400 in the caller's format naming the field, before any schema work; the
 * worst bodies (50,000 levels of nesting in a tool schema, a 2 MB body of
 * 1,000,000 invalid messages) are refused at once, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, KEY } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const LEVELS = 50_000;
/** A JSON object nested `LEVELS` deep, as text (building it as a value is fine too; text keeps the test honest about the wire). */
const DEEP_SCHEMA = `${'{"type":"object","properties":{"a":'.repeat(LEVELS)}{}${'}}'.repeat(LEVELS)}`;

const chatTool = `{"type":"function","function":{"name":"lookup","parameters":${DEEP_SCHEMA}}}`;
const messagesTool = `{"name":"lookup","input_schema":${DEEP_SCHEMA}}`;
const responsesTool = `{"type":"function","name":"lookup","parameters":${DEEP_SCHEMA}}`;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  ms: number;
}

describe('request bounds over HTTP', () => {
  let app: StartedApp;

  beforeAll(async () => {
    app = await startApp('node', { auth: AUTH, requestBounds: { maxMessages: 50 } });
  });
  afterAll(() => app.close());

  async function post(path: string, body: string): Promise<Answer> {
    const started = performance.now();
    const response = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'anthropic-version': '2023-06-01' },
      body,
    });
    const parsed = (await response.json()) as Record<string, unknown>;
    return { status: response.status, body: parsed, ms: performance.now() - started };
  }

  const user = '{"role":"user","content":"Hi."}';
  const users = (count: number) => Array(count).fill(user).join(',');

  it('chat: too many messages → 400 OpenAI error with param', async () => {
    const answer = await post('/v1/chat/completions', `{"model":"vendora-sonnet-4-6","messages":[${users(51)}]}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: {
        message: 'messages: 51 items; this gateway takes at most 50 (requestBounds.maxMessages). Send fewer messages (drop or summarize older turns).',
        type: 'invalid_request_error',
        param: 'messages',
        code: 'array_above_max_length',
      },
    });
  });

  it('messages: a long tool name → 400 vendor error', async () => {
    const body = `{"model":"vendora-sonnet-4-6","max_tokens":16,"messages":[${user}],"tools":[{"name":"${'n'.repeat(257)}","input_schema":{"type":"object"}}]}`;
    const answer = await post('/v1/messages', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'tools.0.name: 257 characters; this gateway takes at most 256 (requestBounds.maxNameLength). Give the tool a shorter name.',
      },
    });
  });

  it('Responses: too many input items → 400 OpenAI error with param', async () => {
    const answer = await post('/v1/responses', `{"model":"vendora-sonnet-4-6","input":[${users(51)}]}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { type: 'invalid_request_error', param: 'input', code: 'array_above_max_length' } });
    expect((answer.body.error as { message: string }).message).toMatch(/^input: 51 items; this gateway takes at most 50 \(requestBounds\.maxMessages\)\./);
  });

  it.each([
    ['/v1/chat/completions', `{"model":"vendora-sonnet-4-6","messages":[${user}],"tools":[${chatTool}]}`, 'tools.0.function.parameters.properties'],
    ['/v1/responses', `{"model":"vendora-sonnet-4-6","input":"Hi.","tools":[${responsesTool}]}`, 'tools.0.parameters.properties.a'],
  ])('%s: 50,000 levels of nesting in a tool schema → 400, not 500', async (path, body, param) => {
    const answer = await post(path, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { type: 'invalid_request_error', param } });
    expect((answer.body.error as { message: string }).message).toContain('nested more than 128 levels deep; this gateway takes at most 128 (requestBounds.maxDepth)');
  });

  it('/v1/messages: 50,000 levels of nesting in a tool schema → 400 vendor error, not 500', async () => {
    const answer = await post('/v1/messages', `{"model":"vendora-sonnet-4-6","max_tokens":16,"messages":[${user}],"tools":[${messagesTool}]}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect((answer.body.error as { message: string }).message).toMatch(/^tools\.0\.input_schema\.properties\.a: nested more than 128 levels deep/);
  });

  it('a 2 MB body of 1,000,000 invalid messages → 400 at once, on its length', async () => {
    const body = `{"model":"vendora-sonnet-4-6","messages":[${Array(1_000_000).fill('1').join(',')}]}`;
    expect(body.length).toBeGreaterThan(2_000_000);
    const answer = await post('/v1/chat/completions', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { param: 'messages', code: 'array_above_max_length' } });
    expect((answer.body.error as { message: string }).message).toMatch(/^messages: 1000000 items;/);
    // Schema validation of this body took about 12 s of blocked event loop; the bound answers in milliseconds
    // (the limit leaves room for a loaded machine).
    expect(answer.ms).toBeLessThan(3_000);
  });
});
