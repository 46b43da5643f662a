/**
 * Request bounds of a Responses body, on `/v1/responses` and
 * `/v1/responses/input_tokens`: each bound passes at its value and fails one
 * past it, naming the field; items sent by reference are counted.
 */
import { describe, expect, it } from 'vitest';
import { checkRequestBounds, describeBoundViolation } from 'modelgate';
import { type BoundCase, expectAtAndPast, times } from './bound-cases.js';

const message = (content: unknown) => ({ type: 'message', role: 'user', content });
const inputText = (text: string) => ({ type: 'input_text', text });
const functionCall = (name: string, args: string) => ({ type: 'function_call', call_id: 'call_1', name, arguments: args });
const body = (fields: Record<string, unknown>) => ({ model: 'gpt-5', input: 'Hi.', ...fields });
const reference = (id: string) => ({ type: 'item_reference', id });

const CASES: BoundCase[] = [
  { name: 'model id', bound: 'maxModelLength', limit: 40, body: (n) => body({ model: 'm'.repeat(n) }), path: 'model' },
  { name: 'input items', bound: 'maxMessages', limit: 5, body: (n) => body({ input: times(n, () => message('Hi.')) }), path: 'input' },
  { name: 'input as text', bound: 'maxTextLength', limit: 100, body: (n) => body({ input: 'x'.repeat(n) }), path: 'input' },
  { name: 'instructions', bound: 'maxTextLength', limit: 100, body: (n) => body({ instructions: 'x'.repeat(n) }), path: 'instructions' },
  { name: 'tools', bound: 'maxTools', limit: 4, body: (n) => body({ tools: times(n, (i) => ({ type: 'function', name: `t${i}` })) }), path: 'tools' },
  {
    name: 'content parts, function outputs included',
    bound: 'maxContentParts',
    limit: 5,
    body: (n) =>
      body({
        input: [
          message([inputText('a'), inputText('b')]),
          functionCall('f', '{}'),
          { type: 'function_call_output', call_id: 'call_1', output: times(n - 2, () => inputText('r')) },
        ],
      }),
    path: 'input.2.output',
  },
  { name: 'function tool name', bound: 'maxNameLength', limit: 30, body: (n) => body({ tools: [{ type: 'function', name: 'n'.repeat(n) }] }), path: 'tools.0.name' },
  {
    name: 'tool name inside a namespace tool',
    bound: 'maxNameLength',
    limit: 30,
    body: (n) => body({ tools: [{ type: 'namespace', name: 'agents', tools: [{ type: 'function', name: 'n'.repeat(n) }] }] }),
    path: 'tools.0.tools.0.name',
  },
  { name: 'function_call name', bound: 'maxNameLength', limit: 30, body: (n) => body({ input: [functionCall('n'.repeat(n), '{}')] }), path: 'input.0.name' },
  { name: 'function_call arguments', bound: 'maxTextLength', limit: 100, body: (n) => body({ input: [functionCall('f', 'x'.repeat(n))] }), path: 'input.0.arguments' },
  {
    name: 'function_call_output output',
    bound: 'maxTextLength',
    limit: 100,
    body: (n) => body({ input: [functionCall('f', '{}'), { type: 'function_call_output', call_id: 'call_1', output: 'x'.repeat(n) }] }),
    path: 'input.1.output',
  },
  {
    name: 'custom tool call input',
    bound: 'maxTextLength',
    limit: 100,
    body: (n) => body({ input: [{ type: 'custom_tool_call', call_id: 'c', name: 'apply_patch', input: 'x'.repeat(n) }] }),
    path: 'input.0.input',
  },
  { name: 'input_text part', bound: 'maxTextLength', limit: 100, body: (n) => body({ input: [message([inputText('x'.repeat(n))])] }), path: 'input.0.content.0.text' },
  {
    name: 'item references',
    bound: 'maxItemReferences',
    limit: 3,
    body: (n) => body({ input: [message('Hi.'), ...times(n, (i) => reference(`msg_${i}`))] }),
    path: 'input',
  },
];

describe.each(['responses.create', 'responses.input_tokens'] as const)('%s bounds', (endpoint) => {
  it.each(CASES)('$name: passes at the bound, fails one past it at $path', (item) => {
    expectAtAndPast(endpoint, item);
  });

  it('counts reasoning sent by id without encrypted_content as a reference, and not with it', () => {
    const byId = { type: 'reasoning', id: 'rs_1', summary: [] };
    const sealed = { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'opaque' };
    expect(checkRequestBounds(endpoint, body({ input: [reference('a'), byId] }), { maxItemReferences: 1 })).toMatchObject({
      bound: 'maxItemReferences',
      found: 2,
    });
    expect(checkRequestBounds(endpoint, body({ input: [reference('a'), sealed] }), { maxItemReferences: 1 })).toBeUndefined();
  });

  it('leaves image and file data alone', () => {
    const parts = [
      { type: 'input_image', image_url: `data:image/png;base64,${'A'.repeat(200)}` },
      { type: 'input_file', filename: 'a.pdf', file_data: `data:application/pdf;base64,${'A'.repeat(200)}` },
    ];
    expect(checkRequestBounds(endpoint, body({ input: [message(parts)] }), { maxTextLength: 100 })).toBeUndefined();
  });
});

describe('Responses ids of stored items', () => {
  it('bounds an item id and previous_response_id like a name: they are store keys', () => {
    const long = 'i'.repeat(257);
    expect(checkRequestBounds('responses', { model: 'gpt-5', input: [{ type: 'item_reference', id: 'i'.repeat(256) }] })).toBeUndefined();
    const item = checkRequestBounds('responses', { model: 'gpt-5', input: [{ type: 'item_reference', id: long }] });
    expect(item).toEqual({ path: ['input', 0, 'id'], bound: 'maxNameLength', limit: 256, found: 257 });
    expect(describeBoundViolation(item!)).toMatch(/Send an id this gateway gave out\.$/);
    expect(checkRequestBounds('responses', { model: 'gpt-5', input: 'hi', previous_response_id: long })).toMatchObject({ path: ['previous_response_id'], bound: 'maxNameLength' });
  });
});
