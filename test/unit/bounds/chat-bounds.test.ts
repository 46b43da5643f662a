/**
 * Request bounds of a chat-completions body: each bound passes at its value
 * and fails one past it, naming the field.
 */
import { describe, expect, it } from 'vitest';
import { checkRequestBounds, DEFAULT_REQUEST_BOUNDS } from 'modelgate';
import { type BoundCase, expectAtAndPast, times } from './bound-cases.js';

const user = (content: unknown) => ({ role: 'user', content });
const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } });
const body = (fields: Record<string, unknown>) => ({ model: 'gpt-5', messages: [user('Hi.')], ...fields });
const toolCallTurn = (name: string, args: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: args } }],
});

const CASES: BoundCase[] = [
  { name: 'model id', bound: 'maxModelLength', limit: 40, body: (n) => body({ model: 'm'.repeat(n) }), path: 'model' },
  { name: 'messages', bound: 'maxMessages', limit: 5, body: (n) => body({ messages: times(n, () => user('Hi.')) }), path: 'messages' },
  { name: 'tools', bound: 'maxTools', limit: 4, body: (n) => body({ tools: times(n, (i) => tool(`t${i}`)) }), path: 'tools' },
  { name: 'legacy functions', bound: 'maxTools', limit: 4, body: (n) => body({ functions: times(n, (i) => ({ name: `f${i}` })) }), path: 'functions' },
  {
    name: 'content parts over all messages (system and tool messages too)',
    bound: 'maxContentParts',
    limit: 6,
    body: (n) =>
      body({
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
          user(times(2, () => ({ type: 'text', text: 'Look:' }))),
          { role: 'tool', tool_call_id: 'call_1', content: times(n - 3, () => ({ type: 'text', text: 'result' })) },
        ],
      }),
    path: 'messages.2.content',
  },
  { name: 'function tool name', bound: 'maxNameLength', limit: 30, body: (n) => body({ tools: [tool('n'.repeat(n))] }), path: 'tools.0.function.name' },
  {
    name: 'tool call name',
    bound: 'maxNameLength',
    limit: 30,
    body: (n) => body({ messages: [user('Hi.'), toolCallTurn('n'.repeat(n), '{}')] }),
    path: 'messages.1.tool_calls.0.function.name',
  },
  {
    name: 'tool_choice function name',
    bound: 'maxNameLength',
    limit: 30,
    body: (n) => body({ tool_choice: { type: 'function', function: { name: 'n'.repeat(n) } } }),
    path: 'tool_choice.function.name',
  },
  { name: 'message text', bound: 'maxTextLength', limit: 100, body: (n) => body({ messages: [user('x'.repeat(n))] }), path: 'messages.0.content' },
  {
    name: 'text part',
    bound: 'maxTextLength',
    limit: 100,
    body: (n) => body({ messages: [user([{ type: 'text', text: 'Hi.' }, { type: 'text', text: 'x'.repeat(n) }])] }),
    path: 'messages.0.content.1.text',
  },
  {
    name: 'tool call arguments',
    bound: 'maxTextLength',
    limit: 100,
    body: (n) => body({ messages: [user('Hi.'), toolCallTurn('f', 'x'.repeat(n))] }),
    path: 'messages.1.tool_calls.0.function.arguments',
  },
  {
    name: 'tool result',
    bound: 'maxTextLength',
    limit: 100,
    body: (n) => body({ messages: [user('Hi.'), toolCallTurn('f', '{}'), { role: 'tool', tool_call_id: 'call_1', content: 'x'.repeat(n) }] }),
    path: 'messages.2.content',
  },
];

describe('chat-completions bounds', () => {
  it.each(CASES)('$name: passes at the bound, fails one past it at $path', (item) => {
    expectAtAndPast('chat.completions', item);
    expectAtAndPast('chat', item);
  });

  it('leaves image data alone: a data URL longer than maxTextLength passes', () => {
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(200)}` } };
    expect(checkRequestBounds('chat', body({ messages: [user([image])] }), { maxTextLength: 100 })).toBeUndefined();
  });

  it('applies the defaults without an option: 10001 messages fail, 10000 pass', () => {
    expect(DEFAULT_REQUEST_BOUNDS.maxMessages).toBe(10_000);
    expect(checkRequestBounds('chat', body({ messages: times(10_000, () => user('Hi.')) }))).toBeUndefined();
    expect(checkRequestBounds('chat', body({ messages: times(10_001, () => user('Hi.')) }))).toMatchObject({
      path: ['messages'],
      bound: 'maxMessages',
      limit: 10_000,
      found: 10_001,
    });
  });

  it('takes the option over the default, in both directions', () => {
    const many = body({ messages: times(10_001, () => user('Hi.')) });
    expect(checkRequestBounds('chat', many, { maxMessages: 20_000 })).toBeUndefined();
    expect(checkRequestBounds('chat', body({ messages: times(3, () => user('Hi.')) }), { maxMessages: 2 })).toMatchObject({ bound: 'maxMessages', limit: 2 });
  });

  it('an option field left undefined keeps its default', () => {
    expect(checkRequestBounds('chat', body({ model: 'm'.repeat(257) }), { maxModelLength: undefined })).toMatchObject({ bound: 'maxModelLength', limit: 256 });
  });

  it('reports the first violation in body order', () => {
    const both = { model: 'm'.repeat(300), messages: times(3, () => user('Hi.')) };
    expect(checkRequestBounds('chat', both, { maxMessages: 2 })).toMatchObject({ bound: 'maxModelLength' });
  });

  it('reads caller keys such as __proto__ and constructor as plain fields', () => {
    const parsed = JSON.parse('{"model":"m","messages":[],"__proto__":{"text":"xxxxxxxxxx"},"constructor":{"name":"yyyyyyyyyy"}}');
    expect(checkRequestBounds('chat', parsed, { maxTextLength: 5, maxNameLength: 5 })).toBeUndefined();
  });
});
