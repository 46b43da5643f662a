import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DEFAULT_REQUEST_BOUNDS } from '../../../src/bounds/request-bounds-options.js';
import {
  chatCompletionRequestSchema,
  messagesRequestSchema,
  responsesRequestSchema,
  safeParseRequest,
} from '../../../src/schemas/index.js';
import { elapsedMs } from '../../helpers/elapsed-ms.js';

const { maxMessages, maxContentParts, maxTools } = DEFAULT_REQUEST_BOUNDS;
/** Generous for a loaded machine: refusing any of these bodies took most of a second before. */
const BUDGET_MS = 250;

const times = <T>(count: number, item: () => T): T[] => Array.from({ length: count }, item);
const hi = [{ role: 'user', content: 'hi' }];

/** The fastest of three refusals in CPU time of this thread (the first also pays for compiling), and the message. */
function refuse(schema: z.ZodType, body: unknown): { ms: number; message: string } {
  let ms = Number.POSITIVE_INFINITY;
  let message = '';
  for (let run = 0; run < 3; run++) {
    let result: ReturnType<typeof safeParseRequest> | undefined;
    ms = Math.min(ms, elapsedMs(() => (result = safeParseRequest(schema, body))));
    if (!result) throw new Error('not parsed');
    if (result.ok) throw new Error('expected the body to be refused');
    message = result.error.message;
  }
  return { ms, message };
}

type Case = [name: string, body: unknown, first: string];

const chatCases: Case[] = [
  ['messages that are numbers', { model: 'm', messages: times(maxMessages, () => 1) }, 'messages.0: expected object, received number'],
  ['messages with a number as content', { model: 'm', messages: times(maxMessages, () => ({ role: 'user', content: 5 })) }, 'messages.0.content: expected string | array, received number'],
  ['parts that are numbers', { model: 'm', messages: [{ role: 'user', content: times(maxContentParts, () => 1) }] }, 'messages.0.content.0: expected object, received number'],
  ['text parts with a number as text', { model: 'm', messages: [{ role: 'user', content: times(maxContentParts, () => ({ type: 'text', text: 5 })) }] }, 'messages.0.content.0.text: expected string, received number'],
  ['parts of an unknown type', { model: 'm', messages: [{ role: 'user', content: times(maxContentParts, () => ({ type: 'x' })) }] }, 'messages.0.content.0.type: expected one of "text" | "image_url" | "input_audio" | "file"'],
  ['tools without a name', { model: 'm', messages: hi, tools: times(maxTools, () => ({ type: 'function', function: { name: 5 } })) }, 'tools.0.function.name: expected string, received number'],
  ['a million stop sequences that are numbers', { model: 'm', messages: hi, stop: times(1_000_000, () => 1) }, 'stop.0: expected string, received number'],
];

const messagesCases: Case[] = [
  ['messages that are numbers', { model: 'm', max_tokens: 1, messages: times(maxMessages, () => 1) }, 'messages.0: expected object, received number'],
  ['messages of an unknown role', { model: 'm', max_tokens: 1, messages: times(maxMessages, () => ({ role: 'x', content: 'a' })) }, 'messages.0.role: expected one of "user" | "assistant" | "system"'],
  ['blocks that are numbers', { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: times(maxContentParts, () => 1) }] }, 'messages.0.content.0: expected object, received number'],
  ['text blocks with a number as text', { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: times(maxContentParts, () => ({ type: 'text', text: 5 })) }] }, 'messages.0.content.0.text: expected string, received number'],
  ['blocks with a number as type', { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: times(maxContentParts, () => ({ type: 5 })) }] }, 'messages.0.content.0.type: expected string, received number'],
  [
    'messages of five bad blocks each',
    { model: 'm', max_tokens: 1, messages: times(maxMessages, () => ({ role: 'user', content: times(5, () => ({ type: 'text', text: 5 })) })) },
    'messages.0.content.0.text: expected string, received number',
  ],
  [
    'a tool result of bad blocks',
    { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: times(maxContentParts - 1, () => ({ type: 'text', text: 5 })) }] }] },
    'messages.0.content.0.content.0.text: expected string, received number',
  ],
  ['tools without a name', { model: 'm', max_tokens: 1, messages: hi, tools: times(maxTools, () => ({ name: 5, input_schema: { type: 'object' } })) }, 'tools.0.name: expected string, received number'],
];

const responsesCases: Case[] = [
  ['items that are numbers', { model: 'm', input: times(maxMessages, () => 1) }, 'input.0: expected object, received number'],
  ['messages of an unknown role', { model: 'm', input: times(maxMessages, () => ({ role: 'x', content: 'a' })) }, 'input.0.role: expected one of "user" | "system" | "developer" | "assistant"'],
  ['messages with a number as content', { model: 'm', input: times(maxMessages, () => ({ role: 'user', content: 5 })) }, 'input.0.content: expected string | array, received number'],
  ['text parts with a number as text', { model: 'm', input: [{ role: 'user', content: times(maxContentParts, () => ({ type: 'input_text', text: 5 })) }] }, 'input.0.content.0.text: expected string, received number'],
  ['tools without a name', { model: 'm', input: 'hi', tools: times(maxTools, () => ({ type: 'function', name: 5 })) }, 'tools.0.name: expected string, received number'],
  ['a million includes that are numbers', { model: 'm', include: times(1_000_000, () => 1) }, 'include.0: expected string, received number'],
];

describe.each([
  ['chat', chatCompletionRequestSchema, chatCases],
  ['messages', messagesRequestSchema, messagesCases],
  ['responses', responsesRequestSchema, responsesCases],
] as const)('refusing the worst invalid %s bodies within the default bounds', (_, schema, cases) => {
  it.each(cases)(`refuses %s within ${BUDGET_MS} ms, naming the first problem`, (_name, body, first) => {
    const { ms, message } = refuse(schema, body);
    expect(message.startsWith(`${first}; `)).toBe(true);
    expect(message).toMatch(/ \(and more\)$/);
    expect(ms).toBeLessThan(BUDGET_MS);
  });
});
