/**
 * A simulated reply to a huge message naming many tools stays cheap: it
 * calls a handful of them, and reads a bounded start of the message for
 * their arguments (a fenced block included).
 */
import { describe, expect, it } from 'vitest';
import { createGateway } from 'modelgate';

const gateway = createGateway({ auth: { keys: ['sk-test'] } });

function toolsNamed(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    type: 'function',
    function: { name: `tool_${index}`, parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } },
  }));
}

async function chat(content: string, tools: unknown[]) {
  const response = await gateway.handle({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
    body: { model: 'gpt-4o-mini', max_tokens: 100_000, tools, messages: [{ role: 'user', content }] },
    signal: new AbortController().signal,
  });
  expect(response.status).toBe(200);
  const body = response.type === 'json' ? response.body : JSON.parse(Buffer.from(response.body as Uint8Array).toString('utf8'));
  return (body as { choices: { message: { tool_calls?: { function: { name: string; arguments: string } }[] } }[] }).choices[0]!.message.tool_calls ?? [];
}

describe('simulated replies to huge messages', () => {
  it('calls at most 16 of the tools a message names, in their order', async () => {
    const names = Array.from({ length: 40 }, (_, index) => `use tool_${index}`).join(', ');
    const calls = await chat(names, toolsNamed(40));
    expect(calls.map((call) => call.function.name)).toEqual(Array.from({ length: 16 }, (_, index) => `tool_${index}`));
  });

  it('passes a fenced block on verbatim when it starts within the first 16,384 characters, and cut there', async () => {
    const small = await chat('use tool_0 with\n```\necho hello\n```', toolsNamed(1));
    expect(JSON.parse(small[0]!.function.arguments)).toEqual({ a: 'echo hello' });
    const huge = await chat(`use tool_0 with\n\`\`\`\n${'x'.repeat(1_000_000)}\n\`\`\``, toolsNamed(1));
    const argument = (JSON.parse(huge[0]!.function.arguments) as { a: string }).a;
    expect(argument.length).toBeLessThanOrEqual(16_384);
    expect(argument).toMatch(/^x+$/);
  });
});

describe('simulated structured answers to huge messages', () => {
  it('make a JSON value from a bounded start of a megabyte of distinct capitalised words', async () => {
    const words = Array.from({ length: 150_000 }, (_, index) => `Word${index.toString(36)}`).join(' ');
    const started = performance.now();
    const response = await gateway.handle({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: words }],
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } },
      },
      signal: new AbortController().signal,
    });
    expect(response.status).toBe(200);
    // The words were compared each against all others before: tens of seconds for a megabyte.
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
