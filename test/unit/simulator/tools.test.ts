import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { composeToolInput } from '../../../src/simulator/compose-tool-input.js';
import { createSimulator } from '../../../src/simulator/index.js';
import { createRandom } from '../../../src/simulator/random.js';
import { ask, asCompletion, asMessage, chat, chatChunks, messagesEvents, send, textOf } from './support/simulator-calls.js';

type Schema = Record<string, unknown>;

/** A strict zod validator for the JSON-schema subset the generator below produces. */
function toZod(schema: Schema): z.ZodType {
  if (Array.isArray(schema.enum)) return z.enum(schema.enum as [string, ...string[]]);
  switch (schema.type) {
    case 'string':
      return z.string().min(Number(schema.minLength ?? 0));
    case 'integer':
      return z.int().min(Number(schema.minimum ?? -Infinity)).max(Number(schema.maximum ?? Infinity));
    case 'number':
      return z.number().min(Number(schema.minimum ?? -Infinity)).max(Number(schema.maximum ?? Infinity));
    case 'boolean':
      return z.boolean();
    case 'array':
      return z.array(toZod(schema.items as Schema)).min(Number(schema.minItems ?? 0));
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const shape = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, required.has(key) ? toZod(value) : toZod(value).optional()]));
      return z.strictObject(shape);
    }
  }
}

const leaf = fc.oneof(
  fc.record({ type: fc.constant('string'), minLength: fc.integer({ min: 0, max: 12 }) }),
  fc.integer({ min: -50, max: 50 }).chain((min) => fc.record({ type: fc.constant('integer'), minimum: fc.constant(min), maximum: fc.integer({ min, max: min + 100 }) })),
  fc.record({ type: fc.constant('number'), minimum: fc.constant(0), maximum: fc.constant(1) }),
  fc.record({ type: fc.constant('boolean') }),
  fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }).map((values) => ({ type: 'string', enum: values })),
);

const schemaArbitrary: fc.Arbitrary<Schema> = fc.letrec<{ node: Schema; object: Schema }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), tie('node').map((items) => ({ type: 'array', items, minItems: 1 }))),
  object: fc
    .dictionary(fc.stringMatching(/^[a-z]{1,8}$/), tie('node'), { maxKeys: 4 })
    .chain((properties) => fc.subarray(Object.keys(properties)).map((required) => ({ type: 'object', properties, required }))),
})).object;

describe('composeToolInput', () => {
  it('produces input valid against any tool schema (required present, right types, bounds kept)', () => {
    fc.assert(
      fc.property(schemaArbitrary, fc.string(), fc.integer(), (schema, message, seed) => {
        const input = composeToolInput(schema, { message, random: createRandom(seed) });
        expect(toZod(schema).safeParse(input).success).toBe(true);
        for (const key of schema.required as string[]) expect(input).toHaveProperty(key);
      }),
      { numRuns: 150 },
    );
  });

  it('fills string arguments from the user’s words, names first', () => {
    const input = composeToolInput(
      { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      { message: 'What is the weather like in Paris today?', random: createRandom(1), toolName: 'get_weather' },
    );
    expect(input).toEqual({ city: 'Paris' });
  });

  it('passes a fenced block of the message verbatim as the first required string (a patch for apply_patch)', () => {
    const patch = '*** Begin Patch\n*** Add File: hello.txt\n+Hello\n*** End Patch';
    const input = composeToolInput(
      { type: 'object', properties: { count: { type: 'integer' }, input: { type: 'string' } }, required: ['count', 'input'] },
      { message: `Use apply_patch to apply this:\n\`\`\`diff\n${patch}\n\`\`\`\nThanks.`, random: createRandom(3), toolName: 'apply_patch' },
    );
    expect(input.input).toBe(patch);
    expect(typeof input.count).toBe('number');
  });

  it('fills strings from words when the message has no fenced block', () => {
    const input = composeToolInput(
      { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
      { message: 'Use apply_patch to greet Paris', random: createRandom(3), toolName: 'apply_patch' },
    );
    expect(input.input).toBe('Paris');
  });
});

const weather = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['city', 'unit'] },
};
const clock = { name: 'get_time', description: 'Time in a city', input_schema: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } };

