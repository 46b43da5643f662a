/**
 * Property: a random valid chat request survives chat → messages → chat
 * without losing any field both formats have (text, images, tool calls,
 * tool results, system prompt, tools, tool_choice, stop, max tokens,
 * temperature, top_p, user, parallel_tool_calls).
 *
 * Message boundaries may move (the vendor merges consecutive same-role
 * turns, and system prompts are hoisted), so conversations are compared as
 * the ordered list of what they say.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG } from '../../../src/models/catalog.js';
import {
  type ChatCompletionRequest,
  type ChatMessage,
  chatCompletionRequestSchema,
  messagesRequestSchema,
} from '../../../src/schemas/index.js';
import { chatToMessagesRequest } from '../../../src/translate/chat-to-messages-request.js';
import { messagesToChatRequest } from '../../../src/translate/messages-to-chat-request.js';

const MODEL = DEFAULT_CATALOG.get('vendora-sonnet-4-6');

const text = fc.string({ minLength: 1, maxLength: 30 });
const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
const jsonObject = fc.dictionary(name, fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 8 }), fc.constant(null)), { maxKeys: 3 });
const imageUrl = fc.oneof(
  fc.tuple(fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/webp'), fc.base64String({ minLength: 4, maxLength: 40 })).map(
    ([type, data]) => `data:${type};base64,${data}`,
  ),
  name.map((path) => `https://example.com/${path}.png`),
);
const userPart = fc.oneof(
  text.map((t) => ({ type: 'text' as const, text: t })),
  imageUrl.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
);
const userMessage = fc.oneof(
  text.map((t): ChatMessage => ({ role: 'user', content: t })),
  fc.array(userPart, { minLength: 1, maxLength: 3 }).map((parts): ChatMessage => ({ role: 'user', content: parts })),
);
const toolCall = fc.record({ id: name.map((id) => `call_${id}`), fn: name, args: jsonObject });
const toolContent = fc.oneof(fc.string({ maxLength: 20 }), fc.array(text.map((t) => ({ type: 'text' as const, text: t })), { minLength: 1, maxLength: 2 }));

/** One exchange: user message(s), an assistant reply (text and/or tool calls), and a result per call. */
const exchange = fc
  .record({
    users: fc.array(userMessage, { minLength: 1, maxLength: 2 }),
    reply: fc.option(text, { nil: undefined }),
    calls: fc.uniqueArray(toolCall, { maxLength: 3, selector: (call) => call.id }),
    results: fc.array(toolContent, { minLength: 3, maxLength: 3 }),
  })
  .filter((x) => x.reply !== undefined || x.calls.length > 0)
  .map(({ users, reply, calls, results }): ChatMessage[] => {
    const assistant: ChatMessage = { role: 'assistant', content: reply ?? null };
    if (calls.length > 0) {
      assistant.tool_calls = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.fn, arguments: JSON.stringify(call.args) } }));
    }
    const tools = calls.map((call, i): ChatMessage => ({ role: 'tool', tool_call_id: call.id, content: results[i] ?? '' }));
    return [...users, assistant, ...tools];
  });

const tool = fc.record({ name, description: fc.option(text, { nil: undefined }), props: fc.uniqueArray(name, { maxLength: 3 }) }).map((t) => ({
  type: 'function' as const,
  function: {
    name: t.name,
    ...(t.description === undefined ? {} : { description: t.description }),
    parameters: { type: 'object', properties: Object.fromEntries(t.props.map((p) => [p, { type: 'string' }])), required: t.props.slice(0, 1) },
  },
}));

