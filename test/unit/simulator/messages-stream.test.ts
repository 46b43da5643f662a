import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/simulator/index.js';
import type { MessagesStreamEvent } from '../../../src/schemas/index.js';
import { ask, asMessage, messagesEvents, send, textOf } from './support/simulator-calls.js';

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } }, required: ['city', 'days'] },
};

function types(events: readonly MessagesStreamEvent[]): string[] {
  return events.map((event) => event.type);
}

async function stream(body: Record<string, unknown>) {
  const sim = createSimulator();
  const answer = await send(sim.upstreams.messages, 'messages', { ...body, stream: true });
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
  expect(answer.headers['request-id']).toMatch(/^req_/);
  const message = asMessage(await send(createSimulator().upstreams.messages, 'messages', body));
  return { events: messagesEvents(answer.text), message };
}

describe('messages face: streams', () => {
  it('sends the full event sequence with a ping after the first block start', async () => {
    const { events } = await stream(ask('Describe the ocean'));
    const sequence = types(events);
    expect(sequence.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(sequence.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(sequence.filter((type) => type === 'content_block_delta').length).toBeGreaterThan(5);
    const start = events[0];
    if (start?.type !== 'message_start') throw new Error('no message_start');
    expect(start.message.content).toEqual([]);
    expect(start.message.stop_reason).toBeNull();
    expect(start.message.usage.input_tokens).toBeGreaterThan(0);
  });

  it('streams the same text and usage as the non-streamed reply, a few tokens per delta', async () => {
    const { events, message } = await stream(ask('Describe the desert'));
    const text = events.map((event) => (event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? event.delta.text : '')).join('');
    expect(text).toBe(textOf(message));
    const delta = events.find((event) => event.type === 'message_delta');
    if (delta?.type !== 'message_delta') throw new Error('no message_delta');
    expect(delta.delta.stop_reason).toBe('end_turn');
    expect(delta.usage.output_tokens).toBe(message.usage.output_tokens);
  });

  it('streams tool input as partial JSON that joins to the tool input', async () => {
    const body = ask('What is the weather in Lisbon?', { tools: [weatherTool], tool_choice: { type: 'tool', name: 'get_weather' } });
    const { events, message } = await stream(body);
    const toolStart = events.find((event) => event.type === 'content_block_start' && event.content_block.type === 'tool_use');
    if (toolStart?.type !== 'content_block_start') throw new Error('no tool block');
    expect(toolStart.content_block).toMatchObject({ type: 'tool_use', name: 'get_weather', input: {} });
    const fragments = events.flatMap((event) =>
      event.type === 'content_block_delta' && event.delta.type === 'input_json_delta' ? [event.delta.partial_json] : [],
    );
    expect(fragments.length).toBeGreaterThan(2);
    const tool = message.content.find((block) => block.type === 'tool_use');
    expect(JSON.parse(fragments.join(''))).toEqual(tool?.type === 'tool_use' ? tool.input : undefined);
    const delta = events.find((event) => event.type === 'message_delta');
    expect(delta?.type === 'message_delta' && delta.delta.stop_reason).toBe('tool_use');
  });

  it('streams thinking deltas and one signature delta before the text block', async () => {
    const body = ask('Plan a three day trip to the mountains with a tight budget and two children.', {
      max_tokens: 3000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
    const { events, message } = await stream(body);
    const starts = events.flatMap((event) => (event.type === 'content_block_start' ? [event.content_block.type] : []));
    expect(starts).toEqual(['thinking', 'text']);
    const thinkingDeltas = events.filter((event) => event.type === 'content_block_delta' && event.index === 0);
    const kinds = thinkingDeltas.map((event) => (event.type === 'content_block_delta' ? event.delta.type : ''));
    expect(kinds.filter((kind) => kind === 'signature_delta')).toHaveLength(1);
    expect(kinds[kinds.length - 1]).toBe('signature_delta');
    const thinking = thinkingDeltas.map((event) => (event.type === 'content_block_delta' && event.delta.type === 'thinking_delta' ? event.delta.thinking : '')).join('');
    const block = message.content[0];
    expect(block?.type === 'thinking' ? block.thinking : undefined).toBe(thinking);
  });

  it('ends with message_delta carrying max_tokens when the limit cuts the reply', async () => {
    const { events } = await stream(ask('Describe the forest', { max_tokens: 5 }));
    const delta = events.find((event) => event.type === 'message_delta');
    if (delta?.type !== 'message_delta') throw new Error('no message_delta');
    expect(delta.delta.stop_reason).toBe('max_tokens');
    expect(delta.usage.output_tokens).toBe(5);
  });
});