describe('messages face: tools', () => {
  const sim = createSimulator();
  const reply = async (text: string, extra: Record<string, unknown>) => asMessage(await send(sim.upstreams.messages, 'messages', ask(text, { tools: [weather, clock], ...extra })));

  it('calls the forced tool with schema-valid input and stop_reason tool_use', async () => {
    const message = await reply('Anything at all', { tool_choice: { type: 'tool', name: 'get_time' } });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toHaveLength(1);
    const block = message.content[0];
    expect(block?.type).toBe('tool_use');
    if (block?.type !== 'tool_use') return;
    expect(block.name).toBe('get_time');
    expect(block.id).toMatch(/^toolu_/);
    expect(typeof block.input.zone).toBe('string');
  });

  it('calls a tool on any even when none is named', async () => {
    const message = await reply('Hello there', { tool_choice: { type: 'any' } });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.some((block) => block.type === 'tool_use')).toBe(true);
  });

  it('on auto calls a tool the user names, with a sentence first', async () => {
    const message = await reply('Please use get_weather for Oslo', {});
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.map((block) => block.type)).toEqual(['text', 'tool_use']);
    const call = message.content[1];
    expect(call?.type === 'tool_use' && call.input).toMatchObject({ city: 'Oslo' });
    expect(['c', 'f']).toContain(call?.type === 'tool_use' ? call.input.unit : undefined);
  });

  it('on auto calls every named tool, or one with disable_parallel_tool_use', async () => {
    const both = await reply('Use get_weather and get_time for Rome', {});
    expect(both.content.filter((block) => block.type === 'tool_use')).toHaveLength(2);
    const one = await reply('Use get_weather and get_time for Rome', { tool_choice: { type: 'auto', disable_parallel_tool_use: true } });
    expect(one.content.filter((block) => block.type === 'tool_use')).toHaveLength(1);
  });

  it('on auto needs the whole name: a word that merely contains it does not count', async () => {
    const search = { name: 'search', input_schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } };
    const body = (text: string) => ask(text, { tools: [search] });
    expect(asMessage(await send(sim.upstreams.messages, 'messages', body('I love research'))).stop_reason).toBe('end_turn');
    expect(asMessage(await send(sim.upstreams.messages, 'messages', body('Please search for otters'))).stop_reason).toBe('tool_use');
  });

  it('answers with text on auto when no tool is named, and on none', async () => {
    expect((await reply('Tell me a joke', {})).stop_reason).toBe('end_turn');
    expect((await reply('Use get_weather for Oslo', { tool_choice: { type: 'none' } })).stop_reason).toBe('end_turn');
  });

  it('answers a tool_result with text that refers to the result', async () => {
    const first = await reply('Use get_weather for Oslo', {});
    const call = first.content.find((block) => block.type === 'tool_use');
    if (call?.type !== 'tool_use') throw new Error('no tool call');
    const body = ask('x', {
      tools: [weather, clock],
      messages: [
        { role: 'user', content: 'Use get_weather for Oslo' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '4 degrees and light snow' }] },
      ],
    });
    const message = asMessage(await send(sim.upstreams.messages, 'messages', body));
    expect(message.stop_reason).toBe('end_turn');
    expect(textOf(message)).toContain('get_weather');
    expect(textOf(message)).toContain('4 degrees and light snow');
  });

  it('answers a forced free-form object tool with an answer key, a no-argument tool with {}', async () => {
    const anyObject = { name: 'json_out', input_schema: { type: 'object' } };
    const noArgs = { name: 'ping', input_schema: { type: 'object', properties: {} } };
    const free = asMessage(await send(sim.upstreams.messages, 'messages', ask('Give me JSON about owls', { tools: [anyObject], tool_choice: { type: 'tool', name: 'json_out' } })));
    const block = free.content[0];
    expect(block?.type === 'tool_use' && String(block.input.answer)).toContain('Give me JSON about owls');
    const none = asMessage(await send(sim.upstreams.messages, 'messages', ask('x', { tools: [noArgs], tool_choice: { type: 'tool', name: 'ping' } })));
    expect(none.content[0]?.type === 'tool_use' && none.content[0].input).toEqual({});
  });

  it('continues a { prefill as the rest of a JSON object', async () => {
    const body = ask('x', { messages: [{ role: 'user', content: 'Describe owls as JSON' }, { role: 'assistant', content: '{' }] });
    const message = asMessage(await send(sim.upstreams.messages, 'messages', body));
    const value = JSON.parse(`{${textOf(message)}`) as { answer: string };
    expect(value.answer).toContain('Describe owls as JSON');
  });

  it('cuts a tool call at max_tokens: stop_reason max_tokens, input {} and partial JSON in the stream', async () => {
    const body = ask('Weather in Reykjavik', { tools: [weather], tool_choice: { type: 'tool', name: 'get_weather' }, max_tokens: 3 });
    const message = asMessage(await send(sim.upstreams.messages, 'messages', body));
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(3);
    expect(message.content[0]?.type === 'tool_use' && message.content[0].input).toEqual({});
    const full = asMessage(await send(sim.upstreams.messages, 'messages', { ...body, max_tokens: 400 }));
    const fullJson = JSON.stringify(full.content[0]?.type === 'tool_use' ? full.content[0].input : null);
    const events = messagesEvents((await send(sim.upstreams.messages, 'messages', { ...body, stream: true })).text);
    const partial = events.map((event) => (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta' ? event.delta.partial_json : '')).join('');
    expect(partial.length).toBeGreaterThan(0);
    expect(fullJson.startsWith(partial)).toBe(true);
    expect(partial).not.toBe(fullJson);
  });

  it('400 when tool_choice names a tool that is not defined', async () => {
    const answer = await send(sim.upstreams.messages, 'messages', ask('x', { tools: [weather], tool_choice: { type: 'tool', name: 'missing' } }));
    expect(answer.status).toBe(400);
  });
});

