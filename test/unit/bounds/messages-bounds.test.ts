/**
 * Request bounds of a messages-interface body, on `/v1/messages` and
 * `/v1/messages/count_tokens`: each bound passes at its value and fails one
 * past it, naming the field.
 */
import { describe, expect, it } from 'vitest';
import { checkRequestBounds } from 'modelgate';
import { type BoundCase, expectAtAndPast, times } from './bound-cases.js';

const user = (content: unknown) => ({ role: 'user', content });
const text = (value: string) => ({ type: 'text', text: value });
const tool = (name: string) => ({ name, input_schema: { type: 'object', properties: {} } });
const toolUse = (name: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name, input: { path: '/a' } }] });
const toolResult = (content: unknown) => user([{ type: 'tool_result', tool_use_id: 'toolu_1', content }]);
/** Valid for both endpoints: `max_tokens` is the only difference and no bound reads it. */
const body = (fields: Record<string, unknown>) => ({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: [user('Hi.')], ...fields });

const CASES: BoundCase[] = [
  { name: 'model id', bound: 'maxModelLength', limit: 40, body: (n) => body({ model: 'm'.repeat(n) }), path: 'model' },
  { name: 'messages', bound: 'maxMessages', limit: 5, body: (n) => body({ messages: times(n, () => user('Hi.')) }), path: 'messages' },
  { name: 'tools', bound: 'maxTools', limit: 4, body: (n) => body({ tools: times(n, (i) => tool(`t${i}`)) }), path: 'tools' },
  {
    name: 'content blocks, system and tool_result blocks included',
    bound: 'maxContentParts',
    limit: 7,
    body: (n) => ({
      model: 'vendora-sonnet-4-6',
      max_tokens: 64,
      system: [text('You are terse.'), text('Answer in English.')],
      messages: [user([text('Read it.'), text('Please.')]), toolUse('Read'), toolResult(times(n - 6, () => text('line')))],
    }),
    // system 2, messages.0 2, the tool_use block 1, the tool_result block 1, then the tool result's own blocks.
    path: 'messages.2.content.0.content',
  },
  {
    name: 'blocks of a document given as content',
    bound: 'maxContentParts',
    limit: 3,
    body: (n) => body({ messages: [user([{ type: 'document', source: { type: 'content', content: times(n - 1, () => text('page')) } }])] }),
    path: 'messages.0.content.0.source.content',
  },
  { name: 'tool name', bound: 'maxNameLength', limit: 30, body: (n) => body({ tools: [tool('n'.repeat(n))] }), path: 'tools.0.name' },
  {
    name: 'tool_use name',
    bound: 'maxNameLength',
    limit: 30,
    body: (n) => body({ messages: [user('Hi.'), toolUse('n'.repeat(n))] }),
    path: 'messages.1.content.0.name',
  },
  { name: 'tool_choice name', bound: 'maxNameLength', limit: 30, body: (n) => body({ tool_choice: { type: 'tool', name: 'n'.repeat(n) } }), path: 'tool_choice.name' },
  { name: 'message text', bound: 'maxTextLength', limit: 100, body: (n) => body({ messages: [user('x'.repeat(n))] }), path: 'messages.0.content' },
  { name: 'text block', bound: 'maxTextLength', limit: 100, body: (n) => body({ messages: [user([text('Hi.'), text('x'.repeat(n))])] }), path: 'messages.0.content.1.text' },
  { name: 'system string', bound: 'maxTextLength', limit: 100, body: (n) => body({ system: 'x'.repeat(n) }), path: 'system' },
  { name: 'system block', bound: 'maxTextLength', limit: 100, body: (n) => body({ system: [text('x'.repeat(n))] }), path: 'system.0.text' },
  {
    name: 'tool result text',
    bound: 'maxTextLength',
    limit: 100,
    body: (n) => body({ messages: [user('Hi.'), toolUse('Read'), toolResult('x'.repeat(n))] }),
    path: 'messages.2.content.0.content',
  },
  {
    name: 'tool result text block',
    bound: 'maxTextLength',
    limit: 100,
    body: (n) => body({ messages: [user('Hi.'), toolUse('Read'), toolResult([text('x'.repeat(n))])] }),
    path: 'messages.2.content.0.content.0.text',
  },
];

describe.each(['messages', 'messages.count_tokens'] as const)('%s bounds', (endpoint) => {
  it.each(CASES)('$name: passes at the bound, fails one past it at $path', (item) => {
    expectAtAndPast(endpoint, item);
  });

  it('leaves base64 image and document data alone', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(200) } };
    const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'A'.repeat(200) } };
    expect(checkRequestBounds(endpoint, body({ messages: [user([image, pdf, text('What are these?')])] }), { maxTextLength: 100 })).toBeUndefined();
  });
});