const chatRequest = fc
  .record({
    system: fc.array(fc.record({ role: fc.constantFrom('system' as const, 'developer' as const), content: text }), { maxLength: 2 }),
    exchanges: fc.array(exchange, { minLength: 1, maxLength: 3 }),
    finalUser: fc.option(userMessage, { nil: undefined }),
    tools: fc.uniqueArray(tool, { maxLength: 3, selector: (t) => t.function.name }),
    choice: fc.constantFrom('absent', 'auto', 'none', 'required', 'named'),
    parallel: fc.option(fc.boolean(), { nil: undefined }),
    stop: fc.option(fc.oneof(fc.stringMatching(/^[A-Z]{1,6}$/), fc.array(fc.stringMatching(/^[A-Z]{1,6}$/), { minLength: 1, maxLength: 4 })), { nil: undefined }),
    maxField: fc.constantFrom('max_tokens', 'max_completion_tokens', 'none'),
    max: fc.integer({ min: 1, max: 100_000 }),
    temperature: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    top_p: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    user: fc.option(name, { nil: undefined }),
  })
  .map((r) => {
    const body: Record<string, unknown> = {
      model: 'vendora-sonnet-4-6',
      messages: [...r.system, ...r.exchanges.flat(), ...(r.finalUser ? [r.finalUser] : [])],
    };
    if (r.tools.length > 0) {
      body.tools = r.tools;
      const first = r.tools[0];
      if (r.choice === 'named' && first) body.tool_choice = { type: 'function', function: { name: first.function.name } };
      else if (r.choice !== 'absent' && r.choice !== 'named') body.tool_choice = r.choice;
      if (r.parallel !== undefined) body.parallel_tool_calls = r.parallel;
    }
    if (r.stop !== undefined) body.stop = r.stop;
    if (r.maxField !== 'none') body[r.maxField] = r.max;
    if (r.temperature !== undefined) body.temperature = r.temperature;
    if (r.top_p !== undefined) body.top_p = r.top_p;
    if (r.user !== undefined) body.user = r.user;
    return chatCompletionRequestSchema.parse(body) as ChatCompletionRequest;
  });

type Item = { k: string; [key: string]: unknown };

function texts(content: unknown): string[] {
  if (typeof content === 'string') return content === '' ? [] : [content];
  if (!Array.isArray(content)) return [];
  return (content as { type: string; text?: string }[]).filter((p) => p.type === 'text').map((p) => p.text ?? '');
}

/** What a conversation says, in order, with system text pulled to the front. */
function conversation(messages: readonly ChatMessage[]): { system: string[]; items: Item[] } {
  const system: string[] = [];
  const items: Item[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
      case 'developer':
        system.push(...texts(m.content));
        break;
      case 'user':
        if (typeof m.content === 'string') items.push({ k: 'user', text: m.content });
        else for (const p of m.content) items.push(p.type === 'text' ? { k: 'user', text: p.text } : { k: 'image', url: p.type === 'image_url' ? p.image_url.url : p.type });
        break;
      case 'assistant':
        for (const t of texts(m.content)) items.push({ k: 'assistant', text: t });
        for (const c of m.tool_calls ?? []) {
          if (c.type === 'function') items.push({ k: 'call', id: c.id, name: c.function.name, args: JSON.parse(c.function.arguments) });
        }
        break;
      case 'tool':
        items.push({ k: 'result', id: m.tool_call_id, content: typeof m.content === 'string' ? [m.content] : texts(m.content) });
        break;
      default:
        items.push({ k: m.role });
    }
  }
  return { system, items };
}

/** The shared fields, normalised to what both formats can say. */
function shared(request: ChatCompletionRequest) {
  const hasTools = (request.tools?.length ?? 0) > 0;
  const choice = hasTools ? (request.tool_choice ?? 'auto') : undefined;
  return {
    ...conversation(request.messages),
    tools: request.tools ?? [],
    tool_choice: choice,
    serial: hasTools && choice !== 'none' && request.parallel_tool_calls === false,
    stop: request.stop === undefined || request.stop === null ? [] : typeof request.stop === 'string' ? [request.stop] : request.stop,
    max: request.max_completion_tokens ?? request.max_tokens ?? 'default',
    temperature: request.temperature,
    top_p: request.top_p,
    user: request.user,
  };
}

describe('chat → messages → chat', () => {
  it('keeps every field both formats have', () => {
    fc.assert(
      fc.property(chatRequest, (request) => {
        const there = chatToMessagesRequest(request, { model: MODEL, upstreamModel: 'vendora-sonnet-4-6' });
        expect(there.warnings).toEqual([]);
        const messages = messagesRequestSchema.parse(there.request);
        const back = messagesToChatRequest(messages, { upstreamModel: 'vendora-sonnet-4-6' });
        expect(back.warnings).toEqual([]);
        const returned = chatCompletionRequestSchema.parse(back.request) as ChatCompletionRequest;
        const expected = shared(request);
        if (expected.max === 'default') expected.max = there.request.max_tokens;
        expect(shared(returned)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
