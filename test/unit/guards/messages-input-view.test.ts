/**
 * The guard view of messages-interface requests: system, turns, documents,
 * search results and tool results, and replacements written back there.
 */
import { describe, expect, it } from 'vitest';
import { applyMessagesReplacements, viewOfMessages } from '../../../src/guards/messages-input-view.js';
import { type MessagesRequest, messagesRequestSchema } from '../../../src/schemas/messages-request.js';

const body: MessagesRequest = messagesRequestSchema.parse({
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  system: [{ type: 'text', text: 'sys block' }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'user text' },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc data' } },
        { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'doc content block' }] } },
        { type: 'document', source: { type: 'content', content: 'doc content string' } },
        { type: 'search_result', source: 'https://example.com', title: 'T', content: [{ type: 'text', text: 'search text' }] },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'secret thoughts', signature: 'sig' },
        { type: 'text', text: 'asst text' },
        { type: 'tool_use', id: 'tu_1', name: 'f', input: { q: 'x' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'tu_1', content: 'result string' },
        { type: 'tool_result', tool_use_id: 'tu_2', content: [{ type: 'text', text: 'result block' }, { type: 'search_result', source: 's', title: 't', content: [{ type: 'text', text: 'result search' }] }] },
        { type: 'text', text: 'after results' },
      ],
    },
    { role: 'system', content: 'legacy system turn' },
    { role: 'user', content: 'user string' },
  ],
  tools: [
    { name: 'lookup', description: 'Looks up', input_schema: { type: 'object' } },
    { type: 'web_search_20250305', name: 'web_search' },
  ],
});

describe('viewOfMessages', () => {
  const { view } = viewOfMessages(body, { principal: 'p' });

  it('puts system blocks and system turns in system', () => {
    expect(view.system).toEqual([
      { id: 'system.0.text', text: 'sys block' },
      { id: 'messages.3.content', text: 'legacy system turn' },
    ]);
  });

  it('keeps text, plain-text documents and search results of each turn; not thinking', () => {
    expect(view.messages).toEqual([
      {
        role: 'user',
        parts: [
          { id: 'messages.0.content.0.text', text: 'user text' },
          { id: 'messages.0.content.2.source.data', text: 'doc data' },
          { id: 'messages.0.content.3.source.content.0.text', text: 'doc content block' },
          { id: 'messages.0.content.4.source.content', text: 'doc content string' },
          { id: 'messages.0.content.5.content.0.text', text: 'search text' },
        ],
      },
      { role: 'assistant', parts: [{ id: 'messages.1.content.1.text', text: 'asst text' }] },
      { role: 'user', parts: [{ id: 'messages.2.content.2.text', text: 'after results' }] },
      { role: 'user', parts: [{ id: 'messages.4.content', text: 'user string' }] },
    ]);
  });

  it('reports tool results with their call ids', () => {
    expect(view.toolResults).toEqual([
      { callId: 'tu_1', parts: [{ id: 'messages.2.content.0.content', text: 'result string' }] },
      {
        callId: 'tu_2',
        parts: [
          { id: 'messages.2.content.1.content.0.text', text: 'result block' },
          { id: 'messages.2.content.1.content.1.content.0.text', text: 'result search' },
        ],
      },
    ]);
  });

  it('lists custom tools with their schema and server tools by name', () => {
    expect(view.tools).toEqual([{ name: 'lookup', description: 'Looks up', parameters: { type: 'object' } }, { name: 'web_search' }]);
  });

  it('reads a string system prompt as one part', () => {
    const plain = messagesRequestSchema.parse({ model: 'm', max_tokens: 1, system: 'sys', messages: [{ role: 'user', content: 'hi' }] });
    expect(viewOfMessages(plain).view.system).toEqual([{ id: 'system', text: 'sys' }]);
  });
});

describe('applyMessagesReplacements', () => {
  it('rewrites every text location and leaves the original body as it was', () => {
    const before = structuredClone(body);
    const { view } = viewOfMessages(body);
    const all = [...view.system, ...view.messages.flatMap((m) => m.parts), ...view.toolResults.flatMap((r) => r.parts)];
    const next = applyMessagesReplacements(body, all.map((part) => ({ part: part.id, start: 0, end: part.text.length, text: part.text.toUpperCase() })));
    expect(body).toEqual(before);
    expect(next.system).toEqual([{ type: 'text', text: 'SYS BLOCK' }]);
    const [first, second, third, fourth, fifth] = next.messages as unknown as { content: unknown }[];
    expect(first!.content).toEqual([
      { type: 'text', text: 'USER TEXT' },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'DOC DATA' } },
      { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'DOC CONTENT BLOCK' }] } },
      { type: 'document', source: { type: 'content', content: 'DOC CONTENT STRING' } },
      { type: 'search_result', source: 'https://example.com', title: 'T', content: [{ type: 'text', text: 'SEARCH TEXT' }] },
    ]);
    expect(second!.content).toEqual([
      { type: 'thinking', thinking: 'secret thoughts', signature: 'sig' },
      { type: 'text', text: 'ASST TEXT' },
      { type: 'tool_use', id: 'tu_1', name: 'f', input: { q: 'x' } },
    ]);
    expect(third!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'tu_1', content: 'RESULT STRING' },
      { type: 'tool_result', tool_use_id: 'tu_2', content: [{ type: 'text', text: 'RESULT BLOCK' }, { type: 'search_result', source: 's', title: 't', content: [{ type: 'text', text: 'RESULT SEARCH' }] }] },
      { type: 'text', text: 'AFTER RESULTS' },
    ]);
    expect(fourth!.content).toBe('LEGACY SYSTEM TURN');
    expect(fifth!.content).toBe('USER STRING');
    expect(messagesRequestSchema.safeParse(next).success).toBe(true);
  });

  it('refuses to write into a thinking block', () => {
    expect(() => applyMessagesReplacements(body, [{ part: 'messages.1.content.0.thinking', start: 0, end: 1, text: 'x' }])).toThrow(
      /not a text part/,
    );
  });
});
