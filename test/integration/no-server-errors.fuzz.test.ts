/**
 * Nothing a client sends may produce a 500 or crash the process: random
 * request bodies (valid skeletons with random values spliced in, and random
 * JSON) through the whole gateway on its default upstream (the simulator).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGateway, type GatewayResponse } from 'modelgate';

const gateway = createGateway({ auth: { keys: ['sk-fuzz'] } });

async function consume(response: GatewayResponse): Promise<string> {
  if (response.type === 'json') return JSON.stringify(response.body);
  if (response.body instanceof Uint8Array) return Buffer.from(response.body).toString();
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

async function send(url: string, body: unknown, headers: Record<string, string> = {}) {
  const rawBody = Buffer.from(JSON.stringify(body));
  return gateway.handle({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-fuzz', 'x-api-key': 'sk-fuzz', ...headers },
    rawBody,
    signal: new AbortController().signal,
  });
}

const MODELS = ['vendora-opus-4-8', 'vendora-haiku-4-5', 'vendora-opus-4-7', 'vendora-sonnet-5', 'gpt-4o-mini'];
const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom('', '\n', ' ', -1, 0, 1.5, 1e9, null, [], {}));
const key = fc.constantFrom(
  'temperature', 'top_p', 'top_k', 'max_tokens', 'max_completion_tokens', 'stop', 'stop_sequences', 'n', 'stream',
  'stream_options', 'tools', 'tool_choice', 'thinking', 'reasoning_effort', 'response_format', 'system', 'metadata',
  'user', 'parallel_tool_calls', 'messages', 'model', 'cache_control', 'service_tier', 'seed',
);
const content = fc.oneof(
  fc.string(),
  fc.array(fc.oneof(
    fc.record({ type: fc.constant('text'), text: fc.string() }),
    fc.record({ type: fc.constant('image_url'), image_url: fc.record({ url: fc.oneof(fc.string(), fc.constant('data:image/png;base64,AAAA')) }) }),
    fc.record({ type: fc.constant('image'), source: fc.record({ type: fc.constant('base64'), media_type: fc.constant('image/png'), data: fc.base64String() }) }),
    fc.record({ type: fc.constant('tool_result'), tool_use_id: fc.string(), content: fc.string() }),
    fc.record({ type: fc.constantFrom('tool_use', 'thinking', 'document', 'weird'), id: fc.string(), input: value }),
  ), { maxLength: 3 }),
);
const message = fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'tool', 'developer', 'robot'), content, tool_call_id: fc.option(fc.string(), { nil: undefined }) });

const body = fc.record({
  model: fc.constantFrom(...MODELS),
  max_tokens: fc.integer({ min: 1, max: 3000 }),
  messages: fc.array(message, { minLength: 1, maxLength: 4 }),
  extra: fc.dictionary(key, value, { maxKeys: 4 }),
}).map(({ extra, ...base }) => ({ ...base, ...extra }));

/** Mostly valid requests with one or two plausible-but-odd fields, so most calls reach the upstream. */
const plausible = fc.record({
  model: fc.constantFrom(...MODELS),
  max_tokens: fc.integer({ min: 1, max: 3000 }),
  messages: fc.array(fc.record({ role: fc.constant('user'), content: fc.string({ minLength: 1 }) }), { minLength: 1, maxLength: 2 }),
  stream: fc.boolean(),
  extra: fc.dictionary(
    fc.constantFrom('stop', 'stop_sequences', 'n', 'tool_choice', 'tools', 'thinking', 'reasoning_effort', 'response_format', 'stream_options'),
    fc.constantFrom(
      ['END'], 'END', 2, 'auto', 'required', { type: 'any' }, { type: 'adaptive' }, { type: 'enabled', budget_tokens: 1024 },
      'low', 'high', { type: 'json_object' }, { include_usage: true },
      [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } }],
      [{ name: 'f', input_schema: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } }],
    ),
    { maxKeys: 2 },
  ),
}).map(({ extra, ...base }) => ({ ...base, ...extra }));

describe('no client input makes the gateway fail with a 5xx', () => {
  it.each(['/v1/chat/completions', '/v1/messages', '/v1/messages/count_tokens'])('random bodies on %s', async (url) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 2, arbitrary: body }, { weight: 1, arbitrary: fc.jsonValue() }), async (input) => {
        const response = await send(url, input);
        const text = await consume(response);
        expect(response.status, text).toBeLessThan(500);
        expect(response.headers['request-id']).toMatch(/^req_/);
      }),
      { numRuns: 150 },
    );
  });
});