const chatTools = [
  { type: 'function', function: { name: 'get_weather', parameters: weather.input_schema } },
  { type: 'function', function: { name: 'get_time', parameters: clock.input_schema } },
];

describe('chat face: tools', () => {
  const sim = createSimulator();

  it('answers required with tool_calls, content null and finish_reason tool_calls', async () => {
    const completion = asCompletion(await send(sim.upstreams.chat, 'chat.completions', chat('Hello', { tools: chatTools, tool_choice: 'required' })));
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const call = choice?.message.tool_calls?.[0];
    expect(call?.id).toMatch(/^call_/);
    expect(call?.function.name).toBe('get_weather');
    expect(JSON.parse(call?.function.arguments ?? '')).toHaveProperty('city');
  });

  it('forces a named function', async () => {
    const body = chat('Hello', { tools: chatTools, tool_choice: { type: 'function', function: { name: 'get_time' } } });
    const completion = asCompletion(await send(sim.upstreams.chat, 'chat.completions', body));
    expect(completion.choices[0]?.message.tool_calls?.map((call) => call.function.name)).toEqual(['get_time']);
  });

  it('streams tool calls: header fragment with id, type and name, then argument pieces', async () => {
    const body = chat('Use get_weather for Oslo and get_time too', { tools: chatTools, stream: true });
    const chunks = chatChunks((await send(sim.upstreams.chat, 'chat.completions', body)).text);
    expect(chunks[0]?.choices[0]?.delta).toMatchObject({ role: 'assistant', content: null });
    const fragments = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    for (const index of [0, 1]) {
      const mine = fragments.filter((fragment) => fragment.index === index);
      expect(mine[0]).toMatchObject({ type: 'function', function: { arguments: '' } });
      expect(mine[0]?.id).toMatch(/^call_/);
      expect(() => JSON.parse(mine.map((fragment) => fragment.function?.arguments ?? '').join(''))).not.toThrow();
    }
    expect(chunks[chunks.length - 1]?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('answers a role tool message with text about the result', async () => {
    const body = chat('x', {
      tools: chatTools,
      messages: [
        { role: 'user', content: 'Use get_time for Tokyo' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{"zone":"Tokyo"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'It is 9 pm in Tokyo' },
      ],
    });
    const completion = asCompletion(await send(sim.upstreams.chat, 'chat.completions', body));
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.choices[0]?.message.content).toContain('get_time');
    expect(completion.choices[0]?.message.content).toContain('It is 9 pm in Tokyo');
  });
});
